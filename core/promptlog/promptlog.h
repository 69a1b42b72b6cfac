#pragma once

#include "core/promptlog/callquery.h"
#include "core/promptlog/callrecord.h"
#include "core/promptlog/callscore.h"
#include "core/promptlog/pricetable.h"
#include "core/promptlog/privacypolicy.h"
#include "core/util/diagnostic.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace hako::promptlog {

struct PromptLogPrivate;

/// Calls stored at once while they are still being made (the spans of one received request
/// become calls): add() puts a batch through the privacy policy and the price table on the
/// caller's thread and hands it to a thread of its own, which writes it while the caller makes
/// the next; finish() commits them all in one transaction. What insertNow() of them all would
/// store (uids the log has skipped), on two cores. From PromptLog::beginInsert(); one thread
/// uses it, and the PromptLog outlives it.
class CallInsert {
public:
    CallInsert(CallInsert&&) noexcept;
    CallInsert& operator=(CallInsert&&) = delete;
    ~CallInsert(); ///< finish() when not yet done
    /// Queues `calls` (not after finish()).
    void add(std::vector<CallRecord> calls);
    /// Waits for the batches added, commits: how many calls were new, or why none was stored.
    Result<int64_t> finish();

    struct State;

private:
    friend class PromptLog;
    explicit CallInsert(std::shared_ptr<PromptLogPrivate> d);
    std::unique_ptr<State> m;
};

/// How a PromptLog stores what it is given.
struct PromptLogOptions {
    PrivacyPolicy privacy;
    PriceTable prices;          ///< prices the calls recorded without a cost
    int batchSize = 500;        ///< a batch is written when this many calls wait…
    int batchIntervalMs = 250;  ///< …or when the oldest waiting call is this old
    int maxBuffered = 100000;   ///< calls kept in memory while the store cannot be written
    int retryIntervalMs = 2000; ///< between attempts while the store cannot be written
    int retentionDays = 0;      ///< > 0: calls older than this are deleted when the log opens
    /// SQLite: > 0 caps the file's size; reaching the cap is handled as a full disk.
    int64_t maxSizeBytes = 0;
    /// open() connects at once and reports a store it cannot reach; false leaves the first
    /// connection to the writer and the first query, off the caller's thread (the workbench
    /// opens the log on its GUI thread, where an unreachable server must not freeze it).
    bool connectOnOpen = true;

    /// The user's settings (PromptLogSettings::defaultPath()) and price table
    /// (PriceTable::defaultPath()); the error says which file is wrong, the defaults stand in.
    static PromptLogOptions fromUserSettings(QString* error = nullptr);
};

/// The prompt log: every model call of every run, in a SQLite file (the default, one for all
/// workspaces, like shell history) or a PostgreSQL database shared by a team.
///
/// Writing: record() is safe from any thread and only queues the call; a background writer
/// applies the privacy policy and the price table and commits batches in one transaction
/// (every `batchIntervalMs` or `batchSize` calls). A killed process loses at most the batch not
/// yet committed. When the store cannot be written (full disk, server down) the log emits
/// problem() once, keeps the calls in memory (up to `maxBuffered`; beyond that it counts what
/// it drops and says so) and tries again every `retryIntervalMs`; recovered() follows when the
/// calls arrive. Signals are emitted from the writer thread.
///
/// Reading: the query functions are synchronous and thread-safe (serialised on their own
/// connection); they see committed calls only (flush() first to see one's own). Call them off
/// the GUI thread.
class PromptLog : public QObject {
    Q_OBJECT
public:
    enum class Kind { Sqlite, Postgres };

    /// `promptlog.sqlite` in the user's data folder (QStandardPaths::AppDataLocation).
    static QString defaultPath();
    /// Whether `urlOrPath` names a PostgreSQL database (`postgresql://…`, `postgres://…`).
    static bool isPostgresUrl(const QString& urlOrPath);

    /// Opens the log at a file path or a `postgresql://user@host:port/db` URL, creating or
    /// upgrading its schema. Gives nullptr (and `*error`) only when `urlOrPath` is unusable
    /// as such (empty, a URL of another kind) or the options are invalid. When the store
    /// cannot be reached now, the log is still given, `*error` says why, and the writer keeps
    /// trying: a run records its calls anyway (that message is the one warning; problem() is
    /// not emitted for it again). Queries fail with the reason until the store is back.
    static std::unique_ptr<PromptLog> open(const QString& urlOrPath, QString* error = nullptr,
                                           PromptLogOptions options = {});
    /// The log the user's settings name (their `log`, else defaultPath()), with their privacy
    /// rules, retention and price table.
    static std::unique_ptr<PromptLog> openDefault(QString* error = nullptr,
                                                  bool connectOnOpen = true);

    /// close(): writes what is queued, waiting at most 5 s, and closes.
    ~PromptLog() override;

    Kind kind() const;
    /// The path, or the URL without its password.
    QString location() const;
    const PromptLogOptions& options() const;

    /// Queues `call` for writing; never blocks on the store. Gives the call's uid (made up
    /// when empty); a missing startedAt becomes now. Thread-safe.
    QString record(CallRecord call);
    /// Waits until every call recorded so far is committed; false after `timeoutMs` (the store
    /// cannot be written). Thread-safe.
    bool flush(int timeoutMs = 30000);
    /// Stops the writer after a last attempt; never takes much longer than `timeoutMs`, even
    /// when the store stopped answering in the middle of a write (that writer is left to
    /// finish on its own). A store that was failing already gets one attempt, no waiting.
    /// Calls still unwritten are lost, counted in writerState().dropped and said on the
    /// `hako.promptlog` warning output ("prompt log …: N calls not written within X s …").
    /// Later record() calls are dropped. Call from one thread, not from the writer's signals.
    void close(int timeoutMs = 5000);

    struct WriterState {
        int64_t queued = 0;  ///< recorded, not yet committed
        int64_t written = 0; ///< committed by this object's writer
        int64_t dropped = 0; ///< lost: the buffer was full, or close() gave up
        int64_t failedAttempts = 0;
        bool failing = false; ///< the last attempt failed
        QString problem;      ///< why, while failing
    };
    WriterState writerState() const;

    /// Calls matching `filter`, newest first (see CallFilter); `withContent` also reads
    /// parameters, messages, reply, tool calls and inputs.
    Result<QList<CallRecord>> list(const CallFilter& filter, bool withContent = false);
    Result<int64_t> count(const CallFilter& filter);
    /// The call with this number or uid (or a unique uid prefix of 8+ characters).
    Result<CallRecord> find(const QString& idOrUid);
    /// The monitor's table: one row per prompt, tag, model or UTC day, sorted by key.
    Result<QList<StatsRow>> stats(StatsGroup group, const CallFilter& filter = {});
    /// The matching calls over time, per group (none: the calls as a whole), one bucket per
    /// `range.bucketMs` (the monitor's sparklines and charts).
    Result<QList<TimeSeries>> series(std::optional<StatsGroup> group, const CallFilter& filter,
                                     const SeriesRange& range);
    /// Every tag of the log with its number of calls, most used first (at most `limit`).
    Result<QList<QPair<QString, int64_t>>> tags(int limit = 500);
    /// Stores `calls` at once, through the privacy policy and price table, skipping uids the
    /// log has (imports); gives how many were new.
    Result<int64_t> insertNow(std::vector<CallRecord> calls);
    /// insertNow() of calls still being made: see CallInsert.
    CallInsert beginInsert();
    /// Deletes the calls of one run; gives how many.
    Result<int64_t> deleteRun(const QString& runId);
    /// Deletes the calls started before `utcMs` (retention); gives how many.
    Result<int64_t> deleteOlderThan(int64_t utcMs);
    /// "ok", or what the store's consistency check found.
    Result<QString> integrityCheck();

    /// Keeps `score` with its call (CallScore::callUid; the call may still be queued),
    /// replacing the call's score of the same name and source; a missing createdAt becomes
    /// now. Written at once (not batched). Thread-safe.
    Result<bool> setScore(CallScore score);
    /// Removes the call's score of that name and source; gives whether there was one.
    Result<bool> removeScore(const QString& callUid, const QString& name, ScoreSource source);
    /// The scores of `filter`, newest first.
    Result<QList<CallScore>> scores(const ScoreFilter& filter = {});
    /// Per score name (evaluator or "human"): how many, their mean, passes; sorted by name.
    Result<QList<ScoreStats>> scoreStats(const ScoreFilter& filter = {});
    /// Per score name, the scores given within `range`, per bucket (the monitor's chart).
    Result<QList<ScoreSeries>> scoreSeries(const SeriesRange& range,
                                           const ScoreFilter& filter = {});

Q_SIGNALS:
    /// The store cannot be written (or calls were dropped); emitted once until it recovers.
    void problem(const QString& message);
    /// The store can be written again and every buffered call reached it.
    void recovered();
    /// `calls` more calls are committed: readers (the Prompt Log pane) may list them now. Once
    /// per batch, so many times a second while calls pour in: coalesce before querying.
    void committed(qint64 calls);

private:
    explicit PromptLog(std::shared_ptr<PromptLogPrivate> d);
    // The writer thread's loop; it holds its own reference to `d`, which outlives this object
    // when close() gives up on a writer stuck in a store that does not answer.
    void writerLoop(std::shared_ptr<PromptLogPrivate> d);
    void prepare(CallRecord& call) const;

    std::shared_ptr<PromptLogPrivate> d;
};

} // namespace hako::promptlog
