#pragma once

#include "core/promptlog/callquery.h"
#include "core/promptlog/callrecord.h"
#include "core/util/latestjob.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QSet>

namespace hako::promptlog {

/// The prompt log's calls table: one row per call. Either fed a whole list with setCalls(), or
/// virtual: reset() gives the number of matching calls and the first page, and rows of pages
/// not loaded yet show empty while pageNeeded() asks for them (the owner lists them off the GUI
/// thread and hands them to setPage()), so a million calls scroll without reading them all. At
/// most kMaxPages pages are kept. Sorting asks the owner to list again in that order
/// (sortRequested()); a missing number sorts below every present one. Display text in
/// Qt::DisplayRole, raw values in SortRole. GUI thread only.
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
        Score, ///< the call's scores (👍, ✗, 0.8, a label), from setScores()
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, IdRole };

    static constexpr int kPageSize = 200;
    static constexpr int kMaxPages = 64;

    explicit CallTableModel(QObject* parent = nullptr);

    /// Every row at once (in the order given).
    void setCalls(QList<CallRecord> calls);
    /// `total` rows, of which `firstPage` are the first; a new query (earlier pages that still
    /// arrive are ignored).
    void reset(int64_t total, QList<CallRecord> firstPage);
    /// The rows of page `page` (rows page × kPageSize …) asked for by pageNeeded(…, `query`);
    /// ignored when the rows were reset since.
    void setPage(int page, QList<CallRecord> rows, LatestJob::Ticket query);
    /// The Score column's text of calls by uid (LogSnapshot::scoreTexts()), added to those
    /// known; a uid mapped to an empty text has no score any more.
    void setScores(const QHash<QString, QString>& byUid);
    /// The loaded calls in row order (rows not loaded are left out).
    QList<CallRecord> loadedCalls() const;
    /// The call of `row`, or null (also while its page is not loaded).
    const CallRecord* callAt(int row) const;
    /// The row of the loaded call with store id `id`, or -1.
    int rowOf(int64_t id) const;
    /// The listing order the rows are in (the view's sort).
    CallFilter::Order order() const { return m_order; }
    bool descending() const { return m_descending; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    /// Records the order and emits sortRequested() when it changed; the rows change when the
    /// owner lists them again.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    /// The listing order of a column.
    static CallFilter::Order orderOf(Column column);

Q_SIGNALS:
    /// Rows of page `page` are on show but not loaded (queued; once per page and query).
    void pageNeeded(int page, hako::LatestJob::Ticket query);
    void sortRequested();

private:
    void requestPage(int page) const;

    QHash<int, QList<CallRecord>> m_pages;
    QHash<QString, QString> m_scores; ///< by call uid
    int64_t m_total = 0;
    LatestJob m_query; ///< every reset starts a new query: older pages are dropped
    mutable QSet<int> m_requested;
    int m_lastPage = 0; ///< the page set last: eviction keeps what is near it
    CallFilter::Order m_order = CallFilter::Order::Time;
    bool m_descending = true;
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
