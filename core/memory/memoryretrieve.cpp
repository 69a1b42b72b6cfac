// MemoryStore: retrieval, what-if and reading the journal.
#include "core/memory/memorystore.h"

#include "core/memory/memorystore_p.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cstring>

namespace hako::memory {

namespace {

QJsonArray idArray(const std::vector<int64_t>& ids)
{
    QJsonArray a;
    for (int64_t id : ids)
        a.append(qint64(id));
    return a;
}

const char* kInsertRetrieval =
    "INSERT INTO retrievals(seq, query, embedding_model, query_embedding, params, prompt_order, "
    "candidate_count, candidates) VALUES(?,?,?,?,?,?,?,?)";
const char* kTouch =
    "UPDATE memories SET last_accessed_at = ?2, access_count = access_count + 1 WHERE id = ?1";

} // namespace

Result<RetrievalRecord> MemoryStore::retrieve(const QString& query,
                                              const std::vector<float>& queryEmbedding,
                                              const QString& model, RetrievalParams params,
                                              const ChangeContext& ctx)
{
    if (params.k < 0)
        return makeError(QStringLiteral("k must not be negative"));
    if (params.decay <= 0 || params.decay > 1)
        return makeError(QStringLiteral("decay must be in (0, 1], got %1").arg(params.decay));
    if (params.now == 0)
        params.now = nowMillis();
    // A read-only store cannot journal the retrieval nor record the access.
    if (!params.whatIf)
        if (auto refused = d->refuseWrite("record a retrieval (use a what-if retrieval)"))
            return *refused;
    std::lock_guard lock(d->mutex);
    if (auto r = d->awaitVectors(); !r)
        return r.error();
    Impl& s = *d;
    const bool needsQuery = params.mode != RetrievalMode::Recent;
    std::vector<float> unitQuery;
    if (needsQuery && s.dim > 0) {
        if (queryEmbedding.empty())
            return makeError(QStringLiteral("a %1 retrieval needs the query's embedding")
                                 .arg(modeName(params.mode)));
        if (model != s.model)
            return makeError(QStringLiteral("query embedding from model '%1' refused: this store "
                                            "holds embeddings of '%2'")
                                 .arg(model, s.model));
        if (int(queryEmbedding.size()) != s.dim)
            return makeError(QStringLiteral("query embedding of dimension %1 refused: this "
                                            "store's model '%2' has dimension %3")
                                 .arg(queryEmbedding.size())
                                 .arg(s.model)
                                 .arg(s.dim));
        unitQuery = normalized(queryEmbedding);
    }
    const int32_t agentFilter = params.agent.isEmpty() ? -1 : s.agentIndex.value(params.agent, -2);
    const size_t n = s.ids.size();
    const size_t dim = size_t(s.dim);
    size_t activeWithVectors = 0;
    for (size_t p = 0; p < n; ++p)
        activeWithVectors += s.state[p] == uint8_t(State::Active) && s.hasEmbedding[p];

    // Above the threshold, relevance is computed only for the approximate index's nearest.
    const bool approximate = needsQuery && !unitQuery.empty() &&
                             s.options.approximateThreshold > 0 &&
                             int64_t(activeWithVectors) > s.options.approximateThreshold;
    std::vector<uint8_t> nearest;
    if (approximate) {
        if (!s.ann) {
            s.ann = std::make_unique<AnnIndex>(s.dim, activeWithVectors + 1024);
            for (size_t p = 0; p < n; ++p) {
                if (s.state[p] == uint8_t(State::Active) && s.hasEmbedding[p])
                    s.ann->add(s.ids[p], s.vectors.data() + p * dim);
            }
        }
        const size_t want = size_t(std::max(params.k, s.options.approximateCandidates));
        // Other agents' memories share the index: ask for more when filtering by agent.
        const size_t ask = agentFilter >= 0 ? want * 4 : want;
        nearest.assign(n, 0);
        for (int64_t id : s.ann->nearest(unitQuery.data(), ask, ask * 2)) {
            auto it = s.pos.find(id);
            if (it != s.pos.end())
                nearest[it->second] = 1;
        }
    }

    std::vector<CandidateInput> inputs;
    std::vector<size_t> where; // each input's position in the columns
    inputs.reserve(n);
    where.reserve(n);
    for (size_t p = 0; p < n; ++p) {
        if (s.state[p] != uint8_t(State::Active))
            continue;
        if (agentFilter != -1 && s.agent[p] != agentFilter)
            continue;
        CandidateInput in;
        in.id = s.ids[p];
        in.createdAt = s.created[p];
        in.hoursSinceAccess = float(std::max<Millis>(0, params.now - s.accessed[p]) / 3600000.0);
        in.importance = s.importance[p];
        in.hasEmbedding = !needsQuery || (s.hasEmbedding[p] && !unitQuery.empty());
        in.nearest = !approximate || nearest[p];
        inputs.push_back(in);
        where.push_back(p);
    }
    if (needsQuery && !unitQuery.empty()) {
        // The dot products are the whole cost at scale (memory bound): split them in chunks
        // over the thread pool. Each chunk writes only its own inputs.
        const float* vectors = s.vectors.data();
        const float* q = unitQuery.data();
        auto score = [&](size_t from, size_t to) {
            for (size_t i = from; i < to; ++i) {
                CandidateInput& in = inputs[i];
                if (in.hasEmbedding && in.nearest)
                    in.relevance = dot(vectors + where[i] * dim, q, dim);
            }
        };
        const size_t chunk = 8192;
        if (inputs.size() < 2 * chunk) {
            score(0, inputs.size());
        } else {
            std::vector<std::pair<size_t, size_t>> ranges;
            for (size_t from = 0; from < inputs.size(); from += chunk)
                ranges.push_back({from, std::min(inputs.size(), from + chunk)});
            QtConcurrent::blockingMap(
                ranges, [&](const std::pair<size_t, size_t>& r) { score(r.first, r.second); });
        }
    }
    RetrievalRecord rec;
    rec.at = params.now;
    rec.query = query;
    rec.embeddingModel = needsQuery ? model : QString();
    rec.queryEmbedding = needsQuery ? queryEmbedding : std::vector<float>();
    rec.result = rankCandidates(std::move(inputs), params);
    rec.result.approximate = approximate;
    rec.candidateCount = int64_t(rec.result.candidates.size());
    rec.actor = ctx.actor;
    rec.runId = ctx.runId;
    rec.nodeId = ctx.nodeId;
    if (params.whatIf)
        return rec;

    SqliteTransaction tx(s.db);
    if (!tx.begun())
        return makeError(s.db.lastError());
    QJsonObject after;
    after[QStringLiteral("query")] = query;
    after[QStringLiteral("params")] = params.toJson();
    after[QStringLiteral("prompt_order")] = idArray(rec.result.promptOrder);
    after[QStringLiteral("candidates")] = qint64(rec.result.candidates.size());
    after[QStringLiteral("approximate")] = approximate;
    auto seq = s.journal(QStringLiteral("retrieve"), 0, ctx, {}, after, params.now);
    if (!seq)
        return seq.error();
    rec.seq = *seq;
    SqliteStatement& ins = s.stmt(kInsertRetrieval);
    ins.bind(1, rec.seq);
    ins.bind(2, query.isNull() ? QStringLiteral("") : query);
    ins.bind(3, rec.embeddingModel);
    if (rec.queryEmbedding.empty())
        ins.bindNull(4);
    else
        ins.bindBlob(4, rec.queryEmbedding.data(), int(rec.queryEmbedding.size() * sizeof(float)));
    ins.bindText(5, compactJson(params.toJson()));
    ins.bindText(6, QJsonDocument(idArray(rec.result.promptOrder)).toJson(QJsonDocument::Compact));
    ins.bind(7, int64_t(rec.result.candidates.size()));
    const QByteArray blob = encodeCandidates(rec.result.candidates);
    ins.bindBlob(8, blob.constData(), int(blob.size()));
    if (!ins.exec())
        return makeError(s.db.lastError());
    ChangeContext touchCtx = ctx;
    touchCtx.reason = QStringLiteral("retrieval %1").arg(rec.seq);
    for (int64_t id : rec.result.promptOrder) {
        const size_t p = s.pos.at(id);
        SqliteStatement& touch = s.stmt(kTouch);
        touch.bind(1, id);
        touch.bind(2, int64_t(params.now));
        if (!touch.exec())
            return makeError(s.db.lastError());
        SqliteStatement count(s.db, "SELECT access_count FROM memories WHERE id = ?");
        count.bind(1, id);
        const int64_t accessCount = count.step() ? count.int64(0) : 0;
        QJsonObject b{{QStringLiteral("last_accessed_at"), formatTime(s.accessed[p])},
                      {QStringLiteral("access_count"), qint64(accessCount - 1)}};
        QJsonObject a{{QStringLiteral("last_accessed_at"), formatTime(params.now)},
                      {QStringLiteral("access_count"), qint64(accessCount)}};
        if (auto j = s.journal(QStringLiteral("access"), id, touchCtx, b, a, params.now); !j)
            return j.error();
    }
    if (auto c = tx.commit(); !c)
        return c.error();
    for (int64_t id : rec.result.promptOrder)
        s.accessed[s.pos.at(id)] = params.now;
    return rec;
}

Result<RetrievalRecord> MemoryStore::whatIf(int64_t retrievalSeq, RetrievalParams params) const
{
    auto past = retrieval(retrievalSeq);
    if (!past)
        return past.error();
    RetrievalRecord rec = *past;
    std::vector<CandidateInput> inputs;
    inputs.reserve(rec.result.candidates.size());
    for (const Candidate& c : rec.result.candidates)
        inputs.push_back(c.input);
    // The situation is the original one: same candidates, same clock.
    params.now = rec.result.params.now;
    params.agent = rec.result.params.agent;
    params.whatIf = true;
    rec.result = rankCandidates(std::move(inputs), params);
    rec.result.approximate = past->result.approximate;
    rec.seq = 0;
    return rec;
}

Result<std::vector<JournalEntry>> MemoryStore::journal(int64_t memoryId, int limit,
                                                       const QString& op) const
{
    std::lock_guard lock(d->mutex);
    const char* sql[4] = {
        "SELECT seq, at, op, memory_id, actor, reason, run_id, node_id, before, after FROM "
        "journal ORDER BY seq LIMIT ?2",
        "SELECT seq, at, op, memory_id, actor, reason, run_id, node_id, before, after FROM "
        "journal WHERE memory_id = ?1 ORDER BY seq LIMIT ?2",
        "SELECT seq, at, op, memory_id, actor, reason, run_id, node_id, before, after FROM "
        "journal WHERE op = ?3 ORDER BY seq LIMIT ?2",
        "SELECT seq, at, op, memory_id, actor, reason, run_id, node_id, before, after FROM "
        "journal WHERE memory_id = ?1 AND op = ?3 ORDER BY seq LIMIT ?2"};
    SqliteStatement q(d->db, sql[(memoryId > 0 ? 1 : 0) + (op.isEmpty() ? 0 : 2)]);
    if (memoryId > 0)
        q.bind(1, memoryId);
    q.bind(2, int64_t(limit));
    if (!op.isEmpty())
        q.bind(3, op);
    std::vector<JournalEntry> out;
    while (q.step()) {
        JournalEntry e;
        e.seq = q.int64(0);
        e.at = q.int64(1);
        e.op = q.text(2);
        e.memoryId = q.int64(3);
        e.actor = actorFromName(q.text(4)).value_or(Actor::System);
        e.reason = q.text(5);
        e.runId = q.text(6);
        e.nodeId = q.text(7);
        e.before = QJsonDocument::fromJson(q.text(8).toUtf8()).object();
        e.after = QJsonDocument::fromJson(q.text(9).toUtf8()).object();
        out.push_back(std::move(e));
    }
    if (!q.ok())
        return makeError(d->db.lastError());
    return out;
}

namespace {

RetrievalRecord readRetrieval(const SqliteStatement& q, bool withCandidates)
{
    RetrievalRecord r;
    r.seq = q.int64(0);
    r.at = q.int64(1);
    r.actor = actorFromName(q.text(2)).value_or(Actor::System);
    r.runId = q.text(3);
    r.nodeId = q.text(4);
    r.query = q.text(5);
    r.embeddingModel = q.text(6);
    if (!q.isNull(7)) {
        r.queryEmbedding.resize(size_t(q.bytes(7)) / sizeof(float));
        std::memcpy(r.queryEmbedding.data(), q.blob(7), r.queryEmbedding.size() * sizeof(float));
    }
    r.result.params =
        RetrievalParams::fromJson(QJsonDocument::fromJson(q.text(8).toUtf8()).object());
    for (const QJsonValue v : QJsonDocument::fromJson(q.text(9).toUtf8()).array())
        r.result.promptOrder.push_back(v.toInteger());
    r.candidateCount = q.int64(10);
    if (withCandidates) {
        const QByteArray blob(static_cast<const char*>(q.blob(11)), q.bytes(11));
        r.result.candidates = decodeCandidates(blob);
    }
    r.result.approximate = QJsonDocument::fromJson(q.text(12).toUtf8())
                               .object()
                               .value(QStringLiteral("approximate"))
                               .toBool();
    return r;
}

const char* kRetrievalColumns =
    "SELECT j.seq, j.at, j.actor, j.run_id, j.node_id, r.query, r.embedding_model, "
    "r.query_embedding, r.params, r.prompt_order, r.candidate_count, %1, j.after FROM retrievals r "
    "JOIN journal j ON j.seq = r.seq ";

} // namespace

Result<std::vector<RetrievalRecord>> MemoryStore::retrievals(int limit) const
{
    std::lock_guard lock(d->mutex);
    const QByteArray sql = (QString::fromLatin1(kRetrievalColumns).arg(QStringLiteral("NULL")) +
                            QStringLiteral("ORDER BY j.seq DESC LIMIT %1").arg(limit))
                               .toUtf8();
    SqliteStatement q(d->db, std::string_view(sql.constData(), size_t(sql.size())));
    std::vector<RetrievalRecord> out;
    while (q.step())
        out.push_back(readRetrieval(q, false));
    if (!q.ok())
        return makeError(d->db.lastError());
    return out;
}

Result<RetrievalRecord> MemoryStore::retrieval(int64_t seq) const
{
    std::lock_guard lock(d->mutex);
    const QByteArray sql =
        (QString::fromLatin1(kRetrievalColumns).arg(QStringLiteral("r.candidates")) +
         QStringLiteral("WHERE j.seq = ?"))
            .toUtf8();
    SqliteStatement q(d->db, std::string_view(sql.constData(), size_t(sql.size())));
    q.bind(1, seq);
    if (!q.step()) {
        if (!q.ok())
            return makeError(d->db.lastError());
        return makeError(QStringLiteral("no retrieval with journal entry %1").arg(seq));
    }
    return readRetrieval(q, true);
}

} // namespace hako::memory
