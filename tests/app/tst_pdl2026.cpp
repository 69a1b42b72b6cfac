// What PDL gained in 2025–26 (issue 29 §2), run with `hako run --stream none` (and checked with
// `hako check`) as a user writes it, against the local OpenAI-compatible test server where a
// model is called. Each expectation is derived from the reference interpreter's source (IBM
// prompt-declaration-language, July 2026 snapshot), cited per case.
#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QFile>
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

// A judge's reply: `answer` ("true"/"false") with the log probabilities of both answers.
ScriptedReply judgeReply(const char* answer, double lpTrue, double lpFalse)
{
    QJsonArray top{QJsonObject{{QStringLiteral("token"), QStringLiteral("true")},
                               {QStringLiteral("logprob"), lpTrue}},
                   QJsonObject{{QStringLiteral("token"), QStringLiteral("false")},
                               {QStringLiteral("logprob"), lpFalse}}};
    const double own = QByteArray(answer) == "true" ? lpTrue : lpFalse;
    QJsonObject token{{QStringLiteral("token"), QString::fromLatin1(answer)},
                      {QStringLiteral("logprob"), own},
                      {QStringLiteral("top_logprobs"), top}};
    QJsonObject choice{
        {QStringLiteral("index"), 0},
        {QStringLiteral("message"),
         QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                     {QStringLiteral("content"), QString::fromLatin1(answer)}}},
        {QStringLiteral("logprobs"), QJsonObject{{QStringLiteral("content"), QJsonArray{token}}}},
        {QStringLiteral("finish_reason"), QStringLiteral("stop")}};
    QJsonObject body{{QStringLiteral("id"), QStringLiteral("chatcmpl-judge")},
                     {QStringLiteral("object"), QStringLiteral("chat.completion")},
                     {QStringLiteral("model"), QStringLiteral("judge")},
                     {QStringLiteral("choices"), QJsonArray{choice}}};
    return ScriptedReply::withBody(QJsonDocument(body).toJson(QJsonDocument::Compact));
}

QJsonObject lastMessage(const QJsonObject& body)
{
    return body.value(QStringLiteral("messages")).toArray().last().toObject();
}

} // namespace

class TestPdl2026 : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OpenAiTestServer> m_server;
    QTemporaryDir m_dir;

    QString write(const QByteArray& program)
    {
        const QString path = m_dir.filePath(QStringLiteral("program.pdl"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(program);
        return path;
    }

    HakoOutcome run(const QByteArray& program)
    {
        return runHako({QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none"),
                        write(program)});
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFile::exists(hakoBinary()), "build the hako target first");
    }

    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test");
        qputenv("HAKO_KEYRING", "0");
        qunsetenv("LITELLM_PROXY_API_BASE");
    }
    void cleanup() { m_server.reset(); }

    // Every new field and kind passes `hako check` with no "unknown field" warning.
    void checkAcceptsNewFields()
    {
        const QString path = write("text:\n"
                                   "- factor: 0.5\n"
                                   "  resample: false\n"
                                   "- lang: ipython\n"
                                   "  code: print(1)\n"
                                   "- lang: python\n"
                                   "  scope: {x: 1}\n"
                                   "  code: result = x\n"
                                   "- model: openai/m\n"
                                   "  retry: {tries: 1, delay: 0, backoff: 2, max_delay: 1, "
                                   "jitter: [0, 0]}\n"
                                   "  expectations:\n"
                                   "  - expect: short\n"
                                   "    feedback: ${ stdlib.get_tool_calls }\n"
                                   "- ${ pdl_particle_id }${ pdl_llm_as_judge }\n");
        const HakoOutcome o = runHako({QStringLiteral("check"), path});
        const QString said = o.out + o.err;
        QVERIFY2(o.exitCode == 0, qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("unknown")), qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("undefined")), qPrintable(said));
    }

    // RetryConfiguration (pdl_ast.py): the mapping form without `tries` retries until the
    // block succeeds (tries: -1), and the notice shows -1 as the limit.
    void retryMappingWithoutTries()
    {
        const HakoOutcome o = run("retry: {delay: 0}\n"
                                  "lang: python\n"
                                  "code: |\n"
                                  "  import builtins\n"
                                  "  builtins.hako_tries = getattr(builtins, 'hako_tries', 0) + 1\n"
                                  "  if builtins.hako_tries < 3:\n"
                                  "      raise ValueError('not yet')\n"
                                  "  result = builtins.hako_tries\n");
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out, QStringLiteral("3\n"));
        QVERIFY2(o.err.contains(QStringLiteral("[Retry 2/-1]")), qPrintable(o.err));
    }

    // pdl_interpreter.py, case FactorBlock: the default run records the weight and results in
    // "" with no context; empty_scope: pdl_particle_id is 0.
    void factorAndParticle()
    {
        const HakoOutcome o = run("text:\n"
                                  "- factor: ${ 1 / 4 }\n"
                                  "- \"[${ pdl_context | length }] ${ pdl_particle_id }\"\n");
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out, QStringLiteral("[0] 0\n"));

        const QString trace = m_dir.filePath(QStringLiteral("factor.json"));
        const HakoOutcome t = runHako(
            {QStringLiteral("run"), QStringLiteral("--trace=") + trace, write("factor: 0.25\n")});
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(root.value(QStringLiteral("kind")).toString(), QStringLiteral("factor"));
        QCOMPARE(root.value(QStringLiteral("pdl__score")).toDouble(), 0.25);
        QCOMPARE(root.value(QStringLiteral("pdl__is_leaf")).toBool(), true);
    }

    // test_code.py test_scope1/test_scope2: `scope` gives the code its variables; they are the
    // code's alone (process_block_body, CodeBlock: execution_scope).
    void codeScope()
    {
        const HakoOutcome o = run("text:\n"
                                  "- lang: python\n"
                                  "  scope: {x: 10, y: 20}\n"
                                  "  code: result = x + y\n"
                                  "- \" \"\n"
                                  "- lang: jinja\n"
                                  "  scope: {name: Alice}\n"
                                  "  code: Hello {{ name }}\n"
                                  "- \" ${ x is defined }\"\n");
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out, QStringLiteral("30 Hello Alice False\n"));
    }

    // call_ipython / PythonREPL (pdl_python_repl.py): the cell's printed output is the result,
    // a fixed notice when it prints nothing.
    void ipython()
    {
        const HakoOutcome o = run("text:\n"
                                  "- lang: ipython\n"
                                  "  code: |\n"
                                  "    x = 6 * 7\n"
                                  "    print(x)\n"
                                  "- lang: ipython\n"
                                  "  code: y = 1\n");
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out, QStringLiteral("42\n[Executed Successfully with No Output]\n"));
    }

    // pdl_stdlib.pdl get_tool_calls: the tool calls of a raw model response.
    void getToolCalls()
    {
        m_server->enqueueChat(ScriptedReply::toolCall(
            QStringLiteral("call_1"), QStringLiteral("add"), QStringLiteral(R"({"a": 1})")));
        const HakoOutcome o = run("text:\n"
                                  "- model: openai/m\n"
                                  "  input: add\n"
                                  "  modelResponse: r\n"
                                  "  contribute: []\n"
                                  "- data: ${ stdlib.get_tool_calls(r)[0].function.name }\n");
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out, QStringLiteral("add\n"));
    }

    // process_advance_block_retry: a feedback function's instruction goes into the next try's
    // context as a user message; on the last try it is not asked for again.
    void expectationsOwnFeedback()
    {
        const HakoOutcome o = run("defs:\n"
                                  "  fb:\n"
                                  "    function: {expectation: string, response: string}\n"
                                  "    return: Be ${ expectation }\n"
                                  "text:\n"
                                  "- Question\n"
                                  "- model: openai/m\n"
                                  "  retry: 1\n"
                                  "  expectations:\n"
                                  "  - expect: brief\n"
                                  "    feedback: ${ fb }\n");
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        const QList<RecordedRequest> requests = m_server->requests();
        QCOMPARE(requests.size(), 2);
        QCOMPARE(lastMessage(bodyOf(requests[1])),
                 (QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                              {QStringLiteral("content"), QStringLiteral("Be brief")}}));
        QCOMPARE(o.out, QStringLiteral("Questionecho: Be brief\n"));
    }

    // The standard judge (pdl_stdlib.pdl expectations.feedback, llm_as_judge, reward): the
    // judge model is asked with log probabilities; a low score asks the context transformer
    // for an instruction, which the retried block sees.
    void expectationsJudge()
    {
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("A long answer")));
        m_server->enqueueChat(judgeReply("false", -4.6, -0.01));
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Answer in one word.")));
        m_server->enqueueChat(ScriptedReply::chat(QStringLiteral("Short")));
        m_server->enqueueChat(judgeReply("true", -0.01, -4.6));
        const HakoOutcome o = run("defs:\n"
                                  "  pdl_llm_as_judge: openai/judge\n"
                                  "  pdl_llm_context_transformer: openai/fixer\n"
                                  "text:\n"
                                  "- Say something\n"
                                  "- model: openai/m\n"
                                  "  retry: 1\n"
                                  "  expectations:\n"
                                  "  - expect: The answer is one word\n");
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out, QStringLiteral("Say somethingShort\n"));
        const QList<RecordedRequest> requests = m_server->requests();
        QCOMPARE(requests.size(), 5);
        const QJsonObject judge = bodyOf(requests[1]);
        QCOMPARE(judge.value(QStringLiteral("model")).toString(), QStringLiteral("judge"));
        QCOMPARE(judge.value(QStringLiteral("logprobs")).toBool(), true);
        QCOMPARE(judge.value(QStringLiteral("top_logprobs")).toInt(), 5);
        QCOMPARE(lastMessage(judge).value(QStringLiteral("content")).toString(),
                 QStringLiteral("Your task is to determine if the following statement is true:\n"
                                "        \nThe answer is one word\n\nHere is the solution: A "
                                "long answer\n\nIs the statement correct? Respond with only "
                                "('true'/'false')\n\n"));
        QCOMPARE(bodyOf(requests[2]).value(QStringLiteral("model")).toString(),
                 QStringLiteral("fixer"));
        QCOMPARE(lastMessage(bodyOf(requests[3])).value(QStringLiteral("content")).toString(),
                 QStringLiteral("Answer in one word."));
    }
};

QTEST_GUILESS_MAIN(TestPdl2026)
#include "tst_pdl2026.moc"
