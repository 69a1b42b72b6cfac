// Structured output: response_format, TypeChat's JSON extraction and the repair loop.

#include "core/models/openaiprovider.h"
#include "core/pdl/model/structuredoutput.h"
#include "openaitestserver.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::models;
using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;
using json = nlohmann::ordered_json;

namespace {

pdl::Value personSchema()
{
    return pdl::Value::fromJson(
        json::parse("{\"type\": \"object\", \"required\": [\"name\", \"age\"], \"properties\": "
                    "{\"name\": {\"type\": \"string\"}, \"age\": {\"type\": \"integer\"}}}"));
}

} // namespace

class TestModelStructured : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OpenAiTestServer> m_server;
    std::unique_ptr<OpenAiProvider> m_provider;

    ChatRequest request() const
    {
        ChatRequest r;
        r.model = "m";
        r.messages = {pdl::Value(pdl::Dict{{"role", "user"}, {"content", "Who is Ada?"}})};
        return r;
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        EndpointConfig c;
        c.baseUrl = m_server->baseUrl();
        m_provider = std::make_unique<OpenAiProvider>(c);
    }
    void cleanup()
    {
        m_provider.reset();
        m_server.reset();
    }

    void extraction_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QString>("json");
        QTest::newRow("plain") << "{\"a\": 1}"
                               << "{\"a\":1}";
        QTest::newRow("chatty") << "Sure! Here it is:\n```json\n{\"a\": {\"b\": 2}}\n```\nDone."
                                << "{\"a\":{\"b\":2}}";
        QTest::newRow("array") << "The list: [1, 2] ok"
                               << "[1,2]";
        QTest::newRow("scalar") << "42"
                                << "42";
        QTest::newRow("none") << "no json here"
                              << "";
        QTest::newRow("broken") << "{\"a\": }"
                                << "";
    }
    void extraction()
    {
        QFETCH(QString, reply);
        QFETCH(QString, json);
        const Result<pdl::Value> v = extractJson(reply.toStdString());
        QCOMPARE(v.ok(), !json.isEmpty());
        if (v)
            QCOMPARE(QString::fromStdString(v->toOrderedJson().dump()), json);
    }

    void validFirstTime()
    {
        m_server->enqueueChat(
            ScriptedReply::chat(QStringLiteral("{\"name\": \"Ada\", \"age\": 36}")));
        const StructuredResult r =
            chatStructured(*m_provider, request(), personSchema(), {}, {}, CancelToken());
        QVERIFY(r.ok());
        QCOMPARE(r.attempts.size(), size_t(1));
        QCOMPARE(*r.value.asDict().find("age"), pdl::Value(36));
        const json body = json::parse(m_server->requests().at(0).body.toStdString());
        QCOMPARE(body["response_format"]["type"], "json_schema");
        QCOMPARE(body["response_format"]["json_schema"]["name"], "schema");
        QCOMPARE(body["response_format"]["json_schema"]["strict"], true);
        QCOMPARE(body["response_format"]["json_schema"]["schema"], personSchema().toOrderedJson());
    }

    void oneRepair()
    {
        m_server->enqueueChat(
            ScriptedReply::chat(QStringLiteral("{\"name\": \"Ada\", \"age\": \"36\"}")));
        m_server->enqueueChat(
            ScriptedReply::chat(QStringLiteral("{\"name\": \"Ada\", \"age\": 36}")));
        const StructuredResult r =
            chatStructured(*m_provider, request(), personSchema(), {}, {}, CancelToken());
        QVERIFY2(r.ok(), qPrintable(r.error ? r.error->message : QString()));
        QCOMPARE(r.attempts.size(), size_t(2));
        QCOMPARE(r.attempts[0].validationError, std::string("$.age: expected integer, got \"36\""));
        QVERIFY(r.attempts[1].validationError.empty());
        // The repair request: the bad reply as the assistant's turn, then TypeChat's prompt.
        const json messages =
            json::parse(m_server->requests().at(1).body.toStdString())["messages"];
        QCOMPARE(messages.size(), size_t(3));
        QCOMPARE(messages[1]["role"], "assistant");
        QCOMPARE(messages[1]["content"], "{\"name\": \"Ada\", \"age\": \"36\"}");
        QCOMPARE(messages[2]["content"],
                 "The JSON object is invalid for the following reason:\n\"\"\"\n$.age: expected "
                 "integer, got \"36\"\n\"\"\"\nThe following is a revised JSON object:\n");
    }

    void givesUpAfterMaxRepairs()
    {
        for (int i = 0; i < 3; ++i)
            m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("I cannot do that")));
        StructuredOptions options;
        options.maxRepairs = 2;
        const StructuredResult r =
            chatStructured(*m_provider, request(), personSchema(), options, {}, CancelToken());
        QVERIFY(!r.ok());
        QCOMPARE(r.attempts.size(), size_t(3));
        QVERIFY(r.error->message.contains(QLatin1String("after 3 attempt(s)")));
        QVERIFY(r.error->message.contains(QLatin1String("no JSON object")));
    }

    void ownResponseFormatKept()
    {
        m_server->enqueueChat(
            ScriptedReply::chat(QStringLiteral("{\"name\": \"Ada\", \"age\": 1}")));
        ChatRequest req = request();
        req.parameters.set("response_format", pdl::Value(pdl::Dict{{"type", "json_object"}}));
        QVERIFY(chatStructured(*m_provider, req, personSchema(), {}, {}, CancelToken()).ok());
        const json body = json::parse(m_server->requests().at(0).body.toStdString());
        QCOMPARE(body["response_format"], json::parse("{\"type\": \"json_object\"}"));
    }

    void transportErrorStops()
    {
        m_server->enqueueChat(ScriptedReply::error(400, QStringLiteral("bad request")));
        const StructuredResult r =
            chatStructured(*m_provider, request(), personSchema(), {}, {}, CancelToken());
        QVERIFY(!r.ok());
        QCOMPARE(r.attempts.size(), size_t(1));
        QVERIFY(!r.attempts[0].response);
        QVERIFY(r.error->message.contains(QLatin1String("HTTP 400: bad request")));
    }
};

QTEST_GUILESS_MAIN(TestModelStructured)
#include "tst_modelstructured.moc"
