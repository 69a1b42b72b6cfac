#include "cli/evalcommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "cli/evalreport.h"
#include "cli/interrupt.h"

#include "core/eval/datasetio.h"
#include "core/eval/evalstore.h"
#include "core/eval/experiment.h"
#include "core/eval/suite.h"
#include "core/library/promptlibrary.h"
#include "core/promptlog/promptlog.h"
#include "core/run/runtrust.h"
#include "core/util/outputfile.h"
#include "core/workbench/experimentplan.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>
#include <unistd.h>

namespace hako {

namespace {

const char* kUsage =
    "usage: hako eval [options] SUITE.yaml\n"
    "  Runs an evaluation suite: the target program once per example of the dataset, every\n"
    "  evaluator on each output; prints a summary, records the experiment in the eval store.\n"
    "  --dataset D          a dataset file (JSONL, JSON, CSV, promptfoo YAML) or a stored\n"
    "                       dataset's name (NAME@VERSION for an older version)\n"
    "  --target PROGRAM     the PDL program to run instead of the suite's, or a prompt of the\n"
    "                       library at a label or version (NAME@production, NAME@3)\n"
    "  --baseline X         compare with an earlier experiment: its id (or a unique prefix of\n"
    "                       8+ characters), `last` (the suite's previous experiment), a report\n"
    "                       written by --json, or another version of the prompt (NAME@2: its\n"
    "                       experiment on this dataset, run first unless it already ran)\n"
    "  --library DIR        the prompt library for NAME@… (default: HAKO_LIBRARY, else the\n"
    "                       workbench's last, else the current folder)\n"
    "  --name NAME          the experiment's name (default: the suite's)\n"
    "  --concurrency N      examples run at a time (default: the suite's, else 4)\n"
    "  --fail-under SCORE   the mean of the evaluators' mean scores must reach SCORE\n"
    "  --json FILE          write the report as JSON ('-': standard output)\n"
    "  --junit FILE         write JUnit XML (one test case per example and evaluator)\n"
    "  --resume ID          finish an experiment that was cut short (only what is missing runs)\n"
    "  --store PATH|URL     the eval store: a file, or a postgresql:// URL for a team's\n"
    "                       server (default: eval.sqlite beside the prompt log)\n"
    "  --judge-model M      the model-graded evaluators' model (default: the suite's)\n"
    "  --tag TAG            tag the model calls in the prompt log (besides eval:SUITE)\n"
    "  --log PATH|URL       record the model calls in this prompt log; --no-log: do not\n"
    "  --no-traces          do not keep each example's trace\n"
    "  --sandbox, --trust, --trust-folder   as for hako run\n"
    "Exit: 0 every requirement holds; 1 a threshold missed, a regression beyond the suite's\n"
    "max_drop, or a run cut short; 2 bad usage, a broken suite or dataset.\n";

struct EvalArguments {
    QString suite, dataset, target, baseline, jsonFile, junitFile, resume, store, judgeModel, log,
        library, name;
    QStringList tags;
    int concurrency = 0;
    std::optional<double> failUnder;
    bool noLog = false, noTraces = false, sandbox = false, trustOnce = false, trustFolder = false;
};

OptionParser evalOptions(EvalArguments& a)
{
    OptionParser p;
    auto into = [](QString* target) {
        return [target](const QString& v) {
            *target = v;
            return QString();
        };
    };
    p.addOption({QStringLiteral("--dataset")}, into(&a.dataset));
    p.addOption({QStringLiteral("--target")}, into(&a.target));
    p.addOption({QStringLiteral("--baseline")}, into(&a.baseline));
    p.addOption({QStringLiteral("--json")}, into(&a.jsonFile));
    p.addOption({QStringLiteral("--junit")}, into(&a.junitFile));
    p.addOption({QStringLiteral("--resume")}, into(&a.resume));
    p.addOption({QStringLiteral("--store")}, into(&a.store));
    p.addOption({QStringLiteral("--judge-model")}, into(&a.judgeModel));
    p.addOption({QStringLiteral("--log")}, into(&a.log));
    p.addOption({QStringLiteral("--library")}, into(&a.library));
    p.addOption({QStringLiteral("--name")}, into(&a.name));
    p.addOption({QStringLiteral("--tag")}, [&a](const QString& v) {
        a.tags << v;
        return QString();
    });
    p.addOption({QStringLiteral("--concurrency"), QStringLiteral("-j")}, [&a](const QString& v) {
        bool ok = false;
        a.concurrency = v.toInt(&ok);
        if (!ok)
            return QStringLiteral("--concurrency takes a number");
        Result<int> checked = eval::ExperimentRunner::checkConcurrency(a.concurrency);
        return checked ? QString() : QStringLiteral("--concurrency: ") + checked.error().message;
    });
    p.addOption({QStringLiteral("--fail-under")}, [&a](const QString& v) {
        bool ok = false;
        a.failUnder = v.toDouble(&ok);
        return ok ? QString() : QStringLiteral("--fail-under takes a number (0 to 1)");
    });
    p.addFlag({QStringLiteral("--no-log")}, [&a] { a.noLog = true; });
    p.addFlag({QStringLiteral("--no-traces")}, [&a] { a.noTraces = true; });
    p.addFlag({QStringLiteral("--sandbox")}, [&a] { a.sandbox = true; });
    p.addFlag({QStringLiteral("--trust")}, [&a] { a.trustOnce = true; });
    p.addFlag({QStringLiteral("--trust-folder")}, [&a] { a.trustFolder = true; });
    p.setPositional([&a](const QString& word) {
        if (!a.suite.isEmpty())
            return QStringLiteral("runs one suite at a time");
        a.suite = word;
        return QString();
    });
    return p;
}

int usageError(const QString& message)
{
    writeText(stderr, QStringLiteral("hako eval: %1\n").arg(message));
    return 2;
}

bool writeFileOrStdout(const QString& path, const QByteArray& data, QString* error)
{
    if (path == QLatin1String("-")) {
        writeText(stdout, std::string_view(data.constData(), size_t(data.size())));
        return true;
    }
    return writeOutputFile(path, data, error);
}

// A prompt of the library at a label or version (`NAME@production`, `NAME@3`) rather than a file.
bool isLibrarySpec(const QString& spec)
{
    return !QFileInfo::exists(spec) && spec.contains(QLatin1Char('@'));
}

// The dataset: a file (imported, checked, stored as a new version when it changed), or a
// stored one (`NAME`, `NAME@VERSION`).
Result<eval::Dataset> loadDataset(eval::EvalStore& store, const QString& spec, const QString& file)
{
    if (QFileInfo(file).isFile()) {
        Result<eval::ImportedDataset> imported = eval::importDatasetFile(file);
        if (!imported)
            return makeError(imported.error().span.isValid()
                                 ? imported.error().toString()
                                 : QStringLiteral("%1: %2").arg(file, imported.error().message));
        if (!imported->problems.isEmpty()) {
            for (const eval::ShapeProblem& p : imported->problems)
                writeText(stderr, QStringLiteral("hako eval: %1: %2\n").arg(file, p.toString()));
            return makeError(QStringLiteral("%1: %2 example(s) do not fit the dataset's shape; "
                                            "fix them before running")
                                 .arg(file)
                                 .arg(imported->problems.size()));
        }
        eval::Dataset dataset = imported->dataset;
        Result<int> version = store.saveDataset(
            dataset, QStringLiteral("imported from %1").arg(QFileInfo(file).absoluteFilePath()),
            true);
        if (!version)
            return version.error();
        return store.dataset(dataset.name, *version);
    }
    QString name = spec;
    int version = 0;
    const qsizetype at = name.lastIndexOf(QLatin1Char('@'));
    if (at > 0) {
        bool ok = false;
        version = name.mid(at + 1).toInt(&ok);
        if (ok)
            name = name.left(at);
        else
            version = 0;
    }
    Result<eval::Dataset> stored = store.dataset(name, version);
    if (!stored)
        return makeError(QStringLiteral("%1 is neither a dataset file nor a stored dataset (%2)")
                             .arg(spec, stored.error().message));
    return stored;
}

struct Baseline {
    QList<eval::ExampleResult> results;
    QString name;
};

// An earlier experiment to compare with: a `--json` report, `last` (the suite's previous
// finished experiment on this dataset) or an experiment id.
Result<Baseline> loadBaseline(eval::EvalStore& store, const QString& spec, const eval::Suite& suite,
                              const eval::Dataset& dataset)
{
    Baseline out;
    if (QFileInfo(spec).isFile()) {
        QFile f(spec);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(QStringLiteral("%1: %2").arg(spec, f.errorString()));
        const QJsonObject report = QJsonDocument::fromJson(f.readAll()).object();
        if (!report.value(QStringLiteral("results")).isArray())
            return makeError(
                QStringLiteral("%1: not a report written by hako eval --json").arg(spec));
        for (const QJsonValue& r : report.value(QStringLiteral("results")).toArray())
            out.results.append(eval::ExampleResult::fromJson(r.toObject()));
        out.name = spec;
        return out;
    }
    QString id = spec;
    if (id == QLatin1String("last")) {
        Result<QList<eval::ExperimentInfo>> list = store.experiments(dataset.name);
        id.clear();
        if (list)
            for (const eval::ExperimentInfo& e : *list)
                if (e.name == suite.name && e.status == QLatin1String("finished")) {
                    id = e.id;
                    break;
                }
        if (id.isEmpty())
            return makeError(QStringLiteral("--baseline last: no finished experiment of %1 yet")
                                 .arg(suite.name));
    }
    Result<eval::ExperimentInfo> e = store.experiment(id);
    if (!e)
        return makeError(QStringLiteral("--baseline: %1").arg(e.error().message));
    Result<QList<eval::ExampleResult>> r = store.results(e->id);
    if (!r)
        return r.error();
    out.results = *r;
    out.name = e->id;
    return out;
}

struct Ran {
    eval::ExperimentInfo info;
    QStringList evaluatorNames;
    QList<eval::ExampleResult> results;
    int ranNow = 0;
    double seconds = 0;
};

// Composes `plan` and runs it, saying its id first (so a cut-short run can be resumed).
Result<Ran> runPlan(const ExperimentPlan& plan, const std::shared_ptr<eval::EvalStore>& store,
                    const CancelToken& cancel, const QString& what)
{
    Result<std::unique_ptr<ComposedExperiment>> composed = plan.compose(store);
    if (!composed)
        return composed.error();
    ComposedExperiment& experiment = **composed;
    const eval::ExperimentInfo& info = experiment.info();
    writeText(stderr,
              QStringLiteral("%1experiment %2: %3 examples of %4 (version %5) through %6%7\n")
                  .arg(what, info.id)
                  .arg(plan.dataset.examples.size())
                  .arg(info.dataset)
                  .arg(info.datasetVersion)
                  .arg(QFileInfo(info.target).fileName(), info.promptCommit.isEmpty()
                                                              ? QString()
                                                              : QStringLiteral(" (%1 version %2)")
                                                                    .arg(info.promptName)
                                                                    .arg(info.promptVersion)));
    if (isatty(fileno(stderr)))
        QObject::connect(
            &experiment.runner(), &eval::ExperimentRunner::progress, [](int done, int total) {
                writeText(stderr, QStringLiteral("\r%1/%2 examples").arg(done).arg(total));
            });
    QElapsedTimer clock;
    clock.start();
    Result<QList<eval::ExampleResult>> results = experiment.run(cancel);
    if (isatty(fileno(stderr)))
        writeText(stderr, std::string_view("\n"));
    if (!results)
        return results.error();
    Ran out;
    out.info = experiment.info();
    out.evaluatorNames = experiment.evaluatorNames();
    out.results = *results;
    out.ranNow = experiment.runner().ranLastTime();
    out.seconds = clock.nsecsElapsed() / 1e9;
    return out;
}

// The baseline as a version of the prompt (`--baseline NAME@1`): its finished experiment on
// this dataset version with these evaluators, else one run now.
Result<Baseline> versionBaseline(ExperimentPlan plan, const QString& spec, const QString& folder,
                                 const std::shared_ptr<eval::EvalStore>& store,
                                 const CancelToken& cancel)
{
    Result<QString> file = library::PromptLibrary::fileFor(spec, folder);
    if (!file)
        return makeError(QStringLiteral("--baseline %1: %2").arg(spec, file.error().message));
    plan.programPath = *file;
    plan.resumeId.clear();
    plan.otherOutputs.clear();
    Baseline out;
    out.name = spec;
    if (const QString twin = plan.finishedTwin(*store); !twin.isEmpty()) {
        Result<QList<eval::ExampleResult>> r = store->results(twin);
        if (!r)
            return r.error();
        writeText(stderr,
                  QStringLiteral("baseline %1: experiment %2 (already run)\n").arg(spec, twin));
        out.results = *r;
        return out;
    }
    Result<Ran> ran = runPlan(plan, store, cancel, QStringLiteral("baseline %1: ").arg(spec));
    if (!ran)
        return ran.error();
    if (ran->results.size() < plan.dataset.examples.size())
        return makeError(QStringLiteral("the baseline %1 was cut short; resume it with --resume %2")
                             .arg(spec, ran->info.id));
    out.results = ran->results;
    return out;
}

std::shared_ptr<promptlog::PromptLog> openLog(const EvalArguments& a)
{
    if (a.noLog)
        return {};
    QString error;
    std::shared_ptr<promptlog::PromptLog> log =
        a.log.isEmpty() ? promptlog::PromptLog::openDefault(&error)
                        : promptlog::PromptLog::open(
                              a.log, &error, promptlog::PromptLogOptions::fromUserSettings());
    if (!error.isEmpty())
        writeText(stderr, QStringLiteral("hako eval: prompt log: %1\n").arg(error));
    return log;
}

ExperimentPlan makePlan(const EvalArguments& a, const eval::Suite& suite,
                        const eval::Dataset& dataset, const QString& program)
{
    ExperimentPlan plan;
    plan.name = a.name.isEmpty() ? suite.name : a.name;
    plan.programPath = program;
    plan.outputVariable = suite.outputVariable;
    plan.dataset = dataset;
    plan.evaluators = suite.evaluators;
    plan.judgeModel = suite.judgeModel;
    plan.embeddingModel = suite.embeddingModel;
    plan.language = suite.language;
    plan.modelOverrides = suite.modelOverrides;
    plan.concurrency = suite.concurrency;
    plan.environment.promptLog = openLog(a);
    plan.environment.sandbox = a.sandbox;
    plan.environment.runLog.tags = tagsFromEnvironment() + a.tags;
    plan.keepTraces = !a.noTraces;
    plan.resumeId = a.resume;
    plan.config = suite.toJson();
    plan.startedFrom = QStringLiteral("hako eval");
    return plan;
}

// The summary on standard output (standard error when the JSON report goes there), the
// reports asked for; the exit status.
int report(const EvalArguments& a, const eval::Suite& suite, const eval::Dataset& dataset,
           const Ran& ran, const Baseline& baseline)
{
    EvalOutcome outcome;
    outcome.suite = suite;
    outcome.info = ran.info;
    outcome.dataset = dataset;
    outcome.results = ran.results;
    outcome.evaluatorNames = ran.evaluatorNames;
    outcome.baseline = baseline.results;
    outcome.baselineName = baseline.name;
    outcome.seconds = ran.seconds;
    outcome.ranNow = ran.ranNow;
    outcome.judge(!a.baseline.isEmpty());
    writeText(a.jsonFile == QLatin1String("-") ? stderr : stdout, outcome.summary());
    for (const auto& [file, data] :
         {std::pair{a.jsonFile, &EvalOutcome::json}, std::pair{a.junitFile, &EvalOutcome::junit}}) {
        if (file.isEmpty())
            continue;
        QString error;
        if (!writeFileOrStdout(file, (outcome.*data)(), &error)) {
            writeText(stderr, QStringLiteral("hako eval: %1: %2\n").arg(file, error));
            return 2;
        }
    }
    return outcome.passed ? 0 : 1;
}

} // namespace

int evalCommand(const QStringList& args)
{
    EvalArguments a;
    const OptionParser::Parsed parsed = evalOptions(a).parse(args);
    if (std::optional<int> exit = OptionParser::finish(parsed, QStringLiteral("hako eval"), kUsage))
        return *exit;
    if (a.suite.isEmpty()) {
        writeText(stderr, QString::fromLatin1(kUsage));
        return 2;
    }
    Result<eval::Suite> loaded = eval::Suite::load(a.suite);
    if (!loaded) {
        Diagnostic d = loaded.error();
        if (d.span.file.isEmpty() && d.span.isValid())
            d.span.file = a.suite;
        return usageError(d.span.isValid() ? d.toString() : d.message);
    }
    eval::Suite suite = *loaded;
    if (a.concurrency > 0)
        suite.concurrency = a.concurrency;
    if (a.failUnder)
        suite.failUnder = a.failUnder;
    if (!a.judgeModel.isEmpty())
        suite.judgeModel = a.judgeModel;

    // The store: experiments, results and the datasets they ran on.
    Result<std::unique_ptr<eval::EvalStore>> opened =
        eval::EvalStore::open(a.store.isEmpty() ? eval::EvalStore::defaultPath() : a.store);
    if (!opened)
        return usageError(opened.error().message);
    const std::shared_ptr<eval::EvalStore> store(std::move(opened).value());

    const QString datasetSpec = a.dataset.isEmpty() ? suite.dataset : a.dataset;
    if (datasetSpec.isEmpty())
        return usageError(
            QStringLiteral("%1: the suite names no dataset (and no --dataset)").arg(a.suite));
    Result<eval::Dataset> dataset = loadDataset(
        *store, datasetSpec, a.dataset.isEmpty() ? suite.resolve(datasetSpec) : datasetSpec);
    if (!dataset)
        return usageError(dataset.error().message);
    if (dataset->examples.isEmpty())
        return usageError(QStringLiteral("the dataset %1 has no examples").arg(dataset->name));

    // The target: a program file, or a prompt of the library at a label or version.
    QString program = a.target.isEmpty() ? suite.resolve(suite.target) : a.target;
    if (program.isEmpty())
        return usageError(
            QStringLiteral("%1: the suite names no target (and no --target)").arg(a.suite));
    if (isLibrarySpec(program)) {
        Result<QString> file = library::PromptLibrary::fileFor(program, a.library);
        if (!file)
            return usageError(QStringLiteral("--target %1: %2").arg(program, file.error().message));
        program = *file;
    }
    if (!QFileInfo(program).isFile())
        return usageError(QStringLiteral("%1: no such program").arg(program));
    const bool versionBaselineWanted =
        isLibrarySpec(a.baseline) && a.baseline != QLatin1String("last");
    QStringList programs{program};
    if (versionBaselineWanted) {
        Result<QString> file = library::PromptLibrary::fileFor(a.baseline, a.library);
        if (!file)
            return usageError(
                QStringLiteral("--baseline %1: %2").arg(a.baseline, file.error().message));
        programs << *file;
    }
    // Every program the suite runs passes the trust rule: the targets and each judge program.
    const QString refusal =
        trustRefusal(programs + eval::evaluatorPrograms(suite.evaluators), a.sandbox, a.trustOnce,
                     a.trustFolder, QStringLiteral("hako eval"));
    if (!refusal.isEmpty()) {
        writeText(stderr, refusal);
        return 2;
    }
    // An earlier experiment as the baseline, read before anything runs: a wrong name is a
    // usage error.
    Baseline baseline;
    if (!a.baseline.isEmpty() && !versionBaselineWanted) {
        Result<Baseline> b = loadBaseline(*store, a.baseline, suite, *dataset);
        if (!b)
            return usageError(b.error().message);
        baseline = *b;
    }

    ExperimentPlan plan = makePlan(a, suite, *dataset, program);
    CancelToken cancel;
    // SIGINT, SIGTERM and SIGHUP stop after the examples in flight: the results so far are
    // kept, the experiment stays resumable and the reports are written.
    InterruptGuard interrupt(cancel);
    if (versionBaselineWanted) {
        Result<Baseline> b = versionBaseline(plan, a.baseline, a.library, store, cancel);
        if (!b) {
            writeText(stderr, QStringLiteral("hako eval: %1\n").arg(b.error().message));
            return 1;
        }
        baseline = *b;
    }
    for (const eval::ExampleResult& r : baseline.results)
        plan.otherOutputs.insert(r.exampleId, r.run.output);
    Result<Ran> ran = runPlan(plan, store, cancel, QString());
    if (!ran) {
        const Diagnostic& d = ran.error();
        writeText(
            stderr,
            QStringLiteral("hako eval: %1\n").arg(d.span.isValid() ? d.toString() : d.message));
        return 1;
    }

    return report(a, suite, *dataset, *ran, baseline);
}

} // namespace hako
