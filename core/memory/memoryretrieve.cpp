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

Result<std::vector<float>> MemoryStore::Impl::unitQuery(const std::vector<float>& queryEmbedding,
                                                        const QString& queryModel,
                                                        RetrievalMode mode) const
{
    if (mode == RetrievalMode::Recent || dim <= 0)
        return std::vector<float>();
    if (queryEmbedding.empty())
        return makeError(
            QStringLiteral("a %1 retrieval needs the query's embedding").arg(modeName(mode)));
    if (queryModel != model)
        return makeError(QStringLiteral("query embedding from model '%1' refused: this store "
                                        "holds embeddings of '%2'")
                             .arg(queryModel, model));
    if (int(queryEmbedding.size()) != dim)
        return makeError(QStringLiteral("query embedding of dimension %1 refused: this "
                                        "store's model '%2' has dimension %3")
                             .arg(queryEmbedding.size())
                             .arg(model)
                             .arg(dim));
    return normalized(queryEmbedding);
}

std::vector<uint8_t> MemoryStore::Impl::nearestMask(const std::vector<float>& unitQuery,
                                                    size_t want, bool byAgent,
                                                    size_t activeWithVectors)
{
    const size_t n = ids.size();
    if (!ann) {
        ann = std::make_unique<AnnIndex>(dim, activeWithVectors + 1024);
        for (size_t p = 0; p < n; ++p) {
            if (state[p] == uint8_t(State::Active) && hasEmbedding[p])
                ann->add(ids[p], vectors.data() + p * size_t(dim));
        }
    }
    // Other agents' memories share the index: ask for more when filtering by agent.
    const size_t ask = byAgent ? want * 4 : want;
    std::vector<uint8_t> nearest(n, 0);
    for (int64_t id : ann->nearest(unitQuery.data(), ask, ask * 2)) {
        auto it = pos.find(id);
        if (it != pos.end())
            nearest[it->second] = 1;
    }
    return nearest;
}

std::vector<CandidateInput>
MemoryStore::Impl::candidateInputs(const RetrievalParams& params, int32_t agentFilter,
                                   const std::vector<float>& unitQuery,
                                   const std::vector<uint8_t>& nearest) const
{
    const bool needsQuery = params.mode != RetrievalMode::Recent;
    const size_t n = ids.size();
    std::vector<CandidateInput> inputs;
    std::vector<size_t> where; // each input's position in the columns
    inputs.reserve(n);
    where.reserve(n);
    for (size_t p = 0; p < n; ++p) {
        if (state[p] != uint8_t(State::Active))
            continue;
        if (agentFilter != -1 && agent[p] != agentFilter)
            continue;
        CandidateInput in;
        in.id = ids[p];
        in.createdAt = created[p];
        in.hoursSinceAccess = float(std::max<Millis>(0, params.now - accessed[p]) / 3600000.0);
        in.importance = importance[p];
        in.hasEmbedding = !needsQuery || (hasEmbedding[p] && !unitQuery.empty());
        in.nearest = nearest.empty() || nearest[p];
        inputs.push_back(in);
        where.push_back(p);
    }
    if (!needsQuery || unitQuery.empty())
        return inputs;
    // The dot products are the whole cost at scale (memory bound): split them in chunks over
    // the thread pool. Each chunk writes only its own inputs.
    const size_t d = size_t(dim);
    const float* v = vectors.data();
    const float* q = unitQuery.data();
    auto score = [&](size_t from, size_t to) {
        for (size_t i = from; i < to; ++i) {
            CandidateInput& in = inputs[i];
            if (in.hasEmbedding && in.nearest)
                in.relevance = dot(v + where[i] * d, q, d);
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
    return inputs;
}

Result<bool> MemoryStore::Impl::recordRetrieval(RetrievalRecord& rec, const RetrievalParams& params,
                                                const ChangeContext& ctx)
{
    SqliteTransaction tx(db);
    if (!tx.begun())
        return makeError(db.lastError());
    QJsonObject after;
    after[QStringLiteral("query")] = rec.query;
    after[QStringLiteral("params")] = params.toJson();
    after[QStringLiteral("prompt_order")] = idArray(rec.result.promptOrder);
    after[QStringLiteral("candidates")] = qint64(rec.result.candidates.size());
    after[QStringLiteral("approximate")] = rec.result.approximate;
    auto seq = journal(QStringLiteral("retrieve"), 0, ctx, {}, after, params.now);
    if (!seq)
        return seq.error();
    rec.seq = *seq;
    SqliteStatement& ins = stmt(kInsertRetrieval);
    ins.bind(1, rec.seq);
    ins.bind(2, rec.query.isNull() ? QStringLiteral("") : rec.query);
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
        return makeError(db.lastError());
    ChangeContext touchCtx = ctx;
    touchCtx.reason = QStringLiteral("retrieval %1").arg(rec.seq);
    for (int64_t id : rec.result.promptOrder) {
        const size_t p = pos.at(id);
        SqliteStatement& touch = stmt(kTouch);
        touch.bind(1, id);
        touch.bind(2, int64_t(params.now));
        if (!touch.exec())
            return makeError(db.lastError());
        SqliteStatement count(db, "SELECT access_count FROM memories WHERE id = ?");
        count.bind(1, id);
        const int64_t accessCount = count.step() ? count.int64(0) : 0;
        QJsonObject b{{QStringLiteral("last_accessed_at"), formatTime(accessed[p])},
                      {QStringLiteral("access_count"), qint64(accessCount - 1)}};
        QJsonObject a{{QStringLiteral("last_accessed_at"), formatTime(params.now)},
                      {QStringLiteral("access_count"), qint64(accessCount)}};
        if (auto j = journal(QStringLiteral("access"), id, touchCtx, b, a, params.now); !j)
            return j.error();
    }
    if (auto c = tx.commit(); !c)
        return c.error();
    for (int64_t id : rec.result.promptOrder)
        accessed[pos.at(id)] = params.now;
    return true;
}

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
    const auto lock =
        d->lockForChange(params.whatIf ? nullptr : "record a retrieval (use a what-if retrieval)");
    if (!lock)
        return lock.error();
    Impl& s = *d;
    const bool needsQuery = params.mode != RetrievalMode::Recent;
    Result<std::vector<float>> unitQuery = s.unitQuery(queryEmbedding, model, params.mode);
    if (!unitQuery)
        return unitQuery.error();
    const int32_t agentFilter = params.agent.isEmpty() ? -1 : s.agentIndex.value(params.agent, -2);
    size_t activeWithVectors = 0;
    for (size_t p = 0; p < s.ids.size(); ++p)
        activeWithVectors += s.state[p] == uint8_t(State::Active) && s.hasEmbedding[p];
    // Above the threshold, relevance is computed only for the approximate index's nearest.
    const bool approximate = needsQuery && !unitQuery->empty() &&
                             s.options.approximateThreshold > 0 &&
                             int64_t(activeWithVectors) > s.options.approximateThreshold;
    const std::vector<uint8_t> nearest =
        approximate
            ? s.nearestMask(*unitQuery, size_t(std::max(params.k, s.options.approximateCandidates)),
                            agentFilter >= 0, activeWithVectors)
            : std::vector<uint8_t>();
    RetrievalRecord rec;
    rec.at = params.now;
    rec.query = query;
    rec.embeddingModel = needsQuery ? model : QString();
    rec.queryEmbedding = needsQuery ? queryEmbedding : std::vector<float>();
    rec.result =
        rankCandidates(s.candidateInputs(params, agentFilter, *unitQuery, nearest), params);
    rec.result.approximate = approximate;
    rec.candidateCount = int64_t(rec.result.candidates.size());
    rec.actor = ctx.actor;
    rec.runId = ctx.runId;
    rec.nodeId = ctx.nodeId;
    if (params.whatIf)
        return rec;
    if (auto recorded = s.recordRetrieval(rec, params, ctx); !recorded)
        return recorded.error();
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
