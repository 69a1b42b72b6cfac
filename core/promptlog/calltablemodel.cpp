#include "core/promptlog/calltablemodel.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QMetaObject>

#include <algorithm>
#include <limits>

namespace hako::promptlog {

namespace {

// Below every real value (counts, costs and latencies are never negative): a missing number
// sorts last in descending order, first in ascending.
constexpr double kMissing = -1.0;

QVariant sortNumber(const std::optional<double>& v)
{
    return v ? *v : kMissing;
}

QVariant sortNumber(const std::optional<int64_t>& v)
{
    return v ? double(*v) : kMissing;
}

} // namespace

QString formatCount(int64_t n)
{
    return QLocale().toString(qlonglong(n));
}

QString formatCost(double cost)
{
    // Model calls cost fractions of a cent: four significant digits say what matters.
    if (cost == 0.0)
        return QStringLiteral("0");
    return QLocale().toString(cost, 'g', 4);
}

QString formatLatency(double ms)
{
    if (ms < 1000.0)
        return QCoreApplication::translate("hako::promptlog", "%1 ms").arg(qRound64(ms));
    return QCoreApplication::translate("hako::promptlog", "%1 s")
        .arg(QLocale().toString(ms / 1000.0, 'f', ms < 10000.0 ? 2 : 1));
}

CallTableModel::CallTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CallTableModel::setCalls(QList<CallRecord> calls)
{
    beginResetModel();
    m_query.invalidate();
    m_pages.clear();
    m_requested.clear();
    m_total = calls.size();
    for (qsizetype i = 0; i < calls.size(); i += kPageSize)
        m_pages.insert(int(i / kPageSize), calls.mid(i, kPageSize));
    endResetModel();
}

void CallTableModel::reset(int64_t total, QList<CallRecord> firstPage)
{
    beginResetModel();
    m_query.invalidate();
    m_pages.clear();
    m_requested.clear();
    m_lastPage = 0;
    // A view cannot hold more rows than an int counts.
    m_total = std::clamp<int64_t>(std::max<int64_t>(total, firstPage.size()), 0,
                                  std::numeric_limits<int>::max() - kPageSize);
    if (!firstPage.isEmpty())
        m_pages.insert(0, std::move(firstPage));
    endResetModel();
}

void CallTableModel::setPage(int page, QList<CallRecord> rows, LatestJob::Ticket query)
{
    if (!m_query.isCurrent(query) || page < 0 || int64_t(page) * kPageSize >= m_total)
        return;
    const int first = page * kPageSize;
    const int last = int(std::min<int64_t>(m_total, int64_t(first) + kPageSize)) - 1;
    rows = rows.mid(0, last - first + 1);
    m_pages.insert(page, std::move(rows));
    m_requested.remove(page);
    m_lastPage = page;
    // Keep memory bounded: drop the pages farthest from where the user is.
    while (m_pages.size() > kMaxPages) {
        int farthest = -1;
        for (auto it = m_pages.cbegin(); it != m_pages.cend(); ++it)
            if (farthest < 0 || std::abs(it.key() - page) > std::abs(farthest - page))
                farthest = it.key();
        m_pages.remove(farthest);
    }
    Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

QList<CallRecord> CallTableModel::loadedCalls() const
{
    QList<int> pages = m_pages.keys();
    std::sort(pages.begin(), pages.end());
    QList<CallRecord> out;
    for (int p : pages)
        out += m_pages.value(p);
    return out;
}

const CallRecord* CallTableModel::callAt(int row) const
{
    if (row < 0 || row >= m_total)
        return nullptr;
    const auto it = m_pages.constFind(row / kPageSize);
    if (it == m_pages.cend() || row % kPageSize >= it->size())
        return nullptr;
    return &(*it)[row % kPageSize];
}

int CallTableModel::rowOf(int64_t id) const
{
    for (auto it = m_pages.cbegin(); it != m_pages.cend(); ++it)
        for (int i = 0; i < it->size(); ++i)
            if ((*it)[i].id == id)
                return it.key() * kPageSize + i;
    return -1;
}

void CallTableModel::requestPage(int page) const
{
    if (m_requested.contains(page))
        return;
    m_requested.insert(page);
    // Queued: data() runs inside painting, where the owner must not start work.
    QMetaObject::invokeMethod(
        const_cast<CallTableModel*>(this),
        [self = const_cast<CallTableModel*>(this), page, query = m_query.current()] {
            if (self->m_query.isCurrent(query))
                Q_EMIT self->pageNeeded(page, query);
        },
        Qt::QueuedConnection);
}

void CallTableModel::setScores(const QHash<QString, QString>& byUid)
{
    if (byUid.isEmpty())
        return;
    for (auto it = byUid.begin(); it != byUid.end(); ++it) {
        if (it.value().isEmpty())
            m_scores.remove(it.key());
        else
            m_scores.insert(it.key(), it.value());
    }
    if (m_total > 0)
        Q_EMIT dataChanged(index(0, Score), index(int(m_total) - 1, Score), {Qt::DisplayRole});
}

CallFilter::Order CallTableModel::orderOf(Column column)
{
    using O = CallFilter::Order;
    switch (column) {
    case Prompt:
        return O::Prompt;
    case Tags:
        return O::Tags;
    case Model:
        return O::Model;
    case TokensIn:
        return O::TokensIn;
    case TokensOut:
        return O::TokensOut;
    case Cost:
        return O::Cost;
    case Latency:
        return O::Latency;
    case Status:
        return O::Status;
    case Time:
    case Score: // not an order of the store: the newest first
    case ColumnCount:
        break;
    }
    return O::Time;
}

void CallTableModel::sort(int column, Qt::SortOrder order)
{
    const CallFilter::Order o = orderOf(Column(column));
    const bool descending = order == Qt::DescendingOrder;
    if (o == m_order && descending == m_descending)
        return;
    m_order = o;
    m_descending = descending;
    Q_EMIT sortRequested();
}

int CallTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_total);
}

int CallTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CallTableModel::data(const QModelIndex& index, int role) const
{
    const CallRecord* call = index.isValid() ? callAt(index.row()) : nullptr;
    if (!call) {
        if (index.isValid() && index.row() < m_total)
            requestPage(index.row() / kPageSize);
        return {};
    }
    if (role == IdRole)
        return qlonglong(call->id);
    const auto column = Column(index.column());
    if (role == SortRole) {
        switch (column) {
        case Time:
            // Ties keep the store's order: the proxy sorts stably.
            return qlonglong(call->startedAt);
        case Prompt:
            return call->promptName;
        case Tags:
            return call->tags.join(QLatin1Char(' '));
        case Model:
            return call->model;
        case TokensIn:
            return sortNumber(call->promptTokens);
        case TokensOut:
            return sortNumber(call->completionTokens);
        case Cost:
            return sortNumber(call->cost);
        case Latency:
            return sortNumber(call->latencyMs);
        case Status:
            return statusName(call->status);
        case Score:
            return m_scores.value(call->uid);
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        if (column == TokensIn || column == TokensOut || column == Cost || column == Latency)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (column == Status && !call->error.isEmpty())
            return call->error;
        if (column == Time)
            return isoTime(call->startedAt);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Time:
        return QDateTime::fromMSecsSinceEpoch(call->startedAt)
            .toLocalTime()
            .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case Prompt:
        return call->promptName;
    case Tags:
        return call->tags.join(QStringLiteral(", "));
    case Model:
        return call->model;
    case TokensIn:
        return call->promptTokens ? formatCount(*call->promptTokens) : QString();
    case TokensOut:
        return call->completionTokens ? formatCount(*call->completionTokens) : QString();
    case Cost:
        return call->cost ? formatCost(*call->cost) : QString();
    case Latency:
        return call->latencyMs ? formatLatency(*call->latencyMs) : QString();
    case Status:
        return statusName(call->status);
    case Score:
        return m_scores.value(call->uid);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant CallTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Time:
        return tr("Time");
    case Prompt:
        return tr("Prompt");
    case Tags:
        return tr("Tags");
    case Model:
        return tr("Model");
    case TokensIn:
        return tr("Tokens In");
    case TokensOut:
        return tr("Tokens Out");
    case Cost:
        return tr("Cost");
    case Latency:
        return tr("Latency");
    case Status:
        return tr("Status");
    case Score:
        return tr("Score");
    case ColumnCount:
        break;
    }
    return {};
}

StatsTableModel::StatsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void StatsTableModel::setRows(QList<StatsRow> rows, StatsGroup group)
{
    beginResetModel();
    m_rows = std::move(rows);
    const bool headerChanged = group != m_group;
    m_group = group;
    endResetModel();
    if (headerChanged)
        Q_EMIT headerDataChanged(Qt::Horizontal, Key, Key);
}

void StatsTableModel::setSeries(const QList<TimeSeries>& series, const QString& bucketLabel)
{
    m_series.clear();
    for (const TimeSeries& t : series)
        m_series.insert(t.key, QList<qint64>(t.tokens.begin(), t.tokens.end()));
    const bool headerChanged = bucketLabel != m_bucketLabel;
    m_bucketLabel = bucketLabel;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, Trend), index(int(m_rows.size()) - 1, Trend));
    if (headerChanged)
        Q_EMIT headerDataChanged(Qt::Horizontal, Trend, Trend);
}

QString StatsTableModel::sparkText(const QList<qint64>& values)
{
    static const char16_t kBlocks[] = u"▁▂▃▄▅▆▇█";
    qint64 top = 0;
    for (qint64 v : values)
        top = std::max(top, v);
    QString out;
    out.reserve(values.size());
    for (qint64 v : values) {
        if (v <= 0 || top <= 0)
            out += QLatin1Char(' ');
        else
            out += QChar(kBlocks[std::clamp<qint64>((v * 8 - 1) / top, 0, 7)]);
    }
    return out;
}

int StatsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int StatsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StatsTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const StatsRow& row = m_rows[index.row()];
    const auto column = Column(index.column());
    if (role == SortRole) {
        switch (column) {
        case Key:
            return row.name.isEmpty() ? row.key : row.name;
        case Calls:
            return double(row.calls);
        case SuccessRate:
            return row.successRate();
        case TokensIn:
            return double(row.tokensIn);
        case TokensOut:
            return double(row.tokensOut);
        case Cost:
            return sortNumber(row.cost);
        case P50:
            return sortNumber(row.p50LatencyMs);
        case P95:
            return sortNumber(row.p95LatencyMs);
        case Trend: {
            double sum = 0;
            for (qint64 v : m_series.value(row.key))
                sum += double(v);
            return sum;
        }
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role == SeriesRole)
        return column == Trend ? QVariant::fromValue(m_series.value(row.key)) : QVariant();
    if (role == Qt::TextAlignmentRole)
        return column == Key || column == Trend ? QVariant()
                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == Key && !row.name.isEmpty())
        return row.key;
    if (role == Qt::ToolTipRole && column == Trend) {
        const QList<qint64> values = m_series.value(row.key);
        if (values.isEmpty())
            return tr("No calls in this time range");
        qint64 top = 0;
        for (qint64 v : values)
            top = std::max(top, v);
        return tr("Tokens per %1, oldest to newest; the highest: %2")
            .arg(m_bucketLabel, formatCount(top));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Key:
        if (!row.name.isEmpty())
            return row.name; // the prompt's (program's) name; the id is in the tooltip
        return row.key.isEmpty() && m_group == StatsGroup::Tag ? tr("(no tags)") : row.key;
    case Calls:
        return formatCount(row.calls);
    case SuccessRate:
        return QString(QLocale().toString(row.successRate() * 100.0, 'f', 1) + QLatin1Char('%'));
    case TokensIn:
        return formatCount(row.tokensIn);
    case TokensOut:
        return formatCount(row.tokensOut);
    case Cost:
        return row.cost ? formatCost(*row.cost) : QString();
    case P50:
        return row.p50LatencyMs ? formatLatency(*row.p50LatencyMs) : QString();
    case P95:
        return row.p95LatencyMs ? formatLatency(*row.p95LatencyMs) : QString();
    case Trend:
        return sparkText(m_series.value(row.key));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant StatsTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Key:
        switch (m_group) {
        case StatsGroup::Prompt:
            return tr("Prompt");
        case StatsGroup::Tag:
            return tr("Tag");
        case StatsGroup::Model:
            return tr("Model");
        case StatsGroup::Day:
            return tr("Day (UTC)");
        case StatsGroup::Version:
            return tr("Version");
        case StatsGroup::Program:
            return tr("Program");
        }
        return {};
    case Calls:
        return tr("Calls");
    case SuccessRate:
        return tr("Success");
    case TokensIn:
        return tr("Tokens In");
    case TokensOut:
        return tr("Tokens Out");
    case Cost:
        return tr("Cost");
    case P50:
        return tr("p50");
    case P95:
        return tr("p95");
    case Trend:
        return m_bucketLabel.isEmpty() ? tr("Tokens over time")
                                       : tr("Tokens per %1").arg(m_bucketLabel);
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace hako::promptlog
