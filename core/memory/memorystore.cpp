#include "core/memory/memorystore.h"

#include "core/memory/memorystore_p.h"
#include "core/util/logging.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <cstring>
#include <unistd.h>

namespace hako::memory {

namespace {

const char* kSchema = R"SQL(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS memories(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agent TEXT NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_accessed_at INTEGER NOT NULL,
  access_count INTEGER NOT NULL DEFAULT 0,
  importance INTEGER NOT NULL CHECK(importance BETWEEN 1 AND 10),
  importance_source TEXT NOT NULL,
  evidence TEXT NOT NULL DEFAULT '[]',
  source_thread TEXT,
  source_messages TEXT NOT NULL DEFAULT '[]',
  source_run TEXT,
  source_node TEXT,
  state TEXT NOT NULL DEFAULT 'active',
  version INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS embeddings(
  memory_id INTEGER PRIMARY KEY REFERENCES memories(id),
  model TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  vector BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS journal(
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  op TEXT NOT NULL,
  memory_id INTEGER,
  actor TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  run_id TEXT,
  node_id TEXT,
  before TEXT,
  after TEXT);
CREATE INDEX IF NOT EXISTS journal_memory ON journal(memory_id);
CREATE TABLE IF NOT EXISTS retrievals(
  seq INTEGER PRIMARY KEY REFERENCES journal(seq),
  query TEXT NOT NULL,
  embedding_model TEXT,
  query_embedding BLOB,
  params TEXT NOT NULL,
  prompt_order TEXT NOT NULL,
  candidate_count INTEGER NOT NULL,
  candidates BLOB NOT NULL);
CREATE TRIGGER IF NOT EXISTS journal_append_only_update BEFORE UPDATE ON journal
  BEGIN SELECT RAISE(ABORT, 'the memory journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS journal_append_only_delete BEFORE DELETE ON journal
  BEGIN SELECT RAISE(ABORT, 'the memory journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS retrievals_append_only_update BEFORE UPDATE ON retrievals
  BEGIN SELECT RAISE(ABORT, 'the memory journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS retrievals_append_only_delete BEFORE DELETE ON retrievals
  BEGIN SELECT RAISE(ABORT, 'the memory journal is append-only'); END;
)SQL";

QString idList(const std::vector<int64_t>& ids)
{
    QJsonArray a;
    for (int64_t id : ids)
        a.append(qint64(id));
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

std::vector<int64_t> parseIdList(const QString& json)
{
    std::vector<int64_t> out;
    for (const QJsonValue v : QJsonDocument::fromJson(json.toUtf8()).array())
        out.push_back(v.toInteger());
    return out;
}

} // namespace

QByteArray compactJson(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QJsonObject journalJson(const MemoryRecord& r)
{
    QJsonObject o = r.toJson(false);
    if (!r.embedding.empty()) {
        QJsonObject e = o.value(QStringLiteral("embedding")).toObject();
        const QByteArray raw(reinterpret_cast<const char*>(r.embedding.data()),
                             qsizetype(r.embedding.size() * sizeof(float)));
        e[QStringLiteral("vector_b64")] = QString::fromLatin1(raw.toBase64());
        o[QStringLiteral("embedding")] = e;
    }
    return o;
}

std::optional<MemoryRecord> recordFromJournal(const QJsonObject& o, QString* error)
{
    auto r = MemoryRecord::fromJson(o, error);
    if (!r)
        return r;
    const QByteArray raw = QByteArray::fromBase64(o.value(QStringLiteral("embedding"))
                                                      .toObject()
                                                      .value(QStringLiteral("vector_b64"))
                                                      .toString()
                                                      .toLatin1());
    if (!raw.isEmpty()) {
        r->embedding.resize(size_t(raw.size()) / sizeof(float));
        std::memcpy(r->embedding.data(), raw.constData(), r->embedding.size() * sizeof(float));
    }
    return r;
}

MemoryStore::MemoryStore() : d(std::make_unique<Impl>()) {}
MemoryStore::~MemoryStore() = default;

namespace {

// The first problems SQLite's quick check finds ("" when the file is sound). Bounded: a badly
// damaged file lists thousands.
Result<QString> quickCheck(SqliteDb& db)
{
    SqliteStatement q(db, "PRAGMA quick_check(5)");
    QStringList problems;
    while (q.step())
        if (q.text(0) != QLatin1String("ok"))
            problems.append(q.text(0));
    if (!q.ok())
        return makeError(db.lastError());
    return problems.join(QStringLiteral("; "));
}

bool writableFile(const QString& path)
{
    const QByteArray p = QFile::encodeName(path);
    const QByteArray dir = QFile::encodeName(QFileInfo(path).absolutePath());
    // WAL needs the folder too (the -wal and -shm files live beside the store).
    return ::access(p.constData(), W_OK) == 0 && ::access(dir.constData(), W_OK) == 0;
}

} // namespace

Result<std::shared_ptr<MemoryStore>> MemoryStore::open(const QString& path, StoreOptions options)
{
    std::shared_ptr<MemoryStore> store(new MemoryStore());
    Impl& d = *store->d;
    d.path = path;
    d.options = options;
    const bool exists = QFileInfo::exists(path);
    if (options.readOnly && !exists)
        return makeError(
            QStringLiteral("cannot open memory store %1 read-only: no such file").arg(path));
    if (exists && !options.readOnly && !writableFile(path))
        d.options.readOnly = true; // a store the user may only read is still readable
    d.mode = !d.options.readOnly ? SqliteDb::Mode::Create : SqliteDb::Mode::ReadOnly;
    if (auto r = d.db.open(path, d.mode); !r)
        return r.error();
    if (d.options.readOnly) {
        // Without write access to the folder SQLite cannot build a WAL index: read the file
        // as one nobody changes.
        SqliteStatement probe(d.db, "SELECT count(*) FROM sqlite_master");
        if (!probe.step()) {
            d.mode = SqliteDb::Mode::Immutable;
            if (auto r = d.db.open(path, d.mode); !r)
                return r.error();
        }
    }
    if (exists) {
        auto problems = quickCheck(d.db);
        if (!problems)
            return makeError(QStringLiteral("%1: %2").arg(path, problems.error().message));
        if (!problems->isEmpty()) {
            if (!d.options.readOnly)
                return makeError(
                    QStringLiteral("memory store %1 is damaged (SQLite's quick check: %2). It was "
                                   "not changed; open it read-only to list and export what can "
                                   "be read, then import the export into a new store")
                        .arg(path, *problems));
            d.integrityProblem = *problems;
        }
    }
    // WAL: readers never block the writer and a killed writer leaves the last committed
    // transaction intact; FULL syncs each commit (batches keep that cheap).
    if (!d.options.readOnly) {
        for (const char* pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL"}) {
            if (auto r = d.db.exec(pragma); !r)
                return makeError(QStringLiteral("%1: %2").arg(path, r.error().message));
        }
    }
    if (auto r = d.db.exec("PRAGMA foreign_keys=ON"); !r)
        return makeError(QStringLiteral("%1: %2").arg(path, r.error().message));
    if (auto r = d.createSchema(); !r)
        return makeError(QStringLiteral("%1: %2").arg(path, r.error().message));
    if (auto r = d.loadColumns(true); !r)
        return makeError(QStringLiteral("%1: %2").arg(path, r.error().message));
    return store;
}

bool MemoryStore::isReadOnly() const
{
    return d->options.readOnly;
}

QString MemoryStore::integrityProblem() const
{
    return d->integrityProblem;
}

std::optional<Diagnostic> MemoryStore::Impl::refuseWrite(const char* action) const
{
    if (!options.readOnly)
        return std::nullopt;
    return makeError(QStringLiteral("cannot %1: the memory store %2 is open read-only")
                         .arg(QLatin1String(action), path));
}

Result<std::unique_lock<std::mutex>> MemoryStore::Impl::lockForChange(const char* action)
{
    if (action) {
        if (auto refused = refuseWrite(action))
            return *refused;
    }
    std::unique_lock lock(mutex);
    if (auto r = awaitVectors(); !r)
        return r.error();
    return lock;
}

Result<bool> MemoryStore::Impl::createSchema()
{
    SqliteStatement hasMeta(db, "SELECT count(*) FROM sqlite_master WHERE name='meta'");
    if (!hasMeta.step())
        return makeError(QStringLiteral("not a memory store (%1)").arg(db.lastError()));
    const bool existing = hasMeta.int64(0) > 0;
    if (existing) {
        SqliteStatement v(db, "SELECT value FROM meta WHERE key='schema_version'");
        if (!v.step())
            return makeError(QStringLiteral("not a memory store: no schema_version"));
        const int version = v.text(0).toInt();
        if (version > kSchemaVersion)
            return makeError(QStringLiteral("the memory store has schema version %1; this Hako "
                                            "reads up to version %2")
                                 .arg(version)
                                 .arg(kSchemaVersion));
    } else if (options.readOnly) {
        return makeError(QStringLiteral("not a memory store (no meta table)"));
    } else {
        SqliteTransaction tx(db);
        if (auto r = db.exec(kSchema); !r)
            return r;
        SqliteStatement ins(db, "INSERT INTO meta(key, value) VALUES('schema_version', ?)");
        ins.bind(1, QString::number(kSchemaVersion));
        if (!ins.exec())
            return makeError(db.lastError());
        if (auto r = tx.commit(); !r)
            return r;
    }
    SqliteStatement m(db, "SELECT key, value FROM meta WHERE key IN ('embedding_model', "
                          "'embedding_dimension')");
    while (m.step()) {
        if (m.text(0) == QLatin1String("embedding_model"))
            model = m.text(1);
        else
            dim = m.text(1).toInt();
    }
    return true;
}

int32_t MemoryStore::Impl::agentId(const QString& name)
{
    auto it = agentIndex.find(name);
    if (it != agentIndex.end())
        return it.value();
    const int32_t id = int32_t(agents.size());
    agents.append(name);
    agentIndex.insert(name, id);
    return id;
}

Result<LoadedVectors> loadVectors(SqliteDb& db, const std::vector<int64_t>& ids, int dim,
                                  const std::atomic<bool>* stop)
{
    LoadedVectors out;
    out.vectors.assign(ids.size() * size_t(dim), 0.0f);
    out.has.assign(ids.size(), 0);
    if (dim <= 0)
        return out;
    // Both sides are in id order: a merge walk instead of a hash lookup per row.
    SqliteStatement e(db, "SELECT memory_id, vector FROM embeddings ORDER BY memory_id");
    size_t p = 0;
    while (e.step()) {
        if (stop && (p & 1023) == 0 && stop->load(std::memory_order_relaxed))
            return makeError(QStringLiteral("vector load cancelled"));
        const int64_t id = e.int64(0);
        while (p < ids.size() && ids[p] < id)
            ++p;
        const int bytes = e.bytes(1);
        if (p >= ids.size() || ids[p] != id || bytes != dim * int(sizeof(float)))
            continue;
        float* dst = out.vectors.data() + p * size_t(dim);
        std::memcpy(dst, e.blob(1), size_t(bytes));
        const float len = std::sqrt(dot(dst, dst, size_t(dim)));
        if (len > 0) {
            const float inv = 1.0f / len;
            for (int i = 0; i < dim; ++i)
                dst[i] *= inv;
        }
        out.has[p] = 1;
    }
    if (!e.ok())
        return makeError(db.lastError());
    return out;
}

MemoryStore::Impl::~Impl()
{
    cancelVectorLoad();
}

void MemoryStore::Impl::cancelVectorLoad()
{
    if (!pendingVectors.valid())
        return;
    stopLoading->store(true);
    pendingVectors.wait();
    pendingVectors = {};
}

Result<bool> MemoryStore::Impl::awaitVectors()
{
    if (!pendingVectors.valid())
        return true;
    Result<LoadedVectors> loaded = pendingVectors.get();
    pendingVectors = {};
    if (!loaded) {
        qCWarning(lcMemory) << "background vector load failed, reading again:"
                            << loaded.error().message;
        loaded = loadVectors(db, ids, dim);
        if (!loaded)
            return loaded.error();
    }
    vectors = std::move(loaded->vectors);
    hasEmbedding = std::move(loaded->has);
    return true;
}

Result<bool> MemoryStore::Impl::loadColumns(bool background)
{
    cancelVectorLoad();
    SqliteStatement count(db, "SELECT count(*) FROM memories");
    if (!count.step())
        return makeError(db.lastError());
    const size_t n = size_t(count.int64(0));
    ids.clear();
    created.clear();
    accessed.clear();
    importance.clear();
    state.clear();
    kind.clear();
    hasEmbedding.clear();
    agent.clear();
    agents.clear();
    agentIndex.clear();
    pos.clear();
    ann.reset();
    vectors.clear();
    for (auto* v : {&created, &accessed})
        v->reserve(n);
    ids.reserve(n);
    importance.reserve(n);
    state.reserve(n);
    kind.reserve(n);
    agent.reserve(n);
    pos.reserve(n);
    // Two sequential scans (rows, then vectors by rowid) instead of a join: at 100,000
    // memories the per-row lookups and QString conversions would dominate opening.
    SqliteStatement q(db, "SELECT id, created_at, last_accessed_at, importance, state, kind, agent "
                          "FROM memories ORDER BY id");
    auto enumOf = [](const SqliteStatement& st, int col, auto fromName, auto fallback) {
        const char* p = static_cast<const char*>(st.blob(col));
        const int len = st.bytes(col);
        return uint8_t(fromName(QString::fromLatin1(p, len)).value_or(fallback));
    };
    QByteArray lastAgent;
    int32_t lastAgentId = -1;
    while (q.step()) {
        const size_t p = ids.size();
        if (p >= n)
            break; // another process added rows meanwhile; reload() picks them up
        ids.push_back(q.int64(0));
        created.push_back(q.int64(1));
        accessed.push_back(q.int64(2));
        importance.push_back(float(q.int64(3)));
        // Almost every row is active; compare bytes before building a QString.
        const bool isActive = q.bytes(4) == 6 && std::memcmp(q.blob(4), "active", 6) == 0;
        state.push_back(isActive ? uint8_t(State::Active)
                                 : enumOf(q, 4, stateFromName, State::Active));
        kind.push_back(enumOf(q, 5, kindFromName, Kind::Observation));
        const QByteArray agentBytes =
            QByteArray::fromRawData(static_cast<const char*>(q.blob(6)), q.bytes(6));
        if (lastAgentId < 0 || agentBytes != lastAgent) {
            lastAgent = QByteArray(agentBytes.constData(), agentBytes.size());
            lastAgentId = agentId(QString::fromUtf8(lastAgent));
        }
        agent.push_back(lastAgentId);
        pos.emplace(ids.back(), p);
    }
    if (!q.ok())
        return makeError(db.lastError());
    // The vectors are most of a big store (100,000 × 768 floats = 300 MB): reading them on
    // another connection lets open() return once the small columns are in, and only the first
    // retrieval or change waits for them. WAL gives that connection a consistent snapshot.
    if (background && dim > 0 && !ids.empty()) {
        auto stop = std::make_shared<std::atomic<bool>>(false);
        stopLoading = stop;
        pendingVectors =
            std::async(std::launch::async,
                       [file = path, idsCopy = ids, d = dim, stop,
                        readerMode = mode == SqliteDb::Mode::Immutable
                                         ? mode
                                         : SqliteDb::Mode::ReadOnly]() -> Result<LoadedVectors> {
                           SqliteDb reader;
                           if (auto r = reader.open(file, readerMode); !r)
                               return r.error();
                           return loadVectors(reader, idsCopy, d, stop.get());
                       });
        return true;
    }
    auto loaded = loadVectors(db, ids, dim);
    if (!loaded)
        return loaded.error();
    vectors = std::move(loaded->vectors);
    hasEmbedding = std::move(loaded->has);
    return true;
}

void MemoryStore::Impl::setVector(size_t p, const std::vector<float>& v)
{
    if (dim == 0 || v.size() != size_t(dim)) {
        hasEmbedding[p] = 0;
        return;
    }
    const std::vector<float> unit = normalized(v);
    std::memcpy(vectors.data() + p * size_t(dim), unit.data(), unit.size() * sizeof(float));
    hasEmbedding[p] = 1;
    if (ann && state[p] == uint8_t(State::Active))
        ann->add(ids[p], unit.data());
}

void MemoryStore::Impl::cache(const MemoryRecord& r)
{
    auto it = pos.find(r.id);
    size_t p;
    if (it == pos.end()) {
        p = ids.size();
        ids.push_back(r.id);
        created.push_back(0);
        accessed.push_back(0);
        importance.push_back(0);
        state.push_back(0);
        kind.push_back(0);
        hasEmbedding.push_back(0);
        agent.push_back(0);
        vectors.resize(ids.size() * size_t(dim), 0.0f);
        pos.emplace(r.id, p);
    } else {
        p = it->second;
    }
    created[p] = r.createdAt;
    accessed[p] = r.lastAccessedAt;
    importance[p] = float(r.importance);
    state[p] = uint8_t(r.state);
    kind[p] = uint8_t(r.kind);
    agent[p] = agentId(r.agent);
    setVector(p, r.embedding);
    if (ann && r.state != State::Active)
        ann->remove(r.id);
}

Result<bool> MemoryStore::Impl::acceptEmbedding(const QString& embeddingModel,
                                                const std::vector<float>& v)
{
    if (v.empty())
        return true;
    if (embeddingModel.isEmpty())
        return makeError(QStringLiteral("an embedding needs the name of the model that made it"));
    if (!model.isEmpty() && embeddingModel != model)
        return makeError(QStringLiteral("embedding from model '%1' refused: this store holds "
                                        "embeddings of '%2'")
                             .arg(embeddingModel, model));
    if (dim != 0 && int(v.size()) != dim)
        return makeError(QStringLiteral("embedding of dimension %1 refused: this store's model "
                                        "'%2' has dimension %3")
                             .arg(v.size())
                             .arg(model)
                             .arg(dim));
    if (model.isEmpty()) {
        SqliteStatement s(db, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)");
        s.bind(1, QStringLiteral("embedding_model"));
        s.bind(2, embeddingModel);
        if (!s.exec())
            return makeError(db.lastError());
        s.reset();
        s.bind(1, QStringLiteral("embedding_dimension"));
        s.bind(2, QString::number(v.size()));
        if (!s.exec())
            return makeError(db.lastError());
        model = embeddingModel;
        dim = int(v.size());
        vectors.assign(ids.size() * size_t(dim), 0.0f);
    }
    return true;
}

namespace {

// The columns of a whole record; recordFromRow() reads them from column `first` on.
#define HAKO_MEMORY_COLUMNS                                                                        \
    "m.agent, m.kind, m.text, m.created_at, m.last_accessed_at, m.access_count, m.importance, "    \
    "m.importance_source, m.evidence, m.source_thread, m.source_messages, m.source_run, "          \
    "m.source_node, m.state, m.version, e.model, e.dimension, e.vector FROM memories m LEFT "      \
    "JOIN embeddings e ON e.memory_id = m.id"

MemoryRecord recordFromRow(const SqliteStatement& q, int first, int64_t id, bool withEmbedding)
{
    const int c = first;
    MemoryRecord r;
    r.id = id;
    r.agent = q.text(c + 0);
    r.kind = kindFromName(q.text(c + 1)).value_or(Kind::Observation);
    r.text = q.text(c + 2);
    r.createdAt = q.int64(c + 3);
    r.lastAccessedAt = q.int64(c + 4);
    r.accessCount = q.int64(c + 5);
    r.importance = int(q.int64(c + 6));
    r.importanceSource =
        importanceSourceFromName(q.text(c + 7)).value_or(ImportanceSource::Default);
    r.evidence = parseIdList(q.text(c + 8));
    r.source.threadId = q.text(c + 9);
    // Most memories have no source messages: skip the JSON parser for "[]" and NULL.
    if (q.bytes(c + 10) > 2) {
        for (const QJsonValue v : QJsonDocument::fromJson(q.text(c + 10).toUtf8()).array())
            r.source.messageIds.append(v.toString());
    }
    r.source.runId = q.text(c + 11);
    r.source.nodeId = q.text(c + 12);
    r.state = stateFromName(q.text(c + 13)).value_or(State::Active);
    r.version = q.int64(c + 14);
    r.embeddingModel = q.text(c + 15);
    // Without `withEmbedding` the vector column is never touched, so SQLite does not read its
    // overflow pages; the model field still says that there is one.
    if (withEmbedding && !q.isNull(c + 17)) {
        r.embedding.resize(size_t(q.bytes(c + 17)) / sizeof(float));
        std::memcpy(r.embedding.data(), q.blob(c + 17), r.embedding.size() * sizeof(float));
    }
    return r;
}

} // namespace

Result<MemoryRecord> MemoryStore::Impl::read(int64_t id, bool withEmbedding) const
{
    SqliteStatement q(db, "SELECT " HAKO_MEMORY_COLUMNS " WHERE m.id = ?");
    q.bind(1, id);
    if (!q.step()) {
        if (!q.ok())
            return makeError(db.lastError());
        return makeError(QStringLiteral("no memory with id %1").arg(id));
    }
    return recordFromRow(q, 0, id, withEmbedding);
}

SqliteStatement& MemoryStore::Impl::stmt(const char* sql)
{
    auto it = statements.find(sql);
    if (it == statements.end())
        it = statements.emplace(sql, SqliteStatement(db, sql)).first;
    it->second.reset();
    return it->second;
}

namespace {
const char* kUpdateRow = "UPDATE memories SET agent=?2, kind=?3, text=?4, created_at=?5, "
                         "last_accessed_at=?6, access_count=?7, importance=?8, "
                         "importance_source=?9, evidence=?10, source_thread=?11, "
                         "source_messages=?12, source_run=?13, source_node=?14, state=?15, "
                         "version=?16 WHERE id=?1";
const char* kInsertRow = "INSERT INTO memories(agent, kind, text, created_at, last_accessed_at, "
                         "access_count, importance, importance_source, evidence, source_thread, "
                         "source_messages, source_run, source_node, state, version) "
                         "VALUES(?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)";
const char* kDeleteEmbedding = "DELETE FROM embeddings WHERE memory_id = ?";
const char* kPutEmbedding = "INSERT OR REPLACE INTO embeddings(memory_id, model, dimension, "
                            "vector) VALUES(?,?,?,?)";
const char* kJournal = "INSERT INTO journal(at, op, memory_id, actor, reason, run_id, node_id, "
                       "before, after) VALUES(?,?,?,?,?,?,?,?,?)";

void bindRow(SqliteStatement& s, const MemoryRecord& r)
{
    s.bind(2, r.agent);
    s.bind(3, kindName(r.kind));
    s.bind(4, r.text.isNull() ? QStringLiteral("") : r.text);
    s.bind(5, int64_t(r.createdAt));
    s.bind(6, int64_t(r.lastAccessedAt));
    s.bind(7, r.accessCount);
    s.bind(8, int64_t(r.importance));
    s.bind(9, importanceSourceName(r.importanceSource));
    s.bind(10, idList(r.evidence));
    s.bind(11, r.source.threadId);
    s.bindText(12, QJsonDocument(QJsonArray::fromStringList(r.source.messageIds))
                       .toJson(QJsonDocument::Compact));
    s.bind(13, r.source.runId);
    s.bind(14, r.source.nodeId);
    s.bind(15, stateName(r.state));
    s.bind(16, r.version);
}
} // namespace

Result<bool> MemoryStore::Impl::writeEmbedding(const MemoryRecord& r)
{
    if (r.embedding.empty()) {
        SqliteStatement& del = stmt(kDeleteEmbedding);
        del.bind(1, r.id);
        if (!del.exec())
            return makeError(db.lastError());
        return true;
    }
    SqliteStatement& e = stmt(kPutEmbedding);
    e.bind(1, r.id);
    e.bind(2, r.embeddingModel);
    e.bind(3, int64_t(r.embedding.size()));
    e.bindBlob(4, r.embedding.data(), int(r.embedding.size() * sizeof(float)));
    if (!e.exec())
        return makeError(db.lastError());
    return true;
}

Result<bool> MemoryStore::Impl::writeRow(const MemoryRecord& r)
{
    SqliteStatement& s = stmt(kUpdateRow);
    s.bind(1, r.id);
    bindRow(s, r);
    if (!s.exec())
        return makeError(db.lastError());
    return writeEmbedding(r);
}

Result<int64_t> MemoryStore::Impl::insert(MemoryRecord& r)
{
    if (r.importance < 1 || r.importance > 10)
        return makeError(
            QStringLiteral("importance must be between 1 and 10, got %1").arg(r.importance));
    if (r.text.trimmed().isEmpty())
        return makeError(QStringLiteral("a memory needs text"));
    if (auto ok = acceptEmbedding(r.embeddingModel, r.embedding); !ok)
        return ok.error();
    if (r.createdAt == 0)
        r.createdAt = nowMillis();
    if (r.lastAccessedAt == 0)
        r.lastAccessedAt = r.createdAt;
    if (r.agent.isEmpty())
        r.agent = QStringLiteral("default");
    r.version = 1;
    SqliteStatement& s = stmt(kInsertRow);
    bindRow(s, r);
    if (!s.exec())
        return makeError(db.lastError());
    r.id = db.lastInsertRowId();
    if (auto w = writeEmbedding(r); !w)
        return w.error();
    return r.id;
}

Result<int64_t> MemoryStore::Impl::journal(const QString& op, int64_t memoryId,
                                           const ChangeContext& ctx, const QJsonObject& before,
                                           const QJsonObject& after, Millis at)
{
    SqliteStatement& s = stmt(kJournal);
    s.bind(1, int64_t(at ? at : nowMillis()));
    s.bind(2, op);
    if (memoryId > 0)
        s.bind(3, memoryId);
    else
        s.bindNull(3);
    s.bind(4, actorName(ctx.actor));
    s.bind(5, ctx.reason.isNull() ? QStringLiteral("") : ctx.reason);
    s.bind(6, ctx.runId);
    s.bind(7, ctx.nodeId);
    if (before.isEmpty())
        s.bindNull(8);
    else
        s.bindText(8, compactJson(before));
    if (after.isEmpty())
        s.bindNull(9);
    else
        s.bindText(9, compactJson(after));
    if (!s.exec())
        return makeError(db.lastError());
    return db.lastInsertRowId();
}

QString MemoryStore::path() const
{
    return d->path;
}

QString MemoryStore::embeddingModel() const
{
    std::lock_guard lock(d->mutex);
    return d->model;
}

int MemoryStore::embeddingDimension() const
{
    std::lock_guard lock(d->mutex);
    return d->dim;
}

Result<bool> MemoryStore::waitForVectors()
{
    std::lock_guard lock(d->mutex);
    return d->awaitVectors();
}

Result<bool> MemoryStore::reload()
{
    std::lock_guard lock(d->mutex);
    if (auto r = d->createSchema(); !r)
        return r;
    return d->loadColumns();
}

Result<int64_t> MemoryStore::add(MemoryRecord record, const ChangeContext& ctx)
{
    std::vector<MemoryRecord> one;
    one.push_back(std::move(record));
    auto r = addBatch(std::move(one), ctx);
    if (!r)
        return r.error();
    return r->front();
}

Result<std::vector<int64_t>> MemoryStore::addBatch(std::vector<MemoryRecord> records,
                                                   const ChangeContext& ctx)
{
    const auto lock = d->lockForChange("add memories");
    if (!lock)
        return lock.error();
    const QString model = d->model;
    const int dim = d->dim;
    SqliteTransaction tx(d->db);
    if (!tx.begun())
        return makeError(d->db.lastError());
    std::vector<int64_t> ids;
    ids.reserve(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        MemoryRecord& r = records[i];
        auto id = d->insert(r);
        if (!id) {
            // The transaction rolls back: restore what acceptEmbedding may have fixed.
            d->model = model;
            d->dim = dim;
            d->vectors.resize(d->ids.size() * size_t(dim));
            QString msg = id.error().message;
            if (records.size() > 1)
                msg = QStringLiteral("memory %1 of %2: %3").arg(i + 1).arg(records.size()).arg(msg);
            return makeError(msg);
        }
        if (auto j = d->journal(QStringLiteral("add"), r.id, ctx, {}, r.toJson(false)); !j)
            return j.error();
        ids.push_back(r.id);
    }
    if (auto c = tx.commit(); !c) {
        d->model = model;
        d->dim = dim;
        return c.error();
    }
    if (dim != d->dim)
        d->vectors.assign(d->ids.size() * size_t(d->dim), 0.0f);
    for (const MemoryRecord& r : records)
        d->cache(r);
    return ids;
}

Result<MemoryRecord> MemoryStore::get(int64_t id, bool withEmbedding) const
{
    std::lock_guard lock(d->mutex);
    return d->read(id, withEmbedding);
}

Result<std::vector<MemoryRecord>> MemoryStore::list(const MemoryFilter& filter) const
{
    std::lock_guard lock(d->mutex);
    // One query for every row: a statement per memory made 100,000 records take seconds.
    QString sql = QStringLiteral("SELECT m.id, " HAKO_MEMORY_COLUMNS " WHERE 1");
    if (!filter.agent.isEmpty())
        sql += QStringLiteral(" AND m.agent = :agent");
    if (filter.kind)
        sql += QStringLiteral(" AND m.kind = '%1'").arg(kindName(*filter.kind));
    if (filter.state)
        sql += QStringLiteral(" AND m.state = '%1'").arg(stateName(*filter.state));
    else
        sql += QStringLiteral(" AND m.state != 'deleted'");
    sql += QStringLiteral(" ORDER BY m.id LIMIT %1 OFFSET %2").arg(filter.limit).arg(filter.offset);
    const QByteArray utf8 = sql.toUtf8();
    SqliteStatement q(d->db, std::string_view(utf8.constData(), size_t(utf8.size())));
    if (!filter.agent.isEmpty())
        q.bind(1, filter.agent);
    std::vector<MemoryRecord> out;
    while (q.step())
        out.push_back(recordFromRow(q, 1, q.int64(0), false));
    if (!q.ok())
        return makeError(d->db.lastError());
    return out;
}

int64_t MemoryStore::count(std::optional<State> state) const
{
    std::lock_guard lock(d->mutex);
    if (!state)
        return int64_t(d->ids.size());
    int64_t n = 0;
    for (uint8_t s : d->state)
        n += s == uint8_t(*state) ? 1 : 0;
    return n;
}

int64_t MemoryStore::importanceSinceLastReflection(const QString& agent) const
{
    std::lock_guard lock(d->mutex);
    SqliteStatement q(d->db,
                      "SELECT COALESCE(SUM(importance), 0) FROM memories WHERE agent = ?1 AND "
                      "state != 'deleted' AND kind IN ('observation', 'chat', 'insight') AND id > "
                      "COALESCE((SELECT MAX(id) FROM memories WHERE agent = ?1 AND kind = "
                      "'reflection'), 0)");
    q.bind(1, agent);
    return q.step() ? q.int64(0) : 0;
}

Result<bool> MemoryStore::integrityCheck() const
{
    std::lock_guard lock(d->mutex);
    SqliteStatement q(d->db, "PRAGMA integrity_check");
    QStringList problems;
    while (q.step()) {
        if (q.text(0) != QLatin1String("ok"))
            problems.append(q.text(0));
    }
    if (!q.ok())
        return makeError(d->db.lastError());
    if (!problems.isEmpty())
        return makeError(QStringLiteral("integrity check failed: %1").arg(problems.join(u"; ")));
    return true;
}

} // namespace hako::memory
