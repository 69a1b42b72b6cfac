#include "core/memory/memoryrecord.h"

#include <QDateTime>
#include <QJsonArray>

#include <array>

namespace hako::memory {

namespace {

template <typename E, size_t N>
std::optional<E> fromTable(const std::array<const char*, N>& names, const QString& name)
{
    for (size_t i = 0; i < N; ++i) {
        if (name == QLatin1String(names[i]))
            return static_cast<E>(i);
    }
    return std::nullopt;
}

constexpr std::array<const char*, 5> kKinds = {"observation", "insight", "reflection", "chat",
                                               "summary"};
constexpr std::array<const char*, 3> kStates = {"active", "archived", "deleted"};
constexpr std::array<const char*, 3> kSources = {"model", "manual", "default"};
constexpr std::array<const char*, 3> kActors = {"agent", "user", "system"};

} // namespace

QString kindName(Kind k)
{
    return QLatin1String(kKinds[static_cast<size_t>(k)]);
}
std::optional<Kind> kindFromName(const QString& name)
{
    return fromTable<Kind>(kKinds, name);
}
QString stateName(State s)
{
    return QLatin1String(kStates[static_cast<size_t>(s)]);
}
std::optional<State> stateFromName(const QString& name)
{
    return fromTable<State>(kStates, name);
}
QString importanceSourceName(ImportanceSource s)
{
    return QLatin1String(kSources[static_cast<size_t>(s)]);
}
std::optional<ImportanceSource> importanceSourceFromName(const QString& name)
{
    return fromTable<ImportanceSource>(kSources, name);
}
QString actorName(Actor a)
{
    return QLatin1String(kActors[static_cast<size_t>(a)]);
}
std::optional<Actor> actorFromName(const QString& name)
{
    return fromTable<Actor>(kActors, name);
}

QString formatTime(Millis ms)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    return t.toString(ms % 1000 == 0 ? QStringLiteral("yyyy-MM-ddTHH:mm:ssZ")
                                     : QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"));
}

std::optional<Millis> parseTime(const QString& text)
{
    QString s = text.trimmed();
    if (s.isEmpty())
        return std::nullopt;
    // Generative Agents writes "2023-02-13 00:00:00": accept a space for the 'T'.
    if (s.size() > 10 && s.at(10) == QLatin1Char(' '))
        s[10] = QLatin1Char('T');
    QDateTime t;
    if (s.size() == 10) {
        t = QDateTime(QDate::fromString(s, Qt::ISODate), QTime(0, 0), Qt::UTC);
    } else {
        t = QDateTime::fromString(s, Qt::ISODateWithMs);
        if (t.isValid() && t.timeSpec() == Qt::LocalTime)
            t = QDateTime(t.date(), t.time(), Qt::UTC);
    }
    if (!t.isValid())
        return std::nullopt;
    return t.toMSecsSinceEpoch();
}

Millis nowMillis()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QJsonObject MemoryRecord::toJson(bool withEmbedding) const
{
    QJsonObject o;
    o[QStringLiteral("id")] = qint64(id);
    o[QStringLiteral("agent")] = agent;
    o[QStringLiteral("kind")] = kindName(kind);
    o[QStringLiteral("text")] = text;
    o[QStringLiteral("created_at")] = formatTime(createdAt);
    o[QStringLiteral("last_accessed_at")] = formatTime(lastAccessedAt);
    o[QStringLiteral("access_count")] = qint64(accessCount);
    o[QStringLiteral("importance")] = importance;
    o[QStringLiteral("importance_source")] = importanceSourceName(importanceSource);
    if (!embeddingModel.isEmpty() || !embedding.empty()) {
        QJsonObject e;
        e[QStringLiteral("model")] = embeddingModel;
        e[QStringLiteral("dimension")] = int(embedding.size());
        if (withEmbedding) {
            QJsonArray v;
            for (float f : embedding)
                v.append(double(f));
            e[QStringLiteral("vector")] = v;
        }
        o[QStringLiteral("embedding")] = e;
    }
    QJsonArray ev;
    for (int64_t e : evidence)
        ev.append(qint64(e));
    o[QStringLiteral("evidence")] = ev;
    QJsonObject src;
    if (!source.threadId.isEmpty())
        src[QStringLiteral("thread_id")] = source.threadId;
    if (!source.messageIds.isEmpty())
        src[QStringLiteral("message_ids")] = QJsonArray::fromStringList(source.messageIds);
    if (!source.runId.isEmpty())
        src[QStringLiteral("run_id")] = source.runId;
    if (!source.nodeId.isEmpty())
        src[QStringLiteral("node_id")] = source.nodeId;
    o[QStringLiteral("source")] = src;
    o[QStringLiteral("state")] = stateName(state);
    o[QStringLiteral("version")] = qint64(version);
    return o;
}

std::optional<MemoryRecord> MemoryRecord::fromJson(const QJsonObject& o, QString* error)
{
    auto fail = [&](const QString& message) -> std::optional<MemoryRecord> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    MemoryRecord r;
    r.id = o.value(QStringLiteral("id")).toInteger(0);
    if (o.contains(QStringLiteral("agent")))
        r.agent = o.value(QStringLiteral("agent")).toString();
    if (o.contains(QStringLiteral("kind"))) {
        const auto k = kindFromName(o.value(QStringLiteral("kind")).toString());
        if (!k)
            return fail(QStringLiteral("unknown kind '%1'")
                            .arg(o.value(QStringLiteral("kind")).toString()));
        r.kind = *k;
    }
    r.text = o.value(QStringLiteral("text")).toString();
    for (const char* field : {"created_at", "last_accessed_at"}) {
        const QString key = QLatin1String(field);
        if (!o.contains(key))
            continue;
        const auto t = parseTime(o.value(key).toString());
        if (!t)
            return fail(
                QStringLiteral("%1: not an ISO-8601 time: '%2'").arg(key, o.value(key).toString()));
        (key == QLatin1String("created_at") ? r.createdAt : r.lastAccessedAt) = *t;
    }
    r.accessCount = o.value(QStringLiteral("access_count")).toInteger(0);
    const QJsonValue importance = o.value(QStringLiteral("importance"));
    if (!importance.isUndefined() && !importance.isDouble())
        return fail(QStringLiteral("importance is not a number"));
    r.importance = importance.toInt(5);
    if (importance.isDouble() && double(r.importance) != importance.toDouble())
        return fail(
            QStringLiteral("importance %1 is not a whole number").arg(importance.toDouble()));
    if (o.contains(QStringLiteral("importance_source"))) {
        const auto s =
            importanceSourceFromName(o.value(QStringLiteral("importance_source")).toString());
        if (!s)
            return fail(QStringLiteral("unknown importance_source"));
        r.importanceSource = *s;
    }
    const QJsonObject e = o.value(QStringLiteral("embedding")).toObject();
    r.embeddingModel = e.value(QStringLiteral("model")).toString();
    const QJsonArray vector = e.value(QStringLiteral("vector")).toArray();
    for (qsizetype k = 0; k < vector.size(); ++k) {
        if (!vector.at(k).isDouble())
            return fail(QStringLiteral("element %1 of the embedding is not a number").arg(k + 1));
        r.embedding.push_back(float(vector.at(k).toDouble()));
    }
    for (const QJsonValue v : o.value(QStringLiteral("evidence")).toArray()) {
        if (!v.isDouble())
            return fail(QStringLiteral("evidence holds something other than a memory id"));
        r.evidence.push_back(v.toInteger());
    }
    const QJsonObject src = o.value(QStringLiteral("source")).toObject();
    r.source.threadId = src.value(QStringLiteral("thread_id")).toString();
    for (const QJsonValue v : src.value(QStringLiteral("message_ids")).toArray())
        r.source.messageIds.append(v.toString());
    r.source.runId = src.value(QStringLiteral("run_id")).toString();
    r.source.nodeId = src.value(QStringLiteral("node_id")).toString();
    if (o.contains(QStringLiteral("state"))) {
        const auto s = stateFromName(o.value(QStringLiteral("state")).toString());
        if (!s)
            return fail(QStringLiteral("unknown state"));
        r.state = *s;
    }
    r.version = o.value(QStringLiteral("version")).toInteger(1);
    return r;
}

} // namespace hako::memory
