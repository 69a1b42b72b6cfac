#include "core/memory/memorytablemodel.h"

namespace hako::memory {

MemoryTableModel::MemoryTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void MemoryTableModel::setSnapshot(std::vector<MemoryRecord> records)
{
    beginResetModel();
    m_records = std::move(records);
    endResetModel();
}

const MemoryRecord* MemoryTableModel::recordAt(int row) const
{
    return row >= 0 && size_t(row) < m_records.size() ? &m_records[size_t(row)] : nullptr;
}

int MemoryTableModel::rowOf(int64_t id) const
{
    // Snapshots are in id order.
    const auto it = std::lower_bound(m_records.begin(), m_records.end(), id,
                                     [](const MemoryRecord& r, int64_t v) { return r.id < v; });
    return it != m_records.end() && it->id == id ? int(it - m_records.begin()) : -1;
}

int MemoryTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int MemoryTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemoryTableModel::data(const QModelIndex& index, int role) const
{
    const MemoryRecord* r = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!r)
        return {};
    if (role == IdRole)
        return qint64(r->id);
    if (role == SortRole) {
        switch (index.column()) {
        case Id:
            return qint64(r->id);
        case Kind:
            return int(r->kind);
        case State:
            return int(r->state);
        case Importance:
            return r->importance;
        case Created:
            return qint64(r->createdAt);
        case LastAccessed:
            return qint64(r->lastAccessedAt);
        case AccessCount:
            return qint64(r->accessCount);
        case Agent:
            return r->agent;
        case Text:
            return r->text;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Id:
            return qint64(r->id);
        case Kind:
            return kindName(r->kind);
        case State:
            return stateName(r->state);
        case Importance:
            return r->importance;
        case Created:
            return formatTime(r->createdAt);
        case LastAccessed:
            return formatTime(r->lastAccessedAt);
        case AccessCount:
            return qint64(r->accessCount);
        case Agent:
            return r->agent;
        case Text:
            return QString(r->text).replace(QLatin1Char('\n'), QLatin1Char(' '));
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Text)
        return r->text;
    if (role == Qt::TextAlignmentRole && index.column() != Text && index.column() != Agent)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant MemoryTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {
        QT_TR_NOOP("Id"),         QT_TR_NOOP("Kind"),    QT_TR_NOOP("State"),
        QT_TR_NOOP("Importance"), QT_TR_NOOP("Created"), QT_TR_NOOP("Accessed"),
        QT_TR_NOOP("Count"),      QT_TR_NOOP("Agent"),   QT_TR_NOOP("Text")};
    static_assert(sizeof(names) / sizeof(names[0]) == ColumnCount);
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

MemoryFilterProxy::MemoryFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(MemoryTableModel::SortRole);
}

void MemoryFilterProxy::setKind(std::optional<memory::Kind> kind)
{
    m_kind = kind;
    invalidateFilter();
}

void MemoryFilterProxy::setState(std::optional<memory::State> state)
{
    m_state = state;
    invalidateFilter();
}

void MemoryFilterProxy::setMinImportance(int importance)
{
    m_minImportance = importance;
    invalidateFilter();
}

void MemoryFilterProxy::setCreatedRange(Millis from, Millis to)
{
    m_from = from;
    m_to = to;
    invalidateFilter();
}

void MemoryFilterProxy::setMinAccessCount(int64_t count)
{
    m_minAccess = count;
    invalidateFilter();
}

void MemoryFilterProxy::setSearchText(const QString& text)
{
    m_words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
}

void MemoryFilterProxy::setIdFilter(std::optional<QSet<int64_t>> ids)
{
    m_ids = std::move(ids);
    invalidateFilter();
}

bool MemoryFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const auto* model = static_cast<const MemoryTableModel*>(sourceModel());
    const MemoryRecord* r = model ? model->recordAt(sourceRow) : nullptr;
    if (!r)
        return false;
    if (m_ids && !m_ids->contains(r->id))
        return false;
    if (m_kind && r->kind != *m_kind)
        return false;
    if (m_state && r->state != *m_state)
        return false;
    if (r->importance < m_minImportance || r->accessCount < m_minAccess)
        return false;
    if ((m_from && r->createdAt < m_from) || (m_to && r->createdAt > m_to))
        return false;
    for (const QString& w : m_words) {
        if (!r->text.contains(w, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

} // namespace hako::memory
