// The example programs of resources/examples that need a model, run end to end with `hako run`
// against the local OpenAI-compatible test server (scripted replies): what each prints, when it
// stops, and what it sent to the model.
#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

using hako::testing::OpenAiTestServer;
using hako::testing::RecordedRequest;
using hako::testing::ScriptedReply;

namespace {

QString example(const char* name)
{
    return QStringLiteral(HAKO_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

QJsonObject bodyOf(const RecordedRequest& r)
{
    return QJsonDocument::fromJson(r.body).object();
}

QJsonArray messagesOf(const RecordedRequest& r)
{
    return bodyOf(r)[QStringLiteral("messages")].toArray();
}

// Every message's content, joined: what the model saw.
QString transcriptOf(const RecordedRequest& r)
{
    QStringList parts;
    for (const QJsonValue& m : messagesOf(r))
        parts << m.toObject()[QStringLiteral("role")].toString() + QLatin1String(": ") +
                     m.toObject()[QStringLiteral("content")].toString();
    return parts.join(QLatin1Char('\n'));
}

QString lastUserMessage(const RecordedRequest& r)
{
    const QJsonArray messages = messagesOf(r);
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const QJsonObject m = messages[i].toObject();
        if (m[QStringLiteral("role")].toString() == QLatin1String("user"))
            return m[QStringLiteral("content")].toString();
    }
    return QString();
}

} // namespace

// The examples run with `--stream none`: the scripted server answers in one piece, which is not
// what a streamed request (the default, `--stream result`) receives from a real endpoint.
class TestModelExamples : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OpenAiTestServer> m_server;

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        // The examples use `model: default`, which is ollama_chat/granite3.2:2b when no default
        // model is configured: Ollama's address is the test server.
        m_server->setModels({QStringLiteral("granite3.2:2b")});
        qputenv("OLLAMA_API_BASE",
                QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()).toUtf8());
        qputenv("HAKO_KEYRING", "0");
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("OPENAI_API_KEY");
        qunsetenv("LITELLM_PROXY_API_BASE");
    }
    void cleanup() { m_server.reset(); }

    void headers_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* name :
             {"chatbot.pdl", "react.pdl", "structured_output.pdl", "typechat_calculator.pdl",
              "paper_model_chaining.pdl", "paper_code_explanation.pdl"})
            QTest::newRow(name) << example(name);
    }
    void headers()
    {
        // The Examples menu reads these lines; `hako check` must accept the program.
        QFETCH(QString, file);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        QVERIFY(lines.size() > 3);
        QVERIFY(lines[0].startsWith(QLatin1String("# title: ")) && lines[0].size() > 12);
        QCOMPARE(lines[1], QStringLiteral("# needs: model"));
        QVERIFY(lines[2].startsWith(QLatin1String("# ")) && lines[2].size() > 20);
        const HakoOutcome r = runHako({QStringLiteral("check"), file});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void chatbot()
    {
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Nice to meet you, Ada.")));
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Your name is Ada.")));
        const HakoOutcome r = runHako({QStringLiteral("run"), QStringLiteral("--stream"),
                                       QStringLiteral("none"), example("chatbot.pdl")},
                                      "Hello, I am Ada\nWhat is my name?\nquit\nnever read\n");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("Type `quit` to exit this chatbot.\n")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("Nice to meet you, Ada.\n")));
        QVERIFY(r.out.contains(QLatin1String("Your name is Ada.\n")));
        QCOMPARE(r.out.count(QLatin1String(">>> ")), 3); // stops at quit, before the 4th line
        // `quit` asks the model nothing; the second call sees the whole conversation.
        QCOMPARE(m_server->requestCount(), 2);
        const auto requests = m_server->requests();
        QCOMPARE(bodyOf(requests[0])[QStringLiteral("model")].toString(),
                 QStringLiteral("granite3.2:2b"));
        QCOMPARE(lastUserMessage(requests[1]), QStringLiteral("What is my name?"));
        const QString seen = transcriptOf(requests[1]);
        QVERIFY2(seen.startsWith(QLatin1String("system: You are Hako's demo assistant.")),
                 qPrintable(seen));
        QVERIFY(seen.contains(QLatin1String("user: Hello, I am Ada")));
        QVERIFY(seen.contains(QLatin1String("assistant: Nice to meet you, Ada.")));
        QVERIFY(!seen.contains(QLatin1String("user: quit")));
    }

    void chatbotEndOfInput()
    {
        // Input ends without `quit`: the program stops with a clear error, not a loop.
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Hi.")));
        const HakoOutcome r = runHako({QStringLiteral("run"), QStringLiteral("--stream"),
                                       QStringLiteral("none"), example("chatbot.pdl")},
                                      "Hello\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("end of input")), qPrintable(r.err));
        QCOMPARE(m_server->requestCount(), 1);
    }

    void react()
    {
        const QStringList replies = {
            QStringLiteral("Thought: I need to find who discovered the Hudson River.\n"),
            QStringLiteral(R"({"name": "search", "arguments": {"topic": "Henry Hudson"}})"),
            QStringLiteral("Thought: He was born in 1565; 2025 - 1565 years.\n"),
            QStringLiteral(
                R"({"name": "calc", "arguments": {"op": "subtract", "a": 2025, "b": 1565}})"),
            QStringLiteral("Thought: I know the answer.\n"),
            QStringLiteral(R"({"name": "finish", "arguments": {"answer": "460 years"}})"),
            QStringLiteral("never asked"),
        };
        for (const QString& reply : replies)
            m_server->enqueueChat(ScriptedReply::chat(reply));
        const HakoOutcome r = runHako({QStringLiteral("run"), QStringLiteral("--stream"),
                                       QStringLiteral("none"), example("react.pdl")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("\nObservation: Henry Hudson (c. 1565 - 1611) was "
                                              "an English sea explorer")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("\nObservation: 460\n")));
        QVERIFY(r.out.endsWith(QLatin1String("Answer: 460 years\n")));
        // Stops on finish: three thoughts, three actions.
        QCOMPARE(m_server->requestCount(), 6);
        const auto requests = m_server->requests();
        for (int i = 0; i < 6; ++i) {
            const QJsonObject body = bodyOf(requests[i]);
            if (i % 2 == 0) {
                QCOMPARE(body[QStringLiteral("stop")].toArray(),
                         QJsonArray{QStringLiteral("Action:")});
            } else {
                // The action's spec went to the server as a strict JSON schema.
                const QJsonObject format = body[QStringLiteral("response_format")].toObject();
                QCOMPARE(format[QStringLiteral("type")].toString(), QStringLiteral("json_schema"));
                const QJsonObject schema = format[QStringLiteral("json_schema")]
                                               .toObject()[QStringLiteral("schema")]
                                               .toObject();
                QVERIFY(schema[QStringLiteral("properties")].toObject().contains(
                    QStringLiteral("arguments")));
            }
        }
        // The tools are described to the model.
        const QString first = transcriptOf(requests[0]);
        QVERIFY2(first.contains(QLatin1String("- search: Look a topic up in a small encyclopedia")),
                 qPrintable(first));
        QVERIFY(first.contains(QLatin1String("- calc: Arithmetic on two numbers")));
        // Each observation reaches the model before its next thought.
        QVERIFY2(transcriptOf(requests[2]).contains(QLatin1String("Observation: Henry Hudson")),
                 qPrintable(transcriptOf(requests[2])));
        QVERIFY(transcriptOf(requests[4]).contains(QLatin1String("Observation: 460")));
    }

    void structuredOutputRepair()
    {
        m_server->enqueueChat(ScriptedReply::chat(
            QStringLiteral(R"({"name": "Ada Lovelace", "age": "thirty-six"})")));
        m_server->enqueueChat(
            ScriptedReply::chat(QStringLiteral(R"({"name": "Ada Lovelace", "age": 36})")));
        const HakoOutcome r = runHako({QStringLiteral("run"), QStringLiteral("--stream"),
                                       QStringLiteral("none"), example("structured_output.pdl")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("Ada Lovelace died at 36.\n"));
        QCOMPARE(m_server->requestCount(), 2);
        const auto requests = m_server->requests();
        const QJsonObject format =
            bodyOf(requests[0])[QStringLiteral("response_format")].toObject();
        QCOMPARE(format[QStringLiteral("type")].toString(), QStringLiteral("json_schema"));
        QVERIFY(
            format[QStringLiteral("json_schema")].toObject()[QStringLiteral("strict")].toBool());
        // The repair shows the model its reply and why it is invalid.
        const QString repair = transcriptOf(requests[1]);
        QVERIFY2(repair.contains(QLatin1String("thirty-six")) &&
                     repair.contains(QLatin1String("The JSON object is invalid for the following "
                                                   "reason")) &&
                     repair.contains(QLatin1String("age")),
                 qPrintable(repair));
    }

    void structuredOutputGivesUp()
    {
        // The first reply and one repair (the default), then a clear error.
        for (int i = 0; i < 2; ++i)
            m_server->enqueueChat(ScriptedReply::chat(QStringLiteral(R"({"name": "Ada"})")));
        const HakoOutcome r = runHako({QStringLiteral("run"), QStringLiteral("--stream"),
                                       QStringLiteral("none"), example("structured_output.pdl")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(m_server->requestCount(), 2);
        QVERIFY2(r.err.contains(QLatin1String("age")), qPrintable(r.err));
    }

    void typechatCalculator()
    {
        // First a program calling a function the API does not have; the problems go back to the
        // model, which corrects it.
        m_server->enqueueChat(ScriptedReply::chat(
            QStringLiteral(R"({"@steps": [{"@func": "times", "@args": [2, 3]}]})")));
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral(
            R"({"@steps": [{"@func": "mul", "@args": [2, 3]}, {"@func": "mul", "@args": [4, 5]},)"
            R"( {"@func": "add", "@args": [{"@ref": 0}, {"@ref": 1}]}]})")));
        const HakoOutcome r = runHako({QStringLiteral("run"), QStringLiteral("--stream"),
                                       QStringLiteral("none"), example("typechat_calculator.pdl")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.endsWith(QLatin1String("multiply two by three, then multiply four by "
                                              "five, then sum the results = 26\n")),
                 qPrintable(r.out));
        QCOMPARE(m_server->requestCount(), 2);
        const auto requests = m_server->requests();
        QVERIFY(transcriptOf(requests[0]).contains(QLatin1String("mul(a: number, b: number)")));
        const QString second = transcriptOf(requests[1]);
        QVERIFY2(second.contains(QLatin1String("step 0 ('times'): 'times' is not a function of "
                                               "the API (add, div, mul, sub)")),
                 qPrintable(second));
    }

    void paperModelChaining()
    {
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Hello")));
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Yes, I did say Hello")));
        const HakoOutcome r =
            runHako({QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none"),
                     example("paper_model_chaining.pdl")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out,
                 QStringLiteral("Hello\nHello\nDid you just say Hello?\nYes, I did say Hello\n"));
        QCOMPARE(m_server->requestCount(), 2);
        const auto requests = m_server->requests();
        for (const RecordedRequest& req : requests)
            QCOMPARE(bodyOf(req)[QStringLiteral("stop")].toArray(),
                     QJsonArray{QStringLiteral("!")});
        // The second call sees the first call's reply and the question.
        const QString seen = transcriptOf(requests[1]);
        QVERIFY2(seen.contains(QLatin1String("assistant: Hello")) &&
                     seen.contains(QLatin1String("Did you just say Hello?")),
                 qPrintable(seen));
    }

    void paperCodeExplanation()
    {
        const QString explanation = QStringLiteral(
            "This function deserializes an offset map from a JSON string: for a null or empty "
            "string it returns a new empty map.");
        m_server->enqueueChat(ScriptedReply::chat(explanation));
        const HakoOutcome r =
            runHako({QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none"),
                     example("paper_code_explanation.pdl")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject out = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(out[QStringLiteral("explanation")].toString(), explanation);
        // The score, computed here independently: the share of the reference's words (split on
        // whitespace, lower-cased) found in the explanation.
        const QString reference = QStringLiteral(
            "The function deserializes an offset map from a JSON string. When the string is null "
            "or empty it returns a new empty map, otherwise it parses the string into a map with "
            "the JSON mapper.");
        const QStringList words =
            reference.toLower().split(QRegularExpression(QStringLiteral("\\s+")));
        int found = 0;
        for (const QString& w : words)
            found += explanation.toLower().contains(w) ? 1 : 0;
        const double expected = std::round(100.0 * found / words.size()) / 100.0;
        QVERIFY(expected > 0.3 && expected < 1.0);
        QCOMPARE(out[QStringLiteral("reference_words_used")].toDouble(), expected);
        QCOMPARE(m_server->requestCount(), 1);
        const QString seen = transcriptOf(m_server->requests()[0]);
        QVERIFY2(seen.contains(QLatin1String("Function_name: OffsetUtil.deserializeOffsetMap")) &&
                     seen.contains(QLatin1String("JSON_MAPPER.readValue(lastSourceOffset, "
                                                 "Map.class);")),
                 qPrintable(seen));
    }
};

QTEST_GUILESS_MAIN(TestModelExamples)
#include "tst_modelexamples.moc"
