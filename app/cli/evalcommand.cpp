#include "cli/evalcommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "core/eval/datasetio.h"
#include "core/eval/evalstore.h"
#include "core/eval/experiment.h"
#include "core/eval/modeloverrides.h"
#include "core/eval/suite.h"
#include "core/models/modelrouter.h"
#include "core/promptlog/promptlog.h"
#include "core/util/outputfile.h"
#include "core/workbench/loggingprovider.h"
#include "core/workbench/programtarget.h"
#include "core/workbench/runenvironment.h"
#include "core/workbench/runtrust.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>
#include <QXmlStreamWriter>

#include <csignal>
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
    "  --target PROGRAM     the PDL program to run instead of the suite's\n"
    "  --baseline X         compare with an earlier experiment: its id (or a unique prefix of\n"
    "                       8+ characters), `last` (the suite's previous experiment), or a report\n"
    "                       written by --json\n"
    "  --concurrency N      examples run at a time (default: the suite's, else 4)\n"
    "  --fail-under SCORE   the mean of the evaluators' mean scores must reach SCORE\n"
    "  --json FILE          write the report as JSON ('-': standard output)\n"
    "  --junit FILE         write JUnit XML (one test case per example and evaluator)\n"
    "  --resume ID          finish an experiment that was cut short (only what is missing runs)\n"
    "  --store PATH         the eval store (default: eval.sqlite beside the prompt log)\n"
    "  --judge-model M      the model-graded evaluators' model (default: the suite's)\n"
    "  --tag TAG            tag the model calls in the prompt log (besides eval:SUITE)\n"
    "  --log PATH|URL       record the model calls in this prompt log; --no-log: do not\n"
    "  --no-traces          do not keep each example's trace\n"
    "  --sandbox, --trust, --trust-folder   as for hako run\n"
    "Exit: 0 every requirement holds; 1 a threshold missed, a regression beyond the suite's\n"
    "max_drop, or a run cut short; 2 bad usage, a broken suite or dataset.\n";

struct EvalArguments {
    QString suite, dataset, target, baseline, jsonFile, junitFile, resume, store, judgeModel, log;
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
    p.addOption({QStringLiteral("--tag")}, [&a](const QString& v) {
        a.tags << v;
        return QString();
    });
    p.addOption({QStringLiteral("--concurrency"), QStringLiteral("-j")}, [&a](const QString& v) {
        bool ok = false;
        a.concurrency = v.toInt(&ok);
        return ok && a.concurrency >= 1 ? QString()
                                        : QStringLiteral("--concurrency takes a positive number");
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

QString firstLine(const QString& s, int max = 100)
{
    QString t = s.section(QLatin1Char('\n'), 0, 0).simplified();
    return t.size() > max ? t.left(max - 1) + QStringLiteral("…") : t;
}

QString percent(double v)
{
    return QString::number(v * 100, 'f', 1) + QLatin1Char('%');
}

QString pad(const QString& s, int width)
{
    return s.leftJustified(width, QLatin1Char(' '));
}

// One requirement of the suite and whether the experiment met it.
struct Check {
    QString name;
    bool ok = true;
    QString detail;
};

QJsonObject aggregateJson(const eval::EvaluatorAggregate& a)
{
    return {{QStringLiteral("evaluator"), a.evaluator},
            {QStringLiteral("count"), a.count},
            {QStringLiteral("passed"), a.passed},
            {QStringLiteral("errors"), a.errors},
            {QStringLiteral("mean"), a.mean},
            {QStringLiteral("mean_ci"), QJsonArray{a.meanLow, a.meanHigh}},
            {QStringLiteral("pass_rate"), a.passRate},
            {QStringLiteral("pass_rate_ci"), QJsonArray{a.passLow, a.passHigh}}};
}

bool writeFileOrStdout(const QString& path, const QByteArray& data, QString* error)
{
    if (path == QLatin1String("-")) {
        writeText(stdout, std::string_view(data.constData(), size_t(data.size())));
        return true;
    }
    return writeOutputFile(path, data, error);
}

QByteArray junitXml(const eval::Suite& suite, const eval::ExperimentInfo& info,
                    const QList<eval::Example>& examples, const QList<eval::ExampleResult>& results,
                    const QList<Check>& checks, double seconds)
{
    int tests = 0, failures = 0, errors = 0;
    for (const eval::ExampleResult& r : results) {
        for (const eval::Score& s : r.scores) {
            ++tests;
            if (s.error)
                ++errors;
            else if (!s.pass)
                ++failures;
        }
    }
    for (const Check& c : checks) {
        ++tests;
        failures += c.ok ? 0 : 1;
    }
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("hako eval"));
    w.writeAttribute(QStringLiteral("tests"), QString::number(tests));
    w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    w.writeAttribute(QStringLiteral("errors"), QString::number(errors));
    w.writeAttribute(QStringLiteral("time"), QString::number(seconds, 'f', 3));
    w.writeStartElement(QStringLiteral("testsuite"));
    w.writeAttribute(QStringLiteral("name"), suite.name);
    w.writeAttribute(QStringLiteral("tests"), QString::number(tests));
    w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    w.writeAttribute(QStringLiteral("errors"), QString::number(errors));
    w.writeAttribute(QStringLiteral("skipped"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("time"), QString::number(seconds, 'f', 3));
    w.writeStartElement(QStringLiteral("properties"));
    auto property = [&w](const QString& name, const QString& value) {
        w.writeStartElement(QStringLiteral("property"));
        w.writeAttribute(QStringLiteral("name"), name);
        w.writeAttribute(QStringLiteral("value"), value);
        w.writeEndElement();
    };
    property(QStringLiteral("experiment"), info.id);
    property(QStringLiteral("dataset"), info.dataset);
    property(QStringLiteral("dataset_version"), QString::number(info.datasetVersion));
    property(QStringLiteral("target"), info.target);
    w.writeEndElement();
    for (const eval::ExampleResult& r : results) {
        const eval::Example* example =
            r.index >= 0 && r.index < examples.size() ? &examples[r.index] : nullptr;
        for (const eval::Score& s : r.scores) {
            w.writeStartElement(QStringLiteral("testcase"));
            w.writeAttribute(QStringLiteral("classname"),
                             suite.name + QLatin1Char('.') + s.evaluator);
            w.writeAttribute(QStringLiteral("name"),
                             QStringLiteral("example %1 (%2)").arg(r.index).arg(r.exampleId));
            w.writeAttribute(QStringLiteral("time"),
                             QString::number(r.run.latencyMs / 1000.0, 'f', 3));
            if (s.error || !s.pass) {
                w.writeStartElement(s.error ? QStringLiteral("error") : QStringLiteral("failure"));
                w.writeAttribute(QStringLiteral("message"), QStringLiteral("score %1: %2")
                                                                .arg(s.score, 0, 'f', 3)
                                                                .arg(firstLine(s.reasoning, 200)));
                w.writeAttribute(QStringLiteral("type"),
                                 s.error ? QStringLiteral("error") : QStringLiteral("threshold"));
                QString body = s.reasoning + QStringLiteral("\n\noutput:\n") + r.run.output;
                if (example)
                    body += QStringLiteral("\n\ninputs: ") +
                            QString::fromUtf8(
                                QJsonDocument(example->inputs).toJson(QJsonDocument::Compact));
                w.writeCharacters(body);
                w.writeEndElement();
            }
            w.writeEndElement();
        }
    }
    for (const Check& c : checks) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), suite.name + QStringLiteral(".requirements"));
        w.writeAttribute(QStringLiteral("name"), c.name);
        if (!c.ok) {
            w.writeStartElement(QStringLiteral("failure"));
            w.writeAttribute(QStringLiteral("message"), c.detail);
            w.writeAttribute(QStringLiteral("type"), QStringLiteral("requirement"));
            w.writeCharacters(c.detail);
            w.writeEndElement();
        }
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    return out;
}

CancelToken* g_interrupt = nullptr;

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
    if (!loaded.ok()) {
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
    const QString storePath = a.store.isEmpty() ? eval::EvalStore::defaultPath() : a.store;
    Result<std::unique_ptr<eval::EvalStore>> opened = eval::EvalStore::open(storePath);
    if (!opened.ok())
        return usageError(opened.error().message);
    eval::EvalStore& store = **opened;

    // The dataset: a file (imported and checked before anything runs), or a stored one.
    const QString datasetSpec = a.dataset.isEmpty() ? suite.dataset : a.dataset;
    if (datasetSpec.isEmpty())
        return usageError(
            QStringLiteral("%1: the suite names no dataset (and no --dataset)").arg(a.suite));
    const QString datasetFile = a.dataset.isEmpty() ? suite.resolve(datasetSpec) : datasetSpec;
    eval::Dataset dataset;
    if (QFileInfo(datasetFile).isFile()) {
        Result<eval::ImportedDataset> imported = eval::importDatasetFile(datasetFile);
        if (!imported.ok())
            return usageError(
                imported.error().span.isValid()
                    ? imported.error().toString()
                    : QStringLiteral("%1: %2").arg(datasetFile, imported.error().message));
        if (!imported->problems.isEmpty()) {
            for (const eval::ShapeProblem& p : imported->problems)
                writeText(stderr,
                          QStringLiteral("hako eval: %1: %2\n").arg(datasetFile, p.toString()));
            return usageError(QStringLiteral("%1: %2 example(s) do not fit the dataset's shape; "
                                             "fix them before running")
                                  .arg(datasetFile)
                                  .arg(imported->problems.size()));
        }
        dataset = imported->dataset;
        Result<int> version = store.saveDataset(
            dataset,
            QStringLiteral("imported from %1").arg(QFileInfo(datasetFile).absoluteFilePath()),
            true);
        if (!version.ok())
            return usageError(version.error().message);
        dataset.version = *version;
    } else {
        QString name = datasetSpec;
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
        if (!stored.ok())
            return usageError(
                QStringLiteral("%1 is neither a dataset file nor a stored dataset (%2)")
                    .arg(datasetSpec, stored.error().message));
        dataset = *stored;
    }
    if (dataset.examples.isEmpty())
        return usageError(QStringLiteral("the dataset %1 has no examples").arg(dataset.name));

    // The target program.
    const QString program = a.target.isEmpty() ? suite.resolve(suite.target) : a.target;
    if (program.isEmpty())
        return usageError(
            QStringLiteral("%1: the suite names no target (and no --target)").arg(a.suite));
    if (!QFileInfo(program).isFile())
        return usageError(QStringLiteral("%1: no such program").arg(program));
    // Every program the suite runs passes the trust rule: the target and each judge program.
    const QString refusal =
        trustRefusal(QStringList{program} + eval::evaluatorPrograms(suite.evaluators), a.sandbox,
                     a.trustOnce, a.trustFolder, QStringLiteral("hako eval"));
    if (!refusal.isEmpty()) {
        writeText(stderr, refusal);
        return 2;
    }

    // The baseline, before anything runs: a wrong name is a usage error.
    QList<eval::ExampleResult> baseline;
    QString baselineName;
    if (!a.baseline.isEmpty()) {
        if (QFileInfo(a.baseline).isFile()) {
            QFile f(a.baseline);
            if (!f.open(QIODevice::ReadOnly))
                return usageError(QStringLiteral("%1: %2").arg(a.baseline, f.errorString()));
            const QJsonObject report = QJsonDocument::fromJson(f.readAll()).object();
            if (!report.value(QStringLiteral("results")).isArray())
                return usageError(
                    QStringLiteral("%1: not a report written by hako eval --json").arg(a.baseline));
            for (const QJsonValue& r : report.value(QStringLiteral("results")).toArray())
                baseline.append(eval::ExampleResult::fromJson(r.toObject()));
            baselineName = a.baseline;
        } else {
            QString id = a.baseline;
            if (id == QLatin1String("last")) {
                Result<QList<eval::ExperimentInfo>> list = store.experiments(dataset.name);
                id.clear();
                if (list.ok())
                    for (const eval::ExperimentInfo& e : *list)
                        if (e.name == suite.name && e.status == QLatin1String("finished")) {
                            id = e.id;
                            break;
                        }
                if (id.isEmpty())
                    return usageError(QStringLiteral("--baseline last: no finished experiment of "
                                                     "%1 yet")
                                          .arg(suite.name));
            }
            Result<eval::ExperimentInfo> e = store.experiment(id);
            if (!e.ok())
                return usageError(QStringLiteral("--baseline: %1").arg(e.error().message));
            Result<QList<eval::ExampleResult>> r = store.results(e->id);
            if (!r.ok())
                return usageError(r.error().message);
            baseline = *r;
            baselineName = e->id;
        }
    }

    // The model provider, created once for every example and the judges.
    std::shared_ptr<models::IModelProvider> provider;
    {
        Result<std::shared_ptr<models::IModelProvider>> p =
            models::createDefaultProvider(QFileInfo(program).absolutePath());
        if (!p.ok())
            return usageError(p.error().toString());
        provider = *p;
    }
    if (!suite.modelOverrides.isEmpty())
        provider = std::make_shared<eval::ModelOverrideProvider>(provider, suite.modelOverrides);

    std::shared_ptr<promptlog::PromptLog> log;
    if (!a.noLog) {
        QString logError;
        log = a.log.isEmpty()
                  ? promptlog::PromptLog::openDefault(&logError)
                  : promptlog::PromptLog::open(a.log, &logError,
                                               promptlog::PromptLogOptions::fromUserSettings());
        if (!logError.isEmpty())
            writeText(stderr, QStringLiteral("hako eval: prompt log: %1\n").arg(logError));
    }
    const QStringList tags =
        QStringList{QStringLiteral("eval:") + suite.name} + tagsFromEnvironment() + a.tags;

    eval::ExperimentInfo info;
    info.id = a.resume;
    info.name = suite.name;
    info.dataset = dataset.name;
    info.datasetVersion = dataset.version;
    info.target = QFileInfo(program).absoluteFilePath();
    info.config = suite.toJson();
    if (!a.resume.isEmpty()) {
        Result<eval::ExperimentInfo> previous = store.experiment(a.resume);
        if (!previous.ok())
            return usageError(QStringLiteral("--resume: %1").arg(previous.error().message));
        if (previous->dataset != dataset.name || previous->datasetVersion != dataset.version)
            return usageError(QStringLiteral("--resume: experiment %1 ran on %2 version %3, not "
                                             "%4 version %5")
                                  .arg(previous->id, previous->dataset)
                                  .arg(previous->datasetVersion)
                                  .arg(dataset.name)
                                  .arg(dataset.version));
        info.id = previous->id;
    } else {
        info.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    }

    // Evaluators: the judges' calls are logged too, as their own run.
    // Composed as the window composes them (RunEnvironment): the same tags, the folder's tags
    // and the endpoint's name on every judge call.
    RunEnvironment judges;
    judges.baseFolder = QFileInfo(program).absolutePath();
    judges.promptLog = log;
    judges.runLog.runId = info.id + QStringLiteral(":judge");
    judges.runLog.programPath = QFileInfo(program).absoluteFilePath();
    judges.runLog.tags = tags;
    eval::EvaluatorContext context;
    judges.runLog.origin = promptlog::CallOrigin::Judge;
    context.models = judges.loggedProvider(provider, {QStringLiteral("eval:judge")});
    context.judgeModel = suite.judgeModel;
    context.embeddingModel = suite.embeddingModel;
    context.language = suite.language;
    context.sandbox = a.sandbox;
    std::vector<std::shared_ptr<const eval::Evaluator>> evaluators;
    QStringList evaluatorNames;
    for (const eval::EvaluatorSpec& spec : suite.evaluators) {
        Result<std::shared_ptr<const eval::Evaluator>> e = eval::createEvaluator(spec, context);
        if (!e.ok())
            return usageError(QStringLiteral("%1: %2").arg(a.suite, e.error().message));
        evaluators.push_back(*e);
        evaluatorNames << (*e)->name();
    }

    ProgramTarget target;
    target.programPath = QFileInfo(program).absoluteFilePath();
    target.environment.baseFolder = QFileInfo(program).absolutePath();
    target.environment.modelProvider = provider;
    target.environment.promptLog = log;
    target.environment.sandbox = a.sandbox;
    target.environment.runLog.programPath = target.programPath;
    target.environment.runLog.tags = tags;
    target.environment.runLog.origin = promptlog::CallOrigin::Experiment;
    target.outputVariable = suite.outputVariable;
    for (const eval::Example& e : dataset.examples)
        for (auto it = e.inputs.begin(); it != e.inputs.end(); ++it)
            if (!target.inputNames.contains(it.key()))
                target.inputNames << it.key();
    if (!a.noTraces)
        target.traceFolder =
            QFileInfo(storePath).dir().filePath(QStringLiteral("eval-traces/") + info.id);
    target.prices = promptlog::PromptLogOptions::fromUserSettings().prices;
    Result<eval::TargetFunction> targetFunction = target.make();
    if (!targetFunction.ok())
        return usageError(targetFunction.error().message);

    eval::ExperimentRunner runner(&store);
    runner.setTarget(*targetFunction);
    runner.setEvaluators(evaluators);
    runner.setConcurrency(suite.concurrency);
    if (!baseline.isEmpty()) {
        QHash<QString, QString> other;
        for (const eval::ExampleResult& r : baseline)
            other.insert(r.exampleId, r.run.output);
        runner.setOtherOutputs(other);
    }
    const bool tty = isatty(fileno(stderr));
    if (tty) {
        QObject::connect(&runner, &eval::ExperimentRunner::progress, [](int done, int total) {
            writeText(stderr, QStringLiteral("\r%1/%2 examples").arg(done).arg(total));
        });
    }
    CancelToken cancel;
    g_interrupt = &cancel;
    std::signal(SIGINT, [](int) { g_interrupt->cancel(); });
    QElapsedTimer clock;
    clock.start();
    Result<QList<eval::ExampleResult>> ran = runner.run(info, dataset.examples, cancel);
    std::signal(SIGINT, SIG_DFL);
    if (tty)
        writeText(stderr, std::string_view("\n"));
    if (log)
        log->flush(10000);
    if (!ran.ok()) {
        writeText(stderr, QStringLiteral("hako eval: %1\n").arg(ran.error().message));
        return 1;
    }
    const QList<eval::ExampleResult>& results = *ran;
    const double seconds = clock.nsecsElapsed() / 1e9;

    // Figures and requirements.
    const QList<eval::EvaluatorAggregate> aggregates = eval::aggregate(results, evaluatorNames);
    std::optional<eval::Comparison> comparison;
    if (!a.baseline.isEmpty())
        comparison = eval::compareExperiments(baseline, results);
    QList<Check> checks;
    double meanOfMeans = 0;
    for (const eval::EvaluatorAggregate& ag : aggregates) {
        const eval::EvaluatorSpec* spec = nullptr;
        for (const eval::EvaluatorSpec& s : suite.evaluators)
            if ((s.name.isEmpty() ? s.type : s.name) == ag.evaluator)
                spec = &s;
        meanOfMeans += ag.mean / aggregates.size();
        const double minPass = spec && spec->minPassRate ? *spec->minPassRate : 1.0;
        checks.append({QStringLiteral("%1 pass rate >= %2").arg(ag.evaluator, percent(minPass)),
                       ag.passRate + 1e-12 >= minPass,
                       QStringLiteral("%1: %2 of %3 passed (%4), needs %5")
                           .arg(ag.evaluator)
                           .arg(ag.passed)
                           .arg(ag.count)
                           .arg(percent(ag.passRate), percent(minPass))});
        if (spec && spec->minScore)
            checks.append({QStringLiteral("%1 mean >= %2").arg(ag.evaluator).arg(*spec->minScore),
                           ag.mean + 1e-12 >= *spec->minScore,
                           QStringLiteral("%1: mean %2, needs %3")
                               .arg(ag.evaluator)
                               .arg(ag.mean, 0, 'f', 3)
                               .arg(*spec->minScore)});
        if (comparison && comparison->meanDelta.contains(ag.evaluator)) {
            const double delta = comparison->meanDelta.value(ag.evaluator);
            checks.append({QStringLiteral("%1 no drop beyond %2 vs baseline")
                               .arg(ag.evaluator)
                               .arg(suite.maxDrop),
                           delta >= -suite.maxDrop - 1e-12,
                           QStringLiteral("%1: mean changed by %2 against the baseline (allowed "
                                          "drop %3)")
                               .arg(ag.evaluator)
                               .arg(delta, 0, 'f', 3)
                               .arg(suite.maxDrop)});
        }
    }
    if (suite.failUnder)
        checks.append({QStringLiteral("overall mean >= %1").arg(*suite.failUnder),
                       meanOfMeans + 1e-12 >= *suite.failUnder,
                       QStringLiteral("the evaluators' mean score %1 is under %2")
                           .arg(meanOfMeans, 0, 'f', 3)
                           .arg(*suite.failUnder)});
    const bool complete = results.size() == dataset.examples.size();
    if (!complete)
        checks.append({QStringLiteral("every example ran"), false,
                       QStringLiteral("cut short after %1 of %2 examples; resume with --resume %3")
                           .arg(results.size())
                           .arg(dataset.examples.size())
                           .arg(info.id)});
    bool passed = true;
    for (const Check& c : checks)
        passed = passed && c.ok;

    // The summary table.
    QString out;
    out += QStringLiteral("suite %1: %2 examples of %3 (version %4) through %5\n")
               .arg(suite.name)
               .arg(results.size())
               .arg(dataset.name)
               .arg(dataset.version)
               .arg(QFileInfo(program).fileName());
    out += QStringLiteral("experiment %1 (%2 ran now, %3 s)\n\n")
               .arg(info.id)
               .arg(runner.ranLastTime())
               .arg(seconds, 0, 'f', 2);
    int nameWidth = 9;
    for (const QString& n : evaluatorNames)
        nameWidth = std::max<int>(nameWidth, int(n.size()));
    out += pad(QStringLiteral("evaluator"), nameWidth + 2) +
           QStringLiteral("mean   95% CI         pass     95% CI (Wilson)  passed  errors");
    if (comparison)
        out += QStringLiteral("  vs baseline");
    out += QLatin1Char('\n');
    for (const eval::EvaluatorAggregate& ag : aggregates) {
        QString line =
            pad(ag.evaluator, nameWidth + 2) + pad(QString::number(ag.mean, 'f', 3), 7) +
            pad(QStringLiteral("[%1, %2]").arg(ag.meanLow, 0, 'f', 2).arg(ag.meanHigh, 0, 'f', 2),
                15) +
            pad(percent(ag.passRate), 9) +
            pad(QStringLiteral("[%1, %2]").arg(percent(ag.passLow), percent(ag.passHigh)), 17) +
            pad(QStringLiteral("%1/%2").arg(ag.passed).arg(ag.count), 8) +
            QString::number(ag.errors).leftJustified(6);
        if (comparison && comparison->meanDelta.contains(ag.evaluator))
            line += QStringLiteral("  %1%2")
                        .arg(comparison->meanDelta.value(ag.evaluator) >= 0 ? QStringLiteral("+")
                                                                            : QString())
                        .arg(comparison->meanDelta.value(ag.evaluator), 0, 'f', 3);
        out += line.trimmed() + QLatin1Char('\n');
    }
    int failuresShown = 0, failuresTotal = 0;
    QString failures;
    for (const eval::ExampleResult& r : results) {
        for (const eval::Score& s : r.scores) {
            if (s.pass)
                continue;
            ++failuresTotal;
            if (failuresShown++ < 10)
                failures += QStringLiteral("  example %1 (%2) %3: %4%5\n")
                                .arg(r.index)
                                .arg(r.exampleId, s.evaluator,
                                     s.error ? QStringLiteral("could not judge: ") : QString(),
                                     firstLine(s.reasoning));
        }
    }
    if (failuresTotal > 0) {
        out += QStringLiteral("\nfailing scores (%1):\n").arg(failuresTotal) + failures;
        if (failuresTotal > 10)
            out +=
                QStringLiteral("  … %1 more (--json or --junit for all)\n").arg(failuresTotal - 10);
    }
    if (comparison) {
        out +=
            QStringLiteral("\nagainst %1: %2 examples matched, %3 regressions, %4 improvements\n")
                .arg(baselineName)
                .arg(comparison->matched)
                .arg(comparison->regressions.size())
                .arg(comparison->improvements.size());
        int shown = 0;
        for (const eval::ScoreDelta& d : comparison->regressions) {
            if (shown++ >= 10)
                break;
            out += QStringLiteral("  regression: example %1 (%2) %3: %4 -> %5\n")
                       .arg(d.index)
                       .arg(d.exampleId, d.evaluator)
                       .arg(d.before, 0, 'f', 3)
                       .arg(d.after, 0, 'f', 3);
        }
    }
    out += QLatin1Char('\n');
    for (const Check& c : checks)
        if (!c.ok)
            out += QStringLiteral("FAILED %1\n").arg(c.detail);
    out += passed ? QStringLiteral("PASSED\n") : QStringLiteral("FAILED\n");
    const bool jsonToStdout = a.jsonFile == QLatin1String("-");
    writeText(jsonToStdout ? stderr : stdout, out);

    // Reports.
    if (!a.jsonFile.isEmpty()) {
        QJsonArray aggJson, resultsJson, checksJson;
        for (const eval::EvaluatorAggregate& ag : aggregates)
            aggJson.append(aggregateJson(ag));
        for (const eval::ExampleResult& r : results) {
            QJsonObject o = r.toJson();
            if (r.index >= 0 && r.index < dataset.examples.size()) {
                o.insert(QStringLiteral("inputs"), dataset.examples[r.index].inputs);
                if (dataset.examples[r.index].hasReference())
                    o.insert(QStringLiteral("reference"), dataset.examples[r.index].reference);
            }
            resultsJson.append(o);
        }
        for (const Check& c : checks)
            checksJson.append(QJsonObject{{QStringLiteral("name"), c.name},
                                          {QStringLiteral("ok"), c.ok},
                                          {QStringLiteral("detail"), c.detail}});
        QJsonObject report{{QStringLiteral("suite"), suite.toJson()},
                           {QStringLiteral("experiment"), info.id},
                           {QStringLiteral("dataset"), dataset.name},
                           {QStringLiteral("dataset_version"), dataset.version},
                           {QStringLiteral("target"), info.target},
                           {QStringLiteral("passed"), passed},
                           {QStringLiteral("seconds"), seconds},
                           {QStringLiteral("aggregates"), aggJson},
                           {QStringLiteral("checks"), checksJson},
                           {QStringLiteral("results"), resultsJson}};
        if (comparison) {
            QJsonArray deltas;
            for (const eval::ScoreDelta& d : comparison->deltas)
                deltas.append(QJsonObject{{QStringLiteral("example_id"), d.exampleId},
                                          {QStringLiteral("index"), d.index},
                                          {QStringLiteral("evaluator"), d.evaluator},
                                          {QStringLiteral("before"), d.before},
                                          {QStringLiteral("after"), d.after},
                                          {QStringLiteral("regression"), d.isRegression()},
                                          {QStringLiteral("improvement"), d.isImprovement()}});
            report.insert(QStringLiteral("baseline"), baselineName);
            report.insert(QStringLiteral("deltas"), deltas);
        }
        QString error;
        if (!writeFileOrStdout(a.jsonFile, QJsonDocument(report).toJson(QJsonDocument::Indented),
                               &error)) {
            writeText(stderr, QStringLiteral("hako eval: %1: %2\n").arg(a.jsonFile, error));
            return 2;
        }
    }
    if (!a.junitFile.isEmpty()) {
        QString error;
        if (!writeFileOrStdout(a.junitFile,
                               junitXml(suite, info, dataset.examples, results, checks, seconds),
                               &error)) {
            writeText(stderr, QStringLiteral("hako eval: %1: %2\n").arg(a.junitFile, error));
            return 2;
        }
    }
    return passed ? 0 : 1;
}

} // namespace hako
