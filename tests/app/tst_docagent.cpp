// The document agent example (resources/examples/document_agent.pdl) end to end: `hako run
// --document` against the local OpenAI-compatible test server with scripted model replies.
// Checks the commands the game executed, their costs, the memo and window the model is shown,
// and that the run stops at `answer` (or after max_turns).
#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;

class TestDocAgent : public QObject {
    Q_OBJECT

    std::unique_ptr<OpenAiTestServer> m_server;
    QTemporaryDir m_dir;
    QString m_text;

    static QString example()
    {
        return QStringLiteral(HAKO_SOURCE_DIR "/resources/examples/document_agent.pdl");
    }

    // The user message of chat request `i` (the prompt the model saw that turn).
    QString userPrompt(int i) const
    {
        const QList<hako::testing::RecordedRequest> all = m_server->requests();
        int seen = 0;
        for (const auto& r : all) {
            if (r.path != "/v1/chat/completions")
                continue;
            if (seen++ != i)
                continue;
            const QJsonArray messages = QJsonDocument::fromJson(r.body)
                                            .object()
                                            .value(QStringLiteral("messages"))
                                            .toArray();
            for (const QJsonValue& m : messages) {
                if (m.toObject().value(QStringLiteral("role")).toString() == QLatin1String("user"))
                    return m.toObject().value(QStringLiteral("content")).toString();
            }
        }
        return {};
    }

    int chatRequests() const
    {
        int n = 0;
        for (const auto& r : m_server->requests())
            n += r.path == "/v1/chat/completions";
        return n;
    }

    static ScriptedReply turn(const QString& memo, const QString& command)
    {
        return ScriptedReply::chat(QStringLiteral("Memo: %1\n```\n%2\n```").arg(memo, command));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFile::exists(example()));
        // 180 lines: the station is named on lines 100 and 176, the time on line 177, and no
        // line names both the station and ジョバンニ.
        QStringList lines;
        for (int i = 1; i <= 180; ++i) {
            if (i == 100)
                lines << QStringLiteral("白鳥の停車場の話を聞きました。");
            else if (i == 176)
                lines << QStringLiteral("「もうじき白鳥の停車場だねえ。」");
            else if (i == 177)
                lines << QStringLiteral("「ああ、十一時かっきりには着くんだよ。」");
            else
                lines << QStringLiteral("ジョバンニは丘を走りました。その%1").arg(i);
        }
        m_text = m_dir.filePath(QStringLiteral("story.txt"));
        QFile f(m_text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(lines.join(QLatin1Char('\n')).toUtf8() + '\n');
    }

    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test");
        qunsetenv("LITELLM_PROXY_API_BASE");
        QVERIFY(QDir::setCurrent(m_dir.path()));
    }
    void cleanup() { m_server.reset(); }

    void playsTheSeedGameAndStopsAtAnswer()
    {
        // The seed's worked example: 5 + 5 + 3 + 1 = 14.
        m_server->enqueueChat(
            turn(QStringLiteral("nothing yet"), QStringLiteral("search 白鳥の停車場 ジョバンニ")));
        m_server->enqueueChat(
            turn(QStringLiteral("both words never meet"), QStringLiteral("search 白鳥の停車場")));
        m_server->enqueueChat(
            turn(QStringLiteral("line176 is about arriving"), QStringLiteral("show 176 177 178")));
        m_server->enqueueChat(
            turn(QStringLiteral("they arrive at eleven"), QStringLiteral("answer 十一時")));
        // Never asked for: the game is over after `answer`.
        m_server->enqueueChat(turn(QStringLiteral("too late"), QStringLiteral("search 余計")));

        const HakoOutcome r =
            runHako({QStringLiteral("run"), QStringLiteral("--document"), m_text, example()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QStringList expected{
            QStringLiteral("> search 白鳥の停車場 ジョバンニ   [cost 5, total 5]"),
            QStringLiteral("> search 白鳥の停車場   [cost 5, total 10]"),
            QStringLiteral("> show 176 177 178   [cost 3, total 13]"),
            QStringLiteral("> answer 十一時   [cost 1, total 14]"),
            QStringLiteral("Answer: 十一時 Total cost: 14"),
        };
        QCOMPARE(r.out.trimmed().split(QLatin1Char('\n')), expected);
        QCOMPARE(chatRequests(), 4);

        // What the model was shown: the question, its memo, the outputs of its commands.
        QVERIFY(userPrompt(0).contains(QStringLiteral("Memo: (empty)")));
        QVERIFY(userPrompt(0).contains(QStringLiteral("Cost so far: 0")));
        const QString second = userPrompt(1);
        QVERIFY2(second.contains(QStringLiteral("Memo: nothing yet")), qPrintable(second));
        QVERIFY(second.contains(QStringLiteral("Not found.")));
        QVERIFY(second.contains(QStringLiteral("Cost so far: 5")));
        const QString third = userPrompt(2);
        QVERIFY2(third.contains(QStringLiteral("line176: 「もうじき**白鳥の停車場**だねえ。」……")),
                 qPrintable(third));
        QVERIFY(third.contains(QStringLiteral("line100: ")));
        QVERIFY(third.contains(QStringLiteral("[page1/1]")));
        // Only the last two commands are shown again: the first one has left the window.
        const QString fourth = userPrompt(3);
        QVERIFY2(
            fourth.contains(QStringLiteral("line177: 「ああ、十一時かっきりには着くんだよ。」")),
            qPrintable(fourth));
        QVERIFY(fourth.contains(QStringLiteral("> search 白鳥の停車場\n")));
        QVERIFY(!fourth.contains(QStringLiteral("ジョバンニ\n")));
        QVERIFY(!fourth.contains(QStringLiteral("Not found.")));
        QVERIFY(fourth.contains(QStringLiteral("Memo: line176 is about arriving")));
        QVERIFY(fourth.contains(QStringLiteral("Cost so far: 13")));
    }

    void memoIsBoundedAndTurnsAreLimited()
    {
        // A model that never answers and writes an ever longer memo.
        const QString longMemo = QString(1000, QChar(u'あ'));
        m_server->enqueueChat(turn(longMemo, QStringLiteral("search ジョバンニ")));
        m_server->enqueueChat(turn(longMemo + longMemo, QStringLiteral("show 1")));
        // The third turn gets the server's own echo reply: not a command.
        const HakoOutcome r =
            runHako({QStringLiteral("run"), QStringLiteral("--document"), m_text,
                     QStringLiteral("-d"), QStringLiteral("{max_turns: 3}"), example()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QCOMPARE(chatRequests(), 3);
        QVERIFY2(r.out.contains(QStringLiteral("No answer after 3 turns. Total cost: 6")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("[cost 0, total 6]"))); // Unknown command.
        for (int i = 1; i < 3; ++i) {
            const QString prompt = userPrompt(i);
            QVERIFY(prompt.contains(QStringLiteral("Memo: ") + QString(300, QChar(u'あ'))));
            QVERIFY(!prompt.contains(QString(301, QChar(u'あ'))));
            // The prompt stays the same size: memo, two commands, 600 characters of output.
            QVERIFY2(prompt.size() < 2500, qPrintable(QString::number(prompt.size())));
        }
    }

    void missingDocumentIsReported()
    {
        const HakoOutcome r = runHako({QStringLiteral("run"), QStringLiteral("--document"),
                                       m_dir.filePath(QStringLiteral("none.txt")), example()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("none.txt")), qPrintable(r.err));
        QCOMPARE(chatRequests(), 0);
    }
};

QTEST_GUILESS_MAIN(TestDocAgent)
#include "tst_docagent.moc"
