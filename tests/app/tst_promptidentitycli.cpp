// A prompt is one row of `hako log stats --by prompt` however its program changes: lines moved
// and blocks inserted before it, two programs sharing a `def`, an unnamed program saved under a
// name. Judge, experiment and playground calls are told apart and filtered by --origin. Model
// calls go to the local OpenAI-compatible test server; the sums are its usage figures.
#include "core/pdl/parser/programparser.h"
#include "core/pdl/promptidentity.h"
#include "core/promptlog/promptlog.h"
#include "core/run/runenvironment.h"
#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;
using namespace hako::promptlog;

namespace {

// Two model blocks with their ids (as the workbench writes them on save).
const QByteArray kReport = "# hako-prompt: 00000000000a\n"
                           "description: Report\n"
                           "text:\n"
                           "- Summarise the report.\n"
                           "# hako-prompt: 0000000000a1\n"
                           "- model: openai/gpt-4o-mini\n"
                           "  description: Summary\n"
                           "- def: title\n"
                           "  # hako-prompt: 0000000000a2\n"
                           "  model: openai/gpt-4o-mini\n"
                           "  input: A title, please.\n";

} // namespace

class TestPromptIdentityCli : public QObject {
    Q_OBJECT

    std::unique_ptr<OpenAiTestServer> m_server;
    QTemporaryDir m_dir;
    int m_logs = 0;
    QString m_log;

    QString write(const QString& name, const QByteArray& text)
    {
        const QString path = m_dir.filePath(name);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return path;
    }

    // `hako run` of `program`, each model call answered with `in`/`out` tokens.
    bool run(const QString& program, int calls, int in, int out)
    {
        for (int i = 0; i < calls; ++i)
            m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("ok"), in, out));
        const HakoOutcome r =
            runHako({QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none"),
                     QStringLiteral("--log"), m_log, program});
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(r.err));
        return r.exitCode == 0;
    }

    QJsonArray stats(const QStringList& extra)
    {
        const HakoOutcome r =
            runHako(QStringList{QStringLiteral("log"), QStringLiteral("stats"),
                                QStringLiteral("--db"), m_log, QStringLiteral("--json")} +
                    extra);
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(r.err));
        return QJsonDocument::fromJson(r.out.toUtf8()).array();
    }

    static QJsonObject rowOf(const QJsonArray& rows, const QString& field, const QString& key)
    {
        for (const QJsonValue& v : rows)
            if (v.toObject().value(field).toString() == key)
                return v.toObject();
        return {};
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-4242");
        qputenv("OLLAMA_API_BASE", "http://127.0.0.1:1");
        QVERIFY(QDir::setCurrent(m_dir.path()));
        m_log = m_dir.filePath(QStringLiteral("log%1.sqlite").arg(++m_logs));
    }
    void cleanup() { m_server.reset(); }

    void onePromptWhileLinesMove()
    {
        const QString program = write(QStringLiteral("report.pdl"), kReport);
        QVERIFY(run(program, 2, 11, 4));
        // Lines and a new model block (no id yet) before both blocks; the summary's text edited.
        QByteArray edited = kReport;
        edited.replace("- Summarise the report.\n",
                       "- Some context first.\n- And more of it.\n"
                       "- model: openai/gpt-4o-mini\n  input: A warm-up.\n"
                       "- Summarise the report, briefly.\n");
        write(QStringLiteral("report.pdl"), edited);
        QVERIFY(run(program, 3, 13, 5));

        const QJsonArray rows = stats({QStringLiteral("--by"), QStringLiteral("prompt")});
        QCOMPARE(rows.size(), 3);
        const QJsonObject summary =
            rowOf(rows, QStringLiteral("prompt"), QStringLiteral("0000000000a1"));
        QCOMPARE(summary.value(QStringLiteral("calls")).toInt(), 2);
        QCOMPARE(summary.value(QStringLiteral("tokens_in")).toInt(), 11 + 13);
        QCOMPARE(summary.value(QStringLiteral("tokens")).toInt(), 11 + 4 + 13 + 5);
        QCOMPARE(summary.value(QStringLiteral("name")).toString(),
                 QStringLiteral("Report › Summary"));
        const QJsonObject title =
            rowOf(rows, QStringLiteral("prompt"), QStringLiteral("0000000000a2"));
        QCOMPARE(title.value(QStringLiteral("calls")).toInt(), 2);
        QCOMPARE(title.value(QStringLiteral("name")).toString(), QStringLiteral("Report › title"));
        // The new block has no id yet: its calls carry one derived from the file (unsaved).
        bool derived = false;
        for (const QJsonValue& v : rows)
            derived = derived || v.toObject()
                                     .value(QStringLiteral("prompt"))
                                     .toString()
                                     .startsWith(QLatin1Char('~'));
        QVERIFY(derived);

        // By program: one row, its name.
        const QJsonArray programs = stats({QStringLiteral("--by"), QStringLiteral("program")});
        QCOMPARE(programs.size(), 1);
        QCOMPARE(programs.at(0).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("Report"));
        QCOMPARE(programs.at(0).toObject().value(QStringLiteral("calls")).toInt(), 5);
        // By version: the two texts of the program.
        QCOMPARE(stats({QStringLiteral("--by"), QStringLiteral("version")}).size(), 2);
        // The table shows the name and the id.
        const HakoOutcome table = runHako(
            {QStringLiteral("log"), QStringLiteral("stats"), QStringLiteral("--db"), m_log});
        QVERIFY2(table.out.contains(QStringLiteral("Report › Summary")), qPrintable(table.out));
        QVERIFY2(table.out.contains(QLatin1String("0000000000a1")), qPrintable(table.out));
        QVERIFY2(table.out.contains(QLatin1String("TOKENS ")), qPrintable(table.out));
    }

    void twoProgramsShareADef()
    {
        const QByteArray text = "text:\n- def: answer\n  model: openai/gpt-4o-mini\n  input: hi\n";
        for (const QString& name : {QStringLiteral("a/alpha.pdl"), QStringLiteral("b/beta.pdl")}) {
            const QString path = write(name, text);
            const auto parsed = hako::pdl::parseProgram(path);
            QVERIFY(parsed.program);
            write(name,
                  hako::pdl::ensurePromptIds(QString::fromUtf8(text), *parsed.program).toUtf8());
            QVERIFY(run(path, 1, name.startsWith(QLatin1Char('a')) ? 3 : 7, 1));
        }
        const QJsonArray rows = stats({QStringLiteral("--by"), QStringLiteral("prompt")});
        QCOMPARE(rows.size(), 2);
        QStringList names;
        for (const QJsonValue& v : rows)
            names << v.toObject().value(QStringLiteral("name")).toString();
        names.sort();
        QCOMPARE(names,
                 (QStringList{QStringLiteral("alpha › answer"), QStringLiteral("beta › answer")}));
    }

    void savingAnUntitledProgramKeepsItsPrompts()
    {
        // The workbench writes the ids into an unnamed program when it runs it (RunActions),
        // and saving finds them there (EditorPane::saveAs): the saved file's calls are the
        // same prompts as the unnamed one's.
        const QString text = QStringLiteral("text:\n- model: openai/gpt-4o-mini\n  input: hi\n");
        const auto parsed =
            hako::pdl::parseProgramText(text.toUtf8(), QStringLiteral("untitled.pdl"));
        QVERIFY(parsed.program);
        const QString unnamed = hako::pdl::ensurePromptIds(text, *parsed.program);
        QVERIFY(run(write(QStringLiteral("scratch/untitled.pdl"), unnamed.toUtf8()), 1, 5, 5));
        const auto again = hako::pdl::parseProgramText(unnamed.toUtf8(), QStringLiteral("x.pdl"));
        const QString saved = hako::pdl::ensurePromptIds(unnamed, *again.program);
        QCOMPARE(saved, unnamed);
        QVERIFY(run(write(QStringLiteral("kept/notes.pdl"), saved.toUtf8()), 1, 6, 6));
        const QJsonArray rows = stats({QStringLiteral("--by"), QStringLiteral("prompt")});
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("calls")).toInt(), 2);
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("tokens")).toInt(), 22);
        // The program too is one.
        QCOMPARE(stats({QStringLiteral("--by"), QStringLiteral("program")}).size(), 1);
    }

    void originsAreToldApart()
    {
        // An experiment: its target calls the model once per example, a judge once each.
        write(QStringLiteral("exp/qa.jsonl"), "{\"inputs\": {\"q\": \"one\"}}\n"
                                              "{\"inputs\": {\"q\": \"two\"}}\n");
        write(QStringLiteral("exp/target.pdl"),
              "text:\n- model: openai/gpt-4o-mini\n  def: answer\n  input: ${ q }\n");
        const QString suite =
            write(QStringLiteral("exp/suite.yaml"),
                  "name: qa\ndataset: qa.jsonl\ntarget: target.pdl\nconcurrency: 1\n"
                  "judge_model: openai/gpt-4o-mini\n"
                  "evaluators:\n  - {type: criteria, criteria: {short: is it short}}\n");
        for (int i = 0; i < 4; ++i)
            m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Fine.\nY"), 2, 1));
        const HakoOutcome e =
            runHako({QStringLiteral("eval"), QStringLiteral("--trust"), QStringLiteral("--store"),
                     m_dir.filePath(QStringLiteral("exp/eval.sqlite")), QStringLiteral("--log"),
                     m_log, suite});
        QVERIFY2(e.exitCode == 0 || e.exitCode == 1, qPrintable(e.out + e.err));
        // The program's own run, and the playground (as the workbench composes it).
        QVERIFY(
            run(write(QStringLiteral("exp/own.pdl"), "model: openai/gpt-4o-mini\ninput: hello\n"),
                1, 1, 1));
        {
            QString error;
            std::shared_ptr<PromptLog> log(PromptLog::open(m_log, &error));
            QVERIFY2(log, qPrintable(error));
            hako::RunEnvironment env;
            env.baseFolder = m_dir.path();
            env.promptLog = log;
            env.runLog.origin = CallOrigin::Playground;
            auto provider = env.composeProvider({QStringLiteral("playground")});
            QVERIFY(provider.ok());
            m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("hi"), 1, 1));
            hako::models::ChatRequest request;
            request.model = "openai/gpt-4o-mini";
            hako::pdl::Dict m;
            m.set("role", hako::pdl::Value("user"));
            m.set("content", hako::pdl::Value("hi"));
            request.messages.push_back(hako::pdl::Value(std::move(m)));
            request.site.promptName = "playground";
            QVERIFY((*provider)->chat(request, {}, {}).ok());
            QVERIFY(log->flush());
        }
        const QList<QPair<QString, int>> expected = {{QStringLiteral("experiment"), 2},
                                                     {QStringLiteral("judge"), 2},
                                                     {QStringLiteral("program"), 1},
                                                     {QStringLiteral("playground"), 1}};
        for (const auto& [origin, calls] : expected) {
            const QJsonArray rows = stats({QStringLiteral("--by"), QStringLiteral("prompt"),
                                           QStringLiteral("--origin"), origin});
            int sum = 0;
            for (const QJsonValue& v : rows)
                sum += v.toObject().value(QStringLiteral("calls")).toInt();
            QVERIFY2(sum == calls, qPrintable(origin));
            const HakoOutcome listed =
                runHako({QStringLiteral("log"), QStringLiteral("list"), QStringLiteral("--db"),
                         m_log, QStringLiteral("--origin"), origin, QStringLiteral("--json")});
            const QJsonArray calls_ = QJsonDocument::fromJson(listed.out.toUtf8()).array();
            QCOMPARE(calls_.size(), calls);
            for (const QJsonValue& v : calls_)
                QCOMPARE(v.toObject().value(QStringLiteral("origin")).toString(), origin);
        }
        // The experiment's calls are the target's prompt, with its name.
        const QJsonArray target = stats({QStringLiteral("--by"), QStringLiteral("prompt"),
                                         QStringLiteral("--origin"), QStringLiteral("experiment")});
        QCOMPARE(target.size(), 1);
        QCOMPARE(target.at(0).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("target › answer"));
        const HakoOutcome bad =
            runHako({QStringLiteral("log"), QStringLiteral("list"), QStringLiteral("--db"), m_log,
                     QStringLiteral("--origin"), QStringLiteral("nowhere")});
        QCOMPARE(bad.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestPromptIdentityCli)
#include "tst_promptidentitycli.moc"
