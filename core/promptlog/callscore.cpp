// Scores of logged calls: the value type and its statements, the same SQL for the SQLite file
// and the PostgreSQL database (`$n` placeholders; the SQLite backend renumbers them).
#include "core/promptlog/callscore.h"

#include "core/promptlog/logbackend_p.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

#include <cmath>
#include <limits>

namespace hako::promptlog {

QString scoreSourceName(ScoreSource source)
{
    switch (source) {
    case ScoreSource::Human:
        return QStringLiteral("human");
    case ScoreSource::Online:
        return QStringLiteral("online");
    case ScoreSource::Experiment:
        return QStringLiteral("experiment");
    }
    return {};
}

std::optional<ScoreSource> scoreSourceFromName(const QString& name)
{
    for (ScoreSource s : {ScoreSource::Human, ScoreSource::Online, ScoreSource::Experiment})
        if (scoreSourceName(s) == name)
            return s;
    return std::nullopt;
}

QString scoreValueKindName(ScoreValueKind kind)
{
    switch (kind) {
    case ScoreValueKind::Bool:
        return QStringLiteral("bool");
    case ScoreValueKind::Number:
        return QStringLiteral("number");
    case ScoreValueKind::Label:
        return QStringLiteral("label");
    }
    return {};
}

std::optional<ScoreValueKind> scoreValueKindFromName(const QString& name)
{
    for (ScoreValueKind k : {ScoreValueKind::Bool, ScoreValueKind::Number, ScoreValueKind::Label})
        if (scoreValueKindName(k) == name)
            return k;
    return std::nullopt;
}

QString CallScore::text() const
{
    if (kind == ScoreValueKind::Bool) {
        // ✓ and ✗ are in every desktop's fonts; 👍 and 👎 need an emoji font.
        const bool up = number.value_or(passed.value_or(false) ? 1 : 0) >= 0.5;
        return up ? QStringLiteral("✓") : QStringLiteral("✗");
    }
    if (kind == ScoreValueKind::Label && !label.isEmpty())
        return label;
    QString n = number ? QString::number(*number, 'g', 3) : QString();
    if (passed && source != ScoreSource::Human)
        n += *passed ? QStringLiteral(" ✓") : QStringLiteral(" ✗");
    return n;
}

QJsonObject CallScore::toJson() const
{
    QJsonObject o{{QStringLiteral("call"), callUid},
                  {QStringLiteral("name"), name},
                  {QStringLiteral("kind"), scoreValueKindName(kind)},
                  {QStringLiteral("source"), scoreSourceName(source)},
                  {QStringLiteral("created_at"), isoTime(createdAt)}};
    if (number)
        o.insert(QStringLiteral("value"), *number);
    if (!label.isEmpty())
        o.insert(QStringLiteral("label"), label);
    if (passed)
        o.insert(QStringLiteral("passed"), *passed);
    if (!note.isEmpty())
        o.insert(QStringLiteral("note"), note);
    if (!author.isEmpty())
        o.insert(QStringLiteral("author"), author);
    return o;
}

Result<CallScore> CallScore::fromJson(const QJsonObject& o)
{
    CallScore s;
    s.callUid = o.value(QLatin1String("call")).toString();
    s.name = o.value(QLatin1String("name")).toString();
    if (s.callUid.isEmpty() || s.name.isEmpty())
        return makeError(QStringLiteral("a score needs `call` and `name`"));
    const auto kind = scoreValueKindFromName(o.value(QLatin1String("kind")).toString());
    const auto source = scoreSourceFromName(o.value(QLatin1String("source")).toString());
    if (!kind)
        return makeError(QStringLiteral("score `kind` must be bool, number or label"));
    if (!source)
        return makeError(QStringLiteral("score `source` must be human, online or experiment"));
    s.kind = *kind;
    s.source = *source;
    if (const QJsonValue v = o.value(QLatin1String("value")); v.isDouble())
        s.number = v.toDouble();
    s.label = o.value(QLatin1String("label")).toString();
    if (const QJsonValue v = o.value(QLatin1String("passed")); v.isBool())
        s.passed = v.toBool();
    s.note = o.value(QLatin1String("note")).toString();
    s.author = o.value(QLatin1String("author")).toString();
    const QDateTime at =
        QDateTime::fromString(o.value(QLatin1String("created_at")).toString(), Qt::ISODateWithMs);
    s.createdAt = at.isValid() ? at.toMSecsSinceEpoch() : 0;
    return s;
}

namespace {

// The WHERE clause of `filter` over `call_scores`, its binds appended to `binds`.
QString scoreWhere(const ScoreFilter& filter, std::vector<SqlValue>& binds)
{
    QStringList conditions;
    auto bind = [&binds](SqlValue v) {
        binds.push_back(std::move(v));
        return QStringLiteral("$%1").arg(binds.size());
    };
    if (!filter.callUids.isEmpty()) {
        QStringList uids;
        for (const QString& uid : filter.callUids)
            uids.append(bind(uid));
        conditions.append(QStringLiteral("call_uid IN (%1)").arg(uids.join(QLatin1Char(','))));
    }
    if (!filter.name.isEmpty())
        conditions.append(QStringLiteral("name = ") + bind(filter.name));
    if (filter.source)
        conditions.append(QStringLiteral("source = ") + bind(scoreSourceName(*filter.source)));
    if (filter.since)
        conditions.append(QStringLiteral("created_at >= ") + bind(*filter.since));
    if (filter.until)
        conditions.append(QStringLiteral("created_at < ") + bind(*filter.until));
    return conditions.isEmpty()
               ? QString()
               : QStringLiteral(" WHERE ") + conditions.join(QLatin1String(" AND "));
}

SqlValue optional(const std::optional<double>& v)
{
    return v ? SqlValue(*v) : SqlValue(std::monostate());
}

} // namespace

Result<bool> storeScore(LogBackend& store, const CallScore& s)
{
    const QString sql = QStringLiteral(
        "INSERT INTO call_scores(call_uid, name, kind, value_num, value_label, passed, note, "
        "source, created_at, author) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
        "ON CONFLICT (call_uid, name, source) DO UPDATE SET kind = excluded.kind, "
        "value_num = excluded.value_num, value_label = excluded.value_label, "
        "passed = excluded.passed, note = excluded.note, created_at = excluded.created_at, "
        "author = excluded.author");
    const SqlValue passed = s.passed ? SqlValue(int64_t(*s.passed ? 1 : 0)) : std::monostate();
    Result<int64_t> done = store.execute(sql, {s.callUid, s.name, scoreValueKindName(s.kind),
                                               optional(s.number), s.label, passed, s.note,
                                               scoreSourceName(s.source), s.createdAt, s.author});
    if (!done)
        return done.error();
    return true;
}

Result<int64_t> eraseScore(LogBackend& store, const QString& callUid, const QString& name,
                           ScoreSource source)
{
    return store.execute(QStringLiteral("DELETE FROM call_scores WHERE call_uid = $1 AND "
                                        "name = $2 AND source = $3"),
                         {callUid, name, scoreSourceName(source)});
}

Result<QList<CallScore>> readScores(LogBackend& store, const ScoreFilter& filter)
{
    std::vector<SqlValue> binds;
    QString sql = QStringLiteral("SELECT id, call_uid, name, kind, value_num, value_label, "
                                 "passed, note, source, created_at, author FROM call_scores") +
                  scoreWhere(filter, binds) + QStringLiteral(" ORDER BY created_at DESC, id DESC");
    if (filter.limit > 0)
        sql += QStringLiteral(" LIMIT %1").arg(filter.limit);
    QList<CallScore> out;
    Result<bool> read = store.select(sql, binds, [&out](const SqlRow& r) {
        CallScore s;
        s.id = r.int64(0);
        s.callUid = r.text(1);
        s.name = r.text(2);
        s.kind = scoreValueKindFromName(r.text(3)).value_or(ScoreValueKind::Number);
        if (!r.isNull(4))
            s.number = r.real(4);
        s.label = r.text(5);
        if (!r.isNull(6))
            s.passed = r.int64(6) != 0;
        s.note = r.text(7);
        s.source = scoreSourceFromName(r.text(8)).value_or(ScoreSource::Human);
        s.createdAt = r.int64(9);
        s.author = r.text(10);
        out.append(std::move(s));
    });
    if (!read)
        return read.error();
    return out;
}

Result<QList<ScoreStats>> readScoreStats(LogBackend& store, const ScoreFilter& filter)
{
    std::vector<SqlValue> binds;
    const QString sql = QStringLiteral("SELECT name, count(*), avg(value_num), "
                                       "coalesce(sum(passed), 0), count(passed) FROM call_scores") +
                        scoreWhere(filter, binds) + QStringLiteral(" GROUP BY name ORDER BY name");
    QList<ScoreStats> out;
    Result<bool> read = store.select(sql, binds, [&out](const SqlRow& r) {
        ScoreStats s;
        s.name = r.text(0);
        s.scores = r.int64(1);
        if (!r.isNull(2))
            s.mean = r.real(2);
        s.passed = r.int64(3);
        s.judged = r.int64(4);
        out.append(std::move(s));
    });
    if (!read)
        return read.error();
    return out;
}

Result<QList<ScoreSeries>> readScoreSeries(LogBackend& store, const ScoreFilter& filter,
                                           const SeriesRange& range)
{
    ScoreFilter within = filter;
    within.since = std::max(filter.since.value_or(range.fromMs), range.fromMs);
    within.until = std::min(filter.until.value_or(range.untilMs()), range.untilMs());
    std::vector<SqlValue> binds;
    // The range's numbers are ours (integers): written into the text, as seriesSql() does.
    const QString sql = QStringLiteral("SELECT name, (created_at - %1) / %2 AS bucket, count(*), "
                                       "avg(value_num) FROM call_scores")
                            .arg(range.fromMs)
                            .arg(range.bucketMs) +
                        scoreWhere(within, binds) +
                        QStringLiteral(" GROUP BY name, bucket ORDER BY name, bucket");
    QList<ScoreSeries> out;
    const double none = std::numeric_limits<double>::quiet_NaN();
    Result<bool> read = store.select(sql, binds, [&](const SqlRow& r) {
        const QString name = r.text(0);
        if (out.isEmpty() || out.last().name != name) {
            ScoreSeries s;
            s.name = name;
            s.count.assign(size_t(range.buckets), 0);
            s.mean.assign(size_t(range.buckets), none);
            out.append(std::move(s));
        }
        const int64_t bucket = r.int64(1);
        if (bucket < 0 || bucket >= range.buckets)
            return;
        out.last().count[size_t(bucket)] = r.int64(2);
        if (!r.isNull(3))
            out.last().mean[size_t(bucket)] = r.real(3);
    });
    if (!read)
        return read.error();
    return out;
}

} // namespace hako::promptlog
