// The evaluation store's statements, written once in the SQL that SQLite and PostgreSQL both
// speak (upserts with ON CONFLICT, RETURNING); each engine's connection, schema steps and
// write lock are in its backend (storebackend_p.h). Results are committed one by one: an
// experiment killed mid-way keeps every example that finished.
#include "core/eval/evalstore.h"

#include "core/eval/storebackend_p.h"
#include "core/promptlog/promptlog.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

#include <mutex>
#include <optional>

namespace hako::eval {

namespace {

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
    std::unique_ptr<StoreBackend> db;
    std::mutex mutex;

    // `what` failed because of `cause` (the backend's message names the store).
    static Diagnostic failed(const QString& what, const Diagnostic& cause)
    {
        Diagnostic e = cause;
        e.message = QStringLiteral("%1 (%2)").arg(what, cause.message);
        return e;
    }
    Result<std::optional<int64_t>> datasetId(const QString& name)
    {
        Result<SqlRows> r = db->run("SELECT id FROM datasets WHERE name = ?", {name});
        if (!r.ok())
            return r.error();
        if (r->isEmpty())
            return std::optional<int64_t>();
        return std::optional<int64_t>(r->int64(0, 0));
    }
    Result<int> latestVersion(int64_t id)
    {
        Result<SqlRows> r = db->run(
            "SELECT COALESCE(MAX(version), 0) FROM dataset_versions WHERE dataset_id = ?", {id});
        if (!r.ok())
            return r.error();
        return int(r->int64(0, 0));
    }
    Result<Dataset> load(const QString& name, int version)
    {
        Result<std::optional<int64_t>> id = datasetId(name);
        if (!id.ok())
            return id.error();
        if (!*id)
            return makeError(QStringLiteral("no dataset named '%1'").arg(name));
        if (version <= 0) {
            Result<int> latest = latestVersion(**id);
            if (!latest.ok())
                return latest.error();
            version = *latest;
        }
        Result<SqlRows> v = db->run("SELECT description, schema FROM dataset_versions "
                                    "WHERE dataset_id = ? AND version = ?",
                                    {**id, int64_t(version)});
        if (!v.ok())
            return v.error();
        if (v->isEmpty())
            return makeError(
                QStringLiteral("dataset '%1' has no version %2").arg(name).arg(version));
        Dataset d;
        d.name = name;
        d.version = version;
        d.description = v->text(0, 0);
        d.schema = parseObject(v->text(0, 1));
        Result<SqlRows> e =
            db->run("SELECT body FROM examples WHERE dataset_id = ? AND version = ? ORDER BY idx",
                    {**id, int64_t(version)});
        if (!e.ok())
            return e.error();
        for (const QStringList& row : e->rows)
            d.examples.append(Example::fromJson(parseObject(row.value(0))));
        return d;
    }
    Result<int> insertVersion(const Dataset& dataset, const QString& message);
    Result<QList<ExperimentInfo>> experimentsWhere(const char* sql,
                                                   const std::vector<SqlArg>& args);
};

QString EvalStore::defaultPath()
{
    return QFileInfo(promptlog::PromptLog::defaultPath())
        .dir()
        .filePath(QStringLiteral("eval.sqlite"));
}

Result<std::unique_ptr<EvalStore>> EvalStore::open(const QString& pathOrUrl)
{
    if (pathOrUrl.trimmed().isEmpty())
        return makeError(QStringLiteral("eval store: none given (a file or a postgresql:// URL)"));
    auto d = std::make_unique<EvalStorePrivate>();
    d->path = pathOrUrl;
    if (promptlog::PromptLog::isPostgresUrl(pathOrUrl)) {
        d->db = makePostgresStoreBackend(pathOrUrl);
    } else {
        // Not a file either; its text may hold a password, so it is not repeated.
        if (pathOrUrl.contains(QLatin1String("://")))
            return makeError(QStringLiteral("eval store: neither a file nor a postgresql:// URL "
                                            "(%1://…)")
                                 .arg(pathOrUrl.section(QLatin1String("://"), 0, 0)));
        d->db = makeSqliteStoreBackend(pathOrUrl);
    }
    if (Result<bool> opened = d->db->open(); !opened)
        return opened.error();
    return std::unique_ptr<EvalStore>(new EvalStore(std::move(d)));
}

EvalStore::EvalStore(std::unique_ptr<EvalStorePrivate> p) : d(std::move(p)) {}
EvalStore::~EvalStore() = default;

QString EvalStore::path() const
{
    return d->path;
}

QString EvalStore::location() const
{
    return d->db->location();
}

bool EvalStore::isPostgres() const
{
    return promptlog::PromptLog::isPostgresUrl(d->path);
}

QString EvalStore::folder() const
{
    return QFileInfo(isPostgres() ? defaultPath() : d->path).absolutePath();
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
    if (Result<bool> begun = d->db->begin(); !begun)
        return begun.error();
    Result<int> version = d->insertVersion(dataset, message);
    if (!version.ok()) {
        d->db->rollback();
        return version;
    }
    if (Result<bool> committed = d->db->commit(); !committed)
        return committed.error();
    return version;
}

// Within the write transaction: the dataset (created when new), its next version, its examples.
Result<int> EvalStorePrivate::insertVersion(const Dataset& dataset, const QString& message)
{
    Result<std::optional<int64_t>> found = datasetId(dataset.name);
    if (!found.ok())
        return found.error();
    int64_t id = 0;
    if (!*found) {
        Result<SqlRows> r = db->run("INSERT INTO datasets(name, description, created_at) "
                                    "VALUES(?, ?, ?) RETURNING id",
                                    {dataset.name, dataset.description, nowMs()});
        if (!r.ok() || r->isEmpty())
            return failed(QStringLiteral("cannot create the dataset"),
                          r.ok() ? makeError(QStringLiteral("no id")) : r.error());
        id = r->int64(0, 0);
    } else {
        id = **found;
        Result<SqlRows> r =
            db->run("UPDATE datasets SET description = ? WHERE id = ?", {dataset.description, id});
        if (!r.ok())
            return failed(QStringLiteral("cannot update the dataset"), r.error());
    }
    Result<int> latest = latestVersion(id);
    if (!latest.ok())
        return latest.error();
    const int version = *latest + 1;
    const QJsonObject schema =
        dataset.schema.isEmpty() ? Dataset::inferSchema(dataset.examples) : dataset.schema;
    Result<SqlRows> v =
        db->run("INSERT INTO dataset_versions(dataset_id, version, description, "
                "schema, message, created_at) VALUES(?, ?, ?, ?, ?, ?)",
                {id, int64_t(version), dataset.description, compact(schema), message, nowMs()});
    if (!v.ok())
        return failed(QStringLiteral("cannot add a version"), v.error());
    for (int i = 0; i < dataset.examples.size(); ++i) {
        Example ex = dataset.examples[i];
        ex.ensureId();
        Result<SqlRows> r =
            db->run("INSERT INTO examples(dataset_id, version, idx, example_id, "
                    "body) VALUES(?, ?, ?, ?, ?)",
                    {id, int64_t(version), int64_t(i), ex.id, compact(ex.toJson())});
        if (!r.ok())
            return failed(QStringLiteral("cannot add example %1").arg(i), r.error());
    }
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
    Result<SqlRows> r = d->db->run("SELECT name FROM datasets ORDER BY name");
    if (!r.ok())
        return r.error();
    QStringList names;
    for (const QStringList& row : r->rows)
        names << row.value(0);
    return names;
}

Result<QList<DatasetVersionInfo>> EvalStore::versions(const QString& name)
{
    std::lock_guard lock(d->mutex);
    Result<std::optional<int64_t>> id = d->datasetId(name);
    if (!id.ok())
        return id.error();
    if (!*id)
        return makeError(QStringLiteral("no dataset named '%1'").arg(name));
    Result<SqlRows> r =
        d->db->run("SELECT v.version, v.message, v.created_at, "
                   "(SELECT COUNT(*) FROM examples e WHERE e.dataset_id = v.dataset_id AND "
                   "e.version = v.version) FROM dataset_versions v WHERE v.dataset_id = ? "
                   "ORDER BY v.version",
                   {**id});
    if (!r.ok())
        return r.error();
    QList<DatasetVersionInfo> out;
    for (qsizetype i = 0; i < r->size(); ++i)
        out.append({int(r->int64(i, 0)), int(r->int64(i, 3)), r->text(i, 1), r->int64(i, 2)});
    return out;
}

namespace {

#define HAKO_EXPERIMENT_COLUMNS                                                                    \
    "SELECT id, name, dataset, dataset_version, target, config, status, total, started_at, "       \
    "finished_at, prompt_id, prompt_name, prompt_commit, prompt_version FROM experiments "

ExperimentInfo experimentFrom(const SqlRows& r, qsizetype i)
{
    ExperimentInfo e;
    e.id = r.text(i, 0);
    e.name = r.text(i, 1);
    e.dataset = r.text(i, 2);
    e.datasetVersion = int(r.int64(i, 3));
    e.target = r.text(i, 4);
    e.config = parseObject(r.text(i, 5));
    e.status = r.text(i, 6);
    e.total = int(r.int64(i, 7));
    e.startedAt = r.int64(i, 8);
    e.finishedAt = r.int64(i, 9);
    e.promptId = r.text(i, 10);
    e.promptName = r.text(i, 11);
    e.promptCommit = r.text(i, 12);
    e.promptVersion = int(r.int64(i, 13));
    return e;
}

} // namespace

Result<QList<ExperimentInfo>> EvalStorePrivate::experimentsWhere(const char* where,
                                                                 const std::vector<SqlArg>& args)
{
    // Newest first; experiments started in the same millisecond in the order they were made.
    const QByteArray sql = QByteArrayLiteral(HAKO_EXPERIMENT_COLUMNS) + where +
                           " ORDER BY started_at DESC, " + db->creationOrder() + " DESC";
    Result<SqlRows> r = db->run(sql.constData(), args);
    if (!r.ok())
        return r.error();
    QList<ExperimentInfo> out;
    for (qsizetype i = 0; i < r->size(); ++i)
        out.append(experimentFrom(*r, i));
    return out;
}

Result<bool> EvalStore::createExperiment(ExperimentInfo& info)
{
    std::lock_guard lock(d->mutex);
    if (info.id.isEmpty())
        info.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (info.startedAt == 0)
        info.startedAt = nowMs();
    if (info.status.isEmpty())
        info.status = QStringLiteral("running");
    Result<SqlRows> r = d->db->run(
        "INSERT INTO experiments(id, name, dataset, dataset_version, target, config, status, "
        "total, started_at, prompt_id, prompt_name, prompt_commit, prompt_version) "
        "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
        {info.id, info.name, info.dataset, int64_t(info.datasetVersion), info.target,
         compact(info.config), info.status, int64_t(info.total), info.startedAt, info.promptId,
         info.promptName, info.promptCommit, int64_t(info.promptVersion)});
    if (!r.ok())
        return d->failed(QStringLiteral("cannot create the experiment"), r.error());
    return r->changed > 0;
}

Result<ExperimentInfo> EvalStore::experiment(const QString& idOrPrefix)
{
    std::lock_guard lock(d->mutex);
    const QString id = idOrPrefix.trimmed();
    Result<QList<ExperimentInfo>> exact = d->experimentsWhere("WHERE id = ?", {id});
    if (!exact.ok())
        return exact.error();
    if (!exact->isEmpty())
        return exact->first();
    // A prefix is compared as text, never as a pattern: `%` or `_` typed by a person match
    // only themselves, on both engines alike (SQLite's LIKE would also ignore case).
    const int length = int(id.toUcs4().size());
    if (length < kMinIdPrefix)
        return makeError(QStringLiteral("no experiment '%1' (an id prefix needs at least %2 "
                                        "characters)")
                             .arg(id)
                             .arg(kMinIdPrefix));
    Result<QList<ExperimentInfo>> matches =
        d->experimentsWhere("WHERE substr(id, 1, ?) = ?", {int64_t(length), id});
    if (!matches.ok())
        return matches.error();
    if (matches->isEmpty())
        return makeError(QStringLiteral("no experiment '%1'").arg(id));
    if (matches->size() > 1) {
        QStringList candidates;
        for (const ExperimentInfo& e : *matches)
            candidates << (e.name.isEmpty() ? e.id : QStringLiteral("%1 (%2)").arg(e.id, e.name));
        return makeError(QStringLiteral("'%1' names %2 experiments: %3; give more of the id")
                             .arg(id)
                             .arg(matches->size())
                             .arg(candidates.join(QStringLiteral(", "))));
    }
    return matches->first();
}

Result<QList<ExperimentInfo>> EvalStore::experiments(const QString& dataset)
{
    std::lock_guard lock(d->mutex);
    if (dataset.isEmpty())
        return d->experimentsWhere("", {});
    return d->experimentsWhere("WHERE dataset = ?", {dataset});
}

Result<QList<ExperimentInfo>> EvalStore::experimentsOfPrompt(const QString& promptId)
{
    if (promptId.isEmpty())
        return makeError(QStringLiteral("no prompt given (its library id)"));
    std::lock_guard lock(d->mutex);
    return d->experimentsWhere("WHERE prompt_id = ?", {promptId});
}

Result<bool> EvalStore::renameExperiment(const QString& id, const QString& name)
{
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return makeError(QStringLiteral("an experiment's name cannot be empty"));
    std::lock_guard lock(d->mutex);
    Result<SqlRows> r = d->db->run("UPDATE experiments SET name = ? WHERE id = ?", {trimmed, id});
    if (!r.ok())
        return d->failed(QStringLiteral("cannot rename the experiment"), r.error());
    return r->changed > 0;
}

Result<bool> EvalStore::setExperimentStatus(const QString& id, const QString& status)
{
    std::lock_guard lock(d->mutex);
    const int64_t finished = status == QLatin1String("running") ? int64_t(0) : nowMs();
    Result<SqlRows> r = d->db->run(
        "UPDATE experiments SET status = ?, finished_at = ? WHERE id = ?", {status, finished, id});
    if (!r.ok())
        return d->failed(QStringLiteral("cannot update the experiment"), r.error());
    return r->changed > 0;
}

Result<bool> EvalStore::saveResult(const QString& experimentId, const ExampleResult& result)
{
    std::lock_guard lock(d->mutex);
    Result<SqlRows> r =
        d->db->run("INSERT INTO results(experiment_id, idx, example_id, body, finished_at) "
                   "VALUES(?, ?, ?, ?, ?) ON CONFLICT(experiment_id, idx) DO UPDATE SET "
                   "example_id = excluded.example_id, body = excluded.body, "
                   "finished_at = excluded.finished_at",
                   {experimentId, int64_t(result.index), result.exampleId, compact(result.toJson()),
                    result.finishedAt ? result.finishedAt : nowMs()});
    if (!r.ok())
        return d->failed(QStringLiteral("cannot write a result"), r.error());
    return true;
}

Result<QList<ExampleResult>> EvalStore::results(const QString& experimentId)
{
    std::lock_guard lock(d->mutex);
    Result<SqlRows> r =
        d->db->run("SELECT body FROM results WHERE experiment_id = ? ORDER BY idx", {experimentId});
    if (!r.ok())
        return r.error();
    QList<ExampleResult> out;
    for (const QStringList& row : r->rows)
        out.append(ExampleResult::fromJson(parseObject(row.value(0))));
    return out;
}

} // namespace hako::eval
