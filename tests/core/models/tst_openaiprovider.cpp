// The `openai` provider against the scriptable test server: plain and streamed chat, tool
// calls, usage, retries, timeouts, cancellation, malformed replies, parameters, embeddings.

#include "core/models/openaiprovider.h"
#include "core/models/sseparser.h"
#include "openaitestserver.h"

#include <QtConcurrent>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::models;
using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;
using json = nlohmann::ordered_json;

namespace {

const char* kKey = "sk-test-SECRET-0123456789";

pdl::List userMessage(const std::string& text)
{
    return {pdl::Value(
        pdl::Dict{{"role", "user"}, {"content", pdl::Value(text)}, {"pdl__defsite", "text.0"}})};
}

json bodyOf(const hako::testing::RecordedRequest& r)
{
    return json::parse(r.body.toStdString(), nullptr, false);
}

QByteArray sseChunk(const json& delta, const json& finish = nullptr)
{
    return QByteArray::fromStdString(json{
        {"id", "c1"},
        {"model", "m"},
        {"choices", json::array({json{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}}
                                         .dump());
}

} // namespace

class TestOpenAiProvider : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OpenAiTestServer> m_server;

    EndpointConfig config() const
    {
        EndpointConfig c;
        c.name = QStringLiteral("test");
        c.baseUrl = m_server->baseUrl();
        c.apiKey = QString::fromLatin1(kKey);
        c.configHint = QStringLiteral("Set TEST_BASE to the server's address.");
        c.retryBaseDelayMs = 1;
        c.retryMaxDelayMs = 50;
        return c;
    }

    ChatRequest request(const std::string& text, bool stream = false) const
    {
        ChatRequest r;
        r.model = "test-model";
        r.messages = userMessage(text);
        r.stream = stream;
        return r;
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
    }
    void cleanup() { m_server.reset(); }

    void sseParserSplitsAnywhere_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::newRow("lf") << QByteArray("data: a\n\n: comment\ndata: b\ndata: c\n\nevent: x\n"
                                          "data: d\n\n");
        QTest::newRow("crlf") << QByteArray("data: a\r\n\r\n: comment\r\ndata: b\r\ndata: c\r\n"
                                            "\r\nevent: x\r\ndata: d\r\n\r\n");
        QTest::newRow("cr") << QByteArray("data: a\r\r: comment\rdata: b\rdata: c\r\revent: x\r"
                                          "data: d\r\r");
    }
    void sseParserSplitsAnywhere()
    {
        QFETCH(QByteArray, stream);
        for (int split = 0; split <= stream.size(); ++split) {
            QList<QByteArray> events;
            SseParser parser([&](const QByteArray& d) { events.append(d); });
            parser.feed(stream.left(split));
            parser.feed(stream.mid(split));
            QCOMPARE(events, (QList<QByteArray>{"a", "b\nc", "d"}));
            QVERIFY(!parser.hasPartialEvent());
        }
        SseParser cut([](const QByteArray&) {});
        cut.feed("data: a\n\ndata: {\"par");
        QVERIFY(cut.hasPartialEvent());
    }

    void plainChat()
    {
        OpenAiProvider provider(config());
        const Result<ChatResponse> r = provider.chat(request("hello"), {}, CancelToken());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->content, std::string("echo: hello"));
        QCOMPARE(r->message.asDict().find("role")->asString(), std::string("assistant"));
        QCOMPARE(r->usage.promptTokens, 5);
        QVERIFY(!r->usage.estimated);
        QCOMPARE(r->raw.asDict().find("object")->asString(), std::string("chat.completion"));
        const auto reqs = m_server->requests();
        QCOMPARE(reqs.size(), 1);
        QCOMPARE(reqs[0].path, QByteArray("/v1/chat/completions"));
        QCOMPARE(reqs[0].header("authorization"), QByteArray("Bearer ") + kKey);
        const json body = bodyOf(reqs[0]);
        QCOMPARE(body["model"], json("test-model"));
        // PDL's bookkeeping keys never reach the server.
        QCOMPARE(body["messages"], json::parse(R"([{"role":"user","content":"hello"}])"));
        QVERIFY(!body.contains("stream"));
    }

    void streamedChat()
    {
        m_server->enqueueChat(ScriptedReply::chatStream({"Hel", "lo", " world"}, 11, 3));
        OpenAiProvider provider(config());
        QStringList deltas;
        const Result<ChatResponse> r = provider.chat(
            request("hi", true),
            [&](std::string_view d) { deltas.append(QString::fromUtf8(d.data(), d.size())); },
            CancelToken());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(deltas, (QStringList{"Hel", "lo", " world"}));
        QCOMPARE(r->content, std::string("Hello world"));
        QCOMPARE(r->usage.promptTokens, 11);
        QCOMPARE(r->usage.completionTokens, 3);
        QVERIFY(!r->usage.estimated);
        const json body = bodyOf(m_server->requests().at(0));
        QCOMPARE(body["stream"], json(true));
        QCOMPARE(body["stream_options"]["include_usage"], json(true));
        QCOMPARE(m_server->requests().at(0).header("accept"), QByteArray("text/event-stream"));
    }

    void streamedRequestAnsweredWithOneJsonBody()
    {
        // Some servers ignore `stream: true` and answer with a plain completion: the reply is
        // read as such and its text reaches the caller as one delta.
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("all at once")));
        OpenAiProvider provider(config());
        QStringList deltas;
        const Result<ChatResponse> r = provider.chat(
            request("hi", true),
            [&](std::string_view d) { deltas.append(QString::fromUtf8(d.data(), d.size())); },
            CancelToken());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->content, std::string("all at once"));
        QCOMPARE(deltas, QStringList{QStringLiteral("all at once")});
        QCOMPARE(m_server->requests().size(), 1);
    }

    void usageEstimatedWhenMissing()
    {
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("twelve chars"), -1));
        m_server->enqueueChat(ScriptedReply::chatStream({"ab", "cd"}, -1));
        OpenAiProvider provider(config());
        Result<ChatResponse> r = provider.chat(request("0123456789abcdef"), {}, CancelToken());
        QVERIFY(r.ok());
        QVERIFY(r->usage.estimated);
        QCOMPARE(r->usage.completionTokens, 3); // 12 bytes at ~4 per token
        QCOMPARE(r->usage.promptTokens, 4 + 4); // one message: overhead + 16 bytes
        r = provider.chat(request("x", true), {}, CancelToken());
        QVERIFY(r.ok());
        QVERIFY(r->usage.estimated);
        QCOMPARE(r->usage.completionTokens, 1);
    }

    void toolCalls()
    {
        m_server->enqueueChat(ScriptedReply::toolCall(QStringLiteral("call_1"),
                                                      QStringLiteral("calc"),
                                                      QStringLiteral("{\"expr\": \"2+2\"}")));
        QList<QByteArray> events{
            sseChunk({{"role", "assistant"},
                      {"tool_calls",
                       json::array({{{"index", 0},
                                     {"id", "call_9"},
                                     {"type", "function"},
                                     {"function", {{"name", "search"}, {"arguments", ""}}}}})}}),
            sseChunk({{"tool_calls",
                       json::array({{{"index", 0}, {"function", {{"arguments", "{\"q\": "}}}}})}}),
            sseChunk({{"tool_calls",
                       json::array({{{"index", 0}, {"function", {{"arguments", "\"cats\"}"}}}}})}}),
            sseChunk(json::object(), "tool_calls"), "[DONE]"};
        ScriptedReply streamed;
        streamed.events = events;
        m_server->enqueueChat(streamed);
        OpenAiProvider provider(config());
        for (bool stream : {false, true}) {
            const Result<ChatResponse> r =
                provider.chat(request("use a tool", stream), {}, CancelToken());
            QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
            QCOMPARE(r->content, std::string());
            const pdl::Value* calls = r->message.asDict().find("tool_calls");
            QVERIFY(calls && calls->isList() && calls->asList().size() == 1);
            const json call = calls->asList()[0].toOrderedJson();
            QCOMPARE(call["id"], json(stream ? "call_9" : "call_1"));
            QCOMPARE(call["function"]["name"], json(stream ? "search" : "calc"));
            QCOMPARE(call["function"]["arguments"],
                     json(stream ? "{\"q\": \"cats\"}" : "{\"expr\": \"2+2\"}"));
        }
    }

    void retriesHonourRetryAfter()
    {
        m_server->enqueueChat(ScriptedReply::error(429, QStringLiteral("slow down"), 1));
        m_server->enqueueChat(ScriptedReply::error(500, QStringLiteral("oops")));
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("finally")));
        QList<QPair<int, int>> waits; // (status, delay chosen)
        OpenAiProvider provider([&] {
            EndpointConfig c = config();
            c.retryMaxDelayMs = 5000;
            c.onRetry = [&](int, int status, int delayMs) {
                waits.append({status, delayMs});
            };
            return c;
        }());
        const Result<ChatResponse> r = provider.chat(request("x"), {}, CancelToken());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->content, std::string("finally"));
        QCOMPARE(m_server->requestCount(), 3);
        // Retry-After: 1 was the wait chosen although the backoff base is 1 ms; the 500 without
        // one got the backoff (2 ms at most on the second attempt).
        QCOMPARE(waits.size(), 2);
        QCOMPARE(waits[0], qMakePair(429, 1000));
        QCOMPARE(waits[1].first, 500);
        QVERIFY(waits[1].second <= 2);
    }

    void retriesGiveUp()
    {
        for (int i = 0; i < 3; ++i)
            m_server->enqueueChat(ScriptedReply::error(503, QStringLiteral("overloaded")));
        EndpointConfig c = config();
        c.maxRetries = 2;
        OpenAiProvider provider(c);
        const Result<ChatResponse> r = provider.chat(request("x"), {}, CancelToken());
        QVERIFY(!r.ok());
        QVERIFY2(
            r.error().message.contains(QLatin1String("HTTP 503: overloaded (after 2 retries)")),
            qPrintable(r.error().message));
        QVERIFY(r.error().message.contains(QLatin1String("model 'test-model'")));
        QCOMPARE(m_server->requestCount(), 3);
    }

    void clearErrors_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bad json") << 0 << false << "the server's reply is not valid JSON";
        QTest::newRow("unknown model") << 1 << false << "HTTP 404: The model `nope` does not exist";
        // Qt reports the drop either as a network error or as an early end of the body.
        QTest::newRow("mid-stream disconnect") << 2 << true << "was complete";
        QTest::newRow("truncated sse") << 3 << true << "ended before it was complete";
        QTest::newRow("malformed event") << 4 << true << "malformed JSON in the streamed reply";
        QTest::newRow("dropped before reply") << 5 << false << "model 'nope' at test";
        QTest::newRow("error event") << 6 << true << "error mid-stream: busy";
    }
    void clearErrors()
    {
        QFETCH(int, kind);
        QFETCH(bool, stream);
        QFETCH(QString, expected);
        m_server->setModels({QStringLiteral("known")});
        ScriptedReply reply;
        switch (kind) {
        case 0:
            reply = ScriptedReply::badJson();
            break;
        case 1:
            break; // the server's own 404 for an unknown model
        case 2:
            reply = ScriptedReply::chatStream({"a", "b", "c"});
            reply.events = reply.events.mid(0, 3);
            reply.disconnectAfterEvents = true;
            break;
        case 3:
            reply = ScriptedReply::chatStream({"a", "b", "c"});
            reply.events = reply.events.mid(0, 3);
            break;
        case 4:
            reply.events = {sseChunk({{"content", "a"}}), "{\"choices\": [", "[DONE]"};
            break;
        case 5:
            reply.disconnectImmediately = true;
            break;
        case 6:
            reply.events = {sseChunk({{"content", "a"}}), R"({"error": {"message": "busy"}})"};
            break;
        }
        if (kind != 1)
            m_server->enqueueChat(reply);
        EndpointConfig c = config();
        c.maxRetries = 0;
        OpenAiProvider provider(c);
        ChatRequest req = request("x", stream);
        req.model = "nope";
        QStringList deltas;
        const Result<ChatResponse> r = provider.chat(
            req, [&](std::string_view d) { deltas.append(QString::fromUtf8(d.data(), d.size())); },
            CancelToken());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(expected), qPrintable(r.error().message));
        QVERIFY2(
            r.error().message.contains(QLatin1String("model 'nope' at test (http://127.0.0.1:")),
            qPrintable(r.error().message));
        if (kind == 1)
            QVERIFY(r.error().message.contains(QLatin1String("hako models")));
        if (kind == 2)
            QCOMPARE(deltas, (QStringList{"a", "b"}));
    }

    void cancelMidStreamFreesConnection()
    {
        QStringList tokens;
        for (int i = 0; i < 50; ++i)
            tokens.append(QStringLiteral("t%1 ").arg(i));
        ScriptedReply slow = ScriptedReply::chatStream(tokens);
        slow.eventDelayMs = 100;
        m_server->enqueueChat(slow);
        OpenAiProvider provider(config());
        CancelToken cancel;
        int deltas = 0;
        const Result<ChatResponse> r = provider.chat(
            request("x", true),
            [&](std::string_view) {
                if (++deltas == 2)
                    cancel.cancel();
            },
            cancel);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("cancelled")),
                 qPrintable(r.error().message));
        // Cancelled, not completed: the reply had 48 more tokens to come, none was delivered,
        // and the connection was closed (a finished reply would stay open for keep-alive).
        QCOMPARE(deltas, 2);
        QTRY_COMPARE(m_server->openConnections(), 0);
    }

    void cancelWhileWaitingForRetry()
    {
        m_server->enqueueChat(ScriptedReply::error(429, QStringLiteral("wait"), 30));
        OpenAiProvider provider([&] {
            EndpointConfig c = config();
            c.retryMaxDelayMs = 60000;
            return c;
        }());
        CancelToken cancel;
        QFuture<Result<ChatResponse>> f =
            QtConcurrent::run([&] { return provider.chat(request("x"), {}, cancel); });
        QTRY_COMPARE(m_server->requestCount(), 1);
        cancel.cancel();
        f.waitForFinished();
        QVERIFY(!f.result().ok());
        QVERIFY(f.result().error().message.contains(QLatin1String("cancelled")));
    }

    void idleTimeout()
    {
        ScriptedReply slow = ScriptedReply::chat(QStringLiteral("late"));
        slow.delayMs = 3000;
        m_server->enqueueChat(slow);
        EndpointConfig c = config();
        c.idleTimeoutMs = 300;
        OpenAiProvider provider(c);
        const Result<ChatResponse> r = provider.chat(request("x"), {}, CancelToken());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("sent nothing for 0.3 s (idle timeout)")),
                 qPrintable(r.error().message));
    }

    void connectionRefusedNamesEndpointAndFix()
    {
        EndpointConfig c = config();
        const quint16 port = m_server->port();
        m_server.reset(); // nothing listens there any more
        c.baseUrl = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
        OpenAiProvider provider(c);
        const Result<ChatResponse> r = provider.chat(request("x"), {}, CancelToken());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("cannot connect")),
                 qPrintable(r.error().message));
        QVERIFY(r.error().message.contains(QLatin1String("model 'test-model'")));
        QVERIFY(r.error().message.contains(c.baseUrl));
        QVERIFY(r.error().message.contains(QLatin1String("Set TEST_BASE")));
        m_server = std::make_unique<OpenAiTestServer>();
    }

    void apiKeyNeverInOutputs()
    {
        const QString key = QString::fromLatin1(kKey);
        m_server->enqueueChat(
            ScriptedReply::error(401, QStringLiteral("Incorrect API key provided: ") + key));
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("your key is ") + key));
        m_server->enqueueChat(ScriptedReply::chatStream({"key: ", QString::fromLatin1(kKey)}));
        OpenAiProvider provider(config());
        Result<ChatResponse> r = provider.chat(request("x"), {}, CancelToken());
        QVERIFY(!r.ok());
        QVERIFY(!r.error().message.contains(key));
        QVERIFY(r.error().message.contains(QLatin1String("[redacted]")));
        QVERIFY(r.error().message.contains(QLatin1String("Check the API key")));
        for (bool stream : {false, true}) {
            std::string streamed;
            r = provider.chat(
                request("x", stream), [&](std::string_view d) { streamed += d; }, CancelToken());
            QVERIFY(r.ok());
            QVERIFY(!QString::fromStdString(r->raw.json()).contains(key));
            QVERIFY(!QString::fromStdString(r->content).contains(key));
            QVERIFY(!QString::fromStdString(streamed).contains(key));
        }
        // It was sent, only where it belongs.
        QCOMPARE(m_server->requests().at(0).header("authorization"), QByteArray("Bearer ") + kKey);
        for (const auto& req : m_server->requests())
            QVERIFY(!req.body.contains(kKey));
    }

    void parameters()
    {
        OpenAiProvider provider([] {
            EndpointConfig c;
            c.baseUrl = QStringLiteral("http://127.0.0.1:9/v1"); // overridden per call
            c.apiKey = QStringLiteral("configured-key");
            return c;
        }());
        ChatRequest req = request("x");
        const json params = json::parse(R"({
            "temperature": 0.5, "top_p": 0.9, "max_tokens": 20, "stop": ["\n\n"], "seed": 7,
            "n": 1, "presence_penalty": 0.1, "frequency_penalty": 0.2,
            "logit_bias": {"50256": -100}, "response_format": {"type": "json_object"},
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
            "tool_choice": "auto", "logprobs": true, "top_logprobs": 2,
            "my_server_option": {"x": 1}, "dropped": null, "api_key": "per-call-key"})");
        req.parameters = pdl::Value::fromJson(params).asDict();
        req.parameters.set("base_url", pdl::Value(m_server->baseUrl().toStdString()));
        const Result<ChatResponse> r = provider.chat(req, {}, CancelToken());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        const auto sent = m_server->requests().at(0);
        QCOMPARE(sent.header("authorization"), QByteArray("Bearer per-call-key"));
        json expected = params;
        expected.erase("dropped");
        expected.erase("api_key");
        json body = bodyOf(sent);
        QVERIFY(!body.contains("base_url"));
        body.erase("model");
        body.erase("messages");
        QCOMPARE(QString::fromStdString(body.dump()), QString::fromStdString(expected.dump()));
    }

    void mockResponseAnsweredLocally()
    {
        OpenAiProvider provider(config());
        ChatRequest req = request("x", true);
        req.parameters.set("mock_response", pdl::Value("It is sunny today"));
        QStringList deltas;
        const Result<ChatResponse> r = provider.chat(
            req, [&](std::string_view d) { deltas.append(QString::fromUtf8(d.data(), d.size())); },
            CancelToken());
        QVERIFY(r.ok());
        QCOMPARE(r->content, std::string("It is sunny today"));
        QCOMPARE(deltas.join(QString()), QStringLiteral("It is sunny today"));
        QVERIFY(deltas.size() > 1);
        QVERIFY(r->usage.estimated);
        QCOMPARE(m_server->requestCount(), 0);
    }

    void embeddingsBatchedAndCached()
    {
        EndpointConfig c = config();
        c.embedBatchSize = 2;
        OpenAiProvider provider(c);
        const std::vector<std::string> texts{"a", "b", "c", "d", "e"};
        const auto r = provider.embed("emb", texts, CancelToken());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->size(), size_t(5));
        QCOMPARE(m_server->requestCount(), 3);
        QCOMPARE(bodyOf(m_server->requests().at(2))["input"], json::array({"e"}));
        for (const auto& v : *r)
            QCOMPARE(v.size(), size_t(4));
        // Each vector belongs to its own text: asking for one alone gives the same.
        const auto single = provider.embed("emb", {"d"}, CancelToken());
        QVERIFY(single.ok());
        QCOMPARE(single->at(0), r->at(3));
        QCOMPARE(m_server->requestCount(), 3); // served from the cache
        QCOMPARE(provider.embedCacheHits(), 1);
        // The cache is keyed by model too.
        QVERIFY(provider.embed("other", {"d"}, CancelToken()).ok());
        QCOMPARE(m_server->requestCount(), 4);
    }

    void listModels()
    {
        m_server->setModels({QStringLiteral("granite"), QStringLiteral("llama3")});
        OpenAiProvider provider(config());
        const Result<QStringList> r = provider.listModels(CancelToken());
        QVERIFY(r.ok());
        QCOMPARE(*r, (QStringList{"granite", "llama3"}));
        QCOMPARE(m_server->requests().at(0).method, QByteArray("GET"));
        QCOMPARE(m_server->requests().at(0).path, QByteArray("/v1/models"));
    }

    void azureUrlAndHeader()
    {
        EndpointConfig c = config();
        c.azure = true;
        c.apiVersion = QStringLiteral("2024-02-01");
        c.baseUrl = QStringLiteral("http://127.0.0.1:%1").arg(m_server->port());
        m_server->enqueue("/openai/deployments/my-gpt/chat/completions?api-version=2024-02-01",
                          ScriptedReply::chat(QStringLiteral("azure says hi")));
        OpenAiProvider provider(c);
        ChatRequest req = request("x");
        req.model = "my-gpt";
        const Result<ChatResponse> r = provider.chat(req, {}, CancelToken());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->content, std::string("azure says hi"));
        QCOMPARE(m_server->requests().at(0).header("api-key"), QByteArray(kKey));
        QVERIFY(m_server->requests().at(0).header("authorization").isEmpty());
    }

    void parallelCallsFromManyThreads()
    {
        OpenAiProvider provider(config());
        QList<int> ids;
        for (int i = 0; i < 24; ++i)
            ids.append(i);
        const QList<QString> results = QtConcurrent::blockingMapped(ids, [&](int i) {
            const auto r =
                provider.chat(request("n" + std::to_string(i), i % 2 == 0), {}, CancelToken());
            return r.ok() ? QString::fromStdString(r->content) : r.error().message;
        });
        for (int i = 0; i < 24; ++i)
            QCOMPARE(results.at(i), QStringLiteral("echo: n%1").arg(i));
    }
};

QTEST_GUILESS_MAIN(TestOpenAiProvider)
#include "tst_openaiprovider.moc"
