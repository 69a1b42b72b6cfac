#pragma once

#include "core/promptlog/callquery.h"
#include "core/promptlog/callrecord.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

namespace hako::promptlog {

/// The prompt log's calls table: one row per call, fed whole snapshots (listed off the GUI
/// thread) with setCalls(). Display text in Qt::DisplayRole, sortable raw values in SortRole
/// (numbers; a missing number sorts below every present one). GUI thread only.
class CallTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Time,
        Prompt,
        Tags,
        Model,
        TokensIn,
        TokensOut,
        Cost,
        Latency,
        Status,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, IdRole };

    explicit CallTableModel(QObject* parent = nullptr);

    void setCalls(QList<CallRecord> calls);
    const QList<CallRecord>& calls() const { return m_calls; }
    /// The call of `row`, or null.
    const CallRecord* callAt(int row) const;
    /// The row of the call with store id `id`, or -1.
    int rowOf(int64_t id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    QList<CallRecord> m_calls;
};

/// The monitor's table: one StatsRow per prompt (tag, model, day), fed whole snapshots with
/// setRows(). Display text in Qt::DisplayRole, sortable raw values in SortRole (a missing cost
/// or latency sorts below every present one). GUI thread only.
class StatsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Key,
        Calls,
        SuccessRate,
        TokensIn,
        TokensOut,
        Cost,
        P50,
        P95,
        Trend,
        ColumnCount
    };
    /// SeriesRole (Trend column): the row's tokens per bucket as a QList<qint64> (empty when
    /// its group had no calls in the range).
    enum Role { SortRole = Qt::UserRole + 1, SeriesRole };

    explicit StatsTableModel(QObject* parent = nullptr);

    void setRows(QList<StatsRow> rows, StatsGroup group);
    /// The rows' tokens over time (PromptLog::series() of the same group and filter), matched
    /// to the rows by key; `bucketLabel` names a bucket in the header ("day").
    void setSeries(const QList<TimeSeries>& series, const QString& bucketLabel);
    const QList<StatsRow>& rows() const { return m_rows; }
    StatsGroup group() const { return m_group; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    /// A sparkline of `values` in block characters (▁▂▃▄▅▆▇█, a space for none): what the
    /// Trend column says as text, for screen readers and copying. Pure.
    static QString sparkText(const QList<qint64>& values);

private:
    QList<StatsRow> m_rows;
    StatsGroup m_group = StatsGroup::Prompt;
    QHash<QString, QList<qint64>> m_series;
    QString m_bucketLabel;
};

/// "1,234" (a grouped integer), "$0.0123"-style cost without currency ("0.0123"), "850 ms" /
/// "2.4 s": the texts both tables show. Pure.
QString formatCount(int64_t n);
QString formatCost(double cost);
QString formatLatency(double ms);

} // namespace hako::promptlog
