// The evaluation store on a PostgreSQL server (a team's shared store), through libpq: the same
// tables as the SQLite file. Each statement outside a transaction commits on its own (a result
// is durable when saveResult() returns); writers of datasets are serialised by an advisory
// lock, as SQLite's BEGIN IMMEDIATE does, so two processes never number a version twice.
#include "core/eval/storebackend_p.h"

#include <QUrl>

#include "core/libpq/libpqloader.h"

#include <libpq-fe.h>

#include <memory>

namespace hako::eval {

namespace {

// The schema, one step per version, as the SQLite file's (sqlitestorebackend.cpp); `seq`
// orders experiments started in the same millisecond as SQLite's rowid does.
const char* const kMigrations[] = {
    R"(
CREATE TABLE datasets(
  id BIGSERIAL PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL);
CREATE TABLE dataset_versions(
  dataset_id BIGINT NOT NULL REFERENCES datasets(id),
  version INTEGER NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  schema TEXT NOT NULL DEFAULT '{}',
  message TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  PRIMARY KEY(dataset_id, version));
CREATE TABLE examples(
  dataset_id BIGINT NOT NULL,
  version INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  example_id TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY(dataset_id, version, idx));
CREATE TABLE experiments(
  seq BIGSERIAL UNIQUE,
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL DEFAULT '',
  dataset TEXT NOT NULL DEFAULT '',
  dataset_version INTEGER NOT NULL DEFAULT 0,
  target TEXT NOT NULL DEFAULT '',
  config TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'running',
  total INTEGER NOT NULL DEFAULT 0,
  started_at BIGINT NOT NULL,
  finished_at BIGINT NOT NULL DEFAULT 0);
CREATE INDEX experiments_dataset ON experiments(dataset, started_at);
CREATE TABLE results(
  experiment_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  example_id TEXT NOT NULL,
  body TEXT NOT NULL,
  finished_at BIGINT NOT NULL,
  PRIMARY KEY(experiment_id, idx));
)",
    R"(
ALTER TABLE experiments ADD COLUMN prompt_id TEXT NOT NULL DEFAULT '',
  ADD COLUMN prompt_name TEXT NOT NULL DEFAULT '',
  ADD COLUMN prompt_commit TEXT NOT NULL DEFAULT '',
  ADD COLUMN prompt_version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX experiments_prompt ON experiments(prompt_id, started_at);
)",
};
static_assert(int(sizeof(kMigrations) / sizeof(kMigrations[0])) == kStoreSchemaVersion);

// Keys of pg_advisory_xact_lock (the prompt log uses 7246831).
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(7246832)";
constexpr const char* kWriteLock = "SELECT pg_advisory_xact_lock(7246833)";

using PgResult = std::unique_ptr<PGresult, decltype(&PQclear)>;

// `?` placeholders (outside quoted text) become $1, $2, …
QByteArray numberedPlaceholders(const char* sql)
{
    QByteArray out;
    int n = 0;
    bool quoted = false;
    for (const char* p = sql; *p; ++p) {
        if (*p == '\'')
            quoted = !quoted;
        if (*p == '?' && !quoted)
            out += '$' + QByteArray::number(++n);
        else
            out += *p;
    }
    return out;
}

class PostgresStoreBackend final : public StoreBackend {
public:
    explicit PostgresStoreBackend(QString url) : m_url(std::move(url)) {}
    ~PostgresStoreBackend() override { disconnect(); }

    Result<bool> open() override
    {
        if (auto c = connect(); !c)
            return c;
        auto migrated = migrate();
        if (!migrated)
            exec("ROLLBACK");
        return migrated;
    }

    Result<SqlRows> run(const char* sql, const std::vector<SqlArg>& args) override
    {
        Result<SqlRows> out = runOnce(sql, args);
        // A connection lost since the last call (the server restarted) is made again and the
        // statement sent once more: every statement run outside a transaction is idempotent
        // (upserts, updates, reads). Within a transaction the transaction is lost: it fails.
        if (!out.ok() && !m_inTransaction && !m_conn)
            out = runOnce(sql, args);
        return out;
    }

private:
    Result<SqlRows> runOnce(const char* sql, const std::vector<SqlArg>& args)
    {
        if (!m_inTransaction)
            if (auto c = connect(); !c)
                return c.error();
        std::vector<QByteArray> texts;
        texts.reserve(args.size());
        for (const SqlArg& a : args) {
            if (const auto* n = std::get_if<int64_t>(&a))
                texts.push_back(QByteArray::number(qint64(*n)));
            else
                texts.push_back(std::get<QString>(a).toUtf8());
        }
        std::vector<const char*> values;
        for (const QByteArray& t : texts)
            values.push_back(t.constData());
        const QByteArray text = numberedPlaceholders(sql);
        PgResult res(PQexecParams(m_conn, text.constData(), int(values.size()), nullptr,
                                  values.data(), nullptr, nullptr, 0),
                     &PQclear);
        const ExecStatusType status = PQresultStatus(res.get());
        if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK)
            return error(QStringLiteral("statement failed"), res.get());
        SqlRows out;
        const int rows = PQntuples(res.get());
        const int columns = PQnfields(res.get());
        out.rows.reserve(rows);
        for (int r = 0; r < rows; ++r) {
            QStringList row;
            row.reserve(columns);
            for (int c = 0; c < columns; ++c)
                row << QString::fromUtf8(PQgetvalue(res.get(), r, c), PQgetlength(res.get(), r, c));
            out.rows.append(std::move(row));
        }
        out.changed = QByteArray(PQcmdTuples(res.get())).toLongLong();
        return out;
    }

public:
    Result<bool> begin() override
    {
        if (auto c = connect(); !c)
            return c;
        if (!exec("BEGIN") || !exec(kWriteLock)) {
            Diagnostic e = error(QStringLiteral("cannot write"), nullptr);
            exec("ROLLBACK");
            return e;
        }
        m_inTransaction = true;
        return true;
    }
    Result<bool> commit() override
    {
        m_inTransaction = false;
        if (!exec("COMMIT")) {
            Diagnostic e = error(QStringLiteral("cannot commit"), nullptr);
            exec("ROLLBACK");
            return e;
        }
        return true;
    }
    void rollback() override
    {
        m_inTransaction = false;
        exec("ROLLBACK");
    }

    // The URL without its password, for messages.
    QString location() const override
    {
        const QUrl u(m_url);
        return u.isValid() ? u.toString(QUrl::RemovePassword) : QStringLiteral("(PostgreSQL)");
    }
    const char* creationOrder() const override { return "experiments.seq"; }

private:
    Result<bool> connect()
    {
        if (m_conn && PQstatus(m_conn) == CONNECTION_OK)
            return true;
        disconnect();
        const QByteArray url = m_url.toUtf8();
        // libpq is loaded now, not at start-up (core/libpq/libpqloader.h).
        if (QString missing; !loadLibpq(&missing))
            return makeError(
                QStringLiteral("cannot connect to the eval store %1: %2").arg(location(), missing));
        // The URL's own settings win, but a dead server must not hang `hako eval` for minutes.
        const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
        const char* values[] = {"5", "hako", url.constData(), nullptr};
        m_conn = PQconnectdbParams(keys, values, 1);
        if (!m_conn || PQstatus(m_conn) != CONNECTION_OK) {
            const QString reason = m_conn ? QString::fromUtf8(PQerrorMessage(m_conn)).trimmed()
                                          : QStringLiteral("out of memory");
            disconnect();
            return makeError(
                QStringLiteral("cannot connect to the eval store %1: %2").arg(location(), reason));
        }
        PQsetClientEncoding(m_conn, "UTF8");
        // The server's notices ("relation … already exists, skipping") are not for the user.
        PQsetNoticeProcessor(
            m_conn, [](void*, const char*) {}, nullptr);
        return true;
    }

    void disconnect()
    {
        if (m_conn) {
            PQfinish(m_conn);
            m_conn = nullptr;
        }
        m_inTransaction = false;
    }

    bool exec(const char* sql)
    {
        if (!m_conn)
            return false;
        PgResult res(PQexec(m_conn, sql), &PQclear);
        return PQresultStatus(res.get()) == PGRES_COMMAND_OK ||
               PQresultStatus(res.get()) == PGRES_TUPLES_OK;
    }

    Diagnostic error(const QString& what, PGresult* res)
    {
        QString reason = QString::fromUtf8(res ? PQresultErrorMessage(res) : "").trimmed();
        if (reason.isEmpty() && m_conn)
            reason = QString::fromUtf8(PQerrorMessage(m_conn)).trimmed();
        // A lost connection is made again by the next call.
        if (m_conn && PQstatus(m_conn) != CONNECTION_OK)
            disconnect();
        return makeError(QStringLiteral("eval store %1: %2: %3").arg(location(), what, reason));
    }

    Result<bool> migrate()
    {
        // One Hako at a time creates or upgrades the schema.
        if (!exec("BEGIN") || !exec(kMigrationLock))
            return error(QStringLiteral("cannot open"), nullptr);
        if (!exec("CREATE TABLE IF NOT EXISTS eval_meta(key TEXT PRIMARY KEY, value TEXT NOT "
                  "NULL)"))
            return error(QStringLiteral("cannot create"), nullptr);
        PgResult res(PQexec(m_conn, "SELECT value FROM eval_meta WHERE key = 'schema_version'"),
                     &PQclear);
        if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
            return error(QStringLiteral("cannot read"), res.get());
        const int version =
            PQntuples(res.get()) ? QByteArray(PQgetvalue(res.get(), 0, 0)).toInt() : 0;
        if (version > kStoreSchemaVersion)
            return newerStoreError(location(), version);
        for (int step = version; step < kStoreSchemaVersion; ++step) {
            PgResult r(PQexec(m_conn, kMigrations[step]), &PQclear);
            if (PQresultStatus(r.get()) != PGRES_COMMAND_OK)
                return error(QStringLiteral("cannot upgrade"), r.get());
        }
        if (version != kStoreSchemaVersion) {
            const QByteArray set = "INSERT INTO eval_meta(key, value) VALUES ('schema_version', '" +
                                   QByteArray::number(kStoreSchemaVersion) +
                                   "') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value";
            if (!exec(set.constData()))
                return error(QStringLiteral("cannot upgrade"), nullptr);
        }
        if (!exec("COMMIT"))
            return error(QStringLiteral("cannot upgrade"), nullptr);
        return true;
    }

    QString m_url;
    PGconn* m_conn = nullptr;
    bool m_inTransaction = false;
};

} // namespace

std::unique_ptr<StoreBackend> makePostgresStoreBackend(const QString& url)
{
    return std::make_unique<PostgresStoreBackend>(url);
}

} // namespace hako::eval
