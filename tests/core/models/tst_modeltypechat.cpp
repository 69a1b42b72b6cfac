// stdlib.typechat: TypeChat JSON programs validated against PDL functions and run step by step,
// inside real PDL programs (the functions are PDL closures), plus one program end to end with a
// model answering from the local OpenAI-compatible test server.
#include "core/models/modelconfig.h"
#include "core/models/modelrouter.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "tests/support/openaitestserver.h"

#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

// Four arithmetic functions and `api`, then `body`.
QByteArray program(const QByteArray& body)
{
    return "defs:\n"
           "  add:\n"
           "    function: {a: number, b: number}\n"
           "    return: ${ a + b }\n"
           "  mul:\n"
           "    function: {a: number, b: number}\n"
           "    return: ${ a * b }\n"
           "  neg:\n"
           "    function: {a: number}\n"
           "    return: ${ 0 - a }\n"
           "  greet:\n"
           "    function: {name: string}\n"
           "    return: Hello ${ name }\n"
           "  api: \"${ {'add': add, 'mul': mul, 'neg': neg, 'greet': greet} }\"\n" +
           body;
}

RunResult run(const QByteArray& text, std::shared_ptr<models::IModelProvider> models = nullptr)
{
    ParseResult parsed = parseProgramText(text, QStringLiteral("t.pdl"));
    if (!parsed.ok() || !parsed.program) {
        RunResult r;
        QStringList lines;
        for (const auto& d : parsed.diagnostics)
            lines << d.toString();
        r.error = makeError(QStringLiteral("does not parse: ") + lines.join(QLatin1Char('\n')));
        return r;
    }
    RunOptions options;
    options.models = std::move(models);
    return Interpreter(options).run(parsed.program);
}

QString output(const QByteArray& text)
{
    const RunResult r = run(text);
    return r.ok ? QString::fromStdString(r.result.toText())
                : QStringLiteral("ERROR: ") + r.error.message;
}

} // namespace

class TestModelTypeChat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void runsPrograms_data()
    {
        QTest::addColumn<QByteArray>("programJson");
        QTest::addColumn<QString>("expected");
        // TypeChat's own example: mul(2,3), mul(4,5), add(@ref 0, @ref 1) = 26.
        QTest::newRow("refs") << QByteArray(R"({"@steps": [{"@func": "mul", "@args": [2, 3]},
            {"@func": "mul", "@args": [4, 5]},
            {"@func": "add", "@args": [{"@ref": 0}, {"@ref": 1}]}]})")
                              << QStringLiteral("26");
        QTest::newRow("nested call") << QByteArray(R"({"@steps": [{"@func": "add",
            "@args": [{"@func": "neg", "@args": [4]}, {"@func": "mul", "@args": [3, 3]}]}]})")
                                     << QStringLiteral("5");
        QTest::newRow("last step is the result")
            << QByteArray(R"({"@steps": [{"@func": "add", "@args": [1, 1]},
                {"@func": "greet", "@args": ["Ada"]}]})")
            << QStringLiteral("Hello Ada");
        QTest::newRow("floats") << QByteArray(
                                       R"({"@steps": [{"@func": "mul", "@args": [1.5, 2]}]})")
                                << QStringLiteral("3.0");
    }
    void runsPrograms()
    {
        QFETCH(QByteArray, programJson);
        QFETCH(QString, expected);
        // Given as a value (parsed JSON) and as JSON text: the same result.
        const QByteArray asValue =
            program("text:\n- def: p\n  data: " + programJson.simplified() +
                    "\n  contribute: []\n- ${ stdlib.typechat.run_program(p, api) }\n");
        QCOMPARE(output(asValue), expected);
        QByteArray quoted = programJson.simplified();
        quoted.replace('"', "\\\"");
        const QByteArray asText =
            program("text:\n- \"${ stdlib.typechat.run_program('" + quoted + "', api) }\"\n");
        QCOMPARE(output(asText), expected);
    }

    void apiAsListOfFunctions()
    {
        // Functions defined with `def:` are named by it, so a list is enough.
        QCOMPARE(output("text:\n"
                        "- def: twice\n  function: {a: number}\n  return: ${ a * 2 }\n"
                        "- def: inc\n  function: {a: number}\n  return: ${ a + 1 }\n"
                        "- \"${ stdlib.typechat.run_program({'@steps': [{'@func': 'inc', "
                        "'@args': [{'@func': 'twice', '@args': [20]}]}]}, [twice, inc]) }\"\n"),
                 QStringLiteral("41"));
        // Functions under `defs:` have no name of their own: a clear error.
        const RunResult r = run(program("text:\n- \"${ stdlib.typechat.run_program({'@steps': "
                                        "[{'@func': 'add', '@args': [2, 2]}]}, [add, mul]) }\"\n"));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("has no name")),
                 qPrintable(r.error.message));
    }

    void validationNamesTheStep_data()
    {
        QTest::addColumn<QByteArray>("programJson");
        QTest::addColumn<QString>("problem");
        QTest::newRow("unknown function")
            << QByteArray(
                   R"({"@steps": [{"@func": "add", "@args": [1, 2]}, {"@func": "pow", "@args": [2, 3]}]})")
            << QStringLiteral("step 1 ('pow'): 'pow' is not a function of the API (add, greet, "
                              "mul, neg)");
        QTest::newRow("forward reference")
            << QByteArray(
                   R"({"@steps": [{"@func": "add", "@args": [{"@ref": 1}, 2]}, {"@func": "neg", "@args": [1]}]})")
            << QStringLiteral("step 0 ('add') @args[0]: {\"@ref\": 1} must refer to an earlier "
                              "step (0, and step 0 has none)");
        QTest::newRow("too many arguments")
            << QByteArray(R"({"@steps": [{"@func": "neg", "@args": [1, 2]}]})")
            << QStringLiteral("step 0 ('neg'): 'neg' takes 1 argument, got 2");
        QTest::newRow("too few arguments")
            << QByteArray(R"({"@steps": [{"@func": "add", "@args": [1]}]})")
            << QStringLiteral("step 0 ('add'): 'add' takes 2 arguments, got 1");
        QTest::newRow("wrong literal type")
            << QByteArray(R"({"@steps": [{"@func": "mul", "@args": ["two", 3]}]})")
            << QStringLiteral("step 0 ('mul') @args[0]: parameter 'a': $: expected number, got "
                              "\"two\"");
        QTest::newRow("no steps") << QByteArray(R"({"steps": []})")
                                  << QStringLiteral("a program must have \"@steps\": an array "
                                                    "of calls");
        QTest::newRow("step not a call") << QByteArray(R"({"@steps": [42]})")
                                         << QStringLiteral("step 0: a step must be a call "
                                                           "{\"@func\": …, \"@args\": […]}");
    }
    void validationNamesTheStep()
    {
        QFETCH(QByteArray, programJson);
        QFETCH(QString, problem);
        const QByteArray body = "text:\n- def: p\n  data: " + programJson +
                                "\n  contribute: []\n"
                                "- ${ stdlib.typechat.validate_program(p, api) | join('|') }\n";
        const QString problems = output(program(body));
        QVERIFY2(problems.split(QLatin1Char('|')).contains(problem), qPrintable(problems));
        // run_program refuses the same program with the same words.
        const RunResult r = run(program("text:\n- def: p\n  data: " + programJson +
                                        "\n  contribute: []\n"
                                        "- ${ stdlib.typechat.run_program(p, api) }\n"));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(problem), qPrintable(r.error.message));
    }

    void validProgramHasNoProblems()
    {
        QCOMPARE(output(program("text:\n- \"${ stdlib.typechat.validate_program({'@steps': "
                                "[{'@func': 'neg', '@args': [1]}, {'@func': 'add', '@args': "
                                "[{'@ref': 0}, 1]}]}, api) | length }\"\n")),
                 QStringLiteral("0"));
    }

    void failingStepIsNamed()
    {
        // A reference's type is only known when the step runs: the function's own type check
        // fails, and the error says which step.
        const RunResult r = run(program(
            "text:\n- \"${ stdlib.typechat.run_program({'@steps': [{'@func': 'greet', '@args': "
            "['x']}, {'@func': 'neg', '@args': [{'@ref': 0}]}]}, api) }\"\n"));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("step 1 ('neg') failed")),
                 qPrintable(r.error.message));
    }

    void describeApi()
    {
        const QString text = output(program("text:\n- ${ stdlib.typechat.describe_api(api) }\n"));
        QVERIFY2(text.contains(QLatin1String("  add(a: number, b: number): unknown;\n")),
                 qPrintable(text));
        QVERIFY(text.contains(QLatin1String("  greet(name: string): unknown;\n")));
        QVERIFY(text.contains(QLatin1String("{\"@ref\": N}")));
    }

    void badApi()
    {
        const RunResult r = run(
            program("text:\n- \"${ stdlib.typechat.run_program({'@steps': []}, {'x': 1}) }\"\n"));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("the API entry 'x' is not a function")),
                 qPrintable(r.error.message));
    }

    void modelWritesTheProgram()
    {
        // The model (scripted) translates the request into a program; the program runs.
        testing::OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueueChat(testing::ScriptedReply::chat(QStringLiteral(
            R"({"@steps": [{"@func": "mul", "@args": [2, 3]}, {"@func": "mul", "@args": [4, 5]},)"
            R"( {"@func": "add", "@args": [{"@ref": 0}, {"@ref": 1}]}]})")));
        QProcessEnvironment env;
        env.insert(QStringLiteral("OPENAI_BASE_URL"), server.baseUrl());
        env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-test"));
        Result<models::ModelConfig> config = models::ModelConfig::load(QString(), env);
        QVERIFY(config);
        auto router = std::make_shared<models::ModelRouter>(std::move(config.value()));
        const RunResult r =
            run(program("text:\n"
                        "- \"Translate into a program: ${ stdlib.typechat.describe_api(api) }\"\n"
                        "- def: p\n  model: openai/test\n  parser: json\n  contribute: []\n"
                        "- \"\\n= ${ stdlib.typechat.run_program(p, api) }\"\n"),
                router);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QVERIFY2(QString::fromStdString(r.result.toText()).endsWith(QLatin1String("\n= 26")),
                 qPrintable(QString::fromStdString(r.result.toText())));
        QCOMPARE(server.requestCount(), 1);
        QVERIFY(server.requests().at(0).body.contains("add(a: number, b: number)"));
    }
};

QTEST_GUILESS_MAIN(TestModelTypeChat)
#include "tst_modeltypechat.moc"
