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

/// Datasets (every edit a new version), experiments and their results in one SQLite file (WAL),
/// by default `eval.sqlite` beside the prompt log's default database. All SQL is in
/// evalstore.cpp.
///
/// Thread-safe: every function may be called from any thread (serialised on one connection);
/// they block on the file, so call them off the GUI thread.
class EvalStore {
public:
    /// `eval.sqlite` in the user's data folder (beside PromptLog::defaultPath()).
    static QString defaultPath();
    /// Opens (creating or upgrading) the store at `path`.
    static Result<std::unique_ptr<EvalStore>> open(const QString& path);
    ~EvalStore();

    QString path() const;

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
    Result<ExperimentInfo> experiment(const QString& id);
    /// Experiments, newest first; of one dataset when `dataset` is not empty.
    Result<QList<ExperimentInfo>> experiments(const QString& dataset = {});
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
