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
    default:
        return {};
    }
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
            return e.output.section(QLatin1Char('\n'), 0, 0);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Output)
        return e.output;
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
