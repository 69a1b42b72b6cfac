#include "core/workbench/experimentjob.h"

#include "core/eval/evalstore.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/programtarget.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>
#include <QUuid>

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
    if (m_running)
        return refuse(tr("An experiment is already running."));
    if (!request.store)
        return refuse(tr("There is no evaluation store."));
    if (request.dataset.version <= 0 || request.dataset.examples.isEmpty())
        return refuse(tr("Save the dataset (with at least one example) first."));
    if (!QFileInfo(request.programPath).isFile())
        return refuse(tr("Save the program first: the experiment runs the saved file."));
    if (request.evaluators.isEmpty())
        return refuse(tr("Choose at least one evaluator."));
    if (request.name.isEmpty())
        request.name = QFileInfo(request.programPath).completeBaseName();
    m_running = true;
    m_cancel = CancelToken();
    const CancelToken cancel = m_cancel;
    const quint64 generation = ++m_generation;
    QPointer<ExperimentJob> self(this);
    // Signals hop to this object's thread; a job destroyed meanwhile hears nothing.
    auto post = [self, generation](auto f) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, f] {
                if (self && self->m_generation == generation)
                    f(self.data());
            },
            Qt::QueuedConnection);
    };
    QThreadPool::globalInstance()->start([request, cancel, post] {
        const QString program = QFileInfo(request.programPath).absoluteFilePath();
        eval::ExperimentInfo info;
        info.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        info.name = request.name;
        info.dataset = request.dataset.name;
        info.datasetVersion = request.dataset.version;
        info.target = program;
        auto fail = [&post, id = info.id](const QString& why) {
            post([id, why](ExperimentJob* job) {
                job->m_running = false;
                Q_EMIT job->finished(id, false, why);
            });
        };

        RunEnvironment env = request.environment;
        env.baseFolder = QFileInfo(program).absolutePath();
        env.runLog.programPath = program;
        env.runLog.tags << QStringLiteral("eval:") + request.name;
        env.runLog.origin = promptlog::CallOrigin::Experiment;
        // One provider for every example and the judges, unlogged: the target's runs log
        // their calls themselves, the judges' through loggedProvider().
        RunEnvironment unlogged = env;
        unlogged.promptLog.reset();
        Result<std::shared_ptr<models::IModelProvider>> provider = unlogged.composeProvider();
        if (!provider.ok())
            return fail(provider.error().message);
        const std::shared_ptr<models::IModelProvider> bare = *provider;

        eval::EvaluatorContext context;
        RunEnvironment judges = env;
        judges.runLog.origin = promptlog::CallOrigin::Judge;
        context.models = judges.loggedProvider(bare, {QStringLiteral("eval:judge")});
        context.judgeModel = request.judgeModel;
        context.language = request.language;
        context.sandbox = env.sandbox;
        std::vector<std::shared_ptr<const eval::Evaluator>> evaluators;
        QStringList names;
        QJsonArray specs;
        for (const eval::EvaluatorSpec& spec : request.evaluators) {
            Result<std::shared_ptr<const eval::Evaluator>> e = eval::createEvaluator(spec, context);
            if (!e.ok())
                return fail(e.error().message);
            evaluators.push_back(*e);
            names << (*e)->name();
            QJsonObject s = spec.options;
            s.insert(QStringLiteral("type"), spec.type);
            s.insert(QStringLiteral("name"), (*e)->name());
            if (spec.threshold)
                s.insert(QStringLiteral("threshold"), *spec.threshold);
            specs.append(s);
        }
        info.config = QJsonObject{{QStringLiteral("name"), request.name},
                                  {QStringLiteral("target"), program},
                                  {QStringLiteral("concurrency"), request.concurrency},
                                  {QStringLiteral("judge_model"), request.judgeModel},
                                  {QStringLiteral("evaluators"), specs},
                                  {QStringLiteral("started_from"), QStringLiteral("workbench")}};

        ProgramTarget target;
        target.programPath = program;
        target.environment = env;
        target.environment.modelProvider = bare;
        target.outputVariable = request.outputVariable;
        for (const eval::Example& e : request.dataset.examples)
            for (auto it = e.inputs.begin(); it != e.inputs.end(); ++it)
                if (!target.inputNames.contains(it.key()))
                    target.inputNames << it.key();
        target.traceFolder = QFileInfo(request.store->path())
                                 .dir()
                                 .filePath(QStringLiteral("eval-traces/") + info.id);
        target.prices = promptlog::PromptLogOptions::fromUserSettings().prices;
        Result<eval::TargetFunction> function = target.make();
        if (!function.ok())
            return fail(function.error().span.isValid() ? function.error().toString()
                                                        : function.error().message);

        eval::ExperimentRunner runner(request.store.get());
        runner.setTarget(*function);
        runner.setEvaluators(evaluators);
        runner.setConcurrency(request.concurrency);
        QObject::connect(&runner, &eval::ExperimentRunner::progress, [post](int done, int total) {
            post([done, total](ExperimentJob* job) { Q_EMIT job->progress(done, total); });
        });
        QObject::connect(&runner, &eval::ExperimentRunner::resultReady,
                         [post](const eval::ExampleResult& r) {
                             post([r](ExperimentJob* job) { Q_EMIT job->resultReady(r); });
                         });
        const QList<eval::Example> examples = request.dataset.examples;
        post([id = info.id, examples, names](ExperimentJob* job) {
            Q_EMIT job->started(id, examples, names);
        });
        Result<QList<eval::ExampleResult>> ran = runner.run(info, examples, cancel);
        if (env.promptLog)
            env.promptLog->flush(10000);
        QString why;
        if (!ran.ok())
            why = ran.error().message;
        else if (ran->size() < examples.size())
            why = tr("Stopped after %1 of %2 examples; the rest can be run later.")
                      .arg(ran->size())
                      .arg(examples.size());
        post([id = info.id, why](ExperimentJob* job) {
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
