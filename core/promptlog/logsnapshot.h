#pragma once

#include "core/promptlog/callquery.h"
#include "core/promptlog/callrecord.h"
#include "core/promptlog/callscore.h"

#include <QHash>

#include <QList>
#include <QString>
#include <QStringList>

namespace hako::promptlog {

class PromptLog;

/// Everything one look at the prompt log shows for a filter: the first page of matching calls
/// and how many match, how many calls the log holds, the statistics and their per-group series,
/// the matching calls over time and every tag (most used first). The Prompt Log pane reads one
/// per refresh.
struct LogSnapshot {
    QString error; ///< empty when every part was read
    QList<CallRecord> calls;
    int64_t matching = 0;
    int64_t total = 0;
    QList<StatsRow> stats;
    StatsGroup group = StatsGroup::Prompt;
    SeriesRange range;
    QList<TimeSeries> groupSeries; ///< tokens over time per stats row
    TimeSeries overTime;           ///< the filtered calls over time
    QStringList tags;
    QHash<QString, QString> scores; ///< the first page's calls' Score texts, by uid
    QList<ScoreSeries> scoreSeries; ///< every score name's mean over `range`

    /// What the Score column shows for each of `calls` (by uid): its scores' texts, a
    /// person's first; an empty text for a call without scores. Blocking, any thread.
    static QHash<QString, QString> scoreTexts(PromptLog& log, const QList<CallRecord>& calls);

    /// Reads a snapshot of `log`: the first `pageSize` calls of `filter` (in its order), the
    /// statistics grouped by `group`, series over `range`. Waits first (up to two seconds) for
    /// calls still in the writer's queue, so a run's last calls are in. Blocking: call it off
    /// the GUI thread; safe on any thread, as PromptLog's queries are.
    static LogSnapshot read(PromptLog& log, const CallFilter& filter, StatsGroup group,
                            const SeriesRange& range, int pageSize);
};

/// The four charts of calls over time, one value per bucket of a series' range: calls, the
/// percentage that succeeded, the mean latency in ms (NaN where a bucket has no call or no
/// latency) and tokens; with each bucket's label (its start in local time: a date for buckets
/// of a day or more, else date and minute). Pure; any thread.
struct OverTimeCharts {
    QStringList labels;
    QList<double> calls;
    QList<double> successPercent;
    QList<double> meanLatencyMs;
    QList<double> tokens;

    static OverTimeCharts from(const TimeSeries& series, const SeriesRange& range);
};

} // namespace hako::promptlog
