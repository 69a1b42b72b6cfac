#pragma once

#include "core/eval/dataset.h"
#include "core/eval/evaluator.h"
#include "core/eval/experiment.h"
#include "core/util/cancel.h"
#include "core/workbench/runenvironment.h"

#include <QObject>
#include <QString>

#include <memory>

namespace hako::eval {
class EvalStore;
}

namespace hako {

/// An experiment started from the window, composed as `hako eval` composes one: a stored
/// dataset version run through a PDL program (each example's inputs are its variables) with a
/// set of evaluators, at a concurrency limit, every model call in the prompt log under the tag
/// `eval:<name>` (the judges' under `eval:judge` too), every example's trace kept beside the
/// store, results written to the store as they complete. Composition (the provider, the
/// evaluators, parsing the program) and the run happen on a worker thread; signals arrive on
/// the thread that owns the job (the GUI's). One experiment at a time.
class ExperimentJob : public QObject {
    Q_OBJECT
public:
    struct Request {
        std::shared_ptr<eval::EvalStore> store; ///< required
        eval::Dataset dataset;                  ///< a stored version (version > 0)
        QString programPath;                    ///< a saved program
        QString outputVariable;                 ///< empty: the program's result
        QList<eval::EvaluatorSpec> evaluators;  ///< at least one
        QString judgeModel;                     ///< model-graded evaluators' model
        QString language = QStringLiteral("en");
        int concurrency = 4;
        /// promptLog, sandbox, modelProvider (tests) and tags are taken from here; baseFolder
        /// and the run log's program are the program's.
        RunEnvironment environment;
        QString name; ///< the experiment's name; default: the program's base name
    };

    explicit ExperimentJob(QObject* parent = nullptr);
    ~ExperimentJob() override;

    /// Starts `request`; false (and why, in `error`) when one is running or the request is
    /// incomplete.
    bool start(Request request, QString* error = nullptr);
    /// Stops after the examples in flight (the experiment stays resumable).
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    /// Composed and about to run: the experiment's id, the examples, the evaluators' names.
    void started(const QString& experimentId, const QList<hako::eval::Example>& examples,
                 const QStringList& evaluators);
    void progress(int done, int total);
    void resultReady(const hako::eval::ExampleResult& result);
    /// Over: `error` says why when it failed or was cancelled (empty when it ran to the end).
    void finished(const QString& experimentId, bool ok, const QString& error);

private:
    bool m_running = false;
    CancelToken m_cancel;
    quint64 m_generation = 0;
};

} // namespace hako
