// The evaluation store on SQLite: every statement is in this file, so a PostgreSQL backend
// can follow the prompt log's pattern later. Results are committed one by one (WAL, NORMAL
// sync): an experiment killed mid-way keeps every example that finished.
#include "core/eval/evalstore.h"

#include "core/promptlog/promptlog.h"
#include "core/util/outputfile.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

#include <sqlite3.h>

#include <mutex>

namespace hako::eval {

namespace {

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
};
constexpr int kSchemaVersion = int(sizeof(kMigrations) / sizeof(kMigrations[0]));

class Stmt {
public:
    Stmt(sqlite3* db, const char* sql) : m_db(db)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
            m_stmt = nullptr;
    }
    ~Stmt() { sqlite3_finalize(m_stmt); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    bool valid() const { return m_stmt; }
    void reset()
    {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }
    Stmt& bind(int i, int64_t v)
    {
        sqlite3_bind_int64(m_stmt, i, v);
        return *this;
    }
    Stmt& bind(int i, int v) { return bind(i, int64_t(v)); }
    Stmt& bind(int i, const QString& v)
    {
        const QByteArray u = v.toUtf8();
        sqlite3_bind_text(m_stmt, i, u.constData(), int(u.size()), SQLITE_TRANSIENT);
        return *this;
    }
    bool step()
    {
        m_rc = sqlite3_step(m_stmt);
        return m_rc == SQLITE_ROW;
    }
    bool exec()
    {
        step();
        return m_rc == SQLITE_DONE || m_rc == SQLITE_ROW;
    }
    int64_t int64(int c) const { return sqlite3_column_int64(m_stmt, c); }
    QString text(int c) const
    {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, c));
        return QString::fromUtf8(p, sqlite3_column_bytes(m_stmt, c));
    }
    QString error() const { return QString::fromUtf8(sqlite3_errmsg(m_db)); }

private:
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
    int m_rc = SQLITE_OK;
};

int64_t nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString compact(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject parseObject(const QString& s)
{
    return QJsonDocument::fromJson(s.toUtf8()).object();
}

} // namespace

struct EvalStorePrivate {
    QString path;
    sqlite3* db = nullptr;
    std::mutex mutex;

    ~EvalStorePrivate() { sqlite3_close(db); }

    Diagnostic error(const QString& what) const
    {
        return makeError(QStringLiteral("eval store %1: %2: %3")
                             .arg(path, what, QString::fromUtf8(sqlite3_errmsg(db))));
    }
    bool exec(const char* sql)
    {
        return sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    std::optional<int64_t> datasetId(const QString& name)
    {
        Stmt s(db, "SELECT id FROM datasets WHERE name = ?");
        s.bind(1, name);
        if (s.step())
            return s.int64(0);
        return std::nullopt;
    }
    int latestVersion(int64_t id)
    {
        Stmt s(db, "SELECT COALESCE(MAX(version), 0) FROM dataset_versions WHERE dataset_id = ?");
        s.bind(1, id);
        return s.step() ? int(s.int64(0)) : 0;
    }
    Result<Dataset> load(const QString& name, int version)
    {
        const std::optional<int64_t> id = datasetId(name);
        if (!id)
            return makeError(QStringLiteral("no dataset named '%1'").arg(name));
        if (version <= 0)
            version = latestVersion(*id);
        Stmt v(db, "SELECT description, schema FROM dataset_versions "
                   "WHERE dataset_id = ? AND version = ?");
        v.bind(1, *id).bind(2, version);
        if (!v.step())
            return makeError(
                QStringLiteral("dataset '%1' has no version %2").arg(name).arg(version));
        Dataset d;
        d.name = name;
        d.version = version;
        d.description = v.text(0);
        d.schema = parseObject(v.text(1));
        Stmt e(db, "SELECT body FROM examples WHERE dataset_id = ? AND version = ? ORDER BY idx");
        e.bind(1, *id).bind(2, version);
        while (e.step())
            d.examples.append(Example::fromJson(parseObject(e.text(0))));
        return d;
    }
};

QString EvalStore::defaultPath()
{
    return QFileInfo(promptlog::PromptLog::defaultPath())
        .dir()
        .filePath(QStringLiteral("eval.sqlite"));
}

Result<std::unique_ptr<EvalStore>> EvalStore::open(const QString& path)
{
    auto d = std::make_unique<EvalStorePrivate>();
    d->path = path;
    if (path.isEmpty())
        return makeError(QStringLiteral("eval store: no path"));
    // Private from the first byte: SQLite gives -wal and -shm the database's permissions.
    QString why;
    if (!createPrivateFile(path, &why))
        return makeError(QStringLiteral("eval store: %1").arg(why));
    if (sqlite3_open_v2(path.toUtf8().constData(), &d->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK)
        return d->error(QStringLiteral("cannot open"));
    sqlite3_busy_timeout(d->db, 10000);
    d->exec("PRAGMA journal_mode=WAL");
    d->exec("PRAGMA synchronous=NORMAL");
    d->exec("PRAGMA foreign_keys=ON");
    auto schemaVersion = [&d] {
        Stmt s(d->db, "PRAGMA user_version");
        return s.step() ? int(s.int64(0)) : 0;
    };
    // Two processes may open a new store at once (`hako eval` and the window): each step is
    // applied under the write lock after reading the version again, so only one applies it.
    for (;;) {
        const int version = schemaVersion();
        if (version > kSchemaVersion)
            return makeError(QStringLiteral("eval store %1 was written by a newer Hako (schema %2)")
                                 .arg(path)
                                 .arg(version));
        if (version == kSchemaVersion)
            break;
        if (!d->exec("BEGIN IMMEDIATE"))
            return d->error(QStringLiteral("cannot upgrade"));
        const int locked = schemaVersion();
        if (locked != version) {
            d->exec("COMMIT");
            continue;
        }
        if (!d->exec(kMigrations[locked]) ||
            !d->exec(
                QStringLiteral("PRAGMA user_version=%1").arg(locked + 1).toUtf8().constData())) {
            Diagnostic e = d->error(QStringLiteral("cannot upgrade"));
            d->exec("ROLLBACK");
            return e;
        }
        if (!d->exec("COMMIT"))
            return d->error(QStringLiteral("cannot upgrade"));
    }
    return std::unique_ptr<EvalStore>(new EvalStore(std::move(d)));
}

EvalStore::EvalStore(std::unique_ptr<EvalStorePrivate> p) : d(std::move(p)) {}
EvalStore::~EvalStore() = default;

QString EvalStore::path() const
{
    return d->path;
}

Result<int> EvalStore::saveDataset(const Dataset& dataset, const QString& message,
                                   bool onlyIfChanged)
{
    std::lock_guard lock(d->mutex);
    if (dataset.name.isEmpty())
        return makeError(QStringLiteral("a dataset needs a name"));
    if (onlyIfChanged) {
        Result<Dataset> latest = d->load(dataset.name, 0);
        // Compared as they would be stored: ids filled in, the schema inferred when empty.
        QList<Example> examples = dataset.examples;
        for (Example& ex : examples)
            ex.ensureId();
        const QJsonObject schema =
            dataset.schema.isEmpty() ? Dataset::inferSchema(examples) : dataset.schema;
        if (latest.ok() && latest->examples == examples && latest->schema == schema &&
            latest->description == dataset.description)
            return latest->version;
    }
    if (!d->exec("BEGIN IMMEDIATE"))
        return d->error(QStringLiteral("cannot write"));
    auto fail = [&](const QString& what) {
        Diagnostic e = d->error(what);
        d->exec("ROLLBACK");
        return e;
    };
    std::optional<int64_t> id = d->datasetId(dataset.name);
    if (!id) {
        Stmt s(d->db, "INSERT INTO datasets(name, description, created_at) VALUES(?, ?, ?)");
        s.bind(1, dataset.name).bind(2, dataset.description).bind(3, nowMs());
        if (!s.exec())
            return fail(QStringLiteral("cannot create the dataset"));
        id = sqlite3_last_insert_rowid(d->db);
    } else {
        Stmt s(d->db, "UPDATE datasets SET description = ? WHERE id = ?");
        s.bind(1, dataset.description).bind(2, *id);
        s.exec();
    }
    const int version = d->latestVersion(*id) + 1;
    const QJsonObject schema =
        dataset.schema.isEmpty() ? Dataset::inferSchema(dataset.examples) : dataset.schema;
    {
        Stmt s(d->db, "INSERT INTO dataset_versions(dataset_id, version, description, schema, "
                      "message, created_at) VALUES(?, ?, ?, ?, ?, ?)");
        s.bind(1, *id).bind(2, version).bind(3, dataset.description).bind(4, compact(schema));
        s.bind(5, message).bind(6, nowMs());
        if (!s.exec())
            return fail(QStringLiteral("cannot add a version"));
    }
    Stmt row(d->db, "INSERT INTO examples(dataset_id, version, idx, example_id, body) "
                    "VALUES(?, ?, ?, ?, ?)");
    for (int i = 0; i < dataset.examples.size(); ++i) {
        Example ex = dataset.examples[i];
        ex.ensureId();
        row.reset();
        row.bind(1, *id).bind(2, version).bind(3, i).bind(4, ex.id).bind(5, compact(ex.toJson()));
        if (!row.exec())
            return fail(QStringLiteral("cannot add example %1").arg(i));
    }
    if (!d->exec("COMMIT"))
        return fail(QStringLiteral("cannot commit"));
    return version;
}

Result<Dataset> EvalStore::dataset(const QString& name, int version)
{
    std::lock_guard lock(d->mutex);
    return d->load(name, version);
}

Result<QStringList> EvalStore::datasetNames()
{
    std::lock_guard lock(d->mutex);
    Stmt s(d->db, "SELECT name FROM datasets ORDER BY name");
    QStringList names;
    while (s.step())
        names << s.text(0);
    return names;
}

Result<QList<DatasetVersionInfo>> EvalStore::versions(const QString& name)
{
    std::lock_guard lock(d->mutex);
    const std::optional<int64_t> id = d->datasetId(name);
    if (!id)
        return makeError(QStringLiteral("no dataset named '%1'").arg(name));
    Stmt s(d->db, "SELECT v.version, v.message, v.created_at, "
                  "(SELECT COUNT(*) FROM examples e WHERE e.dataset_id = v.dataset_id AND "
                  "e.version = v.version) FROM dataset_versions v WHERE v.dataset_id = ? "
                  "ORDER BY v.version");
    s.bind(1, *id);
    QList<DatasetVersionInfo> out;
    while (s.step())
        out.append({int(s.int64(0)), int(s.int64(3)), s.text(1), s.int64(2)});
    return out;
}

namespace {
ExperimentInfo experimentFrom(const Stmt& s)
{
    ExperimentInfo e;
    e.id = s.text(0);
    e.name = s.text(1);
    e.dataset = s.text(2);
    e.datasetVersion = int(s.int64(3));
    e.target = s.text(4);
    e.config = parseObject(s.text(5));
    e.status = s.text(6);
    e.total = int(s.int64(7));
    e.startedAt = s.int64(8);
    e.finishedAt = s.int64(9);
    return e;
}
const char* kExperimentColumns = "SELECT id, name, dataset, dataset_version, target, config, "
                                 "status, total, started_at, finished_at FROM experiments ";
} // namespace

Result<bool> EvalStore::createExperiment(ExperimentInfo& info)
{
    std::lock_guard lock(d->mutex);
    if (info.id.isEmpty())
        info.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (info.startedAt == 0)
        info.startedAt = nowMs();
    if (info.status.isEmpty())
        info.status = QStringLiteral("running");
    Stmt s(d->db, "INSERT OR IGNORE INTO experiments(id, name, dataset, dataset_version, target, "
                  "config, status, total, started_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
    s.bind(1, info.id).bind(2, info.name).bind(3, info.dataset).bind(4, info.datasetVersion);
    s.bind(5, info.target).bind(6, compact(info.config)).bind(7, info.status).bind(8, info.total);
    s.bind(9, info.startedAt);
    if (!s.exec())
        return d->error(QStringLiteral("cannot create the experiment"));
    return sqlite3_changes(d->db) > 0;
}

Result<ExperimentInfo> EvalStore::experiment(const QString& id)
{
    std::lock_guard lock(d->mutex);
    const QByteArray sql = QByteArray(kExperimentColumns) + "WHERE id = ? OR id LIKE ? "
                                                            "ORDER BY started_at DESC LIMIT 2";
    Stmt s(d->db, sql.constData());
    s.bind(1, id).bind(2, id.size() >= 8 ? id + QLatin1Char('%') : id);
    if (!s.step())
        return makeError(QStringLiteral("no experiment '%1'").arg(id));
    ExperimentInfo e = experimentFrom(s);
    if (e.id != id && s.step())
        return makeError(QStringLiteral("'%1' names several experiments").arg(id));
    return e;
}

Result<QList<ExperimentInfo>> EvalStore::experiments(const QString& dataset)
{
    std::lock_guard lock(d->mutex);
    const QByteArray sql = QByteArray(kExperimentColumns) +
                           (dataset.isEmpty() ? "" : "WHERE dataset = ? ") +
                           "ORDER BY started_at DESC, rowid DESC";
    Stmt s(d->db, sql.constData());
    if (!dataset.isEmpty())
        s.bind(1, dataset);
    QList<ExperimentInfo> out;
    while (s.step())
        out.append(experimentFrom(s));
    return out;
}

Result<bool> EvalStore::setExperimentStatus(const QString& id, const QString& status)
{
    std::lock_guard lock(d->mutex);
    Stmt s(d->db, "UPDATE experiments SET status = ?, finished_at = ? WHERE id = ?");
    s.bind(1, status)
        .bind(2, status == QLatin1String("running") ? int64_t(0) : nowMs())
        .bind(3, id);
    if (!s.exec())
        return d->error(QStringLiteral("cannot update the experiment"));
    return sqlite3_changes(d->db) > 0;
}

Result<bool> EvalStore::saveResult(const QString& experimentId, const ExampleResult& result)
{
    std::lock_guard lock(d->mutex);
    Stmt s(d->db, "INSERT OR REPLACE INTO results(experiment_id, idx, example_id, body, "
                  "finished_at) VALUES(?, ?, ?, ?, ?)");
    s.bind(1, experimentId).bind(2, result.index).bind(3, result.exampleId);
    s.bind(4, compact(result.toJson())).bind(5, result.finishedAt ? result.finishedAt : nowMs());
    if (!s.exec())
        return d->error(QStringLiteral("cannot write a result"));
    return true;
}

Result<QList<ExampleResult>> EvalStore::results(const QString& experimentId)
{
    std::lock_guard lock(d->mutex);
    Stmt s(d->db, "SELECT body FROM results WHERE experiment_id = ? ORDER BY idx");
    s.bind(1, experimentId);
    QList<ExampleResult> out;
    while (s.step())
        out.append(ExampleResult::fromJson(parseObject(s.text(0))));
    return out;
}

} // namespace hako::eval
