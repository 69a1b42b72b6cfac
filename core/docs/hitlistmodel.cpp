#include "core/docs/hitlistmodel.h"

#include <QPoint>

namespace hako::docs {

void HitListModel::setHits(const QList<DocHit>& hits)
{
    beginResetModel();
    m_hits = hits;
    endResetModel();
}

int HitListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_hits.size());
}

QVariant HitListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_hits.size())
        return {};
    const DocHit& h = m_hits[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        if (!h.label.isEmpty())
            return QStringLiteral("%1: %2").arg(h.label, h.snippet);
        if (h.page > 0)
            return QStringLiteral("line%1 (p.%2): %3").arg(h.line).arg(h.page).arg(h.snippet);
        return QStringLiteral("line%1: %2").arg(h.line).arg(h.snippet);
    case LineRole:
        return qlonglong(h.line);
    case SnippetRole:
        return h.snippet;
    case MarksRole: {
        QVariantList marks;
        for (const auto& [s, e] : h.snippetMarks)
            marks.append(QPoint(int(s), int(e)));
        return marks;
    }
    case OrigStartRole:
        return qlonglong(h.origStart);
    case OrigEndRole:
        return qlonglong(h.origEnd);
    case UnitRole:
        return qlonglong(h.unit);
    case PageRole:
        return qlonglong(h.page);
    case LabelRole:
        return h.label;
    default:
        return {};
    }
}

QString TranscriptModel::stripBold(QStringView text, QList<std::pair<qsizetype, qsizetype>>* bold)
{
    QString out;
    out.reserve(text.size());
    qsizetype pos = 0;
    while (pos < text.size()) {
        const qsizetype open = text.indexOf(QLatin1String("**"), pos);
        const qsizetype close = open < 0 ? -1 : text.indexOf(QLatin1String("**"), open + 2);
        // An unpaired marker is text, as the user typed it.
        if (close < 0) {
            out += text.sliced(pos);
            break;
        }
        out += text.sliced(pos, open - pos);
        const qsizetype start = out.size();
        out += text.sliced(open + 2, close - open - 2);
        if (bold && out.size() > start)
            bold->append({start, out.size()});
        pos = close + 2;
    }
    return out;
}

void TranscriptModel::append(const TranscriptEntry& entry)
{
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries.append(entry);
    endInsertRows();
}

void TranscriptModel::clear()
{
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

int TranscriptModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int TranscriptModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TranscriptModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const TranscriptEntry& e = m_entries[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Input:
            return e.input;
        case Cost:
            return e.cost;
        case Total:
            return e.totalCost;
        case Output:
            return stripBold(e.output.section(QLatin1Char('\n'), 0, 0), nullptr);
        default:
            return {};
        }
    }
    if (role == BoldRole && index.column() == Output) {
        QList<std::pair<qsizetype, qsizetype>> ranges;
        stripBold(e.output.section(QLatin1Char('\n'), 0, 0), &ranges);
        QVariantList marks;
        for (const auto& [s, end] : ranges)
            marks.append(QPoint(int(s), int(end)));
        return marks;
    }
    if (role == Qt::ToolTipRole && index.column() == Output)
        return stripBold(e.output, nullptr);
    if (role == Qt::AccessibleTextRole && index.column() == Output)
        return stripBold(e.output, nullptr);
    return {};
}

QVariant TranscriptModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Input:
        return tr("Command");
    case Cost:
        return tr("Cost");
    case Total:
        return tr("Total");
    case Output:
        return tr("Output");
    default:
        return {};
    }
}

} // namespace hako::docs
