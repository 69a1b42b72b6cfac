// Programs that call models, run with `hako run` against the local OpenAI-compatible test server:
// the exact request bodies (messages and parameters) and stdout, compared with what the reference
// interpreter (IBM prompt-declaration-language, July 2026 snapshot) sends and prints. Each
// expectation is derived from the reference's source; the file and function are cited per case.
#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using hako::testing::OpenAiTestServer;
using hako::testing::RecordedRequest;
using hako::testing::ScriptedReply;

namespace {

QJsonObject bodyOf(const RecordedRequest& r)
{
    return QJsonDocument::fromJson(r.body).object();
}

QJsonObject json(const char* text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

QString shown(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace

class TestModelConformance : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OpenAiTestServer> m_server;
    QTemporaryDir m_dir;

    // Runs `program` (YAML text) with `--stream none` from a file in a temporary folder.
    HakoOutcome run(const QByteArray& program, const QByteArray& stdinData = {},
                    const QString& stream = QStringLiteral("none"))
    {
        const QString path = m_dir.filePath(QStringLiteral("program.pdl"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(program);
        f.close();
        return runHako({QStringLiteral("run"), QStringLiteral("--stream"), stream, path},
                       stdinData);
    }

    QJsonObject onlyBody()
    {
        const QList<RecordedRequest> requests = m_server->requests();
        if (requests.size() != 1)
            return {};
        return bodyOf(requests.first());
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        qputenv("OLLAMA_API_BASE",
                QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()).toUtf8());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test");
        qputenv("HAKO_KEYRING", "0");
        qunsetenv("LITELLM_PROXY_API_BASE");
    }
    void cleanup() { m_server.reset(); }

    void defaultParameters_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QByteArray>("expected");
        // pdl_ast.py get_default_model_parameters: `ollama/*` and `ollama_chat/*` get
        // temperature 0 and seed 0; pdl_utils.py apply_raw_defaults fills what the block left
        // out or set to null and keeps what it set.
        QTest::newRow("ollama_chat") << QByteArray("model: ollama_chat/granite3.2:2b\n"
                                                   "input: hi\n")
                                     << QByteArray(R"({"model": "granite3.2:2b",
            "messages": [{"role": "user", "content": "hi"}], "temperature": 0, "seed": 0})");
        QTest::newRow("ollama") << QByteArray("model: ollama/granite3.2:2b\ninput: hi\n"
                                              "parameters: {temperature: null, max_tokens: 5}\n")
                                << QByteArray(R"({"model": "granite3.2:2b",
            "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5,
            "temperature": 0, "seed": 0})");
        QTest::newRow("own values win") << QByteArray("model: ollama_chat/granite3.2:2b\n"
                                                      "input: hi\n"
                                                      "parameters: {temperature: 0.5, seed: 7}\n")
                                        << QByteArray(R"({"model": "granite3.2:2b",
            "messages": [{"role": "user", "content": "hi"}], "temperature": 0.5, "seed": 7})");
        // No entry matches an OpenAI model: nothing is added.
        QTest::newRow("openai") << QByteArray("model: openai/gpt-4o-mini\ninput: hi\n")
                                << QByteArray(R"({"model": "gpt-4o-mini",
            "messages": [{"role": "user", "content": "hi"}]})");
        // `*granite-3.2*` adds temperature 0 and LiteLLM's chat-template `roles` and
        // `final_prompt_value`, which LiteLLM's completion() consumes: only the temperature is
        // sent. LiteLLM's own arguments (drop_params, timeout, num_retries) never reach the wire.
        QTest::newRow("granite roles, LiteLLM arguments")
            << QByteArray("model: openai/granite-3.2-8b-instruct\ninput: hi\n"
                          "parameters: {drop_params: true, timeout: 30, num_retries: 2,\n"
                          "             max_tokens: 9}\n")
            << QByteArray(R"({"model": "granite-3.2-8b-instruct",
            "messages": [{"role": "user", "content": "hi"}], "max_tokens": 9,
            "temperature": 0})");
        // pdl_utils.py apply_defaults: `decoding_method: sample` adds get_sampling_defaults().
        QTest::newRow("sampling") << QByteArray("model: openai/gpt-4o-mini\ninput: hi\n"
                                                "parameters: {decoding_method: sample}\n")
                                  << QByteArray(R"({"model": "gpt-4o-mini",
            "messages": [{"role": "user", "content": "hi"}], "decoding_method": "sample",
            "temperature": 0.7, "top_k": 50, "top_p": 0.85})");
    }
    void defaultParameters()
    {
        QFETCH(QByteArray, program);
        QFETCH(QByteArray, expected);
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("ok")));
        const HakoOutcome r = run(program);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("ok\n"));
        const QJsonObject body = onlyBody();
        QVERIFY2(body == json(expected.constData()), qPrintable(shown(body)));
    }

    void extraHeadersAndBody()
    {
        // The OpenAI client sends `extra_headers` as headers and `extra_body`'s fields in the
        // body itself (LiteLLM passes both on).
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("ok")));
        const HakoOutcome r = run("model: openai/gpt-4o-mini\ninput: hi\n"
                                  "parameters: {extra_headers: {X-Trace: abc},\n"
                                  "             extra_body: {top_k: 3}}\n");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(m_server->requestCount(), 1);
        const RecordedRequest request = m_server->requests().first();
        QCOMPARE(request.header("x-trace"), QByteArray("abc"));
        const QJsonObject body = bodyOf(request);
        QVERIFY2(body == json(R"({"model": "gpt-4o-mini",
            "messages": [{"role": "user", "content": "hi"}], "top_k": 3})"),
                 qPrintable(shown(body)));
    }

    void structuredDecoding_data()
    {
        QTest::addColumn<QByteArray>("fields");
        QTest::addColumn<bool>("guided");
        QTest::addColumn<bool>("format");
        // pdl_llms.py set_structured_decoding_parameters (LiteLLM blocks): both `guided_json`
        // and `response_format`; pdl_openai.py OpenaiModel._prepare_parameters (`platform:
        // openai`): `response_format` only; neither with `structuredDecoding: false`.
        QTest::newRow("parser and spec") << QByteArray("parser: json\n") << true << true;
        QTest::newRow("openai platform")
            << QByteArray("parser: json\nplatform: openai\n") << false << true;
        QTest::newRow("structuredDecoding false")
            << QByteArray("parser: json\nstructuredDecoding: false\n") << false << false;
    }
    void structuredDecoding()
    {
        QFETCH(QByteArray, fields);
        QFETCH(bool, guided);
        QFETCH(bool, format);
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral(R"({"a": 1})")));
        const HakoOutcome r =
            run("model: openai/gpt-4o-mini\ninput: give\nspec: {a: integer}\n" + fields);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("{\"a\": 1}\n"));
        const QJsonObject body = onlyBody();
        const QJsonObject schema = json(R"({"type": "object", "properties":
            {"a": {"type": "integer"}}, "required": ["a"]})");
        QCOMPARE(body.contains(QStringLiteral("guided_json")), guided);
        if (guided)
            QVERIFY2(body[QStringLiteral("guided_json")].toObject() == schema,
                     qPrintable(shown(body)));
        QCOMPARE(body.contains(QStringLiteral("response_format")), format);
        if (format) {
            const QJsonObject expected{
                {QStringLiteral("type"), QStringLiteral("json_schema")},
                {QStringLiteral("json_schema"),
                 QJsonObject{{QStringLiteral("name"), QStringLiteral("schema")},
                             {QStringLiteral("schema"), schema},
                             {QStringLiteral("strict"), true}}}};
            QVERIFY2(body[QStringLiteral("response_format")].toObject() == expected,
                     qPrintable(shown(body)));
        }
    }

    void messageValuedInput_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QByteArray>("messages");
        // pdl_interpreter.py process_call_model: a string input is one message in the block's
        // role; anything else goes through pdl_context.py ensure_context: a dict is a message,
        // a list holds messages (nested lists flattened), never their JSON text.
        QTest::newRow("message object")
            << QByteArray("model: openai/gpt-4o-mini\n"
                          "input: {data: {role: system, content: Be brief.}}\n")
            << QByteArray(R"({"m": [{"role": "system", "content": "Be brief."}]})");
        QTest::newRow("list of messages")
            << QByteArray("defs:\n  sys: {data: {role: system, content: S}}\n"
                          "model: openai/gpt-4o-mini\n"
                          "input: \"${ [sys, [{'role': 'user', 'content': 'U'}]] }\"\n")
            << QByteArray(R"({"m": [{"role": "system", "content": "S"},
                                    {"role": "user", "content": "U"}]})");
        QTest::newRow("message block")
            << QByteArray("model: openai/gpt-4o-mini\n"
                          "input: {content: Hello, role: system}\n")
            << QByteArray(R"({"m": [{"role": "system", "content": "Hello"}]})");
        QTest::newRow("string in the block's role")
            << QByteArray("model: openai/gpt-4o-mini\nrole: system\ninput: Hi\n")
            << QByteArray(R"({"m": [{"role": "system", "content": "Hi"}]})");
    }
    void messageValuedInput()
    {
        QFETCH(QByteArray, program);
        QFETCH(QByteArray, messages);
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("ok")));
        const HakoOutcome r = run(program);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray sent = onlyBody()[QStringLiteral("messages")].toArray();
        const QJsonArray expected = json(messages.constData())[QStringLiteral("m")].toArray();
        QVERIFY2(sent == expected, QJsonDocument(sent).toJson().constData());
    }

    void inputThatIsNoMessage()
    {
        // ensure_context raises TypeError for a string inside a list: nothing is sent.
        const HakoOutcome r = run("model: openai/gpt-4o-mini\ninput: ${ ['just text'] }\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("'str'")), qPrintable(r.err));
        QCOMPARE(m_server->requestCount(), 0);
    }

    void replyKeepsItsRole()
    {
        // process_call_model records the message the server returned (`assistant`), with
        // `pdl__defsite`, whatever the block's `role`: the next call sees an assistant message.
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("R1")));
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("R2")));
        const HakoOutcome r = run("text:\n"
                                  "- model: openai/gpt-4o-mini\n  role: system\n  input: Hi\n"
                                  "- model: openai/gpt-4o-mini\n");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("R1R2\n"));
        QCOMPARE(m_server->requestCount(), 2);
        const QJsonArray second =
            bodyOf(m_server->requests()[1])[QStringLiteral("messages")].toArray();
        QCOMPARE(second.size(), 1);
        QVERIFY2(second[0].toObject() == json(R"({"role": "assistant", "content": "R1"})"),
                 QJsonDocument(second).toJson().constData());
    }
    void streamAroundFallback()
    {
        // pdl_interpreter.py process_advance_block_retry: the failed call printed nothing, the
        // fallback's result streams (even under a `parser`, which only holds back the model's
        // own reply) between the text before and after it; `hako run` ends with a newline.
        m_server->enqueueChat(ScriptedReply::error(400, QStringLiteral("bad request")));
        const HakoOutcome r = run("text:\n- \"A\\n\"\n- model: openai/gpt-4o-mini\n  input: hi\n"
                                  "  parser: json\n  fallback: F\n- \"\\nB\"\n",
                                  {}, QStringLiteral("result"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("A\nF\nB\n"));
    }

    void streamAroundRetry()
    {
        // A reply cut off mid-stream has printed its first part; `retry` calls again and the
        // new reply streams after it (the reference never takes printed text back). With a
        // `parser` nothing of the reply streams: its parsed value is printed once it parses.
        ScriptedReply cut = ScriptedReply::chatStream({QStringLiteral("Hel")}, -1);
        cut.disconnectAfterEvents = true;
        cut.events = cut.events.mid(0, 2); // the role, then "Hel"
        m_server->enqueueChat(cut);
        m_server->enqueueChat(ScriptedReply::chatStream({QStringLiteral("Hello")}));
        HakoOutcome r = run("text:\n- \"A\\n\"\n- model: openai/gpt-4o-mini\n  input: hi\n"
                            "  retry: 2\n- \"\\nB\"\n",
                            {}, QStringLiteral("result"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("A\nHelHello\nB\n"));
        QCOMPARE(m_server->requestCount(), 2);

        m_server->clearRequests();
        m_server->enqueueChat(
            ScriptedReply::chatStream({QStringLiteral("{\"a\""), QStringLiteral(": 1}")}));
        r = run("text:\n- \"A\\n\"\n- model: openai/gpt-4o-mini\n  input: hi\n"
                "  parser: json\n- \"\\nB\"\n",
                {}, QStringLiteral("result"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("A\n{\"a\": 1}\nB\n"));
        // pdl.py main: `batch` is 0 in a streaming run, so every call is a streamed request.
        const QJsonObject body = onlyBody();
        QVERIFY2(body[QStringLiteral("stream")].toBool() &&
                     body[QStringLiteral("stream_options")].toObject() ==
                         json(R"({"include_usage": true})"),
                 qPrintable(shown(body)));
    }
};

QTEST_GUILESS_MAIN(TestModelConformance)
#include "tst_modelconformance.moc"
