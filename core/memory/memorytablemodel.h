#pragma once

#include "core/memory/memoryrecord.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>

#include <optional>
#include <vector>

namespace hako::memory {

/// The memory table: one row per memory, fed whole snapshots (loaded off the GUI thread) with
/// setSnapshot(). Display text in Qt::DisplayRole, sortable raw values in SortRole.
/// GUI thread only.
class MemoryTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Id,
        Kind,
        State,
        Importance,
        Created,
        LastAccessed,
        AccessCount,
        Agent,
        Text,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, IdRole };

    explicit MemoryTableModel(QObject* parent = nullptr);

    void setSnapshot(std::vector<MemoryRecord> records);
    const std::vector<MemoryRecord>& records() const { return m_records; }
    const MemoryRecord* recordAt(int row) const;
    /// The row of memory `id`, or -1.
    int rowOf(int64_t id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::vector<MemoryRecord> m_records;
};

/// Filters the memory table by kind, state, importance, creation dates, access count and a
/// case-insensitive full-text search; sorts by the raw values. GUI thread only.
class MemoryFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit MemoryFilterProxy(QObject* parent = nullptr);

    void setKind(std::optional<memory::Kind> kind);
    void setState(std::optional<memory::State> state);
    void setMinImportance(int importance);
    void setCreatedRange(Millis from, Millis to); ///< 0 = open end
    void setMinAccessCount(int64_t count);
    /// Every word must occur in the text (case-insensitive).
    void setSearchText(const QString& text);
    /// Only these memories (a semantic search's hits); nullopt shows all.
    void setIdFilter(std::optional<QSet<int64_t>> ids);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::optional<memory::Kind> m_kind;
    std::optional<memory::State> m_state;
    int m_minImportance = 1;
    Millis m_from = 0;
    Millis m_to = 0;
    int64_t m_minAccess = 0;
    QStringList m_words;
    std::optional<QSet<int64_t>> m_ids;
};

} // namespace hako::memory
