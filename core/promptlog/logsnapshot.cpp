#include "core/promptlog/logsnapshot.h"

#include "core/promptlog/promptlog.h"

#include <QDateTime>

#include <cmath>

namespace hako::promptlog {

namespace {

// The statistics, series and tags of a snapshot whose calls were read; a failed part leaves
// its error and the rest still shows.
void readAggregates(PromptLog& log, const CallFilter& filter, LogSnapshot& s)
{
    if (auto n = log.count(CallFilter{}))
        s.total = *n;
    if (auto stats = log.stats(s.group, filter))
        s.stats = std::move(stats).value();
    else
        s.error = stats.error().message;
    if (auto series = log.series(s.group, filter, s.range))
        s.groupSeries = std::move(series).value();
    if (auto series = log.series(std::nullopt, filter, s.range); series && !series->isEmpty())
        s.overTime = series->first();
    else
        s.overTime = TimeSeries(QString(), s.range.buckets);
    if (auto tags = log.tags())
        for (const auto& [tag, n] : *tags)
            s.tags.append(tag);
    if (auto scores = log.scoreSeries(s.range))
        s.scoreSeries = std::move(scores).value();
}

} // namespace

QHash<QString, QString> LogSnapshot::scoreTexts(PromptLog& log, const QList<CallRecord>& calls)
{
    QHash<QString, QString> out;
    ScoreFilter filter;
    for (const CallRecord& c : calls) {
        filter.callUids.append(c.uid);
        out.insert(c.uid, QString());
    }
    if (filter.callUids.isEmpty())
        return out;
    auto scores = log.scores(filter);
    if (!scores)
        return out;
    QHash<QString, QStringList> texts;
    // Oldest first, a person's before the evaluators'.
    for (auto it = scores->crbegin(); it != scores->crend(); ++it) {
        QStringList& t = texts[it->callUid];
        const QString text = it->source == ScoreSource::Human
                                 ? it->text()
                                 : QStringLiteral("%1 %2").arg(it->name, it->text());
        if (it->source == ScoreSource::Human)
            t.prepend(text);
        else
            t.append(text);
    }
    for (auto it = texts.begin(); it != texts.end(); ++it)
        out.insert(it.key(), it.value().join(QStringLiteral(" · ")));
    return out;
}

LogSnapshot LogSnapshot::read(PromptLog& log, const CallFilter& filter, StatsGroup group,
                              const SeriesRange& range, int pageSize)
{
    LogSnapshot s;
    s.group = group;
    s.range = range;
    // A run's last calls may still wait in the writer's queue: let them land first.
    log.flush(2000);
    CallFilter page = filter;
    page.limit = pageSize;
    auto calls = log.list(page);
    if (!calls) {
        s.error = calls.error().message;
        return s;
    }
    s.calls = std::move(calls).value();
    if (s.calls.size() < pageSize) {
        s.matching = s.calls.size();
    } else if (auto n = log.count(filter)) {
        s.matching = *n;
    } else {
        s.error = n.error().message;
        return s;
    }
    s.scores = scoreTexts(log, s.calls);
    readAggregates(log, filter, s);
    return s;
}

OverTimeCharts OverTimeCharts::from(const TimeSeries& series, const SeriesRange& range)
{
    OverTimeCharts c;
    const bool days = range.bucketMs >= 24 * 3600 * 1000;
    const QString format = days ? QStringLiteral("yyyy-MM-dd") : QStringLiteral("yyyy-MM-dd HH:mm");
    const double nan = std::nan("");
    for (int b = 0; b < range.buckets; ++b) {
        c.labels << QDateTime::fromMSecsSinceEpoch(range.fromMs + b * range.bucketMs)
                        .toLocalTime()
                        .toString(format);
        const auto i = size_t(b);
        const bool known = i < series.calls.size();
        const int64_t calls = known ? series.calls[i] : 0;
        c.calls << double(calls);
        c.successPercent << (calls ? 100.0 * double(series.okCalls[i]) / double(calls) : nan);
        c.meanLatencyMs << (known && series.latencyCount[i]
                                ? series.latencySumMs[i] / double(series.latencyCount[i])
                                : nan);
        c.tokens << (known ? double(series.tokens[i]) : 0.0);
    }
    return c;
}

} // namespace hako::promptlog
