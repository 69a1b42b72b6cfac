// The evaluation store in one SQLite file: WAL with NORMAL sync, so a result committed on its
// own survives a killed process; writers of several processes are serialised by
// BEGIN IMMEDIATE (waiting up to 10 s for each other).
#include "core/eval/storebackend_p.h"
#include "core/util/outputfile.h"

#include <QByteArray>
#include <QHash>

#include <sqlite3.h>

namespace hako::eval {

namespace {

// The schema, one step per version: step N brings a store of version N to N + 1.
const char* const kMigrations[] = {
    R"(
CREATE TABLE datasets(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL);
CREATE TABLE dataset_versions(
  dataset_id INTEGER NOT NULL REFERENCES datasets(id),
  version INTEGER NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  schema TEXT NOT NULL DEFAULT '{}',
  message TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  PRIMARY KEY(dataset_id, version));
CREATE TABLE examples(
  dataset_id INTEGER NOT NULL,
  version INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  example_id TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY(dataset_id, version, idx));
CREATE TABLE experiments(
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL DEFAULT '',
  dataset TEXT NOT NULL DEFAULT '',
  dataset_version INTEGER NOT NULL DEFAULT 0,
  target TEXT NOT NULL DEFAULT '',
  config TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'running',
  total INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER NOT NULL,
  finished_at INTEGER NOT NULL DEFAULT 0);
CREATE INDEX experiments_dataset ON experiments(dataset, started_at);
CREATE TABLE results(
  experiment_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  example_id TEXT NOT NULL,
  body TEXT NOT NULL,
  finished_at INTEGER NOT NULL,
  PRIMARY KEY(experiment_id, idx));
)",
    // 2: the prompt under test, as the prompt library knows it (ExperimentInfo::promptId…).
    R"(
ALTER TABLE experiments ADD COLUMN prompt_id TEXT NOT NULL DEFAULT '';
ALTER TABLE experiments ADD COLUMN prompt_name TEXT NOT NULL DEFAULT '';
ALTER TABLE experiments ADD COLUMN prompt_commit TEXT NOT NULL DEFAULT '';
ALTER TABLE experiments ADD COLUMN prompt_version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX experiments_prompt ON experiments(prompt_id, started_at);
)",
};
static_assert(int(sizeof(kMigrations) / sizeof(kMigrations[0])) == kStoreSchemaVersion);

class SqliteStoreBackend final : public StoreBackend {
public:
    explicit SqliteStoreBackend(QString path) : m_path(std::move(path)) {}
    ~SqliteStoreBackend() override
    {
        for (sqlite3_stmt* s : std::as_const(m_statements))
            sqlite3_finalize(s);
        sqlite3_close(m_db);
    }

    Result<bool> open() override
    {
        // Private from the first byte: SQLite gives -wal and -shm the database's permissions.
        QString why;
        if (!createPrivateFile(m_path, &why))
            return makeError(QStringLiteral("eval store: %1").arg(why));
        if (sqlite3_open_v2(m_path.toUtf8().constData(), &m_db,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                            nullptr) != SQLITE_OK)
            return error(QStringLiteral("cannot open"));
        sqlite3_busy_timeout(m_db, 10000);
        exec("PRAGMA journal_mode=WAL");
        exec("PRAGMA synchronous=NORMAL");
        exec("PRAGMA foreign_keys=ON");
        return migrate();
    }

    Result<SqlRows> run(const char* sql, const std::vector<SqlArg>& args) override
    {
        sqlite3_stmt* s = statement(sql);
        if (!s)
            return error(QStringLiteral("cannot prepare"));
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        for (size_t i = 0; i < args.size(); ++i) {
            if (const auto* n = std::get_if<int64_t>(&args[i])) {
                sqlite3_bind_int64(s, int(i + 1), *n);
            } else {
                const QByteArray u = std::get<QString>(args[i]).toUtf8();
                sqlite3_bind_text(s, int(i + 1), u.constData(), int(u.size()), SQLITE_TRANSIENT);
            }
        }
        SqlRows out;
        const int columns = sqlite3_column_count(s);
        int rc;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            QStringList row;
            row.reserve(columns);
            for (int c = 0; c < columns; ++c) {
                const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, c));
                row << QString::fromUtf8(p, sqlite3_column_bytes(s, c));
            }
            out.rows.append(std::move(row));
        }
        if (rc != SQLITE_DONE) {
            Diagnostic e = error(QStringLiteral("statement failed"));
            sqlite3_reset(s);
            return e;
        }
        out.changed = sqlite3_changes(m_db);
        sqlite3_reset(s);
        return out;
    }

    Result<bool> begin() override
    {
        if (!exec("BEGIN IMMEDIATE"))
            return error(QStringLiteral("cannot write"));
        return true;
    }
    Result<bool> commit() override
    {
        if (!exec("COMMIT")) {
            Diagnostic e = error(QStringLiteral("cannot commit"));
            rollback();
            return e;
        }
        return true;
    }
    void rollback() override { exec("ROLLBACK"); }
    QString location() const override { return m_path; }
    const char* creationOrder() const override { return "experiments.rowid"; }

private:
    Diagnostic error(const QString& what) const
    {
        return makeError(QStringLiteral("eval store %1: %2: %3")
                             .arg(m_path, what, QString::fromUtf8(sqlite3_errmsg(m_db))));
    }
    bool exec(const char* sql)
    {
        return sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    }

    // Statements are prepared once per connection (the texts are the callers' literals).
    sqlite3_stmt* statement(const char* sql)
    {
        const QByteArray key(sql);
        if (sqlite3_stmt* s = m_statements.value(key))
            return s;
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(m_db, sql, -1, &s, nullptr) != SQLITE_OK)
            return nullptr;
        m_statements.insert(key, s);
        return s;
    }

    int schemaVersion()
    {
        sqlite3_stmt* s = nullptr;
        int version = 0;
        if (sqlite3_prepare_v2(m_db, "PRAGMA user_version", -1, &s, nullptr) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW)
            version = sqlite3_column_int(s, 0);
        sqlite3_finalize(s);
        return version;
    }

    Result<bool> migrate()
    {
        // Two processes may open a new store at once (`hako eval` and the window): each step
        // is applied under the write lock after reading the version again, so only one
        // applies it.
        for (;;) {
            const int version = schemaVersion();
            if (version > kStoreSchemaVersion)
                return newerStoreError(m_path, version);
            if (version == kStoreSchemaVersion)
                return true;
            if (!exec("BEGIN IMMEDIATE"))
                return error(QStringLiteral("cannot upgrade"));
            const int locked = schemaVersion();
            if (locked != version) {
                exec("COMMIT");
                continue;
            }
            const QByteArray setVersion =
                QByteArrayLiteral("PRAGMA user_version=") + QByteArray::number(locked + 1);
            if (!exec(kMigrations[locked]) || !exec(setVersion.constData())) {
                Diagnostic e = error(QStringLiteral("cannot upgrade"));
                exec("ROLLBACK");
                return e;
            }
            if (!exec("COMMIT"))
                return error(QStringLiteral("cannot upgrade"));
        }
    }

    QString m_path;
    sqlite3* m_db = nullptr;
    QHash<QByteArray, sqlite3_stmt*> m_statements;
};

} // namespace

std::unique_ptr<StoreBackend> makeSqliteStoreBackend(const QString& path)
{
    return std::make_unique<SqliteStoreBackend>(path);
}

} // namespace hako::eval
