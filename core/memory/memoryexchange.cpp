#include "core/memory/memoryexchange.h"

#include "core/memory/hashembedding.h"
#include "core/memory/memorystore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace hako::memory {

namespace {

const char* kFormat = "hako-memory";

Result<QJsonDocument> readJson(const QString& path, bool required)
{
    QFile f(path);
    if (!f.exists() && !required)
        return QJsonDocument();
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    QJsonParseError err;
    QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
    if (doc.isNull())
        return makeError(
            QStringLiteral("%1: %2 at byte %3").arg(path, err.errorString()).arg(err.offset));
    return doc;
}

} // namespace

Result<QJsonObject> exportStore(MemoryStore& store)
{
    MemoryFilter all;
    QJsonArray memories;
    for (State s : {State::Active, State::Archived, State::Deleted}) {
        all.state = s;
        auto list = store.list(all);
        if (!list)
            return list.error();
        for (const MemoryRecord& r : *list) {
            auto full = store.get(r.id, true);
            if (!full)
                return full.error();
            memories.append(full->toJson(true));
        }
    }
    auto journal = store.journal();
    if (!journal)
        return journal.error();
    QJsonArray entries;
    for (const JournalEntry& e : *journal) {
        QJsonObject o;
        o[QStringLiteral("seq")] = qint64(e.seq);
        o[QStringLiteral("at")] = formatTime(e.at);
        o[QStringLiteral("op")] = e.op;
        if (e.memoryId)
            o[QStringLiteral("memory_id")] = qint64(e.memoryId);
        o[QStringLiteral("actor")] = actorName(e.actor);
        o[QStringLiteral("reason")] = e.reason;
        if (!e.runId.isEmpty())
            o[QStringLiteral("run_id")] = e.runId;
        if (!e.nodeId.isEmpty())
            o[QStringLiteral("node_id")] = e.nodeId;
        if (!e.before.isEmpty())
            o[QStringLiteral("before")] = e.before;
        if (!e.after.isEmpty())
            o[QStringLiteral("after")] = e.after;
        entries.append(o);
    }
    QJsonObject doc;
    doc[QStringLiteral("format")] = QLatin1String(kFormat);
    doc[QStringLiteral("version")] = MemoryStore::kSchemaVersion;
    doc[QStringLiteral("embedding_model")] = store.embeddingModel();
    doc[QStringLiteral("embedding_dimension")] = store.embeddingDimension();
    doc[QStringLiteral("memories")] = memories;
    doc[QStringLiteral("journal")] = entries;
    return doc;
}

namespace {

// Adds records whose evidence refers to their old ids; evidence to memories outside the
// batch is kept as it was (the provenance view flags it if broken).
Result<std::vector<int64_t>> addRemapped(MemoryStore& store, std::vector<MemoryRecord> records,
                                         const std::vector<int64_t>& oldIds,
                                         const ChangeContext& ctx)
{
    // Assign new ids in order: the store appends, so the i-th record gets next + i. Evidence
    // must point backwards to be remapped in one pass; sort by old id to make that likely.
    auto ids = store.addBatch(records, ctx);
    if (!ids)
        return ids.error();
    std::map<int64_t, int64_t> map;
    for (size_t i = 0; i < oldIds.size(); ++i)
        map[oldIds[i]] = (*ids)[i];
    for (size_t i = 0; i < records.size(); ++i) {
        if (records[i].evidence.empty())
            continue;
        MemoryRecord r = store.get((*ids)[i], true).value();
        bool changed = false;
        for (int64_t& e : r.evidence) {
            auto it = map.find(e);
            if (it != map.end() && it->second != e) {
                e = it->second;
                changed = true;
            }
        }
        if (changed) {
            ChangeContext c = ctx;
            c.reason = ctx.reason + QStringLiteral(" (evidence ids remapped)");
            if (auto u = store.update(r, c); !u)
                return u.error();
        }
    }
    return ids;
}

// Evidence must name a memory of the same import: a link to anything else would point at an
// unrelated memory of the target store once ids are reassigned.
void dropDanglingEvidence(std::vector<MemoryRecord>& records, const std::vector<int64_t>& oldIds,
                          const QString& label, ImportReport& report)
{
    const std::set<int64_t> known(oldIds.begin(), oldIds.end());
    for (size_t i = 0; i < records.size(); ++i) {
        std::vector<int64_t>& evidence = records[i].evidence;
        for (auto it = evidence.begin(); it != evidence.end();) {
            if (known.count(*it)) {
                ++it;
                continue;
            }
            report.changes.append(QStringLiteral("%1: evidence %2 is not in the import; dropped")
                                      .arg(label.arg(oldIds[i]))
                                      .arg(*it));
            it = evidence.erase(it);
        }
    }
}

} // namespace

Result<ImportReport> importStore(MemoryStore& store, const QJsonObject& document,
                                 const ChangeContext& ctx)
{
    if (document.value(QStringLiteral("format")).toString() != QLatin1String(kFormat))
        return makeError(
            QStringLiteral("not a Hako memory export (no \"format\": \"%1\")").arg(kFormat));
    std::vector<MemoryRecord> records;
    std::vector<int64_t> oldIds;
    ImportReport report;
    const QJsonValue list = document.value(QStringLiteral("memories"));
    if (!list.isArray())
        return makeError(QStringLiteral("\"memories\" is not a list"));
    const QJsonArray memories = list.toArray();
    for (qsizetype i = 0; i < memories.size(); ++i) {
        QString error;
        if (!memories.at(i).isObject())
            return makeError(QStringLiteral("memory %1: not an object").arg(i + 1));
        auto r = MemoryRecord::fromJson(memories.at(i).toObject(), &error);
        if (!r)
            return makeError(QStringLiteral("memory %1: %2").arg(i + 1).arg(error));
        oldIds.push_back(r->id);
        r->id = 0;
        records.push_back(std::move(*r));
    }
    dropDanglingEvidence(records, oldIds, QStringLiteral("memory %1"), report);
    auto ids = addRemapped(store, std::move(records), oldIds, ctx);
    if (!ids)
        return ids.error();
    report.memories = int(ids->size());
    return report;
}

Result<ImportReport> importGenerativeAgents(MemoryStore& store, const QString& dir,
                                            const GaImportOptions& options,
                                            const ChangeContext& ctx, const CancelToken& cancel)
{
    const QDir d(dir);
    auto nodes = readJson(d.filePath(QStringLiteral("nodes.json")), true);
    if (!nodes)
        return nodes.error();
    auto embeddings = readJson(d.filePath(QStringLiteral("embeddings.json")), !options.reembed);
    if (!embeddings)
        return embeddings.error();
    auto kw = readJson(d.filePath(QStringLiteral("kw_strength.json")), false);
    if (!kw)
        return kw.error();
    if (!nodes->isObject())
        return makeError(QStringLiteral("%1: expected an object of \"node_N\" entries")
                             .arg(d.filePath(QStringLiteral("nodes.json"))));
    if (!options.reembed && !embeddings->isObject())
        return makeError(QStringLiteral("%1: expected an object of embedding keys")
                             .arg(d.filePath(QStringLiteral("embeddings.json"))));
    const QJsonObject nodeMap = nodes->object();
    const QJsonObject vectors = embeddings->object();
    ImportReport report;
    for (const QJsonValue v : kw->object())
        report.keywords += int(v.toObject().size());

    struct Node {
        int64_t count;
        QJsonObject o;
    };
    std::vector<Node> ordered;
    for (auto it = nodeMap.begin(); it != nodeMap.end(); ++it) {
        const QJsonObject o = it.value().toObject();
        int64_t count = o.value(QStringLiteral("node_count")).toInteger(0);
        if (count == 0)
            count = it.key().section(QLatin1Char('_'), -1).toLongLong();
        ordered.push_back({count, o});
    }
    std::sort(ordered.begin(), ordered.end(),
              [](const Node& a, const Node& b) { return a.count < b.count; });

    std::vector<MemoryRecord> records;
    std::vector<int64_t> oldIds;
    for (const Node& n : ordered) {
        const QString where = QStringLiteral("%1: node_%2").arg(dir).arg(n.count);
        MemoryRecord r;
        r.agent = options.agent;
        const QString type = n.o.value(QStringLiteral("type")).toString();
        if (type == QLatin1String("event")) {
            r.kind = Kind::Observation;
            ++report.observations;
        } else if (type == QLatin1String("chat")) {
            r.kind = Kind::Chat;
            ++report.chats;
        } else if (type == QLatin1String("thought")) {
            r.kind = Kind::Reflection;
            ++report.reflections;
            for (const QJsonValue f : n.o.value(QStringLiteral("filling")).toArray()) {
                const QString ref = f.toString();
                if (ref.startsWith(QLatin1String("node_")))
                    r.evidence.push_back(ref.mid(5).toLongLong());
            }
        } else {
            return makeError(QStringLiteral("%1: unknown type '%2'").arg(where, type));
        }
        r.text = n.o.value(QStringLiteral("description")).toString();
        const auto created = parseTime(n.o.value(QStringLiteral("created")).toString());
        if (!created)
            return makeError(QStringLiteral("%1: bad created time '%2'")
                                 .arg(where, n.o.value(QStringLiteral("created")).toString()));
        r.createdAt = *created;
        r.lastAccessedAt =
            parseTime(n.o.value(QStringLiteral("last_accessed")).toString()).value_or(*created);
        const QJsonValue poignancy = n.o.value(QStringLiteral("poignancy"));
        if (!poignancy.isUndefined() && !poignancy.isDouble())
            return makeError(QStringLiteral("%1: poignancy is not a number").arg(where));
        const double raw = poignancy.toDouble(5);
        r.importance = int(std::clamp(std::round(raw), 1.0, 10.0));
        if (double(r.importance) != raw)
            report.changes.append(QStringLiteral("node_%1: poignancy %2 stored as %3")
                                      .arg(n.count)
                                      .arg(raw)
                                      .arg(r.importance));
        r.importanceSource = ImportanceSource::Model;
        r.embeddingModel = options.embeddingModel;
        if (options.reembed) {
            if (!options.provider)
                return makeError(QStringLiteral("re-embedding needs a model provider"));
            auto v = embedOne(*options.provider, options.embeddingModel, r.text, cancel);
            if (!v)
                return v.error();
            r.embedding = std::move(v.value());
        } else {
            const QString key = n.o.value(QStringLiteral("embedding_key")).toString();
            const QJsonArray vec = vectors.value(key).toArray();
            if (vec.isEmpty())
                return makeError(QStringLiteral("%1: no embedding for key '%2' in embeddings.json")
                                     .arg(where, key));
            for (qsizetype k = 0; k < vec.size(); ++k) {
                if (!vec.at(k).isDouble())
                    return makeError(
                        QStringLiteral("%1: element %2 of embedding '%3' is not a number")
                            .arg(where)
                            .arg(k + 1)
                            .arg(key));
                r.embedding.push_back(float(vec.at(k).toDouble()));
            }
        }
        oldIds.push_back(n.count);
        records.push_back(std::move(r));
    }
    dropDanglingEvidence(records, oldIds, QStringLiteral("node_%1"), report);
    auto ids = addRemapped(store, std::move(records), oldIds, ctx);
    if (!ids)
        return makeError(QStringLiteral("%1: %2").arg(dir, ids.error().message));
    report.memories = int(ids->size());
    return report;
}

} // namespace hako::memory
