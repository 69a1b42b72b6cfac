#pragma once

#include "core/memory/memoryrecord.h"
#include "core/memory/retrieval.h"
#include "core/util/diagnostic.h"

#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace hako::memory {

/// Who makes a change and why: goes into every journal entry.
struct ChangeContext {
    Actor actor = Actor::System;
    QString reason;
    QString runId;
    QString nodeId;
};

/// One journal entry. `op` is add, update, state, merge, access or retrieve; `before`/`after`
/// are record JSON (for retrieve: the query, parameters and prompt order in `after`).
struct JournalEntry {
    int64_t seq = 0;
    Millis at = 0;
    QString op;
    int64_t memoryId = 0; ///< 0 for retrievals
    Actor actor = Actor::System;
    QString reason;
    QString runId;
    QString nodeId;
    QJsonObject before;
    QJsonObject after;
};

/// A journaled retrieval: what was asked and the full scoring.
struct RetrievalRecord {
    int64_t seq = 0; ///< its journal entry (0 for a what-if run)
    Millis at = 0;
    QString query;
    QString embeddingModel;
    std::vector<float> queryEmbedding;
    RetrievalResult result;
    int64_t candidateCount = 0; ///< also known when the candidates were not read
    Actor actor = Actor::System;
    QString runId;
    QString nodeId;
};

/// Which memories list() returns.
struct MemoryFilter {
    QString agent; ///< empty = every agent
    std::optional<Kind> kind;
    std::optional<State> state; ///< unset = active and archived (deleted only when asked)
    int limit = -1;
    int offset = 0;
};

struct StoreOptions {
    /// Active memories with embeddings above which seed/ga retrievals use the approximate
    /// (HNSW) index instead of scoring every memory. 0 = always exact.
    int64_t approximateThreshold = 250000;
    /// Candidates the approximate index returns for scoring (at least k).
    int approximateCandidates = 200;
    /// Open without ever writing: no schema creation, no journal, no access times. A store in a
    /// file or folder the user may not write is opened this way by itself. Changes fail with
    /// a message saying the store is read-only; retrievals need `whatIf`.
    bool readOnly = false;
};

/// The agent-memory store of one workspace: one SQLite file in WAL mode holding the memories,
/// their embeddings, and an append-only journal of every change and every retrieval.
///
/// Threading: every method may be called from any thread; calls are serialised on an internal
/// mutex over one SQLite connection, so run them off the GUI thread. Several processes may open
/// the same file (WAL); call reload() to see another process's changes. Shared ownership
/// (std::shared_ptr) lets bindings and views keep the store alive.
///
/// Embeddings: the first embedding fixes the store's model and dimension; vectors of another
/// model or size are refused with a message. Scoring uses in-memory contiguous unit vectors.
class MemoryStore {
public:
    static constexpr int kSchemaVersion = 1;

    /// Opens (creating when missing) the store at `path`, checks or creates its schema and loads
    /// the scoring columns. An existing file must pass SQLite's quick check: a damaged store is
    /// refused (the message says so and how to read it) unless opened read-only, which opens it
    /// and reports the damage in integrityProblem(). The embedding vectors (most of a big store)
    /// are read on a second connection in the background: count(), list(), get() and the journal
    /// answer at once; retrievals and changes wait for the vectors first.
    static Result<std::shared_ptr<MemoryStore>> open(const QString& path,
                                                     StoreOptions options = {});
    ~MemoryStore();

    QString path() const;
    /// Whether the store was opened read-only (asked for, or the file cannot be written).
    bool isReadOnly() const;
    /// What SQLite's quick check found wrong when the store was opened (empty: nothing).
    QString integrityProblem() const;
    /// The embedding model and dimension fixed by the first embedding (empty / 0 before).
    QString embeddingModel() const;
    int embeddingDimension() const;
    /// Re-reads the scoring columns (after another process wrote).
    Result<bool> reload();
    /// Blocks until the vectors open() reads in the background are in memory.
    Result<bool> waitForVectors();

    /// Adds one memory (id, version and missing times are assigned); returns its id.
    Result<int64_t> add(MemoryRecord record, const ChangeContext& ctx);
    /// Adds many in one transaction: all or none. Returns the ids in order.
    Result<std::vector<int64_t>> addBatch(std::vector<MemoryRecord> records,
                                          const ChangeContext& ctx);
    /// Replaces the editable fields (agent, kind, text, importance and its source, embedding,
    /// evidence, source) of memory `record.id`; bumps the version; journals before/after.
    Result<MemoryRecord> update(const MemoryRecord& record, const ChangeContext& ctx);
    /// Archives, deletes or restores memories in one transaction; returns how many changed.
    Result<int> setState(const std::vector<int64_t>& ids, State state, const ChangeContext& ctx);
    /// Restores a memory's content to what it was before journal entry `seq` (an update or
    /// state change of that memory); journaled as an update.
    Result<MemoryRecord> revert(int64_t memoryId, int64_t seq, const ChangeContext& ctx);
    /// Adds `merged` (kind summary unless set otherwise) with `ids` as its evidence and archives
    /// the originals, in one transaction; journaled as a merge. Returns the new id.
    Result<int64_t> merge(const std::vector<int64_t>& ids, MemoryRecord merged,
                          const ChangeContext& ctx);

    Result<MemoryRecord> get(int64_t id, bool withEmbedding = false) const;
    Result<std::vector<MemoryRecord>> list(const MemoryFilter& filter = {}) const;
    /// Number of memories in `state` (all states when unset).
    int64_t count(std::optional<State> state = State::Active) const;

    /// Scores the candidates (active memories of params.agent) against `queryEmbedding` from
    /// `model`, journals the retrieval with every candidate and updates the selected memories'
    /// last access (both skipped when params.whatIf). Recent mode needs no embedding.
    Result<RetrievalRecord> retrieve(const QString& query, const std::vector<float>& queryEmbedding,
                                     const QString& model, RetrievalParams params,
                                     const ChangeContext& ctx);
    /// Re-scores a journaled retrieval with other parameters from its recorded candidates,
    /// without touching the store.
    Result<RetrievalRecord> whatIf(int64_t retrievalSeq, RetrievalParams params) const;

    /// Journal entries, oldest first; of one memory when memoryId > 0; only operation `op`
    /// (add, update, access, …) when given.
    Result<std::vector<JournalEntry>> journal(int64_t memoryId = 0, int limit = -1,
                                              const QString& op = {}) const;
    /// Journaled retrievals, newest first, without candidates (see retrieval()).
    Result<std::vector<RetrievalRecord>> retrievals(int limit = 100) const;
    Result<RetrievalRecord> retrieval(int64_t seq) const;

    /// Sum of importance of the agent's observations, chats and insights created after its
    /// latest reflection (or ever, when it has none).
    int64_t importanceSinceLastReflection(const QString& agent) const;

    /// `PRAGMA integrity_check`: true when the file is sound, else the error lists problems.
    Result<bool> integrityCheck() const;

private:
    MemoryStore();
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace hako::memory
