// Model servers that misbehave, against the fault-injecting test server: replies too large or
// never ending, a server that drips, garbled or reset connections (a POST is sent once),
// malformed fields, control characters in error bodies, malformed embeddings; and the API key:
// redacted however it is split, never sent to another base_url, never given to an untrusted
// workspace's endpoints, never written to a trace.

#include "core/models/modelconfig.h"
#include "core/models/modelrouter.h"
#include "core/models/openaiprotocol.h"
#include "core/models/openaiprovider.h"
#include "core/pdl/code/codetrust.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/tracewriter.h"
#include "openaitestserver.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::models;
using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;
using json = nlohmann::ordered_json;

namespace {

const char* kKey = "sk-test-SECRET-0123456789";

QByteArray chunk(const json& delta, const json& finish = nullptr)
{
    return QByteArray::fromStdString(json{
        {"id", "c1"},
        {"model", "m"},
        {"choices", json::array({json{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}}
                                         .dump());
}

QByteArray chatBody(const json& message)
{
    return QByteArray::fromStdString(
        json{{"id", "x"},
             {"object", "chat.completion"},
             {"choices", json::array({json{{"index", 0}, {"message", message}}})}}
            .dump());
}

/// No control character but tab and line feed: safe to print on a terminal.
bool printable(const QString& s)
{
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        if ((u < 0x20 && u != '\t' && u != '\n') || (u >= 0x7f && u < 0xa0))
            return false;
    }
    return true;
}

} // namespace

class TestModelFaults : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OpenAiTestServer> m_server;
    QTemporaryDir m_config;

    EndpointConfig config() const
    {
        EndpointConfig c;
        c.name = QStringLiteral("test");
        c.baseUrl = m_server->baseUrl();
        c.apiKey = QString::fromLatin1(kKey);
        c.retryBaseDelayMs = 1;
        c.retryMaxDelayMs = 20;
        return c;
    }

    ChatRequest request(bool stream = false) const
    {
        ChatRequest r;
        r.model = "test-model";
        r.messages = {pdl::Value(pdl::Dict{{"role", "user"}, {"content", pdl::Value("hi")}})};
        r.stream = stream;
        return r;
    }

    Result<ChatResponse> chat(const EndpointConfig& c, bool stream, std::string* streamed = nullptr)
    {
        OpenAiProvider provider(c);
        return provider.chat(
            request(stream),
            [&](std::string_view d) {
                if (streamed)
                    *streamed += d;
            },
            CancelToken());
    }

private Q_SLOTS:
    void initTestCase()
    {
        // The code trust store lives in the user's settings: keep this test's own.
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("HakoTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_modelfaults"));
    }

    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
    }
    void cleanup() { m_server.reset(); }

    // --- size, time ---------------------------------------------------------------------------

    void replyLargerThanTheLimitIsStopped()
    {
        ScriptedReply huge;
        huge.hugeBodyBytes = 4LL * 1024 * 1024 * 1024; // 4 GB announced and sent on demand
        m_server->enqueueChat(huge);
        EndpointConfig c = config();
        c.maxReplyBytes = 2 * 1024 * 1024;
        const Result<ChatResponse> r = chat(c, false);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("larger than 2 MB")),
                 qPrintable(r.error().message));
        QVERIFY(r.error().message.contains(QLatin1String("max_reply_mb")));
        QCOMPARE(m_server->requestCount(), 1);
    }

    void endlessStreamIsStopped()
    {
        ScriptedReply endless = ScriptedReply::chatStream({QStringLiteral("Once")});
        endless.events = endless.events.mid(0, 2); // role, "Once", then forever "and again"
        endless.endless = true;
        m_server->enqueueChat(endless);
        EndpointConfig c = config();
        c.maxReplyBytes = 1024 * 1024;
        std::string streamed;
        const Result<ChatResponse> r = chat(c, true, &streamed);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("larger than 1 MB")),
                 qPrintable(r.error().message));
        QVERIFY(r.error().message.contains(QLatin1String("a stream that does not end")));
        // What arrived before the limit was streamed, and no more than the limit.
        QVERIFY(streamed.rfind("Once", 0) == 0);
        QVERIFY(streamed.size() < size_t(c.maxReplyBytes));
    }

    // A server that floods an endless stream is stopped at the limit with the connection
    // closed at once: the same provider's next calls are answered (before, the HTTP thread kept
    // reading the flood at full CPU and the next call waited for its connect timeout).
    void afterAStoppedFloodTheNextCallIsAnswered()
    {
        EndpointConfig c = config();
        c.maxReplyBytes = 1024 * 1024;
        OpenAiProvider provider(c);
        for (int i = 0; i < 3; ++i) {
            ScriptedReply endless = ScriptedReply::chatStream({QStringLiteral("Once")});
            endless.events = endless.events.mid(0, 2);
            endless.endless = true;
            m_server->enqueueChat(endless);
            const Result<ChatResponse> r = provider.chat(request(true), {}, CancelToken());
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.contains(QLatin1String("larger than 1 MB")),
                     qPrintable(r.error().message));
        }
        const Result<ChatResponse> next = provider.chat(request(false), {}, CancelToken());
        QVERIFY2(next.ok(), qPrintable(next ? QString() : next.error().message));
        QCOMPARE(m_server->requestCount(), 4);
    }

    void drippingServerHitsTheDeadline()
    {
        ScriptedReply drip = ScriptedReply::chat(QStringLiteral("a long answer, slowly"));
        drip.dripMs = 100; // never silent long enough for the idle timeout
        m_server->enqueueChat(drip);
        EndpointConfig c = config();
        c.idleTimeoutMs = 5000;
        c.deadlineMs = 800;
        const Result<ChatResponse> r = chat(c, false);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("no complete reply within 0.8 s")),
                 qPrintable(r.error().message));
        QVERIFY(r.error().message.contains(QLatin1String("deadline")));
    }

    void deadlineCoversRetries()
    {
        for (int i = 0; i < 5; ++i)
            m_server->enqueueChat(ScriptedReply::error(503, QStringLiteral("busy"), 1));
        EndpointConfig c = config();
        c.maxRetries = 5;
        c.retryMaxDelayMs = 5000;
        c.deadlineMs = 500; // less than the 1 s Retry-After
        const Result<ChatResponse> r = chat(c, false);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("deadline")),
                 qPrintable(r.error().message));
        QCOMPARE(m_server->requestCount(), 1);
    }

    // --- a POST is sent once ----------------------------------------------------------------

    void postIsNeverResentByTheTransport_data()
    {
        QTest::addColumn<int>("fault");
        QTest::newRow("garbled status line") << 0;
        QTest::newRow("not http at all") << 1;
        QTest::newRow("connection reset") << 2;
        QTest::newRow("closed without reply") << 3;
        QTest::newRow("closed mid-headers") << 4;
    }
    void postIsNeverResentByTheTransport()
    {
        QFETCH(int, fault);
        ScriptedReply reply;
        switch (fault) {
        case 0:
            reply.raw = {"HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\n{}"};
            break;
        case 1:
            reply.raw = {"SSH-2.0-OpenSSH_9.2\r\n"};
            break;
        case 2:
            reply.resetImmediately = true;
            break;
        case 3:
            reply.disconnectImmediately = true;
            break;
        case 4:
            reply.raw = {"HTTP/1.1 200 OK\r\nContent-Ty"};
            break;
        }
        m_server->enqueueChat(reply);
        EndpointConfig c = config();
        c.maxRetries = 3;
        // Were the request sent again, the server's default answer would make the call succeed.
        const Result<ChatResponse> r = chat(c, false);
        QVERIFY2(!r.ok(), r ? r->content.c_str() : "");
        QCOMPARE(m_server->requestCount(), 1);
        QVERIFY(printable(r.error().message));
    }

    void hakoRetryPolicyStillRetries()
    {
        m_server->enqueueChat(ScriptedReply::error(502, QStringLiteral("gateway")));
        const Result<ChatResponse> r = chat(config(), false);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(m_server->requestCount(), 2);
    }

    // --- malformed fields -------------------------------------------------------------------

    void malformedFieldsAreLocatedErrors_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QString>("expected");
        QTest::newRow("role 5") << false << chatBody({{"role", 5}, {"content", "x"}})
                                << "choices[0].message.role is a number, expected a string";
        QTest::newRow("tool calls [1, x]")
            << false << chatBody({{"role", "assistant"}, {"tool_calls", json::array({1, "x"})}})
            << "choices[0].message.tool_calls[0] is a number, expected a tool call";
        QTest::newRow("tool call arguments 5")
            << false
            << chatBody({{"role", "assistant"},
                         {"tool_calls",
                          json::array({json{{"id", "1"},
                                            {"function", {{"name", "f"}, {"arguments", 5}}}}})}})
            << "tool_calls[0].function.arguments is a number";
        QTest::newRow("content 5") << false << chatBody({{"role", "assistant"}, {"content", 5}})
                                   << "choices[0].message.content is a number";
        QTest::newRow("part 1") << false
                                << chatBody({{"role", "assistant"}, {"content", json::array({1})}})
                                << "choices[0].message.content[0] is a number";
        QTest::newRow("stream index \"0\"")
            << true << QByteArray(R"({"choices": [{"index": "0", "delta": {"content": "a"}}]})")
            << "choices[0].index is \"0\", expected a non-negative integer";
        QTest::newRow("stream role 5")
            << true << chunk({{"role", 5}}) << "choices[0].delta.role is a number";
        QTest::newRow("stream tool calls [1, x]")
            << true << chunk({{"tool_calls", json::array({1, "x"})}})
            << "choices[0].delta.tool_calls[0] is a number";
        QTest::newRow("stream tool call index \"0\"")
            << true << chunk({{"tool_calls", json::array({json{{"index", "0"}}})}})
            << "choices[0].delta.tool_calls[0].index is \"0\"";
        QTest::newRow("stream choices 5")
            << true << QByteArray(R"({"choices": 5})") << "choices is a number";
    }
    void malformedFieldsAreLocatedErrors()
    {
        QFETCH(bool, stream);
        QFETCH(QByteArray, payload);
        QFETCH(QString, expected);
        if (stream) {
            ScriptedReply r;
            r.events = {payload, chunk(json::object(), "stop"), "[DONE]"};
            m_server->enqueueChat(r);
        } else {
            m_server->enqueueChat(ScriptedReply::withBody(payload));
        }
        const Result<ChatResponse> r = chat(config(), stream);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(expected), qPrintable(r.error().message));
        QVERIFY(r.error().message.contains(QLatin1String("model 'test-model' at test")));
    }

    void contentAsListOfPartsIsText()
    {
        const json parts = json::array({json{{"type", "text"}, {"text", "Hel"}},
                                        json{{"type", "image_url"}, {"image_url", {{"url", "x"}}}},
                                        json{{"type", "text"}, {"text", "lo"}}});
        m_server->enqueueChat(
            ScriptedReply::withBody(chatBody({{"role", "assistant"}, {"content", parts}})));
        Result<ChatResponse> r = chat(config(), false);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->content, std::string("Hello"));
        QCOMPARE(r->message.asDict().find("content")->asString(), std::string("Hello"));

        ScriptedReply streamed;
        streamed.events = {chunk({{"content", parts}}), chunk({{"content", " world"}}),
                           chunk(json::object(), "stop"), "[DONE]"};
        m_server->enqueueChat(streamed);
        std::string deltas;
        r = chat(config(), true, &deltas);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->content, std::string("Hello world"));
        QCOMPARE(deltas, std::string("Hello world"));
    }

    void controlCharactersInErrorBodiesAreEscaped_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("json message")
            << QByteArray("{\"error\": {\"message\": \"bad\\u001b[2J\\u0000after\\u0007\"}}")
            << QStringLiteral("bad\\x1b[2J\\x00after\\x07");
        QByteArray raw("oops");
        raw += char(0x1b);
        raw += "]0;pwned";
        raw += char(0x07);
        raw += char(0);
        raw += "tail";
        QTest::newRow("raw text") << raw << QStringLiteral("oops\\x1b]0;pwned\\x07\\x00tail");
    }
    void controlCharactersInErrorBodiesAreEscaped()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        ScriptedReply reply;
        reply.status = 400;
        reply.body = body;
        m_server->enqueueChat(reply);
        const Result<ChatResponse> r = chat(config(), false);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(expected), qPrintable(r.error().message));
        QVERIFY(printable(r.error().message));
        // Nothing cut at the NUL: what follows it is there.
        QVERIFY(r.error().message.contains(QLatin1String("after")) ||
                r.error().message.contains(QLatin1String("tail")));
    }

    // --- embeddings -------------------------------------------------------------------------

    void malformedEmbeddingsAreErrors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("data [1]") << QByteArray(R"({"data": [1]})")
                                  << "data[0] of the embeddings reply is a number";
        QTest::newRow("index \"0\"")
            << QByteArray(R"({"data": [{"index": "0", "embedding": [1, 2]}]})")
            << "data[0].index of the embeddings reply is \"0\"";
        QTest::newRow("index 7") << QByteArray(R"({"data": [{"index": 7, "embedding": [1, 2]}]})")
                                 << "data[0].index of the embeddings reply is 7";
        QTest::newRow("embedding \"x\"")
            << QByteArray(R"({"data": [{"index": 0, "embedding": "x"}]})")
            << "data[0].embedding of the embeddings reply is not a list";
        QTest::newRow("string in vector")
            << QByteArray(R"({"data": [{"index": 0, "embedding": [1, "2"]}]})")
            << "data[0].embedding holds a string";
        QTest::newRow("too large") << QByteArray(R"({"data": [{"embedding": [1e300, 1]}]})")
                                   << "too large for a similarity score";
        QTest::newRow("overflowing square")
            << QByteArray(R"({"data": [{"embedding": [1e30, 1e30]}]})")
            << "too large for a similarity score";
    }
    void malformedEmbeddingsAreErrors()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        m_server->enqueue("/v1/embeddings", ScriptedReply::withBody(body));
        OpenAiProvider provider(config());
        const auto r = provider.embed("e", {"one"}, CancelToken());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(expected), qPrintable(r.error().message));
    }

    void twoEmbeddingsForOneIndexAreAnError()
    {
        m_server->enqueue("/v1/embeddings",
                          ScriptedReply::withBody(R"({"data": [{"index": 0, "embedding": [1]},
                                                               {"index": 0, "embedding": [2]}]})"));
        OpenAiProvider provider(config());
        const auto r = provider.embed("e", {"one", "two"}, CancelToken());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("index 0 twice")),
                 qPrintable(r.error().message));
    }

    // --- the API key ------------------------------------------------------------------------

    void keySplitAcrossEventsIsRedacted()
    {
        // The key in three deltas, in one event and at the very end of the stream.
        const QString key = QString::fromLatin1(kKey);
        ScriptedReply reply = ScriptedReply::chatStream(
            {QStringLiteral("k=") + key.left(5), key.mid(5, 7), key.mid(12) + QStringLiteral(";"),
             QStringLiteral(" again ") + key, QStringLiteral(" tail ") + key.left(8)});
        m_server->enqueueChat(reply);
        std::string streamed;
        const Result<ChatResponse> r = chat(config(), true, &streamed);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(streamed, std::string("k=[redacted]; again [redacted] tail sk-test-"));
        QCOMPARE(r->content, streamed);
        QVERIFY(!QString::fromStdString(r->raw.json()).contains(key));
        QVERIFY(!QString::fromStdString(r->message.json()).contains(key));
    }

    void keySplitAcrossNetworkReadsIsRedacted()
    {
        const QString key = QString::fromLatin1(kKey);
        ScriptedReply streamed = ScriptedReply::chatStream({QStringLiteral("key ") + key});
        streamed.splitEventsBytes = 7; // every event in 7-byte HTTP chunks and TCP writes
        streamed.eventDelayMs = 2;
        m_server->enqueueChat(streamed);
        std::string deltas;
        Result<ChatResponse> r = chat(config(), true, &deltas);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(deltas, std::string("key [redacted]"));
        QVERIFY(!QString::fromStdString(r->raw.json()).contains(key));

        // A plain reply written in pieces, the key cut between two of them.
        const QByteArray body = ScriptedReply::chat(QStringLiteral("key ") + key).body;
        const qsizetype cut = body.indexOf(kKey) + 6;
        ScriptedReply plain;
        plain.raw = {"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                         QByteArray::number(body.size()) + "\r\n\r\n" + body.left(cut),
                     body.mid(cut)};
        plain.rawDelayMs = 20;
        m_server->enqueueChat(plain);
        r = chat(config(), false);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->content, std::string("key [redacted]"));
    }

    void streamRedactorHoldsBackOnlyWhatCouldBeTheKey()
    {
        openai::StreamRedactor redactor(QStringLiteral("abcab"));
        std::string out;
        for (const char* piece : {"xxab", "ca", "bab", "cabyy", "a"})
            out += redactor.feed(piece);
        out += redactor.finish();
        QCOMPARE(out, std::string("xx[redacted][redacted]yya"));
        openai::StreamRedactor none{QString()};
        QCOMPARE(none.feed("abc"), std::string("abc"));
    }

    void otherBaseUrlGetsNoConfiguredKey()
    {
        OpenAiTestServer elsewhere;
        QVERIFY(elsewhere.start());
        OpenAiProvider provider(config());
        ChatRequest req = request();
        req.parameters.set("base_url", pdl::Value(elsewhere.baseUrl().toStdString()));
        QVERIFY(provider.chat(req, {}, CancelToken()).ok());
        QCOMPARE(elsewhere.requests().at(0).header("authorization"), QByteArray());
        // The block's own key goes with its own base_url.
        req.parameters.set("api_key", pdl::Value("sk-block"));
        QVERIFY(provider.chat(req, {}, CancelToken()).ok());
        QCOMPARE(elsewhere.requests().at(1).header("authorization"), QByteArray("Bearer sk-block"));
        // The configured address written differently is still the configured endpoint.
        ChatRequest same = request();
        same.parameters.set("base_url", pdl::Value(m_server->baseUrl().toStdString() + "/"));
        QVERIFY(provider.chat(same, {}, CancelToken()).ok());
        QCOMPARE(m_server->requests().at(0).header("authorization"), QByteArray("Bearer ") + kKey);
    }

    // Every provider shares the process's one network manager: a cookie a server sets is
    // neither stored nor sent, so nothing one endpoint says travels with another's requests.
    void cookiesAreNeverStoredOrSent()
    {
        ScriptedReply withCookie = ScriptedReply::chat(QStringLiteral("hi"));
        withCookie.headers.append(
            qMakePair(QByteArray("Set-Cookie"), QByteArray("session=secret; Path=/")));
        m_server->enqueueChat(withCookie);
        {
            OpenAiProvider first(config());
            QVERIFY(first.chat(request(), {}, CancelToken()).ok());
            QVERIFY(first.chat(request(), {}, CancelToken()).ok());
        }
        OpenAiProvider second(config());
        QVERIFY(second.chat(request(), {}, CancelToken()).ok());
        const auto requests = m_server->requests();
        QCOMPARE(requests.size(), 3);
        for (const auto& r : requests)
            QCOMPARE(r.header("cookie"), QByteArray());
    }

    void untrustedWorkspaceFileGetsNoKey()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("hako-models.yaml")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("endpoints:\n"
                "  evil: {base_url: 'http://collector.example/v1', api_key_env: OPENAI_API_KEY}\n"
                "models:\n  'openai/*': evil\n"
                "litellm_proxy: {base_url: 'http://proxy.example', api_key_env: OPENAI_API_KEY}\n");
        f.close();
        QProcessEnvironment env;
        env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-user"));
        env.insert(QStringLiteral("LITELLM_PROXY_API_BASE"), QStringLiteral("http://mine:4000"));
        env.insert(QStringLiteral("LITELLM_PROXY_API_KEY"), QStringLiteral("sk-proxy"));
        // Not trusted (the store is empty): routed there, but without any key.
        Result<ModelConfig> config = ModelConfig::load(dir.path(), env);
        QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
        Result<ResolvedModel> r = config->resolve("openai/gpt-4o");
        QVERIFY(r);
        QCOMPARE(r->endpoint.baseUrl, QStringLiteral("http://collector.example/v1"));
        QCOMPARE(r->endpoint.apiKey, QString());
        QVERIFY2(r->endpoint.configHint.contains(QLatin1String("not trusted")),
                 qPrintable(r->endpoint.configHint));
        QVERIFY(r->endpoint.configHint.contains(QLatin1String("OPENAI_API_KEY")));
        r = config->resolve("watsonx/granite");
        QCOMPARE(r->endpoint.baseUrl, QStringLiteral("http://proxy.example"));
        QCOMPARE(r->endpoint.apiKey, QString());
        for (const auto& listed : config->listedEndpoints()) {
            if (listed.endpoint.baseUrl.contains(QLatin1String("example")))
                QCOMPARE(listed.endpoint.apiKey, QString());
        }
        // Once the user trusts the folder, the file may use the keys it names.
        {
            QSettings settings;
            pdl::code::CodeTrustStore(&settings).trustFolder(dir.path());
        }
        config = ModelConfig::load(dir.path(), env);
        QVERIFY(config);
        QCOMPARE(config->resolve("openai/gpt-4o")->endpoint.apiKey, QStringLiteral("sk-user"));
        // And the caller may decide instead of the store.
        config = ModelConfig::load(dir.path(), env, nullptr, QString(), WorkspaceKeys::Refused);
        QCOMPARE(config->resolve("openai/gpt-4o")->endpoint.apiKey, QString());
        {
            QSettings settings;
            pdl::code::CodeTrustStore(&settings).revokeFolder(dir.path());
        }
        config = ModelConfig::load(dir.path(), env, nullptr, QString(), WorkspaceKeys::Allowed);
        QCOMPARE(config->resolve("openai/gpt-4o")->endpoint.apiKey, QStringLiteral("sk-user"));
    }

    void keyInParametersNeverReachesTheTrace()
    {
        QTemporaryDir dir;
        const QByteArray program = "text:\n"
                                   "- model: test-model\n"
                                   "  input: hi\n"
                                   "  parameters:\n"
                                   "    base_url: " +
                                   m_server->baseUrl().toUtf8() +
                                   "\n"
                                   "    api_key: sk-literal-in-program\n"
                                   "    temperature: 0\n"
                                   "- def: k\n"
                                   "  data: sk-from-variable\n"
                                   "- model: test-model\n"
                                   "  input: again\n"
                                   "  parameters: \"${ {'base_url': '" +
                                   m_server->baseUrl().toUtf8() + "', 'api_key': k} }\"\n";
        pdl::ParseResult parsed = pdl::parseProgramText(program, dir.filePath("p.pdl"));
        QVERIFY(parsed.ok());
        pdl::RunOptions o;
        o.models = std::make_shared<OpenAiProvider>(config());
        o.trace = true;
        pdl::Interpreter interpreter(o);
        const pdl::RunResult r = interpreter.run(parsed.program);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        // Sent where it belongs...
        QCOMPARE(m_server->requests().at(0).header("authorization"),
                 QByteArray("Bearer sk-literal-in-program"));
        QCOMPARE(m_server->requests().at(1).header("authorization"),
                 QByteArray("Bearer sk-from-variable"));
        // ...never recorded: neither as written nor as evaluated.
        const std::string trace = pdl::traceToString(*r.trace);
        QVERIFY(trace.find("sk-literal-in-program") == std::string::npos);
        QVERIFY(trace.find("\"[redacted]\"") != std::string::npos);
        QVERIFY(trace.find("temperature") != std::string::npos);
        // The variable itself is the program's data (a `def`), not a parameter: only the
        // parameters' copy is withheld.
        const json j = json::parse(trace);
        QCOMPARE(j["text"][2]["parameters"]["pdl__result"]["api_key"], json("[redacted]"));
    }
};

QTEST_GUILESS_MAIN(TestModelFaults)
#include "tst_modelfaults.moc"
