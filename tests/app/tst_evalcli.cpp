// `hako eval` as CI runs it: exit 0 when the suite passes, 1 when a threshold is missed or a
// regression against a baseline exceeds the allowed drop, 2 for a broken suite or dataset; JUnit
// XML that a JUnit parser reads (QXmlStreamReader, and Python's xml.etree when present); every
// model call in the prompt log with the suite's tag.

#include "hakoprocess.h"

#include "core/eval/evalstore.h"
#include "core/promptlog/promptlog.h"
#include "tests/support/openaitestserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace hako;
using hako::testing::OpenAiTestServer;

namespace {

struct JUnitFigures {
    int tests = 0, failures = 0, errors = 0, testcases = 0, failureElements = 0;
    QStringList failureMessages;
    bool ok = false;
    QString error;
};

JUnitFigures readJUnit(const QString& path)
{
    JUnitFigures f;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        f.error = file.errorString();
        return f;
    }
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("testsuite")) {
            f.tests = xml.attributes().value(QLatin1String("tests")).toInt();
            f.failures = xml.attributes().value(QLatin1String("failures")).toInt();
            f.errors = xml.attributes().value(QLatin1String("errors")).toInt();
        } else if (xml.name() == QLatin1String("testcase")) {
            ++f.testcases;
        } else if (xml.name() == QLatin1String("failure") || xml.name() == QLatin1String("error")) {
            ++f.failureElements;
            f.failureMessages << xml.attributes().value(QLatin1String("message")).toString();
        }
    }
    f.ok = !xml.hasError();
    f.error = xml.errorString();
    return f;
}

} // namespace

class TestEvalCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<OpenAiTestServer> m_server;

    QString write(const QString& name, const QByteArray& data)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(data);
        return f.fileName();
    }
    QString store() const { return m_dir.filePath(QStringLiteral("eval.sqlite")); }
    QString logFile() const { return m_dir.filePath(QStringLiteral("log.sqlite")); }

    HakoOutcome hakoEval(const QStringList& args)
    {
        return runHako(QStringList{QStringLiteral("eval"), QStringLiteral("--trust"),
                                   QStringLiteral("--store"), store(), QStringLiteral("--log"),
                                   logFile()} +
                       args);
    }

    // Three questions whose answers a program without a model can give.
    void writeFixtures()
    {
        write(QStringLiteral("answers.jsonl"),
              "{\"inputs\": {\"n\": 1, \"answer\": \"東京\"}, \"reference\": \"東京\"}\n"
              "{\"inputs\": {\"n\": 2, \"answer\": \"Paris\"}, \"reference\": \"Paris\"}\n"
              "{\"inputs\": {\"n\": 3, \"answer\": \"Rome\"}, \"reference\": \"Rome\"}\n");
        write(QStringLiteral("good.pdl"), "description: answers\ntext: \"${ answer }\"\n");
        // Wrong on the second example.
        write(QStringLiteral("worse.pdl"),
              "description: answers\ntext: \"${ answer if n != 2 else 'Lyon' }\"\n");
        write(QStringLiteral("answers.yaml"), "name: answers\n"
                                              "dataset: answers.jsonl\n"
                                              "target: good.pdl\n"
                                              "concurrency: 2\n"
                                              "evaluators:\n"
                                              "  - exact_match\n"
                                              "  - {name: short, type: length_chars, max: 20}\n");
        write(QStringLiteral("lenient.yaml"), "name: lenient\n"
                                              "dataset: answers.jsonl\n"
                                              "target: good.pdl\n"
                                              "max_drop: 0.1\n"
                                              "evaluators:\n"
                                              "  - {type: exact_match, min_pass_rate: 0.5}\n");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        writeFixtures();
    }
    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-SECRET-4242");
        qputenv("OLLAMA_API_BASE", "http://127.0.0.1:1");
    }
    void cleanup() { m_server.reset(); }

    void passingSuiteExitsZeroWithJUnit()
    {
        const QString junit = m_dir.filePath(QStringLiteral("pass.xml"));
        const QString json = m_dir.filePath(QStringLiteral("pass.json"));
        const HakoOutcome o =
            hakoEval({m_dir.filePath(QStringLiteral("answers.yaml")), QStringLiteral("--junit"),
                      junit, QStringLiteral("--json"), json});
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
        QVERIFY2(o.out.contains(QLatin1String("exact_match")) &&
                     o.out.contains(QLatin1String("PASSED")),
                 qPrintable(o.out));
        QVERIFY(o.out.contains(QLatin1String("3/3")));
        const JUnitFigures f = readJUnit(junit);
        QVERIFY2(f.ok, qPrintable(f.error));
        // 3 examples x 2 evaluators, and one requirement per evaluator.
        QCOMPARE(f.tests, 3 * 2 + 2);
        QCOMPARE(f.testcases, f.tests);
        QCOMPARE(f.failures, 0);
        QCOMPARE(f.failureElements, 0);
        const QJsonObject report =
            QJsonDocument::fromJson([&] {
                QFile r(json);
                return r.open(QIODevice::ReadOnly) ? r.readAll() : QByteArray();
            }())
                .object();
        QCOMPARE(report.value(QStringLiteral("passed")).toBool(), true);
        QCOMPARE(report.value(QStringLiteral("results")).toArray().size(), 3);
        // The experiment is in the store, with the dataset version it ran on.
        auto s = eval::EvalStore::open(store());
        QVERIFY(s.ok());
        auto experiment = (*s)->experiment(report.value(QStringLiteral("experiment")).toString());
        QVERIFY(experiment.ok());
        QCOMPARE(experiment->status, QStringLiteral("finished"));
        QCOMPARE(experiment->datasetVersion, 1);
        QCOMPARE((*s)->results(experiment->id)->size(), 3);
    }

    void missedThresholdExitsOne()
    {
        const QString junit = m_dir.filePath(QStringLiteral("fail.xml"));
        const HakoOutcome o = hakoEval(
            {m_dir.filePath(QStringLiteral("answers.yaml")), QStringLiteral("--target"),
             m_dir.filePath(QStringLiteral("worse.pdl")), QStringLiteral("--junit"), junit});
        QVERIFY2(o.exitCode == 1, qPrintable(o.out + o.err));
        QVERIFY2(o.out.contains(QLatin1String("FAILED")), qPrintable(o.out));
        QVERIFY2(o.out.contains(QLatin1String("example 1")) &&
                     o.out.contains(QLatin1String("Lyon")),
                 qPrintable(o.out));
        const JUnitFigures f = readJUnit(junit);
        QVERIFY2(f.ok, qPrintable(f.error));
        QCOMPARE(f.failures, 2); // the example's score and the exact_match requirement
        QCOMPARE(f.failureElements, 2);
        QVERIFY(f.failureMessages.join(QLatin1Char('\n')).contains(QLatin1String("Lyon")));

        // A JUnit parser that is not Qt's reads it too.
        QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (!python.isEmpty()) {
            QProcess p;
            p.start(
                python,
                {QStringLiteral("-c"),
                 QStringLiteral(
                     "import sys, xml.etree.ElementTree as ET\n"
                     "root = ET.parse(sys.argv[1]).getroot()\n"
                     "suite = root.find('testsuite')\n"
                     "cases = suite.findall('testcase')\n"
                     "failed = [c for c in cases if c.find('failure') is not None]\n"
                     "print(suite.get('name'), len(cases), len(failed), suite.get('failures'))\n"),
                 junit});
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitCode(), 0);
            QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()).trimmed(),
                     QStringLiteral("answers 8 2 2"));
        }

        // --fail-under alone decides too: the mean is 5/6 of the way.
        const HakoOutcome strict =
            hakoEval({m_dir.filePath(QStringLiteral("lenient.yaml")), QStringLiteral("--target"),
                      m_dir.filePath(QStringLiteral("worse.pdl")), QStringLiteral("--fail-under"),
                      QStringLiteral("0.9")});
        QCOMPARE(strict.exitCode, 1);
        QVERIFY2(strict.out.contains(QLatin1String("under 0.9")), qPrintable(strict.out));
    }

    void regressionAgainstBaselineExitsOne()
    {
        // The baseline: the good program, as a report file and as a stored experiment.
        const QString base = m_dir.filePath(QStringLiteral("base.json"));
        const HakoOutcome first = hakoEval(
            {m_dir.filePath(QStringLiteral("lenient.yaml")), QStringLiteral("--json"), base});
        QVERIFY2(first.exitCode == 0, qPrintable(first.out + first.err));
        QFile f(base);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString baseId = QJsonDocument::fromJson(f.readAll())
                                   .object()
                                   .value(QStringLiteral("experiment"))
                                   .toString();
        QVERIFY(!baseId.isEmpty());

        // The same program again: no regression.
        const HakoOutcome same = hakoEval(
            {m_dir.filePath(QStringLiteral("lenient.yaml")), QStringLiteral("--baseline"), base});
        QVERIFY2(same.exitCode == 0, qPrintable(same.out + same.err));
        QVERIFY2(same.out.contains(QLatin1String("0 regressions")), qPrintable(same.out));

        // The worse program passes its own thresholds (2 of 3 >= 50%) but drops by 1/3 > 0.1.
        for (const QString& baseline : {base, baseId.left(8)}) {
            const HakoOutcome worse =
                hakoEval({m_dir.filePath(QStringLiteral("lenient.yaml")),
                          QStringLiteral("--target"), m_dir.filePath(QStringLiteral("worse.pdl")),
                          QStringLiteral("--baseline"), baseline});
            QVERIFY2(worse.exitCode == 1, qPrintable(worse.out + worse.err));
            QVERIFY2(worse.out.contains(QLatin1String("1 regressions")), qPrintable(worse.out));
            QVERIFY2(worse.out.contains(QLatin1String("regression: example 1")),
                     qPrintable(worse.out));
            QVERIFY2(worse.out.contains(QLatin1String("allowed drop 0.1")), qPrintable(worse.out));
        }
    }

    void modelCallsAreLoggedWithTheSuiteTag()
    {
        write(QStringLiteral("echo.pdl"),
              "description: echo\ntext:\n- model: openai/gpt-4o-mini\n  input: \"${ answer }\"\n");
        write(QStringLiteral("echo.yaml"),
              "name: echoes\ndataset: answers.jsonl\ntarget: echo.pdl\nevaluators:\n"
              "  - {type: contains, min_pass_rate: 1}\n"
              "  - {type: trajectory, steps: [model], max_model_calls: 1}\n");
        const HakoOutcome o = hakoEval({m_dir.filePath(QStringLiteral("echo.yaml"))});
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
        QCOMPARE(m_server->requestCount(), 3);
        QString error;
        auto log = promptlog::PromptLog::open(logFile(), &error);
        QVERIFY2(log, qPrintable(error));
        promptlog::CallFilter filter;
        filter.tags = {QStringLiteral("eval:echoes")};
        auto calls = log->list(filter, true);
        QVERIFY(calls.ok());
        QCOMPARE(calls->size(), 3);
        QSet<QString> answers;
        for (const promptlog::CallRecord& c : *calls)
            answers.insert(c.inputs.value(QStringLiteral("answer")).toString());
        QCOMPARE(answers, (QSet<QString>{QStringLiteral("東京"), QStringLiteral("Paris"),
                                         QStringLiteral("Rome")}));
    }

    void judgesAreCalledAndLogged()
    {
        write(QStringLiteral("judged.yaml"),
              "name: judged\ndataset: answers.jsonl\ntarget: good.pdl\n"
              "judge_model: openai/gpt-4o-mini\nlanguage: ja\nevaluators:\n"
              "  - {type: criteria, criteria: {簡潔: 50文字以内か}, min_pass_rate: 0.6}\n");
        m_server->enqueueChat(hako::testing::ScriptedReply::chat(QStringLiteral("短い。\nY")));
        m_server->enqueueChat(hako::testing::ScriptedReply::chat(QStringLiteral("短い。\nY")));
        m_server->enqueueChat(hako::testing::ScriptedReply::chat(QStringLiteral("わかりません")));
        const QString junit = m_dir.filePath(QStringLiteral("judged.xml"));
        const HakoOutcome o = hakoEval({m_dir.filePath(QStringLiteral("judged.yaml")),
                                        QStringLiteral("--concurrency"), QStringLiteral("1"),
                                        QStringLiteral("--junit"), junit});
        // Two Y, one reply without a verdict: an error, not a pass (2/3 >= 0.6 still passes).
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
        QVERIFY2(o.out.contains(QLatin1String("could not judge: judge did not answer")),
                 qPrintable(o.out));
        QCOMPARE(m_server->requestCount(), 3);
        const JUnitFigures f = readJUnit(junit);
        QCOMPARE(f.errors, 1);
        QString error;
        auto log = promptlog::PromptLog::open(logFile(), &error);
        QVERIFY2(log, qPrintable(error));
        promptlog::CallFilter filter;
        filter.tags = {QStringLiteral("eval:judged"), QStringLiteral("eval:judge")};
        auto calls = log->list(filter, true);
        QVERIFY(calls.ok());
        QCOMPARE(calls->size(), 3);
        QVERIFY(calls->first()
                    .messages.at(0)
                    .toObject()
                    .value(QStringLiteral("content"))
                    .toString()
                    .contains(QStringLiteral("50文字以内か")));
    }

    void killedRunResumes()
    {
        // Six examples, one at a time, each model reply taking a while: the process is killed
        // (SIGKILL) once two results are in the store, then resumed by id.
        QByteArray lines;
        for (int i = 0; i < 6; ++i)
            lines += QStringLiteral("{\"inputs\": {\"answer\": \"a%1\"}, \"reference\": \"a%1\"}\n")
                         .arg(i)
                         .toUtf8();
        write(QStringLiteral("six.jsonl"), lines);
        write(QStringLiteral("slow.pdl"),
              "description: slow\ntext:\n- model: openai/gpt-4o-mini\n  input: \"${ answer }\"\n"
              "  def: reply\n- \"${ answer }\"\n");
        write(QStringLiteral("slow.yaml"),
              "name: slow\ndataset: six.jsonl\ntarget: slow.pdl\nconcurrency: 1\n"
              "output: answer\nevaluators: [exact_match]\n");
        for (int i = 0; i < 12; ++i) {
            hako::testing::ScriptedReply r =
                hako::testing::ScriptedReply::chat(QStringLiteral("ok"));
            r.delayMs = 400;
            m_server->enqueueChat(r);
        }
        const QString storePath = m_dir.filePath(QStringLiteral("killed.sqlite"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        process.setProcessEnvironment(env);
        process.start(hakoBinary(),
                      {QStringLiteral("eval"), QStringLiteral("--trust"), QStringLiteral("--store"),
                       storePath, QStringLiteral("--no-log"),
                       m_dir.filePath(QStringLiteral("slow.yaml"))});
        QVERIFY(process.waitForStarted());
        QString id;
        int saved = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                if (!QFileInfo::exists(storePath))
                    return false;
                auto s = eval::EvalStore::open(storePath);
                if (!s.ok())
                    return false;
                auto list = (*s)->experiments();
                if (!list.ok() || list->isEmpty())
                    return false;
                id = list->first().id;
                saved = int((*s)->results(id)->size());
                return saved >= 2;
            }(),
            20000);
        process.kill(); // SIGKILL: no chance to finish anything
        process.waitForFinished();
        {
            // What the killed process committed (one more may have landed since the poll).
            auto s = eval::EvalStore::open(storePath);
            QVERIFY(s.ok());
            saved = int((*s)->results(id)->size());
        }
        QVERIFY(saved < 6);

        const HakoOutcome resumed =
            runHako({QStringLiteral("eval"), QStringLiteral("--trust"), QStringLiteral("--store"),
                     storePath, QStringLiteral("--no-log"), QStringLiteral("--resume"), id,
                     m_dir.filePath(QStringLiteral("slow.yaml"))});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.out + resumed.err));
        auto s = eval::EvalStore::open(storePath);
        QVERIFY(s.ok());
        auto results = (*s)->results(id);
        QVERIFY(results.ok());
        QCOMPARE(results->size(), 6);
        QSet<int> indexes;
        for (const eval::ExampleResult& r : *results) {
            indexes.insert(r.index);
            QVERIFY(r.scores.at(0).pass);
        }
        QCOMPARE(indexes.size(), 6);
        QCOMPARE((*s)->experiment(id)->status, QStringLiteral("finished"));
        // The resumed run did only what was missing (plus, at most, the one killed in flight).
        QVERIFY2(resumed.out.contains(QStringLiteral("%1 ran now").arg(6 - saved)),
                 qPrintable(resumed.out));
    }

    void brokenSuitesAndDatasetsExitTwo_data()
    {
        QTest::addColumn<QByteArray>("suite");
        QTest::addColumn<QString>("said");
        QTest::newRow("unknown key")
            << QByteArray("dataset: answers.jsonl\ntarget: good.pdl\nevaluator:\n  - exact_match\n")
            << "broken.yaml:3:1: error: unknown key `evaluator`";
        QTest::newRow("unknown evaluator")
            << QByteArray("dataset: answers.jsonl\ntarget: good.pdl\nevaluators:\n  - exactly\n")
            << "broken.yaml:4:5: error: evaluator exactly";
        QTest::newRow("bad regex")
            << QByteArray("dataset: answers.jsonl\ntarget: good.pdl\nevaluators:\n"
                          "  - {type: regex, pattern: '('}\n")
            << "bad pattern";
        QTest::newRow("malformed example")
            << QByteArray("dataset: misfit.jsonl\ntarget: good.pdl\nevaluators: [exact_match]\n")
            << "example 2: inputs.answer: expected string";
        QTest::newRow("no dataset")
            << QByteArray("dataset: nowhere\ntarget: good.pdl\nevaluators: [exact_match]\n")
            << "neither a dataset file nor a stored dataset";
        QTest::newRow("no program")
            << QByteArray("dataset: answers.jsonl\ntarget: nope.pdl\nevaluators: [exact_match]\n")
            << "no such program";
        QTest::newRow("yaml") << QByteArray("dataset: [\n") << "broken.yaml:";
    }
    void brokenSuitesAndDatasetsExitTwo()
    {
        QFETCH(QByteArray, suite);
        QFETCH(QString, said);
        write(QStringLiteral("misfit.jsonl"),
              "{\"inputs\": {\"n\": 1, \"answer\": \"a\"}, \"reference\": \"a\"}\n"
              "{\"inputs\": {\"n\": 2, \"answer\": \"b\"}, \"reference\": \"b\"}\n"
              "{\"inputs\": {\"n\": 3, \"answer\": 7}, \"reference\": \"c\"}\n");
        const QString path = write(QStringLiteral("broken.yaml"), suite);
        const HakoOutcome o = hakoEval({path});
        QCOMPARE(o.status, QProcess::NormalExit);
        QVERIFY2(o.exitCode == 2, qPrintable(o.out + o.err));
        QVERIFY2(o.err.contains(said), qPrintable(o.err));
        QCOMPARE(m_server->requestCount(), 0);
    }

    // "Compare two versions of my prompt on this dataset" is one command; the second time the
    // baseline version's experiment is reused, not run again.
    void comparesTwoVersionsOfALibraryPrompt()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty())
            QSKIP("git is not installed");
        writeFixtures();
        const QString lib = m_dir.filePath(QStringLiteral("library"));
        QVERIFY(QDir().mkpath(lib));
        const QStringList inLib{QStringLiteral("--library"), lib};
        QCOMPARE(
            runHako(QStringList{QStringLiteral("prompt"), QStringLiteral("init")} + inLib).exitCode,
            0);
        const QString file = lib + QStringLiteral("/answers.pdl");
        auto saveVersion = [&](const QByteArray& text) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("# hako-prompt: 00aa11bb22cc\ndescription: answers\n" + text);
            f.close();
            const HakoOutcome saved = runHako(
                QStringList{QStringLiteral("prompt"), QStringLiteral("save"), file} + inLib);
            QVERIFY2(saved.exitCode == 0, qPrintable(saved.err));
        };
        saveVersion("text: \"${ answer if n != 2 else 'Lyon' }\"\n"); // version 1: one wrong
        saveVersion("text: \"${ answer }\"\n");                       // version 2: all right
        const QString suite = write(QStringLiteral("versions.yaml"),
                                    "name: versions\ndataset: answers.jsonl\ntarget: good.pdl\n"
                                    "evaluators:\n  - exact_match\n");
        const QString report = m_dir.filePath(QStringLiteral("versions.json"));
        const QStringList args = QStringList{suite,
                                             QStringLiteral("--target"),
                                             QStringLiteral("answers@2"),
                                             QStringLiteral("--baseline"),
                                             QStringLiteral("answers@1"),
                                             QStringLiteral("--json"),
                                             report} +
                                 inLib;
        HakoOutcome o = hakoEval(args);
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
        QVERIFY2(o.err.contains(QLatin1String("baseline answers@1: experiment")),
                 qPrintable(o.err));
        QVERIFY2(o.out.contains(QLatin1String("prompt answers, version 2")), qPrintable(o.out));
        QVERIFY2(
            o.out.contains(QLatin1String("against answers@1: 3 examples matched, 0 regressions, "
                                         "1 improvements")),
            qPrintable(o.out));
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(json.value(QStringLiteral("prompt_version")).toInt(), 2);
        QCOMPARE(json.value(QStringLiteral("prompt_id")).toString(),
                 QStringLiteral("00aa11bb22cc"));

        // The store knows which version each experiment ran.
        {
            auto store = eval::EvalStore::open(this->store());
            QVERIFY(store.ok());
            auto list = (*store)->experiments(QStringLiteral("answers"));
            QVERIFY(list.ok());
            QSet<int> versions;
            for (const eval::ExperimentInfo& e : *list)
                if (e.promptId == QLatin1String("00aa11bb22cc"))
                    versions << e.promptVersion;
            QCOMPARE(versions, (QSet<int>{1, 2}));
        }
        o = hakoEval(args);
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
        QVERIFY2(o.err.contains(QLatin1String("(already run)")), qPrintable(o.err));
    }

    void usage()
    {
        QCOMPARE(runHako({QStringLiteral("eval")}).exitCode, 2);
        QCOMPARE(runHako({QStringLiteral("eval"), QStringLiteral("--bogus"), QStringLiteral("x")})
                     .exitCode,
                 2);
        const HakoOutcome help = runHako({QStringLiteral("eval"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QLatin1String("--baseline")));
        // The template evaluator moved to `hako expr`.
        const HakoOutcome expr = runHako({QStringLiteral("expr"), QStringLiteral("${ 1 + 1 }")});
        QCOMPARE(expr.exitCode, 0);
        QCOMPARE(expr.out, QStringLiteral("2\n"));
    }
};

QTEST_GUILESS_MAIN(TestEvalCli)
#include "tst_evalcli.moc"
