#pragma once

#include "core/eval/dataset.h"
#include "core/eval/evaluator.h"
#include "core/eval/experiment.h"
#include "core/util/cancel.h"
#include "core/util/latestjob.h"
#include "core/workbench/experimentplan.h"

#include <QObject>
#include <QString>

#include <memory>

namespace hako::eval {
class EvalStore;
}

namespace hako {

/// An experiment started from the window, composed by ExperimentPlan as `hako eval` composes
/// one: results are written to the store as they complete. Composition and the run happen on a
/// worker thread; signals arrive on the thread that owns the job (the GUI's). One experiment at
/// a time.
class ExperimentJob : public QObject {
    Q_OBJECT
public:
    struct Request {
        std::shared_ptr<eval::EvalStore> store; ///< required
        /// What to run (ExperimentPlan::compose() composes it on the worker); its environment's
        /// promptLog, sandbox, tags and modelProvider (tests) are used.
        ExperimentPlan plan;
        /// A finished experiment of the same saved prompt version, dataset version and
        /// evaluators stands in for running it again (ExperimentPlan::finishedTwin()).
        bool reuseFinished = false;
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
    /// An earlier finished experiment stood in for this one (finished() follows with its id).
    void reused(const QString& experimentId);
    /// Over: `error` says why when it failed or was cancelled (empty when it ran to the end).
    void finished(const QString& experimentId, bool ok, const QString& error);

private:
    bool m_running = false;
    CancelToken m_cancel;
    LatestJob m_job; // the newest start() wins
};

} // namespace hako
