#pragma once

#include "core/docs/documentsession.h"

#include <QAbstractListModel>

namespace hako::docs {

/// The hits of the last search/show/rank as a list: DisplayRole `label: snippet` (the label as
/// the command printed it: `line12`, `sentence34 (line 3)`), plus roles
/// for the snippet, its highlight ranges and the original offsets. Fed whole snapshots with
/// setHits(). GUI thread.
class HitListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        LineRole = Qt::UserRole + 1, ///< 1-based line (qlonglong)
        SnippetRole,                 ///< snippet text without markers
        MarksRole,                   ///< QVariantList of QPoint(start, end) in the snippet
        OrigStartRole,               ///< qlonglong offset of the first match in the document
        OrigEndRole,
        UnitRole,
        PageRole,  ///< 1-based page (qlonglong) for documents from PDFs, else 0
        LabelRole, ///< `line12`, `sentence34 (line 3)`, …
    };

    using QAbstractListModel::QAbstractListModel;

    void setHits(const QList<DocHit>& hits);
    const QList<DocHit>& hits() const { return m_hits; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

private:
    QList<DocHit> m_hits;
};

/// The session transcript as a table: command, cost, total, output. Append-only. The output
/// is shown as text: the `**` bold markers of search output are removed and their ranges given
/// by BoldRole, for a delegate to render.
class TranscriptModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Input, Cost, Total, Output, ColumnCount };
    enum Role {
        BoldRole = Qt::UserRole + 1, ///< QVariantList of QPoint(start, end) in DisplayRole
    };
    using QAbstractTableModel::QAbstractTableModel;

    /// `text` without its `**…**` markers, and the ranges they enclosed (in the result).
    static QString stripBold(QStringView text, QList<std::pair<qsizetype, qsizetype>>* bold);

    void append(const TranscriptEntry& entry);
    void clear();
    const QList<TranscriptEntry>& entries() const { return m_entries; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<TranscriptEntry> m_entries;
};

} // namespace hako::docs
