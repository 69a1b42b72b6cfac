#include "core/workbench/experimentplan.h"

#include "core/models/modelconfig.h"

#include "core/eval/evalstore.h"
#include "core/eval/modeloverrides.h"
#include "core/library/promptlibrary.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/programtarget.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QUuid>

namespace hako {

namespace {

// What an experiment judged with, in a form two plans compare equal by.
QJsonArray evaluatorSpecs(const QList<eval::EvaluatorSpec>& specs)
{
    QJsonArray out;
    for (const eval::EvaluatorSpec& spec : specs) {
        QJsonObject s = spec.options;
        s.insert(QStringLiteral("type"), spec.type);
        s.insert(QStringLiteral("name"), spec.name.isEmpty() ? spec.type : spec.name);
        if (spec.threshold)
            s.insert(QStringLiteral("threshold"), *spec.threshold);
        out.append(s);
    }
    return out;
}

QJsonArray evaluatorRecord(const QList<eval::EvaluatorSpec>& specs, const QStringList& names)
{
    QJsonArray out;
    for (qsizetype i = 0; i < specs.size(); ++i) {
        const eval::EvaluatorSpec& spec = specs[i];
        QJsonObject s = spec.options;
        s.insert(QStringLiteral("type"), spec.type);
        s.insert(QStringLiteral("name"), names.value(i));
        if (spec.threshold)
            s.insert(QStringLiteral("threshold"), *spec.threshold);
        out.append(s);
    }
    return out;
}

// Traces beside a store file; a store on a server keeps them beside the default store.
QString traceFolderFor(const eval::EvalStore& store, const QString& id)
{
    const QString path =
        store.path().contains(QLatin1String("://")) ? eval::EvalStore::defaultPath() : store.path();
    return QFileInfo(path).dir().filePath(QStringLiteral("eval-traces/") + id);
}

} // namespace

void describePromptVersion(const QString& programPath, eval::ExperimentInfo& info)
{
    Result<library::PromptLibrary> lib =
        library::PromptLibrary::open(QFileInfo(programPath).absolutePath());
    if (lib) {
        if (Result<library::ResolvedPrompt> v = lib->versionOfFile(programPath)) {
            info.promptId = v->prompt.key();
            info.promptName = v->prompt.name;
            info.promptCommit = v->version.commit;
            info.promptVersion = v->version.number;
            return;
        }
    }
    // Not a saved version: the identity and name the file declares.
    QFile f(programPath);
    if (!f.open(QIODevice::ReadOnly))
        return;
    const library::LibraryPrompt p =
        library::describeProgram(f.read(1 << 20), QFileInfo(programPath).fileName());
    info.promptId = p.id;
    info.promptName = p.name;
}

std::optional<Diagnostic> ExperimentPlan::identify(eval::EvalStore& store,
                                                   eval::ExperimentInfo& info) const
{
    if (resumeId.isEmpty()) {
        info.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        return std::nullopt;
    }
    // Resumed: the earlier experiment's identity and name, on the same dataset version only.
    Result<eval::ExperimentInfo> previous = store.experiment(resumeId);
    if (!previous)
        return makeError(QStringLiteral("resume: %1").arg(previous.error().message));
    if (previous->dataset != dataset.name || previous->datasetVersion != dataset.version)
        return makeError(QStringLiteral("resume: experiment %1 ran on %2 version %3, not %4 "
                                        "version %5")
                             .arg(previous->id, previous->dataset)
                             .arg(previous->datasetVersion)
                             .arg(dataset.name)
                             .arg(dataset.version));
    info.id = previous->id;
    info.name = previous->name;
    return std::nullopt;
}

Result<std::unique_ptr<ComposedExperiment>>
ExperimentPlan::compose(std::shared_ptr<eval::EvalStore> store) const
{
    if (!store)
        return makeError(QStringLiteral("there is no evaluation store"));
    if (dataset.version <= 0 || dataset.examples.isEmpty())
        return makeError(QStringLiteral("the dataset must be stored, with at least one example"));
    const QString program = QFileInfo(programPath).absoluteFilePath();
    if (!QFileInfo(program).isFile())
        return makeError(QStringLiteral("%1: no such program").arg(programPath));
    if (evaluators.isEmpty())
        return makeError(QStringLiteral("no evaluators"));
    std::unique_ptr<ComposedExperiment> out(new ComposedExperiment);
    out->m_store = store;
    out->m_examples = dataset.examples;
    eval::ExperimentInfo& info = out->m_info;
    info.dataset = dataset.name;
    info.datasetVersion = dataset.version;
    info.target = program;
    describePromptVersion(program, info);
    // By default the prompt's name (the author's words), else the file's.
    info.name = !name.isEmpty()              ? name
                : !info.promptName.isEmpty() ? info.promptName
                                             : QFileInfo(program).completeBaseName();
    if (std::optional<Diagnostic> bad = identify(*store, info))
        return *bad;

    RunEnvironment env = environment;
    env.baseFolder = QFileInfo(program).absolutePath();
    env.runLog.runId.clear();
    env.runLog.programPath = program;
    env.runLog.version = info.promptCommit;
    const QString tag = QStringLiteral("eval:") + info.name;
    if (!env.runLog.tags.contains(tag))
        env.runLog.tags.prepend(tag);
    env.runLog.origin = promptlog::CallOrigin::Experiment;
    out->m_log = env.promptLog;
    // One provider for every example and the judges, unlogged: the target's runs log their
    // calls themselves, the judges' through loggedProvider().
    RunEnvironment unlogged = env;
    unlogged.promptLog.reset();
    Result<std::shared_ptr<models::IModelProvider>> provider = unlogged.composeProvider();
    if (!provider)
        return provider.error();
    const std::shared_ptr<models::IModelProvider> bare = *provider;

    eval::EvaluatorContext context;
    RunEnvironment judges = env;
    judges.runLog.runId = info.id + QStringLiteral(":judge");
    judges.runLog.origin = promptlog::CallOrigin::Judge;
    judges.runLog.version.clear();
    context.models = judges.loggedProvider(bare, {QStringLiteral("eval:judge")});
    // No judge model named: the configured default model judges (`model: default`, resolved
    // by the folder's model settings as a program's would be), as the form's tooltip says.
    context.judgeModel = judgeModel.trimmed().isEmpty()
                             ? QString::fromLatin1(models::ModelConfig::kDefaultAlias)
                             : judgeModel.trimmed();
    context.embeddingModel = embeddingModel;
    context.language = language;
    context.sandbox = env.sandbox;
    std::vector<std::shared_ptr<const eval::Evaluator>> made;
    for (const eval::EvaluatorSpec& spec : evaluators) {
        Result<std::shared_ptr<const eval::Evaluator>> e = eval::createEvaluator(spec, context);
        if (!e)
            return e.error();
        made.push_back(*e);
        out->m_evaluatorNames << (*e)->name();
    }
    info.config = config;
    if (info.config.isEmpty())
        info.config = QJsonObject{
            {QStringLiteral("name"), info.name},
            {QStringLiteral("target"), program},
            {QStringLiteral("concurrency"), concurrency},
            {QStringLiteral("judge_model"), judgeModel},
            {QStringLiteral("evaluators"), evaluatorRecord(evaluators, out->m_evaluatorNames)}};
    if (!startedFrom.isEmpty())
        info.config.insert(QStringLiteral("started_from"), startedFrom);
    info.config.insert(QStringLiteral("evaluator_specs"), evaluatorSpecs(evaluators));
    info.config.insert(QStringLiteral("output_variable"), outputVariable);

    ProgramTarget target;
    target.programPath = program;
    target.environment = env;
    target.environment.modelProvider =
        modelOverrides.isEmpty()
            ? bare
            : std::make_shared<eval::ModelOverrideProvider>(bare, modelOverrides);
    target.outputVariable = outputVariable;
    for (const eval::Example& e : dataset.examples)
        for (auto it = e.inputs.begin(); it != e.inputs.end(); ++it)
            if (!target.inputNames.contains(it.key()))
                target.inputNames << it.key();
    if (keepTraces)
        target.traceFolder = traceFolderFor(*store, info.id);
    target.prices = promptlog::PromptLogOptions::fromUserSettings().prices;
    Result<eval::TargetFunction> function = target.make();
    if (!function)
        return function.error();

    out->m_runner = std::make_unique<eval::ExperimentRunner>(store.get());
    out->m_runner->setTarget(*function);
    out->m_runner->setEvaluators(made);
    out->m_runner->setConcurrency(concurrency);
    if (!otherOutputs.isEmpty())
        out->m_runner->setOtherOutputs(otherOutputs);
    return out;
}

QString ExperimentPlan::finishedTwin(eval::EvalStore& store) const
{
    eval::ExperimentInfo wanted;
    describePromptVersion(QFileInfo(programPath).absoluteFilePath(), wanted);
    if (wanted.promptCommit.isEmpty())
        return {};
    Result<QList<eval::ExperimentInfo>> list = store.experiments(dataset.name);
    if (!list)
        return {};
    const QJsonArray specs = evaluatorSpecs(evaluators);
    for (const eval::ExperimentInfo& e : *list)
        if (e.status == QLatin1String("finished") && e.promptCommit == wanted.promptCommit &&
            e.datasetVersion == dataset.version &&
            e.config.value(QStringLiteral("evaluator_specs")).toArray() == specs &&
            e.config.value(QStringLiteral("output_variable")).toString() == outputVariable)
            return e.id;
    return {};
}

ComposedExperiment::~ComposedExperiment() = default;

Result<QList<eval::ExampleResult>> ComposedExperiment::run(const CancelToken& cancel)
{
    Result<QList<eval::ExampleResult>> ran = m_runner->run(m_info, m_examples, cancel);
    if (m_log)
        m_log->flush(10000);
    return ran;
}

} // namespace hako
