#pragma once

#include "core/eval/dataset.h"
#include "core/eval/evaluator.h"
#include "core/eval/experiment.h"
#include "core/run/runenvironment.h"
#include "core/util/cancel.h"

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace hako::eval {
class EvalStore;
}

namespace hako {

class ComposedExperiment;

/// Everything an experiment is: a stored dataset version run through a PDL program with a set
/// of evaluators. The one place an experiment is composed — `hako eval` and the window's
/// experiments (ExperimentJob) fill one and call compose(), so both log the same tags, the same
/// origins and the same prompt version, and judge with the same provider.
///
/// A plain value; compose() blocks (it parses the program and may run git): call it on a worker
/// thread or from the command line.
struct ExperimentPlan {
    /// The experiment's name; default: the prompt's name (its `description`), else the
    /// program's base name.
    QString name;
    /// The program run once per example (each example's inputs are its variables). A copy of a
    /// library version (PromptLibrary::materialize) or the library's own saved file is recorded
    /// with that version.
    QString programPath;
    /// The variable whose value is the output; empty: the program's result text.
    QString outputVariable;
    /// A stored version (version > 0) with its examples.
    eval::Dataset dataset;
    QList<eval::EvaluatorSpec> evaluators;
    QString judgeModel;
    QString embeddingModel;
    QString language = QStringLiteral("en");
    /// Model overrides for the target's model blocks (the suite's `models:`), not the judges'.
    QHash<QString, QString> modelOverrides;
    int concurrency = 4;
    /// promptLog, sandbox, runLog.tags and modelProvider (tests) are taken from here; the
    /// base folder, program path, origin and version are the plan's.
    RunEnvironment environment;
    /// Each example's trace is kept beside the store (`eval-traces/<experiment id>/`).
    bool keepTraces = true;
    /// Resume this experiment (it must have run on the same dataset version): only examples
    /// without a result run.
    QString resumeId;
    /// Pairwise evaluators compare each output with this example id's output.
    QHash<QString, QString> otherOutputs;
    /// Recorded with the experiment (the suite as run); default: made of the plan.
    QJsonObject config;
    /// Where it was started from, for the record ("hako eval", "workbench").
    QString startedFrom;

    /// Composes the experiment against `store` (required; shared with the result): the
    /// provider, the evaluators, the target (its errors with their locations), the record
    /// (a new id unless resumed) with the prompt's library identity and version. Blocking.
    Result<std::unique_ptr<ComposedExperiment>>
    compose(std::shared_ptr<eval::EvalStore> store) const;

    /// A finished experiment of `store` that ran exactly this: the same saved prompt version
    /// (never an unsaved program), dataset version, evaluators and output variable — its id,
    /// or "" when there is none. Running the plan again would only spend tokens. Blocking.
    QString finishedTwin(eval::EvalStore& store) const;

private:
    /// The experiment's id: a new one, or the resumed experiment's (with its name), which must
    /// have run on the same dataset version.
    std::optional<Diagnostic> identify(eval::EvalStore& store, eval::ExperimentInfo& info) const;
};

/// An experiment ready to run (ExperimentPlan::compose()). Connect to runner()'s signals
/// (emitted from worker threads) before run().
class ComposedExperiment {
public:
    ~ComposedExperiment();

    /// The record written to the store when run() starts.
    const eval::ExperimentInfo& info() const { return m_info; }
    const QStringList& evaluatorNames() const { return m_evaluatorNames; }
    const QList<eval::Example>& examples() const { return m_examples; }
    eval::ExperimentRunner& runner() { return *m_runner; }

    /// Runs every example without a result (blocking; see ExperimentRunner::run()), then
    /// waits a bounded time for the prompt log to write the calls.
    Result<QList<eval::ExampleResult>> run(const CancelToken& cancel);

private:
    friend struct ExperimentPlan;
    ComposedExperiment() = default;

    std::shared_ptr<eval::EvalStore> m_store;
    eval::ExperimentInfo m_info;
    QStringList m_evaluatorNames;
    QList<eval::Example> m_examples;
    std::shared_ptr<promptlog::PromptLog> m_log;
    std::unique_ptr<eval::ExperimentRunner> m_runner;
};

/// The prompt the program at `programPath` is, as the prompt library knows it: its identity,
/// name and (when the file is a saved version) the version's commit and number, written into
/// `info`. A program outside any library still gives its `# hako-prompt:` identity and name.
/// Blocking (runs git).
void describePromptVersion(const QString& programPath, eval::ExperimentInfo& info);

} // namespace hako
