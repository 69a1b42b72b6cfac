// The prompt log on a PostgreSQL server (a team's shared log), through libpq. Same tables as
// the SQLite file; full text is a case-folded substring search over the stored text, and the
// monitor's sums and percentiles are computed by the server.
#include "core/promptlog/logbackend_p.h"
#include "core/promptlog/sqlshared_p.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include "core/libpq/libpqloader.h"

#include <libpq-fe.h>

#include <cerrno>
#include <chrono>
#include <memory>

#include <poll.h>

namespace hako::promptlog {

namespace {

const char* const kMigrations[] = {
    R"(
CREATE TABLE calls(
  id BIGSERIAL PRIMARY KEY,
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
  tokens_prompt BIGINT,
  tokens_completion BIGINT,
  tokens_cached BIGINT,
  ttft_ms DOUBLE PRECISION,
  latency_ms DOUBLE PRECISION,
  cost DOUBLE PRECISION,
  status TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  retries INTEGER NOT NULL DEFAULT 0,
  started_at BIGINT NOT NULL,
  content_omitted INTEGER NOT NULL DEFAULT 0);
CREATE INDEX calls_run ON calls(run_id);
CREATE INDEX calls_prompt ON calls(prompt, started_at);
CREATE INDEX calls_model ON calls(model, started_at);
CREATE INDEX calls_started ON calls(started_at);
CREATE TABLE call_tags(tag TEXT NOT NULL,
  call_id BIGINT NOT NULL REFERENCES calls(id) ON DELETE CASCADE, PRIMARY KEY(tag, call_id));
CREATE INDEX call_tags_call ON call_tags(call_id);
CREATE TABLE call_content(id BIGINT PRIMARY KEY REFERENCES calls(id) ON DELETE CASCADE,
  parameters TEXT, messages TEXT, reply TEXT, tool_calls TEXT, inputs TEXT, body TEXT);
)",
    // 2: the prompt's identity, the version it ran and where the call came from (see the
    // SQLite file's step 2).
    R"(
ALTER TABLE calls ADD COLUMN prompt_id TEXT NOT NULL DEFAULT '',
  ADD COLUMN program_id TEXT NOT NULL DEFAULT '',
  ADD COLUMN program_name TEXT NOT NULL DEFAULT '',
  ADD COLUMN version TEXT NOT NULL DEFAULT '',
  ADD COLUMN origin TEXT NOT NULL DEFAULT 'program';
UPDATE calls SET origin = 'playground'
  WHERE id IN (SELECT call_id FROM call_tags WHERE tag = 'playground');
UPDATE calls SET origin = 'judge'
  WHERE prompt = 'eval:judge' OR id IN (SELECT call_id FROM call_tags WHERE tag = 'eval:judge');
CREATE INDEX calls_prompt_id ON calls(prompt_id, started_at);
CREATE INDEX calls_origin ON calls(origin, started_at);
)",
    // 3: scores of calls (see the SQLite file's step 3).
    R"(
CREATE TABLE call_scores(
  id BIGSERIAL PRIMARY KEY,
  call_uid TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  value_num DOUBLE PRECISION,
  value_label TEXT NOT NULL DEFAULT '',
  passed INTEGER,
  note TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  author TEXT NOT NULL DEFAULT '',
  UNIQUE(call_uid, name, source));
CREATE INDEX call_scores_time ON call_scores(created_at, name);
)",
    // 4: which model answered (see the SQLite file's step 4).
    R"(
ALTER TABLE calls ADD COLUMN resolved_model TEXT NOT NULL DEFAULT '',
  ADD COLUMN response_model TEXT NOT NULL DEFAULT '';
)",
    // 5: nothing here (SQLite's step 5 rebuilds its full-text index; PostgreSQL has none).
    "COMMENT ON TABLE calls IS 'Hako prompt log: one row per model call';",
};
constexpr int kSteps = int(sizeof(kMigrations) / sizeof(kMigrations[0]));
static_assert(kSteps == kSchemaVersion);

// One batch is one statement: the calls travel as a JSON array and are spread over the three
// tables by data-modifying CTEs, so a batch costs one round trip.
const char* const kInsert = R"(
WITH src AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(uid text, run_id text, program_path text,
    program_hash text, prompt text, src_file text, src_line int, src_column int,
    src_end_line int, src_end_column int, trace_node text, tags text, tag_list jsonb,
    model text, endpoint text, finish_reason text, tokens_prompt bigint,
    tokens_completion bigint, tokens_cached bigint, ttft_ms float8, latency_ms float8,
    cost float8, status text, error text, retries int, started_at bigint,
    content_omitted int, parameters text, messages text, reply text, tool_calls text,
    inputs text, body text, ord int, prompt_id text, program_id text, program_name text,
    version text, origin text, resolved_model text, response_model text)),
ins AS (
  INSERT INTO calls(uid, run_id, program_path, program_hash, prompt, src_file, src_line,
    src_column, src_end_line, src_end_column, trace_node, tags, model, endpoint, finish_reason,
    tokens_prompt, tokens_completion, tokens_cached, ttft_ms, latency_ms, cost, status, error,
    retries, started_at, content_omitted, prompt_id, program_id, program_name, version, origin,
    resolved_model, response_model)
  SELECT uid, run_id, program_path, program_hash, prompt, src_file, src_line, src_column,
    src_end_line, src_end_column, trace_node, tags, model, endpoint, finish_reason,
    tokens_prompt, tokens_completion, tokens_cached, ttft_ms, latency_ms, cost, status, error,
    retries, started_at, content_omitted, prompt_id, program_id, program_name, version, origin,
    resolved_model, response_model
  FROM src ORDER BY ord
  ON CONFLICT (uid) DO NOTHING RETURNING id, uid),
content AS (
  INSERT INTO call_content(id, parameters, messages, reply, tool_calls, inputs, body)
  SELECT ins.id, src.parameters, src.messages, src.reply, src.tool_calls, src.inputs, src.body
  FROM ins JOIN src ON src.uid = ins.uid),
tagged AS (
  INSERT INTO call_tags(tag, call_id)
  SELECT DISTINCT t.tag, ins.id FROM ins JOIN src ON src.uid = ins.uid
  CROSS JOIN LATERAL jsonb_array_elements_text(src.tag_list) AS t(tag))
SELECT count(*) FROM ins
)";

using Result_ = std::unique_ptr<PGresult, decltype(&PQclear)>;

class PgRow : public SqlRow {
public:
    PgRow(PGresult* r, int row) : m_r(r), m_row(row) {}
    bool isNull(int col) const override { return PQgetisnull(m_r, m_row, col); }
    int64_t int64(int col) const override
    {
        return QByteArray::fromRawData(PQgetvalue(m_r, m_row, col), PQgetlength(m_r, m_row, col))
            .toLongLong();
    }
    double real(int col) const override
    {
        return QByteArray::fromRawData(PQgetvalue(m_r, m_row, col), PQgetlength(m_r, m_row, col))
            .toDouble();
    }
    QString text(int col) const override
    {
        return QString::fromUtf8(PQgetvalue(m_r, m_row, col), PQgetlength(m_r, m_row, col));
    }

private:
    PGresult* m_r;
    int m_row;
};

QJsonValue opt(const std::optional<int64_t>& v)
{
    return v ? QJsonValue(qint64(*v)) : QJsonValue();
}

QJsonValue opt(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

// The longest one statement may take before the connection is given up (see awaitResult()).
constexpr int kStatementTimeoutMs = 30000;

class PostgresBackend final : public LogBackend {
public:
    explicit PostgresBackend(QString url) : m_url(std::move(url)) {}
    ~PostgresBackend() override { disconnect(); }

    Result<bool> connect() override
    {
        if (m_conn && PQstatus(m_conn) == CONNECTION_OK)
            return true;
        disconnect();
        const QByteArray url = m_url.toUtf8();
        // libpq is loaded now, not at start-up (core/libpq/libpqloader.h).
        if (QString missing; !loadLibpq(&missing))
            return makeError(QStringLiteral("cannot connect to the prompt log %1: %2")
                                 .arg(displayUrl(), missing));
        // The URL's own settings win, but a dead server must not hang a writer for minutes.
        // tcp_user_timeout and keepalives find a peer gone from the network; a server that is
        // there but does not answer (stopped, overloaded) is bounded by kStatementTimeoutMs.
        const char* keys[] = {
            "connect_timeout",  "tcp_user_timeout", "keepalives_idle", "keepalives_interval",
            "keepalives_count", "application_name", "dbname",          nullptr};
        const char* values[] = {"5", "10000", "10", "5", "2", "hako", url.constData(), nullptr};
        m_conn = PQconnectdbParams(keys, values, 1);
        if (!m_conn || PQstatus(m_conn) != CONNECTION_OK) {
            const QString reason = m_conn ? QString::fromUtf8(PQerrorMessage(m_conn)).trimmed()
                                          : QStringLiteral("out of memory");
            disconnect();
            return makeError(QStringLiteral("cannot connect to the prompt log %1: %2")
                                 .arg(displayUrl(), reason));
        }
        PQsetClientEncoding(m_conn, "UTF8");
        // Sending never blocks either: a large batch to a stalled server waits in send().
        PQsetnonblocking(m_conn, 1);
        // The server's notices ("relation … already exists, skipping") are not for the user.
        PQsetNoticeProcessor(
            m_conn, [](void*, const char*) {}, nullptr);
        auto migrated = migrate();
        if (!migrated) {
            exec("ROLLBACK");
            disconnect();
            return migrated;
        }
        return true;
    }

    void disconnect() override
    {
        if (m_conn) {
            PQfinish(m_conn);
            m_conn = nullptr;
        }
    }

    Result<int64_t> insert(const std::vector<CallRecord>& calls,
                           const std::vector<EncodedCall>& /*encoded*/) override
    {
        if (auto c = connect(); !c)
            return c.error();
        QJsonArray rows;
        int ord = 0;
        for (const CallRecord& r : calls) {
            QJsonObject o;
            o.insert(QLatin1String("uid"), r.uid);
            o.insert(QLatin1String("run_id"), r.runId);
            o.insert(QLatin1String("program_path"), r.programPath);
            o.insert(QLatin1String("program_hash"), r.programHash);
            o.insert(QLatin1String("prompt"), r.promptName);
            o.insert(QLatin1String("src_file"), r.span.file);
            o.insert(QLatin1String("src_line"), r.span.line);
            o.insert(QLatin1String("src_column"), r.span.column);
            o.insert(QLatin1String("src_end_line"), r.span.endLine);
            o.insert(QLatin1String("src_end_column"), r.span.endColumn);
            o.insert(QLatin1String("trace_node"), r.traceNodeId);
            o.insert(QLatin1String("tags"), r.tags.isEmpty() ? QString() : tagsText(r.tags));
            o.insert(QLatin1String("tag_list"), QJsonArray::fromStringList(r.tags));
            o.insert(QLatin1String("model"), r.model);
            o.insert(QLatin1String("endpoint"), r.endpoint);
            o.insert(QLatin1String("finish_reason"), r.finishReason);
            o.insert(QLatin1String("tokens_prompt"), opt(r.promptTokens));
            o.insert(QLatin1String("tokens_completion"), opt(r.completionTokens));
            o.insert(QLatin1String("tokens_cached"), opt(r.cachedTokens));
            o.insert(QLatin1String("ttft_ms"), opt(r.timeToFirstTokenMs));
            o.insert(QLatin1String("latency_ms"), opt(r.latencyMs));
            o.insert(QLatin1String("cost"), opt(r.cost));
            o.insert(QLatin1String("status"), statusName(r.status));
            o.insert(QLatin1String("error"), r.error);
            o.insert(QLatin1String("retries"), r.retries);
            o.insert(QLatin1String("started_at"), qint64(r.startedAt));
            o.insert(QLatin1String("content_omitted"), r.contentOmitted ? 1 : 0);
            o.insert(QLatin1String("parameters"), QString::fromUtf8(jsonText(r.parameters)));
            o.insert(QLatin1String("messages"), QString::fromUtf8(jsonText(r.messages)));
            o.insert(QLatin1String("reply"), r.reply);
            o.insert(QLatin1String("tool_calls"), QString::fromUtf8(jsonText(r.toolCalls)));
            o.insert(QLatin1String("inputs"), QString::fromUtf8(jsonText(r.inputs)));
            o.insert(QLatin1String("body"), searchableText(r.messages, r.reply));
            o.insert(QLatin1String("ord"), ord++);
            o.insert(QLatin1String("prompt_id"), r.promptId);
            o.insert(QLatin1String("program_id"), r.programId);
            o.insert(QLatin1String("program_name"), r.programName);
            o.insert(QLatin1String("version"), r.version);
            o.insert(QLatin1String("origin"), originName(r.origin));
            o.insert(QLatin1String("resolved_model"), r.resolvedModel);
            o.insert(QLatin1String("response_model"), r.responseModel);
            rows.append(o);
        }
        const QByteArray payload = QJsonDocument(rows).toJson(QJsonDocument::Compact);
        Result_ res = query(kInsert, {payload});
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("write to"), res.get());
        return QByteArray(PQgetvalue(res.get(), 0, 0)).toLongLong();
    }

    Result<int64_t> insertFrom(const CallSource& next) override
    {
        std::vector<CallRecord> calls;
        for (CallToStore c = next(); c.call; c = next())
            calls.push_back(*c.call);
        return insert(calls, {});
    }

    Result<QList<CallRecord>> list(const CallFilter& filter, bool withContent) override
    {
        if (auto c = connect(); !c)
            return c.error();
        const SqlWhere where = buildWhere(filter, Dialect::Postgres);
        QString sql = callSelect(withContent);
        sql += where.clause + orderAndLimit(filter, Dialect::Postgres);
        Result_ res = query(sql.toUtf8(), binds(where.binds));
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("read"), res.get());
        QList<CallRecord> out;
        for (int i = 0; i < PQntuples(res.get()); ++i)
            out.append(decodeCall(PgRow(res.get(), i), withContent));
        return out;
    }

    Result<int64_t> count(const CallFilter& filter) override
    {
        if (auto c = connect(); !c)
            return c.error();
        const SqlWhere where = buildWhere(filter, Dialect::Postgres);
        Result_ res =
            query((QStringLiteral("SELECT count(*) FROM calls c") + where.clause).toUtf8(),
                  binds(where.binds));
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("read"), res.get());
        return PgRow(res.get(), 0).int64(0);
    }

    Result<QList<TimeSeries>> series(std::optional<StatsGroup> group, const CallFilter& filter,
                                     const SeriesRange& range) override
    {
        if (auto c = connect(); !c)
            return c.error();
        const SqlWhere where = buildWhere(seriesFilter(filter, range), Dialect::Postgres);
        Result_ res = query(seriesSql(group, where.clause, range, Dialect::Postgres).toUtf8(),
                            binds(where.binds));
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("read"), res.get());
        SeriesCollector collect(range);
        for (int i = 0; i < PQntuples(res.get()); ++i)
            collect.add(PgRow(res.get(), i));
        return collect.take();
    }

    Result<QList<QPair<QString, int64_t>>> tags(int limit) override
    {
        if (auto c = connect(); !c)
            return c.error();
        Result_ res = query(tagCountsSql(limit).toUtf8(), {});
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("read"), res.get());
        QList<QPair<QString, int64_t>> out;
        for (int i = 0; i < PQntuples(res.get()); ++i) {
            const PgRow r(res.get(), i);
            out.append({r.text(0), r.int64(1)});
        }
        return out;
    }

    Result<QList<CallRecord>> find(const QString& idOrUid) override
    {
        if (auto c = connect(); !c)
            return c.error();
        QList<CallRecord> out;
        for (const SqlLookup& lookup : findLookups(idOrUid, Dialect::Postgres)) {
            Result_ res = query(lookup.sql.toUtf8(), binds({lookup.value}));
            if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
                return error(QStringLiteral("read"), res.get());
            for (int i = 0; i < PQntuples(res.get()); ++i)
                out.append(decodeCall(PgRow(res.get(), i), true));
            if (!out.isEmpty())
                break;
        }
        return out;
    }

    Result<QList<StatsRow>> stats(StatsGroup group, const CallFilter& filter) override
    {
        if (auto c = connect(); !c)
            return c.error();
        const SqlWhere where = buildWhere(filter, Dialect::Postgres);
        const SqlGroupBy by = groupBySql(group, Dialect::Postgres);
        const QString sql =
            QStringLiteral(
                "SELECT %1 AS k, count(*), count(*) FILTER (WHERE c.status = 'ok'), "
                "coalesce(sum(c.tokens_prompt), 0), coalesce(sum(c.tokens_completion), 0), "
                "sum(c.cost), percentile_disc(0.5) WITHIN GROUP (ORDER BY c.latency_ms), "
                "percentile_disc(0.95) WITHIN GROUP (ORDER BY c.latency_ms), "
                "(array_agg((%4)::text ORDER BY c.started_at DESC, c.id DESC))[1] FROM calls c%2%3 "
                "GROUP BY k")
                .arg(by.key, by.join, where.clause, groupNameSql(group));
        Result_ res = query(sql.toUtf8(), binds(where.binds));
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("read"), res.get());
        QList<StatsRow> rows;
        for (int i = 0; i < PQntuples(res.get()); ++i) {
            const PgRow r(res.get(), i);
            StatsRow s;
            s.key = r.text(0);
            s.calls = r.int64(1);
            s.okCalls = r.int64(2);
            s.tokensIn = r.int64(3);
            s.tokensOut = r.int64(4);
            if (!r.isNull(5))
                s.cost = r.real(5);
            if (!r.isNull(6))
                s.p50LatencyMs = r.real(6);
            if (!r.isNull(7))
                s.p95LatencyMs = r.real(7);
            s.name = r.text(8);
            rows.append(s);
        }
        sortStats(rows, StatsColumn::Key);
        return rows;
    }

    Result<int64_t> deleteRun(const QString& runId) override
    {
        return deleteWhere("run_id = $1", runId.toUtf8());
    }

    Result<int64_t> deleteBefore(int64_t utcMs) override
    {
        return deleteWhere("started_at < $1::bigint", QByteArray::number(qint64(utcMs)));
    }

    Result<QString> integrityCheck() override
    {
        if (auto c = connect(); !c)
            return c.error();
        // The server keeps its own consistency; what can go wrong on our side is content
        // without its call or the other way round.
        Result_ res = query("SELECT (SELECT count(*) FROM calls c WHERE NOT EXISTS (SELECT 1 "
                            "FROM call_content t WHERE t.id = c.id))",
                            {});
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("check"), res.get());
        const int64_t orphans = PgRow(res.get(), 0).int64(0);
        if (orphans)
            return QStringLiteral("%1 calls have no content row").arg(orphans);
        return QStringLiteral("ok");
    }

    Dialect dialect() const override { return Dialect::Postgres; }

    Result<int64_t> execute(const QString& sql, const std::vector<SqlValue>& values) override
    {
        if (auto c = connect(); !c)
            return c.error();
        Result_ res = queryValues(sql, values);
        const ExecStatusType status = PQresultStatus(res.get());
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
            return error(QStringLiteral("write to"), res.get());
        return QByteArray(PQcmdTuples(res.get())).toLongLong();
    }

    Result<bool> select(const QString& sql, const std::vector<SqlValue>& values,
                        const std::function<void(const SqlRow&)>& row) override
    {
        if (auto c = connect(); !c)
            return c.error();
        Result_ res = queryValues(sql, values);
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("read"), res.get());
        for (int i = 0; i < PQntuples(res.get()); ++i)
            row(PgRow(res.get(), i));
        return true;
    }

private:
    // A query whose values may be NULL (std::monostate).
    Result_ queryValues(const QString& sql, const std::vector<SqlValue>& values)
    {
        std::vector<QByteArray> texts;
        std::vector<const char*> params;
        texts.reserve(values.size());
        for (const SqlValue& v : values) {
            if (std::holds_alternative<std::monostate>(v)) {
                texts.emplace_back();
                params.push_back(nullptr);
                continue;
            }
            if (const auto* n = std::get_if<int64_t>(&v))
                texts.push_back(QByteArray::number(qint64(*n)));
            else if (const auto* d = std::get_if<double>(&v))
                texts.push_back(QByteArray::number(*d, 'g', 17));
            else
                texts.push_back(std::get<QString>(v).toUtf8()); // constData() is never null
            params.push_back(texts.back().constData());
        }
        const QByteArray text = sql.toUtf8();
        const bool sent = m_conn && PQsendQueryParams(m_conn, text.constData(), int(params.size()),
                                                      nullptr, params.data(), nullptr, nullptr, 0);
        return awaitResult(sent);
    }

    // The URL without its password, for messages.
    QString displayUrl() const
    {
        QUrl u(m_url);
        return u.isValid() ? u.toString(QUrl::RemovePassword) : m_url;
    }

    static std::vector<QByteArray> binds(const std::vector<SqlValue>& values)
    {
        std::vector<QByteArray> out;
        for (const SqlValue& v : values) {
            if (const auto* n = std::get_if<int64_t>(&v))
                out.push_back(QByteArray::number(qint64(*n)));
            else if (const auto* d = std::get_if<double>(&v))
                out.push_back(QByteArray::number(*d, 'g', 17));
            else if (const auto* t = std::get_if<QString>(&v))
                out.push_back(t->toUtf8());
            else
                out.push_back(QByteArray()); // not used by the filters (no NULLs there)
        }
        return out;
    }

    Result_ query(const char* sql, const std::vector<QByteArray>& params)
    {
        std::vector<const char*> values;
        for (const QByteArray& p : params)
            values.push_back(p.constData());
        const bool sent = m_conn && PQsendQueryParams(m_conn, sql, int(values.size()), nullptr,
                                                      values.data(), nullptr, nullptr, 0);
        return awaitResult(sent);
    }
    Result_ query(const QByteArray& sql, const std::vector<QByteArray>& params)
    {
        return query(sql.constData(), params);
    }

    // One or more statements without parameters (PQexec's job, with the deadline).
    Result_ execAll(const char* sql) { return awaitResult(m_conn && PQsendQuery(m_conn, sql)); }

    // Waits for `sql`'s results at most kStatementTimeoutMs: libpq itself would wait forever
    // on a server that accepted the connection and then stopped answering (stopped, swapped
    // out, a dead proxy). Gives the last result, like PQexec; nullptr when nothing came, the
    // connection then closed (the next connect() opens a new one) and m_failure saying why.
    Result_ awaitResult(bool sent)
    {
        Result_ none(nullptr, &PQclear);
        m_failure.clear();
        if (!sent)
            return none;
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(kStatementTimeoutMs);
        int flushed = 0;
        while ((flushed = PQflush(m_conn)) == 1) {
            if (!waitSocket(POLLOUT | POLLIN, deadline))
                return timedOut();
            if (!PQconsumeInput(m_conn))
                return none;
        }
        if (flushed < 0)
            return none;
        Result_ last(nullptr, &PQclear);
        for (;;) {
            while (PQisBusy(m_conn)) {
                if (!waitSocket(POLLIN, deadline))
                    return timedOut();
                if (!PQconsumeInput(m_conn))
                    return last;
            }
            PGresult* next = PQgetResult(m_conn);
            if (!next)
                return last;
            last.reset(next);
        }
    }

    bool waitSocket(short events, std::chrono::steady_clock::time_point deadline)
    {
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return false;
            pollfd fd{PQsocket(m_conn), events, 0};
            const int n = ::poll(&fd, 1, int(left.count()));
            if (n > 0)
                return true;
            if (n < 0 && errno != EINTR)
                return true; // PQconsumeInput reports the socket's error
        }
    }

    Result_ timedOut()
    {
        disconnect();
        m_failure =
            QStringLiteral("the server did not answer within %1 s").arg(kStatementTimeoutMs / 1000);
        return Result_(nullptr, &PQclear);
    }

    bool exec(const char* sql)
    {
        Result_ res = execAll(sql);
        return PQresultStatus(res.get()) == PGRES_COMMAND_OK ||
               PQresultStatus(res.get()) == PGRES_TUPLES_OK;
    }

    Diagnostic error(const QString& what, PGresult* res)
    {
        QString reason = QString::fromUtf8(res ? PQresultErrorMessage(res) : "").trimmed();
        if (reason.isEmpty() && !m_failure.isEmpty())
            reason = m_failure;
        if (reason.isEmpty() && m_conn)
            reason = QString::fromUtf8(PQerrorMessage(m_conn)).trimmed();
        // A lost connection is found again by the next connect().
        if (m_conn && PQstatus(m_conn) != CONNECTION_OK)
            disconnect();
        return makeError(
            QStringLiteral("cannot %1 the prompt log %2: %3").arg(what, displayUrl(), reason));
    }

    Result<bool> migrate()
    {
        // One Hako at a time creates or upgrades the schema.
        if (!exec("BEGIN") || !exec("SELECT pg_advisory_xact_lock(7246831)"))
            return error(QStringLiteral("open"), nullptr);
        if (!exec("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"))
            return error(QStringLiteral("create"), nullptr);
        Result_ res = query("SELECT value FROM meta WHERE key = 'schema_version'", {});
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("read"), res.get());
        const int version = PQntuples(res.get()) ? PgRow(res.get(), 0).text(0).toInt() : 0;
        if (version > kSchemaVersion)
            return newerSchemaError(displayUrl(), version);
        for (int step = version; step < kSchemaVersion; ++step) {
            Result_ r = execAll(kMigrations[step]);
            if (PQresultStatus(r.get()) != PGRES_COMMAND_OK)
                return error(QStringLiteral("create"), r.get());
        }
        if (version != kSchemaVersion) {
            Result_ r = query("INSERT INTO meta(key, value) VALUES ('schema_version', $1) ON "
                              "CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                              {QByteArray::number(kSchemaVersion)});
            if (PQresultStatus(r.get()) != PGRES_COMMAND_OK)
                return error(QStringLiteral("create"), r.get());
        }
        if (!exec("COMMIT"))
            return error(QStringLiteral("create"), nullptr);
        return true;
    }

    // Deletes the calls of `where` (content and tags by cascade) with their scores.
    Result<int64_t> deleteWhere(const char* where, const QByteArray& value)
    {
        if (auto c = connect(); !c)
            return c.error();
        const QByteArray sql = QByteArray("WITH gone AS (DELETE FROM calls WHERE ") + where +
                               " RETURNING uid), scores AS (DELETE FROM call_scores WHERE "
                               "call_uid IN (SELECT uid FROM gone)) SELECT count(*) FROM gone";
        Result_ res = query(sql, {value});
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("delete from"), res.get());
        return PgRow(res.get(), 0).int64(0);
    }

    QString m_url;
    PGconn* m_conn = nullptr;
    QString m_failure; // why the last statement got no result (a timeout)
};

} // namespace

std::unique_ptr<LogBackend> makePostgresBackend(const QString& url)
{
    return std::make_unique<PostgresBackend>(url);
}

} // namespace hako::promptlog
