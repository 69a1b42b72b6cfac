#pragma once

// Private to MemoryStore's .cpp files: the connection, the scoring columns and helpers that
// expect the caller to hold the mutex.

#include "core/memory/annindex.h"
#include "core/memory/memorystore.h"
#include "core/memory/sqlitedb.h"

#include <QHash>
#include <QStringList>

#include <atomic>
#include <future>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace hako::memory {

/// The embedding vectors of a store read by loadVectors(): `vectors` holds ids.size() × dim unit
/// vectors in id order, `has[p]` says whether memory p has one.
struct LoadedVectors {
    std::vector<float> vectors;
    std::vector<uint8_t> has;
};

/// Reads every embedding of `dim` floats from `db` for the memories `ids` (ascending) and
/// normalises them. Rows of other memories or sizes are skipped. Stops early (returning an
/// error) when `stop` becomes true.
Result<LoadedVectors> loadVectors(SqliteDb& db, const std::vector<int64_t>& ids, int dim,
                                  const std::atomic<bool>* stop = nullptr);

struct MemoryStore::Impl {
    ~Impl();
    mutable std::mutex mutex;
    QString path;
    StoreOptions options;
    SqliteDb::Mode mode = SqliteDb::Mode::Create;
    QString integrityProblem;
    /// An error when the store is read-only (what `action` cannot do), else nullopt.
    std::optional<Diagnostic> refuseWrite(const char* action) const;
    /// The start of every change to the memories or their vectors: refuses `action` on a
    /// read-only store (nothing is refused when `action` is null), then locks the mutex and
    /// waits for the vectors (awaitVectors()). The mutex stays locked while the result lives.
    Result<std::unique_lock<std::mutex>> lockForChange(const char* action);
    mutable SqliteDb db;
    QString model;
    int dim = 0;

    // Scoring columns, one entry per memory (every state), in id order.
    std::vector<int64_t> ids;
    std::vector<Millis> created;
    std::vector<Millis> accessed;
    std::vector<float> importance;
    std::vector<uint8_t> state;
    std::vector<uint8_t> kind;
    std::vector<uint8_t> hasEmbedding;
    std::vector<int32_t> agent;
    QStringList agents;
    QHash<QString, int32_t> agentIndex;
    std::vector<float> vectors; // ids.size() × dim unit vectors
    std::unordered_map<int64_t, size_t> pos;
    std::unique_ptr<AnnIndex> ann; // built on first approximate search, then kept current

    std::unordered_map<const char*, SqliteStatement> statements;
    /// A prepared statement for `sql` (a string literal: cached by its address), reset.
    SqliteStatement& stmt(const char* sql);

    Result<bool> createSchema();
    /// Reads the scoring columns; the vectors too unless `background`, in which case a
    /// separate connection reads them on another thread (see awaitVectors()).
    Result<bool> loadColumns(bool background = false);
    /// Waits for a background vector load and adopts its result (reading the vectors on this
    /// connection when it failed). Every method that reads or changes `vectors`,
    /// `hasEmbedding` or the set of memories calls it first, under the mutex.
    Result<bool> awaitVectors();
    void cancelVectorLoad();
    std::future<Result<LoadedVectors>> pendingVectors;
    std::shared_ptr<std::atomic<bool>> stopLoading;
    int32_t agentId(const QString& name);
    /// Adds or refreshes the cached columns of `r`.
    void cache(const MemoryRecord& r);
    void setVector(size_t p, const std::vector<float>& v);

    /// Refuses a vector of another model or size; fixes the store's model on the first one.
    Result<bool> acceptEmbedding(const QString& embeddingModel, const std::vector<float>& v);
    Result<MemoryRecord> read(int64_t id, bool withEmbedding) const;
    Result<int64_t> insert(MemoryRecord& r);
    Result<bool> writeRow(const MemoryRecord& r);
    Result<bool> writeEmbedding(const MemoryRecord& r);
    Result<int64_t> journal(const QString& op, int64_t memoryId, const ChangeContext& ctx,
                            const QJsonObject& before, const QJsonObject& after, Millis at = 0);

    // Retrieval's steps (memoryretrieve.cpp), under the mutex.
    /// The query's unit vector, refused when it is missing or of another model or size; empty
    /// when the mode needs none or the store holds no embeddings yet.
    Result<std::vector<float>> unitQuery(const std::vector<float>& queryEmbedding,
                                         const QString& queryModel, RetrievalMode mode) const;
    /// Per position, whether the approximate index counts the memory among the query's
    /// nearest (the index is built on first use).
    std::vector<uint8_t> nearestMask(const std::vector<float>& unitQuery, size_t want, bool byAgent,
                                     size_t activeWithVectors);
    /// The active memories (of `agentFilter`, -1 for all) as ranking inputs, with relevance
    /// computed from `unitQuery` where it may be (`nearest` empty: everywhere).
    std::vector<CandidateInput> candidateInputs(const RetrievalParams& params, int32_t agentFilter,
                                                const std::vector<float>& unitQuery,
                                                const std::vector<uint8_t>& nearest) const;
    /// Journals the retrieval and the access to each memory it put in the prompt, and records
    /// the access times; sets `rec.seq`.
    Result<bool> recordRetrieval(RetrievalRecord& rec, const RetrievalParams& params,
                                 const ChangeContext& ctx);
};

/// Record JSON for the journal: includes the vector (base64 of little-endian float32) so that a
/// revert can restore it.
QJsonObject journalJson(const MemoryRecord& r);
/// The inverse of journalJson().
std::optional<MemoryRecord> recordFromJournal(const QJsonObject& o, QString* error);
QByteArray compactJson(const QJsonObject& o);

} // namespace hako::memory
