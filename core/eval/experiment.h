#pragma once

#include "core/eval/dataset.h"
#include "core/eval/evaluator.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

namespace hako::eval {

class EvalStore;

/// Runs one example's inputs through the thing under test (a PDL program, a prompt) and gives
/// its output, or an error (a failed run is a result too: every evaluator fails it). Called on
/// worker threads, several at once; must return promptly once `cancel` is cancelled.
using TargetFunction =
    std::function<Result<TargetOutput>(const QJsonObject& inputs, const CancelToken& cancel)>;

/// One example's result in an experiment.
struct ExampleResult {
    int index = -1; ///< in the dataset version
    QString exampleId;
    TargetOutput run;
    QString error; ///< the target failed: why (the scores are then all failures)
    QList<Score> scores;
    int64_t finishedAt = 0;

    const Score* score(const QString& evaluator) const;
    QJsonObject toJson() const;
    static ExampleResult fromJson(const QJsonObject& o);
};

/// An experiment: a dataset version run through a target with a set of evaluators.
struct ExperimentInfo {
    QString id;   ///< a UUID unless given
    QString name; ///< the experiment's name (the suite's by default); the user may rename it
    QString dataset;
    int datasetVersion = 0;
    QString target; ///< the program file run, absolute
    /// The prompt under test, as the prompt library knows it (all empty/0 when the program is
    /// not in a library): its identity (LibraryPrompt::key()), its name, the commit of the
    /// version run and that version's number in the prompt's history.
    QString promptId;
    QString promptName;
    QString promptCommit;
    int promptVersion = 0;
    QJsonObject config; ///< the suite as run (evaluators, models), for the record
    QString status;     ///< running, finished, cancelled
    int total = 0;      ///< examples in the dataset version
    int64_t startedAt = 0;
    int64_t finishedAt = 0;
};

/// Runs experiments. run() blocks (call it from a worker thread, never the GUI thread) and
/// runs the target and the evaluators of up to `concurrency` examples at a time on threads of
/// its own. Each example's result is written to the store as soon as it completes, so a
/// process killed mid-way loses only the examples in flight, and a later run() of the same
/// experiment id runs only the examples without a result. Signals are emitted from the worker
/// threads (connect with a queued connection to update a view).
class ExperimentRunner : public QObject {
    Q_OBJECT
public:
    /// `store` may be null (nothing is written, nothing resumed); not owned; must outlive run().
    explicit ExperimentRunner(EvalStore* store, QObject* parent = nullptr);

    void setTarget(TargetFunction target) { m_target = std::move(target); }
    void setEvaluators(std::vector<std::shared_ptr<const Evaluator>> evaluators)
    {
        m_evaluators = std::move(evaluators);
    }
    /// The most examples run at once. Each is a thread of its own (with, for a PDL target, the
    /// threads of its model calls): hundreds would exhaust the process's threads and gain
    /// nothing against a model server's own limits.
    static constexpr int kMaxConcurrency = 64;
    /// Examples at a time (default 4), clamped to 1…kMaxConcurrency: a larger value runs
    /// kMaxConcurrency at a time (checkConcurrency() tells a person so before).
    void setConcurrency(int n) { m_concurrency = std::clamp(n, 1, kMaxConcurrency); }
    int concurrency() const { return m_concurrency; }
    /// `n` when it is a concurrency setConcurrency() takes as it is (1…kMaxConcurrency), else
    /// an error saying the allowed range: for a suite's `concurrency:` and `--concurrency`.
    static Result<int> checkConcurrency(int n);
    /// Pairwise evaluators compare each output with the output of the same example id here.
    void setOtherOutputs(QHash<QString, QString> outputs) { m_otherOutputs = std::move(outputs); }

    /// Runs `examples` (a dataset version) as experiment `info` (created in the store when new;
    /// resumed when it exists). Gives every example's result, in dataset order — fewer than the
    /// examples when cancelled (the experiment is then marked `cancelled` and can be resumed).
    Result<QList<ExampleResult>> run(ExperimentInfo& info, const QList<Example>& examples,
                                     const CancelToken& cancel);

    /// How many examples the last run() ran itself (not resumed from the store).
    int ranLastTime() const { return m_ran; }

Q_SIGNALS:
    /// An example finished (done of total, resumed ones included).
    void progress(int done, int total);
    void resultReady(const hako::eval::ExampleResult& result);

private:
    ExampleResult runOne(int index, const Example& example, const CancelToken& cancel) const;

    EvalStore* m_store;
    TargetFunction m_target;
    std::vector<std::shared_ptr<const Evaluator>> m_evaluators;
    QHash<QString, QString> m_otherOutputs;
    int m_concurrency = 4;
    int m_ran = 0;
};

/// One evaluator's figures over an experiment: examples scored, passed, could not be judged,
/// the mean score with a 95% interval (normal approximation), the pass rate with its 95%
/// Wilson interval.
struct EvaluatorAggregate {
    QString evaluator;
    int count = 0;
    int passed = 0;
    int errors = 0;
    double mean = 0;
    double meanLow = 0, meanHigh = 0;
    double passRate = 0;
    double passLow = 0, passHigh = 0;
};

/// The Wilson score interval (95%, z = 1.96) of `passed` out of `n`.
std::pair<double, double> wilsonInterval(int passed, int n, double z = 1.96);
/// Per evaluator (in `evaluators` order; those absent from every result are left out).
QList<EvaluatorAggregate> aggregate(const QList<ExampleResult>& results,
                                    const QStringList& evaluators);

/// One example's score under one evaluator in two experiments.
struct ScoreDelta {
    QString exampleId;
    int index = -1; ///< in the current experiment
    QString evaluator;
    double before = 0, after = 0;
    bool passBefore = false, passAfter = false;
    double delta() const { return after - before; }
    /// Passed before, fails now; or the score dropped.
    bool isRegression() const { return (passBefore && !passAfter) || after < before - 1e-9; }
    bool isImprovement() const { return (!passBefore && passAfter) || after > before + 1e-9; }
};

/// Two experiments on the same dataset, example by example (matched by example id).
struct Comparison {
    QList<ScoreDelta> deltas;
    QList<ScoreDelta> regressions;
    QList<ScoreDelta> improvements;
    /// Mean score after − before, per evaluator, over the examples both have.
    QHash<QString, double> meanDelta;
    int matched = 0; ///< examples in both
};
Comparison compareExperiments(const QList<ExampleResult>& baseline,
                              const QList<ExampleResult>& current);

} // namespace hako::eval

Q_DECLARE_METATYPE(hako::eval::ExampleResult)
