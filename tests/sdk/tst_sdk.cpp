// The C++ API for host programs (sdk/include/hako/pdl.h), as a host program uses it.

#include "hako/pdl.h"

#include "openaitestserver.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <mutex>

using hako::sdk::Event;
using hako::sdk::Json;
using hako::sdk::RunOptions;
using hako::sdk::RunOutcome;

// QCOMPARE cannot take JSON values (its overloads make nlohmann::json consider Qt's types).
#define COMPARE_JSON(actual, expected)                                                             \
    QVERIFY2(Json(actual) == Json(expected),                                                       \
             (Json(actual).dump() + " != " + Json(expected).dump()).c_str())

namespace {

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestSdk : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_config.isValid());
        // The trusted folders and model settings a run reads: this test's own, empty.
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
        qputenv("HOME", m_config.path().toUtf8());
    }

    void aStringRunsWithTheHostsVariables()
    {
        RunOptions options;
        options.scope = {{"name", "世界"}, {"n", 3}};
        const RunOutcome out = hako::sdk::runString(
            "text:\n- \"こんにちは、${ name }\"\n- def: doubled\n  data: ${ n * 2 }\n", options);
        QVERIFY2(out.ok, out.error.c_str());
        QCOMPARE(QString::fromStdString(out.text), QStringLiteral("こんにちは、世界6"));
        COMPARE_JSON(out.result, Json("こんにちは、世界6"));
        COMPARE_JSON(out.scope.at("doubled"), Json(6));
        COMPARE_JSON(out.scope.at("name"), Json("世界"));
        QVERIFY(out.context.is_array());
        QVERIFY(out.context.size() == 2);
        COMPARE_JSON(out.context.at(0).at("content"), Json("こんにちは、世界"));
    }

    void structuredResultsComeBackAsJson()
    {
        const RunOutcome out =
            hako::sdk::runString("data:\n  a: [1, 2.5, true, null]\n  b: {c: x}\n");
        QVERIFY2(out.ok, out.error.c_str());
        COMPARE_JSON(out.result, Json::parse(R"({"a": [1, 2.5, true, null], "b": {"c": "x"}})"));
        // Keys keep the program's order.
        QVERIFY(out.result.begin().key() == "a");
    }

    void aFileReadsBesideItself()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("data.txt")), "from the file");
        writeFile(dir.filePath(QStringLiteral("p.pdl")), "read: data.txt\n");
        const RunOutcome out =
            hako::sdk::runFile(dir.filePath(QStringLiteral("p.pdl")).toStdString());
        QVERIFY2(out.ok, out.error.c_str());
        QVERIFY2(out.text == "from the file", out.text.c_str());
    }

    void errorsSayWhere()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.pdl"));
        writeFile(path, "text:\n- hello\n- ${ 1 / 0 }\n");
        const RunOutcome failed = hako::sdk::runFile(path.toStdString());
        QVERIFY(!failed.ok);
        QVERIFY2(QString::fromStdString(failed.error).contains(QStringLiteral("division")),
                 failed.error.c_str());
        QCOMPARE(failed.errorLine, 3);
        QVERIFY(QString::fromStdString(failed.errorFile).endsWith(QStringLiteral("bad.pdl")));

        const RunOutcome unparsable = hako::sdk::runString("text: [unclosed\n");
        QVERIFY(!unparsable.ok);
        QVERIFY(unparsable.errorLine >= 1);
        QVERIFY(QString::fromStdString(unparsable.error).contains(QStringLiteral("<string>")));
        QVERIFY(!hako::sdk::runFile("/no/such/program.pdl").ok);
    }

    void codeFromAnUntrustedFolderIsRefusedUnlessTrusted()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("code.pdl"));
        writeFile(path, "lang: python\ncode: result = 40 + 2\n");
        const RunOutcome refused = hako::sdk::runFile(path.toStdString());
        QVERIFY(!refused.ok);
        QVERIFY2(QString::fromStdString(refused.error).contains(QStringLiteral("Python")),
                 refused.error.c_str());
        QVERIFY(QString::fromStdString(refused.error).contains(QStringLiteral("trusted")));

        RunOptions trusted;
        trusted.trusted = true;
        const RunOutcome ran = hako::sdk::runFile(path.toStdString(), trusted);
        QVERIFY2(ran.ok, ran.error.c_str());
        COMPARE_JSON(ran.result, Json(42));
    }

    void eventsFollowTheRunAndCancelStopsIt()
    {
        RunOptions options;
        options.cancellation = std::make_shared<hako::sdk::Cancellation>();
        std::atomic<int> started = 0;
        options.onEvent = [&](const Event& e) {
            if (e.kind == Event::Kind::BlockStarted && ++started == 50)
                options.cancellation->cancel();
        };
        // Endless unless stopped.
        const RunOutcome out = hako::sdk::runString(
            "repeat:\n  data: x\nuntil: ${ false }\nmaxIterations: 100000000\n", options);
        QVERIFY(!out.ok);
        QVERIFY(options.cancellation->cancelled());
        QVERIFY(started >= 50);
    }

    void modelRepliesStreamToTheHost()
    {
        hako::testing::OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueueChat(hako::testing::ScriptedReply::chatStream({"晴れ", "です"}));
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("hako-models.yaml")),
                  "endpoints:\n  lab:\n    base_url: " + server.baseUrl().toUtf8() +
                      "\nmodels:\n  \"lab/*\": lab\n");
        writeFile(dir.filePath(QStringLiteral("m.pdl")),
                  "text:\n- 天気は?\n- model: lab/m\n  parameters: {stream: true}\n");
        RunOptions options;
        options.trusted = true; // the folder's own endpoint
        options.logCalls = false;
        options.trace = true;
        std::mutex lock;
        std::string streamed;
        options.onEvent = [&](const Event& e) {
            if (e.kind == Event::Kind::ModelText) {
                std::lock_guard<std::mutex> guard(lock);
                streamed += e.text;
            }
        };
        const RunOutcome out =
            hako::sdk::runFile(dir.filePath(QStringLiteral("m.pdl")).toStdString(), options);
        QVERIFY2(out.ok, out.error.c_str());
        QCOMPARE(QString::fromStdString(out.text), QStringLiteral("天気は?晴れです"));
        QCOMPARE(QString::fromStdString(streamed), QStringLiteral("晴れです"));
        QCOMPARE(server.requestCount(), 1);
        COMPARE_JSON(out.trace.at("kind"), Json("text"));
    }

private:
    QTemporaryDir m_config;
};

QTEST_GUILESS_MAIN(TestSdk)
#include "tst_sdk.moc"
