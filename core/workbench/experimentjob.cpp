#include "core/workbench/experimentjob.h"

#include "core/eval/evalstore.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>

namespace hako {

ExperimentJob::ExperimentJob(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<eval::ExampleResult>();
}

ExperimentJob::~ExperimentJob()
{
    m_cancel.cancel();
}

bool ExperimentJob::start(Request request, QString* error)
{
    auto refuse = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    const ExperimentPlan& plan = request.plan;
    if (m_running)
        return refuse(tr("An experiment is already running."));
    if (!request.store)
        return refuse(tr("There is no evaluation store."));
    if (plan.dataset.version <= 0 || plan.dataset.examples.isEmpty())
        return refuse(tr("Save the dataset (with at least one example) first."));
    if (!QFileInfo(plan.programPath).isFile())
        return refuse(tr("Save the program first: the experiment runs the saved file."));
    if (plan.evaluators.isEmpty())
        return refuse(tr("Choose at least one evaluator."));
    m_running = true;
    m_cancel = CancelToken();
    const CancelToken cancel = m_cancel;
    const LatestJob::Ticket ticket = m_job.start();
    QPointer<ExperimentJob> self(this);
    // Signals hop to this object's thread; a job destroyed meanwhile hears nothing.
    auto post = [self, ticket](auto f) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, ticket, f] {
                if (self && self->m_job.isCurrent(ticket))
                    f(self.data());
            },
            Qt::QueuedConnection);
    };
    QThreadPool::globalInstance()->start([request, cancel, post] {
        if (request.reuseFinished) {
            if (const QString twin = request.plan.finishedTwin(*request.store); !twin.isEmpty()) {
                post([twin](ExperimentJob* job) {
                    job->m_running = false;
                    Q_EMIT job->reused(twin);
                    Q_EMIT job->finished(twin, true, QString());
                });
                return;
            }
        }
        Result<std::unique_ptr<ComposedExperiment>> composed = request.plan.compose(request.store);
        if (!composed) {
            const Diagnostic& d = composed.error();
            const QString why = d.span.isValid() ? d.toString() : d.message;
            post([why](ExperimentJob* job) {
                job->m_running = false;
                Q_EMIT job->finished(QString(), false, why);
            });
            return;
        }
        ComposedExperiment& experiment = **composed;
        QObject::connect(
            &experiment.runner(), &eval::ExperimentRunner::progress, [post](int done, int total) {
                post([done, total](ExperimentJob* job) { Q_EMIT job->progress(done, total); });
            });
        QObject::connect(&experiment.runner(), &eval::ExperimentRunner::resultReady,
                         [post](const eval::ExampleResult& r) {
                             post([r](ExperimentJob* job) { Q_EMIT job->resultReady(r); });
                         });
        const QString id = experiment.info().id;
        const QList<eval::Example> examples = experiment.examples();
        post([id, examples, names = experiment.evaluatorNames()](ExperimentJob* job) {
            Q_EMIT job->started(id, examples, names);
        });
        Result<QList<eval::ExampleResult>> ran = experiment.run(cancel);
        QString why;
        if (!ran)
            why = ran.error().message;
        else if (ran->size() < examples.size())
            why = tr("Stopped after %1 of %2 examples; the rest can be run later.")
                      .arg(ran->size())
                      .arg(examples.size());
        post([id, why](ExperimentJob* job) {
            job->m_running = false;
            Q_EMIT job->finished(id, why.isEmpty(), why);
        });
    });
    return true;
}

void ExperimentJob::cancel()
{
    m_cancel.cancel();
}

} // namespace hako
