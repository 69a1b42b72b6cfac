#pragma once

#include "core/eval/dataset.h"
#include "core/eval/experiment.h"
#include "core/util/diagnostic.h"

#include <QList>
#include <QString>

#include <memory>

namespace hako::eval {

struct EvalStorePrivate;

/// One stored version of a dataset.
struct DatasetVersionInfo {
    int version = 0;
    int examples = 0;
    QString message;
    int64_t createdAt = 0;
};

/// Datasets (every edit a new version), experiments and their results, in one SQLite file
/// (WAL), by default `eval.sqlite` beside the prompt log's default database, or in a PostgreSQL
/// database a team shares (as the prompt log can be). Both engines have the same tables and
/// give the same answers; the statements are in evalstore.cpp, each engine's connection and
/// schema steps in its backend (storebackend_p.h).
///
/// Thread-safe: every function may be called from any thread (serialised on one connection);
/// they block on the file or the server, so call them off the GUI thread.
class EvalStore {
public:
    /// The shortest id prefix experiment() looks up.
    static constexpr int kMinIdPrefix = 4;

    /// `eval.sqlite` in the user's data folder (beside PromptLog::defaultPath()).
    static QString defaultPath();
    /// Opens (creating or upgrading) the store at `pathOrUrl`: a file path, or a
    /// `postgresql://user@host:port/db` (or `postgres://…`) URL as PromptLog::open() takes.
    /// Errors never show the URL's password.
    static Result<std::unique_ptr<EvalStore>> open(const QString& pathOrUrl);
    ~EvalStore();

    /// What open() was given (a URL keeps its password: name the store with location()).
    QString path() const;
    /// The file, or the URL without its password: what to show a person.
    QString location() const;
    bool isPostgres() const;
    /// The folder for files kept beside the store (an experiment's traces): the SQLite file's
    /// folder, or for a PostgreSQL store the folder of defaultPath().
    QString folder() const;

    /// Stores `dataset` as a new version of the dataset of its name (created when new) and
    /// gives that version. With `onlyIfChanged`, gives the latest version unchanged when its
    /// examples, schema and description are the same.
    Result<int> saveDataset(const Dataset& dataset, const QString& message = {},
                            bool onlyIfChanged = false);
    /// The dataset `name` at `version` (0: the latest).
    Result<Dataset> dataset(const QString& name, int version = 0);
    Result<QStringList> datasetNames();
    Result<QList<DatasetVersionInfo>> versions(const QString& name);

    /// Creates the experiment (a new id when empty), or gives false when it exists already.
    Result<bool> createExperiment(ExperimentInfo& info);
    /// The experiment of this id, else the one experiment whose id starts with `idOrPrefix`
    /// taken literally (at least kMinIdPrefix characters; `%` and `_` are plain characters).
    /// Errors: none found, a prefix too short, or a prefix that names several (listing them).
    Result<ExperimentInfo> experiment(const QString& idOrPrefix);
    /// Experiments, newest first; of one dataset when `dataset` is not empty.
    Result<QList<ExperimentInfo>> experiments(const QString& dataset = {});
    /// The experiments of one prompt of the library (ExperimentInfo::promptId), newest first,
    /// whatever their dataset and prompt version. An empty `promptId` is refused.
    Result<QList<ExperimentInfo>> experimentsOfPrompt(const QString& promptId);
    /// Gives the experiment a new name (trimmed; an empty name is refused). False when no
    /// experiment has this id.
    Result<bool> renameExperiment(const QString& id, const QString& name);
    Result<bool> setExperimentStatus(const QString& id, const QString& status);
    /// Writes one example's result at once (committed before it returns); a second result for
    /// the same example replaces the first.
    Result<bool> saveResult(const QString& experimentId, const ExampleResult& result);
    /// The experiment's results in dataset order.
    Result<QList<ExampleResult>> results(const QString& experimentId);

private:
    explicit EvalStore(std::unique_ptr<EvalStorePrivate> d);
    std::unique_ptr<EvalStorePrivate> d;
};

} // namespace hako::eval
