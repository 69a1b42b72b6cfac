#pragma once

#include "core/promptlog/callrecord.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace hako::promptlog {

/// Which calls a query is about. Every field left empty matches every call.
struct CallFilter {
    QStringList tags; ///< a call must carry every one (exact tags)
    /// Exact prompt name and model; a `*` in them matches any run of characters.
    QString prompt;
    QString model;
    std::optional<CallStatus> status;
    std::optional<CallOrigin> origin;
    /// Exact prompt and program ids (core/pdl/promptidentity.h).
    QString promptId;
    QString programId;
    QString runId;
    QString traceNodeId; ///< exact: the call of one trace node (with runId)
    /// Calls with a score (see callscore.h): any, one that passed and none that failed, or
    /// one that failed (the Prompt log's `score:✗`).
    enum class Scored { Any, Passed, Failed };
    std::optional<Scored> scored;
    std::optional<int64_t> since; ///< UTC ms, inclusive
    std::optional<int64_t> until; ///< UTC ms, exclusive
    /// Full text over the messages' contents and the reply: each word (or "quoted phrase")
    /// must occur, as a substring, ignoring ASCII case. Works for Japanese of any length.
    QString text;

    /// Listing: newest first by default; `oldestFirst` with `afterId` pages through a whole
    /// log in store order (export); `orderBy` sorts by another column (the monitor's table),
    /// a missing number below every present one, ties by store order.
    bool oldestFirst = false;
    enum class Order { Time, Prompt, Tags, Model, TokensIn, TokensOut, Cost, Latency, Status };
    std::optional<Order> orderBy;
    bool descending = true; ///< with orderBy
    int64_t afterId = 0;
    int limit = 0; ///< 0 = no limit
    int offset = 0;
};

/// The words of a full-text query: whitespace separates, "double quotes" keep a phrase.
QStringList searchTerms(const QString& text);

/// What the monitor's table groups calls by. A prompt is its prompt id (calls without one, by
/// their prompt name), a program its program id (else its path), a version the library's
/// commit the program ran at (else the program's content hash).
enum class StatsGroup { Prompt, Tag, Model, Day, Version, Program };
QString groupName(StatsGroup group);
std::optional<StatsGroup> groupFromName(const QString& name);

/// One row of the monitor's table: the calls of one prompt (tag, model, UTC day).
struct StatsRow {
    QString key; ///< by tag, calls without tags are under the empty key
    /// What a person calls the group, from its newest call: by prompt "<program> › <prompt>",
    /// by program or version the program's name; empty for the other groups.
    QString name;
    int64_t calls = 0;
    int64_t okCalls = 0;
    int64_t tokensIn = 0;       ///< prompt tokens, summed over the calls that reported them
    int64_t tokensOut = 0;      ///< completion tokens, likewise
    std::optional<double> cost; ///< none when no call of the group had a cost
    std::optional<double> p50LatencyMs;
    std::optional<double> p95LatencyMs;

    double successRate() const { return calls ? double(okCalls) / double(calls) : 0.0; }
    int64_t tokens() const { return tokensIn + tokensOut; }
    bool operator==(const StatsRow&) const = default;
};

/// Calls over time: `buckets` consecutive spans of `bucketMs` from `fromMs` (UTC ms).
struct SeriesRange {
    int64_t fromMs = 0;
    int64_t bucketMs = 24 * 3600 * 1000;
    int buckets = 30;

    int64_t untilMs() const { return fromMs + bucketMs * buckets; }
    /// `buckets` spans ending with the one that holds `nowMs`.
    static SeriesRange ending(int64_t nowMs, int64_t bucketMs, int buckets);
};

/// One group's calls over a SeriesRange: per bucket, the calls, those that succeeded, their
/// tokens (in + out) and the sum and number of their latencies.
struct TimeSeries {
    QString key; ///< the group (as StatsRow::key), empty for the calls as a whole
    std::vector<int64_t> calls;
    std::vector<int64_t> okCalls;
    std::vector<int64_t> tokens;
    std::vector<double> latencySumMs;
    std::vector<int64_t> latencyCount;

    explicit TimeSeries(QString k = {}, int buckets = 0)
        : key(std::move(k)), calls(size_t(buckets)), okCalls(size_t(buckets)),
          tokens(size_t(buckets)), latencySumMs(size_t(buckets)), latencyCount(size_t(buckets))
    {}
    bool operator==(const TimeSeries&) const = default;
};

/// The columns the table sorts by. Tokens = in + out.
enum class StatsColumn { Key, Calls, SuccessRate, TokensIn, TokensOut, Tokens, Cost, P50, P95 };
std::optional<StatsColumn> statsColumnFromName(const QString& name);

/// Sorts rows by `column`: numbers largest first, keys A→Z, the other way round with
/// `reversed`; ties keep key order. Missing values (no cost) go last either way.
void sortStats(QList<StatsRow>& rows, StatsColumn column, bool reversed = false);

/// The nearest-rank percentile (PostgreSQL's percentile_disc): the smallest value with at least
/// `fraction` of the values at or below it. `values` is reordered. None when empty.
std::optional<double> percentileDisc(std::vector<double>& values, double fraction);

/// "30d", "12h", "45m", "90s", "2w" as milliseconds; none when malformed.
std::optional<int64_t> parseAge(const QString& text);

/// The UTC day of `utcMs` as YYYY-MM-DD (the key of StatsGroup::Day).
QString utcDay(int64_t utcMs);

} // namespace hako::promptlog
