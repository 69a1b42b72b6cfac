// The monitor's table on SQLite: one pass over the covering index `calls_stats`, in time slices
// on parallel read connections, summed here rather than in SQL (the percentiles need every
// latency of a group anyway). A row is read as few columns as will do: the group's key, the
// summed numbers, the time and the row's number; the name a group shows (that of its newest
// call) is read afterwards for the newest call of each group only.
#include "core/promptlog/logbackend_p.h"
#include "core/promptlog/sqlitestatement_p.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <thread>

namespace hako::promptlog {

namespace {

// The tags column (a JSON array of strings) as UTF-8 strings, without a JSON parser for the
// usual tags that need no escapes.
void splitTags(const QByteArray& json, QList<QByteArray>& out)
{
    out.clear();
    if (json.size() < 4)
        return; // "" or "[]"
    if (!json.contains('\\')) {
        // ["a","b"]: the pieces between quotes alternate between tags and separators.
        const QList<QByteArray> pieces = json.mid(2, json.size() - 4).split('"');
        for (qsizetype i = 0; i < pieces.size(); i += 2)
            out.append(pieces[i]);
        return;
    }
    for (const QJsonValue& v : QJsonDocument::fromJson(json).array())
        out.append(v.toString().toUtf8());
}

struct Accumulator {
    int64_t calls = 0;
    int64_t ok = 0;
    int64_t in = 0;
    int64_t out = 0;
    double cost = 0;
    bool hasCost = false;
    std::vector<double> latencies;
    int64_t newestAt = std::numeric_limits<int64_t>::min();
    int64_t newestId = -1; ///< the call whose name the group shows
};

// Whether a group shows a name (groupNameSql()).
bool named(StatsGroup group)
{
    return group == StatsGroup::Prompt || group == StatsGroup::Program ||
           group == StatsGroup::Version;
}

// One pass over the calls (of one time slice): sums and latencies per group. Columns: key,
// status, tokens in, tokens out, cost, latency, started_at, id.
struct StatsScan {
    explicit StatsScan(StatsGroup g) : group(g) {}

    StatsGroup group;
    QHash<QByteArray, Accumulator> groups;
    QHash<int64_t, Accumulator> days;

    bool run(sqlite3* db, const QString& sql, const std::vector<SqlValue>& binds,
             std::optional<std::pair<int64_t, int64_t>> slice)
    {
        QString text = sql;
        if (slice) {
            text += sql.contains(QLatin1String(" WHERE ")) ? QStringLiteral(" AND ")
                                                           : QStringLiteral(" WHERE ");
            text += QStringLiteral("c.started_at >= ?%1 AND c.started_at < ?%2")
                        .arg(binds.size() + 1)
                        .arg(binds.size() + 2);
        }
        SqliteStatement s(db, text);
        if (!s.valid())
            return false;
        s.bindAll(binds);
        if (slice) {
            s.bind(int(binds.size()) + 1, slice->first);
            s.bind(int(binds.size()) + 2, slice->second);
        }
        QList<QByteArray> tags;
        const bool withName = named(group);
        while (s.step()) {
            const bool ok = s.raw(1) == "ok";
            const int64_t in = s.int64(2);
            const int64_t out = s.int64(3);
            const std::optional<double> cost =
                s.isNull(4) ? std::nullopt : std::optional<double>(s.real(4));
            const std::optional<double> latency =
                s.isNull(5) ? std::nullopt : std::optional<double>(s.real(5));
            const int64_t at = s.int64(6);
            auto count = [&](Accumulator& a) {
                ++a.calls;
                a.ok += ok;
                a.in += in;
                a.out += out;
                if (cost) {
                    a.cost += *cost;
                    a.hasCost = true;
                }
                if (latency)
                    a.latencies.push_back(*latency);
                // The newest call names the group; of calls started in the same millisecond,
                // the last read (as the index orders them).
                if (withName && at >= a.newestAt) {
                    a.newestAt = at;
                    a.newestId = s.int64(7);
                }
            };
            if (group == StatsGroup::Day) {
                count(days[at >= 0 ? at / 86400000 : (at - 86399999) / 86400000]);
            } else if (group == StatsGroup::Tag) {
                splitTags(s.raw(0), tags);
                if (tags.isEmpty())
                    count(groupOf(QByteArray()));
                for (const QByteArray& tag : tags)
                    count(groupOf(tag));
            } else {
                count(groupOf(s.raw(0)));
            }
        }
        return !s.failed();
    }

    void merge(StatsScan&& other)
    {
        auto add = [](Accumulator& a, Accumulator& b) {
            a.calls += b.calls;
            a.ok += b.ok;
            a.in += b.in;
            a.out += b.out;
            a.cost += b.cost;
            a.hasCost = a.hasCost || b.hasCost;
            a.latencies.insert(a.latencies.end(), b.latencies.begin(), b.latencies.end());
            if (b.newestAt >= a.newestAt) {
                a.newestAt = b.newestAt;
                a.newestId = b.newestId;
            }
        };
        for (auto it = other.groups.begin(); it != other.groups.end(); ++it)
            add(groups[it.key()], it.value());
        for (auto it = other.days.begin(); it != other.days.end(); ++it)
            add(days[it.key()], it.value());
    }

private:
    Accumulator& groupOf(const QByteArray& k)
    {
        auto it = groups.find(k);
        if (it == groups.end())
            it = groups.insert(QByteArray(k.constData(), k.size()), Accumulator());
        return it.value();
    }
};

// Time slices of about equal width for `threads` readers; none when the log is small (a thread
// costs more than it saves). Each bound is read from an index, not by scanning the calls.
std::vector<std::pair<int64_t, int64_t>> timeSlices(sqlite3* db)
{
    constexpr int64_t kParallelFrom = 5000; // calls
    const int threads = std::clamp(int(std::thread::hardware_concurrency()), 1, 4);
    std::vector<std::pair<int64_t, int64_t>> slices;
    SqliteStatement range(db, QStringLiteral("SELECT (SELECT min(started_at) FROM calls), "
                                             "(SELECT max(started_at) FROM calls), "
                                             "(SELECT max(id) FROM calls) - "
                                             "(SELECT min(id) FROM calls)"));
    if (threads > 1 && range.step() && !range.isNull(0) && range.int64(2) >= kParallelFrom) {
        const int64_t lo = range.int64(0);
        const int64_t hi = range.int64(1) + 1;
        const int64_t step = (hi - lo + threads - 1) / threads;
        for (int64_t from = lo; from < hi; from += step)
            slices.emplace_back(from, std::min(hi, from + step));
    }
    return slices;
}

// The names of the calls `ids` (groupNameSql()), by id.
bool readNames(sqlite3* db, StatsGroup group, const QList<int64_t>& ids,
               QHash<int64_t, QString>& names)
{
    constexpr qsizetype kChunk = 500;
    for (qsizetype from = 0; from < ids.size(); from += kChunk) {
        QStringList list;
        for (qsizetype i = from; i < std::min(ids.size(), from + kChunk); ++i)
            list.append(QString::number(ids[i]));
        SqliteStatement s(db, QStringLiteral("SELECT c.id, %1 FROM calls c WHERE c.id IN (%2)")
                                  .arg(groupNameSql(group), list.join(QLatin1Char(','))));
        if (!s.valid())
            return false;
        while (s.step())
            names.insert(s.int64(0), s.text(1));
        if (s.failed())
            return false;
    }
    return true;
}

} // namespace

Result<QList<StatsRow>> sqliteStats(sqlite3* db, const QString& path, StatsGroup group,
                                    const SqlWhere& where,
                                    const std::function<Diagnostic(const QString&)>& error)
{
    QString key;
    switch (group) {
    case StatsGroup::Day:
        key = QStringLiteral("NULL"); // the day is the time, column 6
        break;
    case StatsGroup::Tag:
        key = QStringLiteral("c.tags"); // split in the scan: no join with call_tags
        break;
    default:
        key = groupKeySql(group);
        break;
    }
    const QString sql = QStringLiteral("SELECT %1, c.status, c.tokens_prompt, c.tokens_completion, "
                                       "c.cost, c.latency_ms, c.started_at, c.id FROM calls c")
                            .arg(key) +
                        where.clause;
    // A large log is read in time slices on parallel read connections (WAL lets them read
    // beside the writer); each slice's sums and latencies are merged.
    const std::vector<std::pair<int64_t, int64_t>> slices = timeSlices(db);
    StatsScan total(group);
    if (slices.size() < 2) {
        if (!total.run(db, sql, where.binds, std::nullopt))
            return error(QStringLiteral("read"));
    } else {
        std::vector<StatsScan> parts(slices.size(), StatsScan(group));
        std::vector<std::thread> workers;
        std::vector<char> ok(slices.size(), 0);
        for (size_t i = 0; i < slices.size(); ++i) {
            workers.emplace_back([&, i] {
                QString why;
                if (sqlite3* reader = openSqliteReadOnly(path, &why)) {
                    sqlite3_busy_timeout(reader, 10000);
                    ok[i] = parts[i].run(reader, sql, where.binds, slices[i]);
                    sqlite3_close_v2(reader);
                }
            });
        }
        for (std::thread& t : workers)
            t.join();
        for (size_t i = 0; i < parts.size(); ++i) {
            if (!ok[i])
                return error(QStringLiteral("read"));
            total.merge(std::move(parts[i]));
        }
    }
    QHash<int64_t, QString> names;
    if (named(group)) {
        QList<int64_t> ids;
        for (const Accumulator& a : std::as_const(total.groups))
            ids.append(a.newestId);
        if (!readNames(db, group, ids, names))
            return error(QStringLiteral("read"));
    }
    QList<StatsRow> rows;
    auto finish = [&rows, &names](QString key, Accumulator& a) {
        StatsRow r;
        r.key = std::move(key);
        r.name = names.value(a.newestId);
        r.calls = a.calls;
        r.okCalls = a.ok;
        r.tokensIn = a.in;
        r.tokensOut = a.out;
        if (a.hasCost)
            r.cost = a.cost;
        r.p50LatencyMs = percentileDisc(a.latencies, 0.5);
        r.p95LatencyMs = percentileDisc(a.latencies, 0.95);
        rows.append(std::move(r));
    };
    for (auto it = total.groups.begin(); it != total.groups.end(); ++it)
        finish(QString::fromUtf8(it.key()), it.value());
    for (auto it = total.days.begin(); it != total.days.end(); ++it)
        finish(utcDay(it.key() * 86400000), it.value());
    sortStats(rows, StatsColumn::Key);
    return rows;
}

} // namespace hako::promptlog
