#pragma once

// The storage behind PromptLog: one connection to one store (a SQLite file or a PostgreSQL
// database) with the same schema and the same answers. Not thread-safe: PromptLog gives its
// writer thread one backend and serialises its queries on another.
#include "core/promptlog/callquery.h"
#include "core/promptlog/callrecord.h"
#include "core/promptlog/callscore.h"
#include "core/promptlog/sqlshared_p.h"
#include "core/util/diagnostic.h"

#include <QPair>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

struct sqlite3;

namespace hako::promptlog {

/// The schema version this build writes; a store of a newer version is refused.
inline constexpr int kSchemaVersion = 5;

/// A call's bulky columns as the SQLite store writes them (UTF-8, JSON compact, the searchable
/// text ending in a line break), made by encodeCall() beside the writer rather than on its
/// thread.
struct EncodedCall {
    QByteArray parameters;
    QByteArray messages;
    QByteArray toolCalls;
    QByteArray inputs;
    QByteArray tags;
    QByteArray body; ///< empty: nothing to search
};
EncodedCall encodeCall(const CallRecord& call);

/// One call of an insert and its columns (encodeCall(); null: the backend encodes it).
struct CallToStore {
    const CallRecord* call = nullptr; ///< null: there are no more
    const EncodedCall* encoded = nullptr;
};
/// The calls of one insert in order, asked for one at a time; what it gives stays valid until
/// it is asked again. It may wait while the caller is still making them.
using CallSource = std::function<CallToStore()>;

class LogBackend {
public:
    virtual ~LogBackend() = default;

    /// Connects (creating the store and migrating its schema when needed); true at once when
    /// already connected. After a failure the next call tries again.
    virtual Result<bool> connect() = 0;
    virtual void disconnect() = 0;

    /// Stores `calls` in one transaction; a call whose uid is already stored is skipped.
    /// Gives how many were new. On failure nothing of the batch is stored. `encoded`, when
    /// given, holds each call's encodeCall() in order (a backend may use it or not).
    virtual Result<int64_t> insert(const std::vector<CallRecord>& calls,
                                   const std::vector<EncodedCall>& encoded = {}) = 0;
    /// insert() of the calls `next` gives, asked for inside the transaction: a SQLite store
    /// writes each as it comes (while its caller makes the next), PostgreSQL all at the end.
    virtual Result<int64_t> insertFrom(const CallSource& next) = 0;

    virtual Result<QList<CallRecord>> list(const CallFilter& filter, bool withContent) = 0;
    virtual Result<int64_t> count(const CallFilter& filter) = 0;
    /// The call with this sequence number or uid (a unique uid prefix of 8 or more characters
    /// will do); an empty list when none.
    virtual Result<QList<CallRecord>> find(const QString& idOrUid) = 0;
    virtual Result<QList<StatsRow>> stats(StatsGroup group, const CallFilter& filter) = 0;
    /// The calls of `filter` (within `range`) per bucket, per group (`group` none: one series
    /// with an empty key). Groups without calls in the range are absent.
    virtual Result<QList<TimeSeries>>
    series(std::optional<StatsGroup> group, const CallFilter& filter, const SeriesRange& range) = 0;
    /// Every tag in the log with how many calls carry it, most used first (at most `limit`).
    virtual Result<QList<QPair<QString, int64_t>>> tags(int limit) = 0;
    virtual Result<int64_t> deleteRun(const QString& runId) = 0;
    virtual Result<int64_t> deleteBefore(int64_t utcMs) = 0;
    /// "ok", or what the store's own check found.
    virtual Result<QString> integrityCheck() = 0;
    /// The SQL both stores speak (the scores' statements, callscores.cpp): `$1`, `$2`, … are
    /// the placeholders of `binds`, in order.
    virtual Dialect dialect() const = 0;
    /// Runs one statement that changes the store (in its own transaction); gives the rows it
    /// changed.
    virtual Result<int64_t> execute(const QString& sql, const std::vector<SqlValue>& binds) = 0;
    /// Runs one query and hands each row to `row`.
    virtual Result<bool> select(const QString& sql, const std::vector<SqlValue>& binds,
                                const std::function<void(const SqlRow&)>& row) = 0;
    /// The store was found damaged: writes are refused for good (no point retrying).
    virtual bool damaged() const { return false; }
};

/// A SQLite file (created with its folder when missing). `maxSizeBytes` > 0 caps the file:
/// reaching it fails writes as a full disk does. `createdCapBytes`: the cap the log is made
/// for, when this connection is the one that creates it (a log capped below 16 MB is made of
/// 4 KB pages, any other of 16 KB ones); by default `maxSizeBytes`.
std::unique_ptr<LogBackend> makeSqliteBackend(const QString& path, int64_t maxSizeBytes,
                                              std::optional<int64_t> createdCapBytes = {});
/// A SQLite file opened read-only as it is (no check, no schema change): for salvage and the
/// stats' parallel readers. nullptr and `*error` when it cannot be opened. The caller closes it
/// (sqlite3_close_v2).
sqlite3* openSqliteReadOnly(const QString& path, QString* error);
/// SQLite's quick check of an open log (as the memory store does): nothing when the file is
/// sound, else damagedLog() with the first problems it found.
std::optional<Diagnostic> checkSqliteLog(sqlite3* db, const QString& path);
/// checkSqliteLog() before the first write of a connection: every time for a log up to
/// 128 MB, once a day for a larger one (the last clean check is noted in its `meta` table).
std::optional<Diagnostic> checkSqliteLogBeforeWriting(sqlite3* db, const QString& path);
/// The error of a SQLite log that fails SQLite's check: names the file, what the check found
/// and what to do (`hako log salvage`).
Diagnostic damagedLog(const QString& path, const QString& problems);
/// The monitor's table over a SQLite log (sqlitestats.cpp): `db` is the backend's connection to
/// the file at `path` (parallel readers open their own), `error` says what failed.
Result<QList<StatsRow>> sqliteStats(sqlite3* db, const QString& path, StatsGroup group,
                                    const SqlWhere& where,
                                    const std::function<Diagnostic(const QString&)>& error);
/// A PostgreSQL database given as a libpq URL.
std::unique_ptr<LogBackend> makePostgresBackend(const QString& url);

} // namespace hako::promptlog

namespace hako::promptlog {

// The scores of calls, one implementation over either backend (callscore.cpp).
/// Stores `score`, replacing the call's score of the same name and source.
Result<bool> storeScore(LogBackend& store, const CallScore& score);
/// Removes the call's score of that name and source; gives how many (0 or 1).
Result<int64_t> eraseScore(LogBackend& store, const QString& callUid, const QString& name,
                           ScoreSource source);
Result<QList<CallScore>> readScores(LogBackend& store, const ScoreFilter& filter);
Result<QList<ScoreStats>> readScoreStats(LogBackend& store, const ScoreFilter& filter);
Result<QList<ScoreSeries>> readScoreSeries(LogBackend& store, const ScoreFilter& filter,
                                           const SeriesRange& range);

} // namespace hako::promptlog
