// Token counts for the Prompt view's length counters: asked of the model's own server
// (`POST /tokenize`, as llama.cpp's server and vLLM answer it) on this machine only, cached,
// one request per model at a time, and a server without a tokenizer asked once.

#include "core/models/modelcatalog.h"
#include "core/models/openaiprovider.h"
#include "core/models/tokencounter.h"
#include "openaitestserver.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::models;
using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;
using json = nlohmann::json;

namespace {

EndpointConfig endpointFor(const OpenAiTestServer& server)
{
    EndpointConfig config;
    config.name = QStringLiteral("test");
    config.baseUrl = server.baseUrl();
    config.apiKey = QStringLiteral("sk-tok-SECRET");
    config.idleTimeoutMs = 400; // a silent server fails the count soon
    return config;
}

int tokenizeRequests(const OpenAiTestServer& server)
{
    int n = 0;
    for (const auto& r : server.requests())
        n += r.path == "/tokenize" ? 1 : 0;
    return n;
}

} // namespace

class TestTokenCounter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // no user model settings
        qunsetenv("OPENAI_API_KEY");
    }

    // llama.cpp's server: `{"tokens": [...]}` for `content`, at the server's root.
    void llamaCppReply()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueue("/tokenize", ScriptedReply::withBody(R"({"tokens":[12,345,6789,10]})"));
        OpenAiProvider provider(endpointFor(server));
        const QString text = QStringLiteral("日本語で要約してください");
        const Result<int> n = provider.countTokens("tiny", text, CancelToken());
        QVERIFY2(n.ok(), qPrintable(n.ok() ? QString() : n.error().message));
        QCOMPARE(*n, 4);
        QCOMPARE(tokenizeRequests(server), 1);
        const auto request = server.requests().constLast();
        QCOMPARE(request.method, QByteArray("POST"));
        const json body = json::parse(request.body.toStdString());
        QCOMPARE(QString::fromStdString(body["content"].get<std::string>()), text);
        QCOMPARE(QString::fromStdString(body["prompt"].get<std::string>()), text);
        QCOMPARE(body["model"].get<std::string>(), std::string("tiny"));
        QCOMPARE(body["add_special_tokens"].get<bool>(), false);
        // The endpoint's key goes to its own server, as for a chat call.
        QCOMPARE(request.header("authorization"), QByteArray("Bearer sk-tok-SECRET"));
    }

    // vLLM: `{"count": n, "max_model_len": …, "tokens": […]}`; the count wins.
    void vllmReply()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueue("/tokenize", ScriptedReply::withBody(
                                        R"({"count":7,"max_model_len":4096,"tokens":[1,2,3]})"));
        OpenAiProvider provider(endpointFor(server));
        const Result<int> n = provider.countTokens("tiny", QStringLiteral("hello"), CancelToken());
        QVERIFY(n.ok());
        QCOMPARE(*n, 7);
    }

    // What is not a count is an error, never a made-up number; nothing hangs.
    void badReplies_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("no tokenizer (404)") << 0;
        QTest::newRow("not JSON") << 1;
        QTest::newRow("count is text") << 2;
        QTest::newRow("negative count") << 3;
        QTest::newRow("neither field") << 4;
        QTest::newRow("garbled response") << 5;
        QTest::newRow("silent server") << 6;
        QTest::newRow("server error") << 7;
    }
    void badReplies()
    {
        QFETCH(int, kind);
        OpenAiTestServer server;
        QVERIFY(server.start());
        ScriptedReply reply;
        switch (kind) {
        case 0:
            break; // the test server answers 404 for a path it does not serve
        case 1:
            reply = ScriptedReply::badJson();
            break;
        case 2:
            reply = ScriptedReply::withBody(R"({"count":"seven"})");
            break;
        case 3:
            reply = ScriptedReply::withBody(R"({"count":-3})");
            break;
        case 4:
            reply = ScriptedReply::withBody(R"({"ids":[1,2]})");
            break;
        case 5:
            reply.raw = {QByteArray("HTTP/1.1 2oo OK\r\n\r\n")};
            break;
        case 6:
            reply = ScriptedReply::withBody(R"({"count":1})");
            reply.delayMs = 20000;
            break;
        case 7:
            reply = ScriptedReply::error(500, QStringLiteral("tokenizer crashed"));
            break;
        }
        if (kind != 0)
            server.enqueue("/tokenize", reply);
        OpenAiProvider provider(endpointFor(server));
        const Result<int> n = provider.countTokens("tiny", QStringLiteral("hello"), CancelToken());
        QVERIFY(!n.ok());
        QVERIFY(!n.error().message.isEmpty());
        QVERIFY(!n.error().message.contains(QLatin1String("SECRET")));
        QCOMPARE(tokenizeRequests(server), 1); // asked once, never again by itself
    }

    // The counter: asks in the background, caches, one request per model at a time (the newest
    // text waiting replaces older ones), and remembers a server without a tokenizer.
    void counterCachesAndCoalesces()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        for (int i = 0; i < 10; ++i)
            server.enqueue("/tokenize", ScriptedReply::withBody(R"({"tokens":[1,2,3]})"));
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        TokenCounter counter;
        QSignalSpy counted(&counter, &TokenCounter::counted);
        const QString dir = QDir::tempPath();
        const QString model = QStringLiteral("openai/tiny");
        QCOMPARE(counter.count(dir, model, QStringLiteral("a")), std::nullopt);
        // Typed on while the first is asked: only the newest of these is sent next.
        QCOMPARE(counter.count(dir, model, QStringLiteral("ab")), std::nullopt);
        QCOMPARE(counter.count(dir, model, QStringLiteral("abc")), std::nullopt);
        QTRY_COMPARE(counted.count(), 2);
        QCOMPARE(tokenizeRequests(server), 2);
        QCOMPARE(counter.count(dir, model, QStringLiteral("a")), std::optional<int>(3));
        QCOMPARE(counter.count(dir, model, QStringLiteral("abc")), std::optional<int>(3));
        // The model was resolved once: its server is asked again without reading the settings.
        qunsetenv("OPENAI_BASE_URL");
        QCOMPARE(counter.count(dir, model, QStringLiteral("ab")), std::nullopt); // never sent
        QTRY_COMPARE(counted.count(), 3);
        QCOMPARE(counter.count(dir, model, QStringLiteral("ab")), std::optional<int>(3));
        QVERIFY(counter.knowsTokens(dir, model));
        QCOMPARE(tokenizeRequests(server), 3);
        const QByteArray sent = server.requests().constLast().body;
        QVERIFY(sent.contains("\"model\":\"tiny\"")); // the name the server knows
    }

    void serverWithoutTokenizerIsAskedOnce()
    {
        OpenAiTestServer server; // answers 404 for /tokenize
        QVERIFY(server.start());
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        TokenCounter counter;
        QSignalSpy counted(&counter, &TokenCounter::counted);
        const QString dir = QDir::tempPath();
        const QString model = QStringLiteral("openai/plain");
        QCOMPARE(counter.count(dir, model, QStringLiteral("one")), std::nullopt);
        QTRY_COMPARE(counted.count(), 1);
        QVERIFY(!counter.knowsTokens(dir, model));
        QCOMPARE(counter.count(dir, model, QStringLiteral("two")), std::nullopt);
        QCOMPARE(counter.count(dir, model, QStringLiteral("three")), std::nullopt);
        QCOMPARE(tokenizeRequests(server), 1);
        // Some time later it is asked again (a tokenizer may have been started since).
        counter.setRetryAfterMs(0);
        QCOMPARE(counter.count(dir, model, QStringLiteral("five")), std::nullopt);
        QTRY_COMPARE(counted.count(), 2);
        QCOMPARE(tokenizeRequests(server), 2);
        counter.setRetryAfterMs(60000);
        // After the settings change it is asked again.
        ModelCatalog catalog; // the settings' own invalidation reaches a counter listening to it
        connect(&catalog, &ModelCatalog::invalidated, &counter, &TokenCounter::invalidate);
        catalog.invalidate();
        QCOMPARE(counter.count(dir, model, QStringLiteral("four")), std::nullopt);
        QTRY_COMPARE(counted.count(), 3);
        QCOMPARE(tokenizeRequests(server), 3);
        qunsetenv("OPENAI_BASE_URL");
    }

    // A draft is not sent to a remote service to be counted: only servers on this machine.
    void remoteServersAreNotAsked()
    {
        const Result<ResolvedModel> n = [] {
            qputenv("OPENAI_BASE_URL", "https://api.example.com/v1");
            auto r = TokenCounter::resolveLocal(QDir::tempPath(), QStringLiteral("openai/x"));
            qunsetenv("OPENAI_BASE_URL");
            return r;
        }();
        QVERIFY(!n.ok());
        QVERIFY(n.error().message.contains(QLatin1String("local servers only")));
    }
};

QTEST_GUILESS_MAIN(TestTokenCounter)
#include "tst_tokencounter.moc"
