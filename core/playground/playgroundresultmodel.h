#pragma once

#include "core/playground/playgroundrun.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QSet>

#include <vector>

class QTimer;

namespace hako::playground {

/// The results grid of a playground run: one row per input row, one column per variant. A cell
/// shows its reply (streamed in while it runs) or, when each cell runs several times, how many
/// distinct replies came back ("3 distinct of 5"). Fed by attach() (a run's signals) or by
/// reset()/setCell(). While replies stream in, dataChanged() is coalesced (at most one per cell
/// every ~50 ms); a finished cell is announced at once. GUI thread.
class PlaygroundResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        StateRole = Qt::UserRole + 1, ///< CellResult::State of the cell (the worst of repeats)
        ReplyRole,                    ///< the first repeat's reply
        RepliesRole,                  ///< QStringList: every repeat's reply, in order
        DistinctRole,                 ///< number of distinct replies among finished repeats
        PromptTokensRole,             ///< summed over finished repeats (invalid when unknown)
        CompletionTokensRole,
        LatencyRole, ///< mean latency in ms over finished repeats
        ErrorRole,   ///< the first error among repeats ("" when none)
    };

    explicit PlaygroundResultModel(QObject* parent = nullptr);

    /// Empties the grid to `rows` × `variantLabels.size()` cells of `repeat` pending calls.
    /// `rowLabels` may be shorter than `rows` ("Row n" then).
    void reset(int rows, const QStringList& variantLabels, int repeat,
               const QStringList& rowLabels = {});
    /// Shapes the grid after `run` and follows its signals until the next attach/reset.
    void attach(PlaygroundRun* run, const QStringList& variantLabels,
                const QStringList& rowLabels = {});

    void setCell(const CellKey& key, const CellResult& result);
    void appendDelta(const CellKey& key, const QString& delta);
    void markStarted(const CellKey& key);
    /// The cell's result for one repeat.
    CellResult cell(const CellKey& key) const;
    int repeat() const { return m_repeat; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// A column's totals (the horizontal header's tooltip): finished calls, tokens in and out,
    /// mean latency, failures.
    QString columnSummary(int variant) const;
    /// The display text of a group of repeats (the `Qt::DisplayRole` of a cell). Pure.
    static QString summaryText(const std::vector<CellResult>& repeats);

private:
    CellResult* find(const CellKey& key);
    void changed(const CellKey& key);
    void changedLater(const CellKey& key);
    void flush();

    int m_rows = 0;
    int m_repeat = 1;
    QStringList m_variantLabels;
    QStringList m_rowLabels;
    std::vector<CellResult> m_cells; // (row × variants + variant) × repeat + r
    QPointer<PlaygroundRun> m_run;
    QList<QMetaObject::Connection> m_connections;
    QSet<QPair<int, int>> m_dirty; // (row, variant) changed since the last flush
    QTimer* m_flushTimer;
};

} // namespace hako::playground
