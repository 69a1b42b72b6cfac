// `hako run` records every model call in the prompt log: a run against the local
// OpenAI-compatible test server stores exactly the messages the server received, the usage it
// reported, the prompt's name and the run's tags; the stats' sums equal the server's replies.
#include "core/promptlog/promptlog.h"
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
using hako::Result;

class TestRunLogging : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OpenAiTestServer> m_server;
    QTemporaryDir m_dir;

    QString writeProgram(const QByteArray& text)
    {
        QFile f(m_dir.filePath(QStringLiteral("summary.pdl")));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return f.fileName();
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-SECRET-4242");
        qputenv("OLLAMA_API_BASE", "http://127.0.0.1:1");
        qputenv("HAKO_TAGS", "team:docs");
        QVERIFY(QDir::setCurrent(m_dir.path()));
    }
    void cleanup()
    {
        m_server.reset();
        qunsetenv("HAKO_TAGS");
    }

    void everyCallIsLoggedAsTheServerReceivedIt()
    {
        const QString program = writeProgram("description: Summaries\n"
                                             "defs:\n"
                                             "  topic: cats\n"
                                             "text:\n"
                                             "- 'Write about ${ topic }.'\n"
                                             "- model: openai/gpt-4o-mini\n"
                                             "  def: summary\n"
                                             "  parameters: {temperature: 0}\n"
                                             "- model: openai/gpt-4o-mini\n"
                                             "  input: Now in Japanese.\n");
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Cats are calm."), 11, 4));
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("猫は穏やかです。"), 17, 6));
        const QString logFile = m_dir.filePath(QStringLiteral("log.sqlite"));
        const HakoOutcome r =
            runHako({QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none"),
                     QStringLiteral("--log"), logFile, QStringLiteral("--tag"),
                     QStringLiteral("env:test"), program});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        QString error;
        auto log = PromptLog::open(logFile, &error);
        QVERIFY2(log, qPrintable(error));
        CallFilter oldest;
        oldest.oldestFirst = true;
        Result<QList<CallRecord>> calls = log->list(oldest, true);
        QVERIFY2(calls.ok(), calls.ok() ? "" : qPrintable(calls.error().message));
        QCOMPARE(calls->size(), 2);
        const QList<hako::testing::RecordedRequest> received = m_server->requests();
        QCOMPARE(received.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const CallRecord& call = calls->at(i);
            const QJsonObject sent = QJsonDocument::fromJson(received.at(i).body).object();
            // The messages exactly as the server received them.
            QCOMPARE(call.messages, sent[QStringLiteral("messages")].toArray());
            QCOMPARE(call.model, QStringLiteral("openai/gpt-4o-mini"));
            // Which model answered: the name sent to the endpoint, and the server's own.
            QCOMPARE(call.resolvedModel, QStringLiteral("gpt-4o-mini"));
            QCOMPARE(call.responseModel, QStringLiteral("test-model"));
            QCOMPARE(call.status, CallStatus::Ok);
            QCOMPARE(call.tags,
                     (QStringList{QStringLiteral("team:docs"), QStringLiteral("env:test")}));
            QCOMPARE(call.programPath, QFileInfo(program).absoluteFilePath());
            QVERIFY(!call.programHash.isEmpty());
            QVERIFY(call.latencyMs.has_value());
            QCOMPARE(call.runId, calls->at(0).runId);
            // Never a key, anywhere in the record.
            QVERIFY(!QJsonDocument(call.toJson()).toJson().contains("SECRET"));
        }
        QCOMPARE(calls->at(0).promptName, QStringLiteral("summary"));
        QCOMPARE(calls->at(0).reply, QStringLiteral("Cats are calm."));
        QCOMPARE(calls->at(0).promptTokens, std::optional<int64_t>(11));
        QCOMPARE(calls->at(0).completionTokens, std::optional<int64_t>(4));
        QCOMPARE(calls->at(0).parameters.value(QStringLiteral("temperature")).toInt(), 0);
        QCOMPARE(calls->at(0).span.line, 6);
        // Neither a description nor a def: the program's name and the block's ordinal.
        QCOMPARE(calls->at(1).promptName, QStringLiteral("Summaries #2"));
        QCOMPARE(calls->at(0).programName, QStringLiteral("Summaries"));
        QCOMPARE(calls->at(0).origin, CallOrigin::Program);
        // No ids written in the file: derived ones, the same program for both blocks.
        QVERIFY(calls->at(0).promptId.startsWith(QLatin1Char('~')));
        QVERIFY(calls->at(0).promptId != calls->at(1).promptId);
        QCOMPARE(calls->at(0).programId, calls->at(1).programId);
        QCOMPARE(calls->at(1).reply, QStringLiteral("猫は穏やかです。"));

        // The monitor's table: its sums are the server's.
        Result<QList<StatsRow>> byModel = log->stats(StatsGroup::Model);
        QVERIFY(byModel.ok());
        QCOMPARE(byModel->size(), 1);
        // Grouped under the model that answered, not the name in the program.
        QCOMPARE(byModel->at(0).key, QStringLiteral("test-model"));
        QCOMPARE(byModel->at(0).calls, 2);
        QCOMPARE(byModel->at(0).tokensIn, 11 + 17);
        QCOMPARE(byModel->at(0).tokensOut, 4 + 6);

        // `hako log` finds them by tag.
        const HakoOutcome listed =
            runHako({QStringLiteral("log"), QStringLiteral("list"), QStringLiteral("--db"), logFile,
                     QStringLiteral("--tag"), QStringLiteral("env:test")});
        QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
        QVERIFY2(listed.out.contains(QLatin1String("summary")), qPrintable(listed.out));
    }

    void foldersTagTheirPrograms()
    {
        // The user's settings tag every run of a program inside a folder; the program itself
        // stays plain PDL.
        QTemporaryDir config;
        const QString folder = config.filePath(QStringLiteral("Hako/Hako"));
        QVERIFY(QDir().mkpath(folder));
        QFile settings(folder + QStringLiteral("/promptlog.json"));
        QVERIFY(settings.open(QIODevice::WriteOnly));
        settings.write(
            QJsonDocument(
                QJsonObject{{QStringLiteral("folder_tags"),
                             QJsonObject{{m_dir.path(), QJsonArray{QStringLiteral("project:sum")}},
                                         {QStringLiteral("/elsewhere"),
                                          QJsonArray{QStringLiteral("other")}}}}})
                .toJson());
        settings.close();
        qputenv("XDG_CONFIG_HOME", config.path().toUtf8());
        const QString program = writeProgram("text:\n- model: openai/gpt-4o-mini\n  input: Hi\n");
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Hello.")));
        const QString logFile = m_dir.filePath(QStringLiteral("tagged.sqlite"));
        const HakoOutcome r =
            runHako({QStringLiteral("run"), QStringLiteral("--log"), logFile,
                     QStringLiteral("--tag"), QStringLiteral("env:test"), program});
        qunsetenv("XDG_CONFIG_HOME");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto log = PromptLog::open(logFile);
        QVERIFY(log);
        Result<QList<CallRecord>> calls = log->list(CallFilter());
        QVERIFY(calls.ok());
        QCOMPARE(calls->size(), 1);
        QCOMPARE(calls->at(0).tags,
                 (QStringList{QStringLiteral("project:sum"), QStringLiteral("team:docs"),
                              QStringLiteral("env:test")}));
    }

    void noLogRecordsNothing()
    {
        const QString program = writeProgram("text:\n- model: openai/gpt-4o-mini\n  input: Hi\n");
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Hello.")));
        const QString logFile = m_dir.filePath(QStringLiteral("unused.sqlite"));
        const HakoOutcome r = runHako({QStringLiteral("run"), QStringLiteral("--no-log"),
                                       QStringLiteral("--log"), logFile, program});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(!QFile::exists(logFile));
    }
};

QTEST_GUILESS_MAIN(TestRunLogging)
#include "tst_runlogging.moc"
