// The prompt log in one SQLite file: WAL (a killed writer loses only its open transaction),
// the bulky content in its own table so that scans for the monitor read narrow rows, and an
// FTS5 trigram index over the searchable text.
#include "core/promptlog/logbackend_p.h"
#include "core/promptlog/sqlitestatement_p.h"
#include "core/promptlog/sqlshared_p.h"
#include "core/promptlog/trigramtokenizer_p.h"
#include "core/promptlog/walcheckpointer_p.h"
#include "core/util/outputfile.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <string>
#include <thread>

namespace hako::promptlog {

namespace {

// The schema, one step per version: step N brings a store of version N to N + 1.
const char* const kMigrations[] = {
    R"(
CREATE TABLE calls(
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL DEFAULT '',
  program_path TEXT NOT NULL DEFAULT '',
  program_hash TEXT NOT NULL DEFAULT '',
  prompt TEXT NOT NULL DEFAULT '',
  src_file TEXT NOT NULL DEFAULT '',
  src_line INTEGER NOT NULL DEFAULT 0,
  src_column INTEGER NOT NULL DEFAULT 0,
  src_end_line INTEGER NOT NULL DEFAULT 0,
  src_end_column INTEGER NOT NULL DEFAULT 0,
  trace_node TEXT NOT NULL DEFAULT '',
  tags TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  endpoint TEXT NOT NULL DEFAULT '',
  finish_reason TEXT NOT NULL DEFAULT '',
  tokens_prompt INTEGER,
  tokens_completion INTEGER,
  tokens_cached INTEGER,
  ttft_ms REAL,
  latency_ms REAL,
  cost REAL,
  status TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  retries INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER NOT NULL,
  content_omitted INTEGER NOT NULL DEFAULT 0);
CREATE INDEX calls_run ON calls(run_id);
CREATE INDEX calls_prompt ON calls(prompt, started_at);
CREATE INDEX calls_model ON calls(model, started_at);
-- Covers the monitor's scans (time range, every group key, every summed column).
CREATE INDEX calls_stats ON calls(started_at, prompt, model, status, tokens_prompt,
  tokens_completion, cost, latency_ms, tags);
CREATE TABLE call_tags(tag TEXT NOT NULL, call_id INTEGER NOT NULL,
  PRIMARY KEY(tag, call_id)) WITHOUT ROWID;
CREATE INDEX call_tags_call ON call_tags(call_id);
CREATE TABLE call_content(id INTEGER PRIMARY KEY, parameters TEXT, messages TEXT, reply TEXT,
  tool_calls TEXT, inputs TEXT);
-- Trigrams without positions: they give candidates whose text is then checked; the
-- vocabulary finds the trigrams a 1-2 character term starts (see buildWhere()).
CREATE VIRTUAL TABLE call_fts USING fts5(body, tokenize='trigram', detail=none);
CREATE VIRTUAL TABLE call_fts_terms USING fts5vocab(call_fts, 'row');
)",
    // 2: the prompt's identity, the version it ran and where the call came from. Calls logged
    // before are told apart as legacyOrigin() does.
    R"(
ALTER TABLE calls ADD COLUMN prompt_id TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN program_id TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN program_name TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN version TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN origin TEXT NOT NULL DEFAULT 'program';
UPDATE calls SET origin = 'playground'
  WHERE id IN (SELECT call_id FROM call_tags WHERE tag = 'playground');
UPDATE calls SET origin = 'judge'
  WHERE prompt = 'eval:judge' OR id IN (SELECT call_id FROM call_tags WHERE tag = 'eval:judge');
CREATE INDEX calls_prompt_id ON calls(prompt_id, started_at);
CREATE INDEX calls_origin ON calls(origin, started_at);
-- The monitor's scans stay covered with the new keys.
DROP INDEX calls_stats;
CREATE INDEX calls_stats ON calls(started_at, prompt_id, prompt, program_name, model, status,
  tokens_prompt, tokens_completion, cost, latency_ms, tags, origin);
)",
    // 3: scores of calls (a person's annotation, online evaluators, experiments). Keyed by the
    // call's uid, so that a score may arrive before its call's batch is committed.
    R"(
CREATE TABLE call_scores(
  id INTEGER PRIMARY KEY,
  call_uid TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  value_num REAL,
  value_label TEXT NOT NULL DEFAULT '',
  passed INTEGER,
  note TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  author TEXT NOT NULL DEFAULT '',
  UNIQUE(call_uid, name, source));
CREATE INDEX call_scores_time ON call_scores(created_at, name);
)",
    // 4: which model answered: the one the alias resolved to and the one the server reported
    // (empty for calls logged before: they are grouped under the program's name, as then).
    R"(
ALTER TABLE calls ADD COLUMN resolved_model TEXT NOT NULL DEFAULT '';
ALTER TABLE calls ADD COLUMN response_model TEXT NOT NULL DEFAULT '';
)",
    // 5: the full-text index made with hako_trigram (trigramtokenizer_p.h: each distinct
    // trigram of a call once, and no sizes kept) — for a log without calls only (a new one,
    // see migrate()): a log that has calls keeps its index, which answers the same (indexing
    // again took minutes at the first opening of a large log).
    R"(
CREATE VIRTUAL TABLE call_fts_v5 USING fts5(body, tokenize='hako_trigram', detail=none,
  columnsize=0);
INSERT INTO call_fts_v5(rowid, body) SELECT rowid, body FROM call_fts;
DROP TABLE call_fts_terms;
DROP TABLE call_fts;
ALTER TABLE call_fts_v5 RENAME TO call_fts;
CREATE VIRTUAL TABLE call_fts_terms USING fts5vocab(call_fts, 'row');
)",
};
constexpr int kSteps = int(sizeof(kMigrations) / sizeof(kMigrations[0]));
constexpr int kNewIndexStep = 4; // kMigrations[4], step 5
static_assert(kSteps == kSchemaVersion);

class SqliteBackend final : public LogBackend {
public:
    SqliteBackend(QString path, int64_t maxSize, int64_t createdCap)
        : m_path(std::move(path)), m_maxSize(maxSize), m_createdCap(createdCap)
    {}
    ~SqliteBackend() override { disconnect(); }

    Result<bool> connect() override
    {
        if (m_db)
            return true;
        // Private from the first byte: SQLite gives -wal and -shm the database's permissions.
        const bool existed = QFileInfo(m_path).size() > 0;
        QString why;
        if (!createPrivateFile(m_path, &why))
            return makeError(QStringLiteral("cannot create the prompt log: %1").arg(why));
        const QByteArray p = m_path.toUtf8();
        if (sqlite3_open_v2(p.constData(), &m_db,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                            nullptr) != SQLITE_OK) {
            const QString reason =
                m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("out of memory");
            disconnect();
            return makeError(
                QStringLiteral("cannot open the prompt log %1: %2").arg(m_path, reason));
        }
        sqlite3_busy_timeout(m_db, 10000);
        if (!registerTrigramTokenizer(m_db)) {
            disconnect();
            return makeError(QStringLiteral("cannot open the prompt log %1: this SQLite has no "
                                            "full-text search (FTS5)")
                                 .arg(m_path));
        }
        auto fail = [this](const QString& what) -> Result<bool> {
            const QString reason = QString::fromUtf8(sqlite3_errmsg(m_db));
            disconnect();
            return makeError(
                QStringLiteral("cannot %1 the prompt log %2: %3").arg(what, m_path, reason));
        };
        // A new log gets 16 KB pages: a call's content (some 2 KB of messages) and its indexed
        // text are each a row a little over half a 4 KB page, so 4 KB pages held one row each
        // and half the file and its writes were empty space (writer 9,000 → 13,000 calls/s,
        // the file 40% smaller; bench_promptlog). A log capped below 16 MB keeps 4 KB pages
        // (its empty schema alone is some 40 pages). An existing log keeps its own.
        if (!existed && (m_createdCap <= 0 || m_createdCap >= 16 * 1024 * 1024))
            exec("PRAGMA page_size=16384");
        if (!exec("PRAGMA journal_mode=WAL") || !exec("PRAGMA synchronous=NORMAL")) {
            const int code = sqlite3_errcode(m_db);
            if (existed && (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)) {
                const Diagnostic damaged =
                    damagedLog(m_path, QString::fromUtf8(sqlite3_errmsg(m_db)));
                disconnect();
                return damaged;
            }
            return fail(QStringLiteral("open"));
        }
        m_checkBeforeWriting = m_checkBeforeWriting || existed;
        if (m_maxSize > 0) {
            const int64_t pages = std::max<int64_t>(m_maxSize / pageSize(), 8);
            exec(QStringLiteral("PRAGMA max_page_count=%1").arg(pages).toUtf8());
        }
        if (!exec("BEGIN IMMEDIATE"))
            return fail(QStringLiteral("open"));
        auto migrated = migrate();
        if (!migrated) {
            exec("ROLLBACK");
            disconnect();
            return migrated;
        }
        if (!exec("COMMIT")) {
            exec("ROLLBACK");
            return fail(QStringLiteral("create"));
        }
        mergeIndexInFewerSteps(); // a statement of its own: its failure touches nothing else
        return true;
    }

    void disconnect() override
    {
        m_checkpointer.reset();
        m_insertCall.reset();
        m_insertContent.reset();
        m_insertFts.reset();
        m_insertTag.reset();
        if (m_db) {
            sqlite3_close_v2(m_db);
            m_db = nullptr;
        }
    }

    Result<int64_t> insert(const std::vector<CallRecord>& calls,
                           const std::vector<EncodedCall>& encoded) override
    {
        const bool haveEncoded = encoded.size() == calls.size();
        size_t next = 0;
        return insertFrom([&]() -> CallToStore {
            if (next == calls.size())
                return {};
            const size_t i = next++;
            return {&calls[i], haveEncoded ? &encoded[i] : nullptr};
        });
    }

    Result<int64_t> insertFrom(const CallSource& next) override
    {
        if (auto c = connect(); !c)
            return c.error();
        if (std::optional<Diagnostic> damaged = damageBeforeWriting())
            return *damaged;
        if (std::optional<Diagnostic> refused = prepareWriting())
            return *refused;
        if (!m_checkpointer)
            m_checkpointer = std::make_unique<WalCheckpointer>(m_db, m_path);
        if (!exec("BEGIN IMMEDIATE"))
            return error(QStringLiteral("write"));
        int64_t added = 0;
        for (CallToStore c = next(); c.call; c = next()) {
            EncodedCall own;
            const EncodedCall& e = c.encoded ? *c.encoded : (own = encodeCall(*c.call));
            const std::optional<bool> stored = insertRow(*c.call, e);
            if (!stored)
                return rollback(QStringLiteral("write"));
            added += *stored ? 1 : 0;
        }
        if (!exec("COMMIT"))
            return rollback(QStringLiteral("commit to"));
        return added;
    }

    Result<QList<CallRecord>> list(const CallFilter& filter, bool withContent) override
    {
        if (auto c = connect(); !c)
            return c.error();
        const SqlWhere where =
            buildWhere(filter, Dialect::Sqlite, 1, shortTermMatcher(), candidateCounter());
        QString sql = callSelect(withContent);
        if (filter.offset > 0) {
            // Deep in the table (the monitor's pages): skip the rows in the ordering index
            // alone, then read the page's rows.
            CallFilter unpaged = filter;
            unpaged.limit = 0;
            unpaged.offset = 0;
            sql += QStringLiteral(" WHERE c.id IN (SELECT c.id FROM calls c") + where.clause +
                   orderAndLimit(filter, Dialect::Sqlite) + QLatin1Char(')') +
                   orderAndLimit(unpaged, Dialect::Sqlite);
        } else {
            sql += where.clause + orderAndLimit(filter, Dialect::Sqlite);
        }
        SqliteStatement s(m_db, sql);
        if (!s.valid())
            return error(QStringLiteral("read"));
        s.bindAll(where.binds);
        QList<CallRecord> out;
        while (s.step())
            out.append(decodeCall(s, withContent));
        if (s.failed())
            return error(QStringLiteral("read"));
        return out;
    }

    Result<int64_t> count(const CallFilter& filter) override
    {
        if (auto c = connect(); !c)
            return c.error();
        const SqlWhere where =
            buildWhere(filter, Dialect::Sqlite, 1, shortTermMatcher(), candidateCounter());
        SqliteStatement s(m_db, QStringLiteral("SELECT count(*) FROM calls c") + where.clause);
        if (!s.valid())
            return error(QStringLiteral("read"));
        s.bindAll(where.binds);
        if (!s.step())
            return error(QStringLiteral("read"));
        return s.int64(0);
    }

    Result<QList<TimeSeries>> series(std::optional<StatsGroup> group, const CallFilter& filter,
                                     const SeriesRange& range) override
    {
        if (auto c = connect(); !c)
            return c.error();
        const SqlWhere where = buildWhere(seriesFilter(filter, range), Dialect::Sqlite, 1,
                                          shortTermMatcher(), candidateCounter());
        SqliteStatement s(m_db, seriesSql(group, where.clause, range, Dialect::Sqlite));
        if (!s.valid())
            return error(QStringLiteral("read"));
        s.bindAll(where.binds);
        SeriesCollector collect(range);
        while (s.step())
            collect.add(s);
        if (s.failed())
            return error(QStringLiteral("read"));
        return collect.take();
    }

    Result<QList<QPair<QString, int64_t>>> tags(int limit) override
    {
        if (auto c = connect(); !c)
            return c.error();
        SqliteStatement s(m_db, tagCountsSql(limit));
        if (!s.valid())
            return error(QStringLiteral("read"));
        QList<QPair<QString, int64_t>> out;
        while (s.step())
            out.append({s.text(0), s.int64(1)});
        if (s.failed())
            return error(QStringLiteral("read"));
        return out;
    }

    Result<QList<CallRecord>> find(const QString& idOrUid) override
    {
        if (auto c = connect(); !c)
            return c.error();
        QList<CallRecord> out;
        for (const SqlLookup& lookup : findLookups(idOrUid, Dialect::Sqlite)) {
            SqliteStatement s(m_db, lookup.sql);
            if (!s.valid())
                return error(QStringLiteral("read"));
            s.bindAll({lookup.value});
            while (s.step())
                out.append(decodeCall(s, true));
            if (s.failed())
                return error(QStringLiteral("read"));
            if (!out.isEmpty())
                break;
        }
        return out;
    }

    Result<QList<StatsRow>> stats(StatsGroup group, const CallFilter& filter) override
    {
        if (auto c = connect(); !c)
            return c.error();
        const SqlWhere where =
            buildWhere(filter, Dialect::Sqlite, 1, shortTermMatcher(), candidateCounter());
        return sqliteStats(m_db, m_path, group, where,
                           [this](const QString& what) { return error(what); });
    }

    Result<int64_t> deleteRun(const QString& runId) override
    {
        return deleteWhere(QStringLiteral("run_id = ?1"), runId);
    }

    Result<int64_t> deleteBefore(int64_t utcMs) override
    {
        return deleteWhere(QStringLiteral("started_at < ?1"), utcMs);
    }

    bool damaged() const override { return m_damage.has_value(); }

    Dialect dialect() const override { return Dialect::Sqlite; }

    Result<int64_t> execute(const QString& sql, const std::vector<SqlValue>& binds) override
    {
        if (auto c = connect(); !c)
            return c.error();
        if (std::optional<Diagnostic> damaged = damageBeforeWriting())
            return *damaged;
        SqliteStatement s(m_db, sqliteText(sql));
        if (!s.valid())
            return error(QStringLiteral("prepare writing"));
        s.bindAll(binds);
        if (!s.run())
            return error(QStringLiteral("write to"));
        return int64_t(sqlite3_changes(m_db));
    }

    Result<bool> select(const QString& sql, const std::vector<SqlValue>& binds,
                        const std::function<void(const SqlRow&)>& row) override
    {
        if (auto c = connect(); !c)
            return c.error();
        SqliteStatement s(m_db, sqliteText(sql));
        if (!s.valid())
            return error(QStringLiteral("read"));
        s.bindAll(binds);
        while (s.step())
            row(s);
        if (s.failed())
            return error(QStringLiteral("read"));
        return true;
    }

    Result<QString> integrityCheck() override
    {
        if (auto c = connect(); !c)
            return c.error();
        QStringList problems;
        {
            SqliteStatement s(m_db, QStringLiteral("PRAGMA integrity_check"));
            while (s.step())
                problems.append(s.text(0));
            if (s.failed())
                return error(QStringLiteral("check"));
        }
        if (problems == QStringList{QStringLiteral("ok")}) {
            if (!exec("INSERT INTO call_fts(call_fts) VALUES ('integrity-check')"))
                problems = {QStringLiteral("full-text index: ") +
                            QString::fromUtf8(sqlite3_errmsg(m_db))};
        }
        return problems.join(QLatin1Char('\n'));
    }

private:
    // A damaged file (a flipped bit, a bad sector) is refused before anything is written into
    // it: writing on would bury the calls it still holds. Checked at the first write (large
    // logs once a day, see checkSqliteLogBeforeWriting()), so that reading never pays for it
    // and a run pays on the writer's thread.
    std::optional<Diagnostic> damageBeforeWriting()
    {
        if (m_checkBeforeWriting) {
            m_checkBeforeWriting = false;
            m_damage = checkSqliteLogBeforeWriting(m_db, m_path);
        }
        return m_damage;
    }

    // One call's rows (the call, its content, its searchable text, its tags) inside the
    // caller's transaction: false when its uid is already stored, nothing when a write failed.
    // `e`'s columns are bound without a copy: they outlive the steps here.
    std::optional<bool> insertRow(const CallRecord& r, const EncodedCall& e)
    {
        SqliteStatement& s = *m_insertCall;
        s.reset();
        s.bind(1, r.uid);
        s.bind(2, r.runId);
        s.bind(3, r.programPath);
        s.bind(4, r.programHash);
        s.bind(5, r.promptName);
        s.bind(6, r.span.file);
        s.bind(7, int64_t(r.span.line));
        s.bind(8, int64_t(r.span.column));
        s.bind(9, int64_t(r.span.endLine));
        s.bind(10, int64_t(r.span.endColumn));
        s.bind(11, r.traceNodeId);
        s.bindStatic(12, e.tags);
        s.bind(13, r.model);
        s.bind(14, r.endpoint);
        s.bind(15, r.finishReason);
        s.bindOpt(16, r.promptTokens);
        s.bindOpt(17, r.completionTokens);
        s.bindOpt(18, r.cachedTokens);
        s.bindOpt(19, r.timeToFirstTokenMs);
        s.bindOpt(20, r.latencyMs);
        s.bindOpt(21, r.cost);
        s.bind(22, statusName(r.status));
        s.bind(23, r.error);
        s.bind(24, int64_t(r.retries));
        s.bind(25, r.startedAt);
        s.bind(26, int64_t(r.contentOmitted ? 1 : 0));
        s.bind(27, r.promptId);
        s.bind(28, r.programId);
        s.bind(29, r.programName);
        s.bind(30, r.version);
        s.bind(31, originName(r.origin));
        s.bind(32, r.resolvedModel);
        s.bind(33, r.responseModel);
        if (!s.run())
            return std::nullopt;
        if (sqlite3_changes(m_db) == 0)
            return false; // already stored (an import of calls this log has)
        const int64_t id = sqlite3_last_insert_rowid(m_db);
        SqliteStatement& c = *m_insertContent;
        c.reset();
        c.bind(1, id);
        c.bindStatic(2, e.parameters);
        c.bindStatic(3, e.messages);
        c.bind(4, r.reply);
        c.bindStatic(5, e.toolCalls);
        c.bindStatic(6, e.inputs);
        if (!c.run())
            return std::nullopt;
        if (!e.body.isEmpty()) {
            m_insertFts->reset();
            m_insertFts->bind(1, id);
            m_insertFts->bindStatic(2, e.body);
            if (!m_insertFts->run())
                return std::nullopt;
        }
        for (const QString& tag : r.tags) {
            m_insertTag->reset();
            m_insertTag->bind(1, tag);
            m_insertTag->bind(2, id);
            if (!m_insertTag->run())
                return std::nullopt;
        }
        return true;
    }

    // Short search terms through the index's vocabulary: the trigrams that start with them.
    ShortTermMatch shortTermMatcher()
    {
        return [this](const QString& term) -> std::optional<QString> {
            constexpr int kMaxTrigrams = 2000;
            SqliteStatement s(m_db,
                              QStringLiteral("SELECT term FROM call_fts_terms WHERE term >= ?1 "
                                             "AND term < ?2 LIMIT %1")
                                  .arg(kMaxTrigrams + 1));
            if (!s.valid())
                return std::nullopt;
            const QString folded = foldForIndex(term);
            static const QString last = QString::fromUcs4(U"\U0010FFFF", 1);
            s.bind(1, folded);
            s.bind(2, folded + last);
            QStringList alternatives;
            while (s.step()) {
                QString t = s.text(0);
                t.replace(QLatin1Char('"'), QLatin1String("\"\""));
                alternatives.append(QLatin1Char('"') + t + QLatin1Char('"'));
            }
            if (s.failed() || alternatives.size() > kMaxTrigrams)
                return std::nullopt;
            return alternatives.join(QLatin1String(" OR "));
        };
    }

    CandidateCount candidateCounter()
    {
        return [this](const QString& match) -> int64_t {
            SqliteStatement s(
                m_db, QStringLiteral("SELECT count(*) FROM call_fts WHERE call_fts MATCH ?1"));
            s.bind(1, match);
            return s.valid() && s.step() ? s.int64(0) : 0;
        };
    }

    // `$1`, `$2`, … as SQLite numbers its placeholders (`?1`, `?2`, …).
    static QString sqliteText(QString sql)
    {
        static const QRegularExpression placeholder(QStringLiteral("\\$(\\d+)"));
        return sql.replace(placeholder, QStringLiteral("?\\1"));
    }

    bool exec(const char* sql)
    {
        return sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    bool exec(const QByteArray& sql) { return exec(sql.constData()); }
    int64_t pageSize()
    {
        SqliteStatement s(m_db, QStringLiteral("PRAGMA page_size"));
        return s.step() ? std::max<int64_t>(s.int64(0), 512) : 4096;
    }

    Diagnostic error(const QString& what) const
    {
        return makeError(
            QStringLiteral("cannot %1 the prompt log %2: %3")
                .arg(what, m_path,
                     m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("not open")));
    }
    // The statements a write runs, prepared once per connection; why not, when they cannot be.
    std::optional<Diagnostic> prepareWriting()
    {
        if (m_insertCall)
            return std::nullopt;
        // Each checked as it is prepared: the reason of the first that fails is the one said
        // (a damaged full-text index already refuses its statement here).
        auto prepare = [this](std::unique_ptr<SqliteStatement>& slot, const QString& sql) {
            slot = std::make_unique<SqliteStatement>(m_db, sql);
            return slot->valid();
        };
        const bool prepared =
            prepare(m_insertCall,
                    QStringLiteral(
                        "INSERT OR IGNORE INTO calls(uid, run_id, program_path, program_hash, "
                        "prompt, src_file, src_line, src_column, src_end_line, "
                        "src_end_column, trace_node, tags, model, endpoint, finish_reason, "
                        "tokens_prompt, tokens_completion, tokens_cached, ttft_ms, "
                        "latency_ms, cost, status, error, retries, started_at, "
                        "content_omitted, prompt_id, program_id, program_name, version, "
                        "origin, resolved_model, response_model) VALUES (?1, ?2, ?3, ?4, ?5, "
                        "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, "
                        "?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, "
                        "?33)")) &&
            prepare(m_insertContent,
                    QStringLiteral("INSERT INTO call_content(id, parameters, messages, "
                                   "reply, tool_calls, inputs) VALUES (?1, ?2, ?3, ?4, ?5, "
                                   "?6)")) &&
            prepare(m_insertFts,
                    QStringLiteral("INSERT INTO call_fts(rowid, body) VALUES (?1, ?2)")) &&
            prepare(m_insertTag, QStringLiteral("INSERT OR IGNORE INTO call_tags(tag, "
                                                "call_id) VALUES (?1, ?2)"));
        if (!prepared) {
            const Diagnostic d = failure(QStringLiteral("prepare writing"));
            m_insertCall.reset();
            m_insertContent.reset();
            m_insertFts.reset();
            m_insertTag.reset();
            return d;
        }
        return std::nullopt;
    }

    // A write the file refuses as damaged (its full-text index, say, which the check before
    // writing does not read) makes the log damaged: said with how to save what it holds, and
    // not retried (every later commit fails the same way).
    Diagnostic failure(const QString& what)
    {
        const int code = m_db ? sqlite3_errcode(m_db) & 0xff : SQLITE_OK;
        if (code != SQLITE_CORRUPT && code != SQLITE_NOTADB)
            return error(what);
        m_damage = damagedLog(m_path, QString::fromUtf8(sqlite3_errmsg(m_db)));
        return *m_damage;
    }
    Diagnostic rollback(const QString& what)
    {
        const Diagnostic d = failure(what);
        exec("ROLLBACK");
        return d;
    }

    Result<bool> migrate()
    {
        if (!exec("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"))
            return error(QStringLiteral("create"));
        int version = 0;
        {
            SqliteStatement s(
                m_db, QStringLiteral("SELECT value FROM meta WHERE key = 'schema_version'"));
            if (s.step())
                version = s.text(0).toInt();
            else if (s.failed())
                return error(QStringLiteral("read"));
        }
        if (version > kSchemaVersion)
            return newerSchemaError(m_path, version);
        for (int step = version; step < kSchemaVersion; ++step) {
            if (step == kNewIndexStep && version > 0 && hasCalls())
                continue;
            if (!exec(kMigrations[step]))
                return error(QStringLiteral("create"));
        }
        if (version != kSchemaVersion) {
            SqliteStatement s(m_db, QStringLiteral("INSERT OR REPLACE INTO meta(key, value) VALUES "
                                                   "('schema_version', ?1)"));
            s.bind(1, QString::number(kSchemaVersion));
            if (!s.run())
                return error(QStringLiteral("create"));
        }
        return true;
    }

    // The full-text index adds a segment at every commit (a request's calls) and merges 16 of
    // a size into one instead of FTS5's 4, so that each text is rewritten about half as often
    // as the log grows, while a search reads a few more segments in the same time. Kept in the
    // index's own settings: set once, for a new log and an older one alike. Best effort, after
    // the opening's transaction: a log whose index cannot say or take it (damaged, at its size
    // cap, busy) is opened, read and written as before.
    void mergeIndexInFewerSteps()
    {
        constexpr int kAutomerge = 16;
        {
            SqliteStatement read(
                m_db, QStringLiteral("SELECT v FROM call_fts_config WHERE k = 'automerge'"));
            if (!read.valid() || (read.step() && read.int64(0) == kAutomerge) || read.failed())
                return;
        }
        exec("INSERT INTO call_fts(call_fts, rank) VALUES ('automerge', " +
             QByteArray::number(kAutomerge) + ")");
    }

    bool hasCalls()
    {
        SqliteStatement s(m_db, QStringLiteral("SELECT 1 FROM call_fts_content LIMIT 1"));
        return s.step();
    }

    template <typename T> Result<int64_t> deleteWhere(const QString& where, const T& value)
    {
        if (auto c = connect(); !c)
            return c.error();
        if (std::optional<Diagnostic> damaged = damageBeforeWriting())
            return *damaged;
        if (!exec("BEGIN IMMEDIATE"))
            return error(QStringLiteral("write"));
        const QString ids = QStringLiteral("(SELECT id FROM calls WHERE %1)").arg(where);
        int64_t deleted = 0;
        const QStringList statements = {
            QStringLiteral("DELETE FROM call_scores WHERE call_uid IN (SELECT uid FROM calls "
                           "WHERE %1)")
                .arg(where),
            QStringLiteral("DELETE FROM call_fts WHERE rowid IN ") + ids,
            QStringLiteral("DELETE FROM call_content WHERE id IN ") + ids,
            QStringLiteral("DELETE FROM call_tags WHERE call_id IN ") + ids,
            QStringLiteral("DELETE FROM calls WHERE ") + where};
        for (const QString& sql : statements) {
            SqliteStatement s(m_db, sql);
            s.bind(1, value);
            if (!s.valid() || !s.run())
                return rollback(QStringLiteral("delete from"));
            deleted = sqlite3_changes(m_db);
        }
        if (!exec("COMMIT"))
            return rollback(QStringLiteral("delete from"));
        return deleted;
    }

    QString m_path;
    int64_t m_maxSize = 0;
    int64_t m_createdCap = 0;
    sqlite3* m_db = nullptr;
    std::unique_ptr<WalCheckpointer> m_checkpointer; // from the first insert
    bool m_checkBeforeWriting = false;  // a file that had content: check it before writing
    std::optional<Diagnostic> m_damage; // what the check found, for the object's life
    std::unique_ptr<SqliteStatement> m_insertCall;
    std::unique_ptr<SqliteStatement> m_insertContent;
    std::unique_ptr<SqliteStatement> m_insertFts;
    std::unique_ptr<SqliteStatement> m_insertTag;
};

} // namespace

EncodedCall encodeCall(const CallRecord& call)
{
    EncodedCall e;
    e.parameters = jsonText(call.parameters);
    e.messages = jsonText(call.messages);
    e.toolCalls = jsonText(call.toolCalls);
    e.inputs = jsonText(call.inputs);
    if (!call.tags.isEmpty())
        e.tags = tagsText(call.tags).toUtf8();
    QString body = searchableText(call.messages, call.reply);
    if (!body.isEmpty()) {
        // Two line breaks after it: a term of one or two characters at the very end (or a text
        // of one character) begins a trigram too, which is how the index finds short terms.
        body += QLatin1String("\n\n");
        e.body = body.toUtf8();
    }
    return e;
}

sqlite3* openSqliteReadOnly(const QString& path, QString* error)
{
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) ==
        SQLITE_OK) {
        registerTrigramTokenizer(db); // reading the full-text index needs it
        return db;
    }
    *error = db ? QString::fromUtf8(sqlite3_errmsg(db)) : QStringLiteral("out of memory");
    sqlite3_close_v2(db);
    return nullptr;
}

std::unique_ptr<LogBackend> makeSqliteBackend(const QString& path, int64_t maxSizeBytes,
                                              std::optional<int64_t> createdCapBytes)
{
    return std::make_unique<SqliteBackend>(path, maxSizeBytes,
                                           createdCapBytes.value_or(maxSizeBytes));
}

} // namespace hako::promptlog
