// The interpreter on small programs, one behaviour per row, beyond the shared conformance set:
// every block kind, scoping, contexts, contribute, retries, model calls against a local
// OpenAI-compatible server, traces and replay.
#include "core/models/modelrouter.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/tracewriter.h"
#include "tests/support/openaitestserver.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::pdl;

namespace {

std::shared_ptr<const Program> parse(const QByteArray& text,
                                     const QString& file = QStringLiteral("t.pdl"))
{
    ParseResult r = parseProgramText(text, file);
    if (!r.ok()) {
        for (const auto& d : r.diagnostics)
            qWarning() << d.toString();
        return nullptr;
    }
    return r.program;
}

RunResult runText(const QByteArray& text, RunOptions options = {})
{
    auto program = parse(text);
    if (!program) {
        RunResult r;
        r.error = makeError(QStringLiteral("does not parse"));
        return r;
    }
    Interpreter interp(std::move(options));
    return interp.run(program);
}

QString outputOf(const QByteArray& text, RunOptions options = {})
{
    RunResult r = runText(text, std::move(options));
    if (!r.ok)
        return QStringLiteral("ERROR: ") + r.error.message;
    return QString::fromStdString(r.result.toText());
}

} // namespace

class TestInterpreter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void programs_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("expected");
        QTest::newRow("scalar") << QByteArray("hello") << "hello";
        QTest::newRow("text joins children as text, non-strings as JSON")
            << QByteArray("text:\n- a\n- ${ [1, true] }\n- \"${ {'k': none} }\"\n")
            << "a[1, true]{\"k\": null}";
        QTest::newRow("mixed string uses Python str()")
            << QByteArray("defs:\n  x: ${ [1, true, none] }\ntext: v=${ x }\n")
            << "v=[1, True, None]";
        QTest::newRow("python code calls a PDL function")
            << QByteArray("defs:\n  f:\n    function: {x: integer, y: integer}\n"
                          "    return: ${ x - y }\nlang: python\ncode: result = [f(5, 2), "
                          "f(x=1, y=1)]\n")
            << "[3, 0]";
        QTest::newRow("a PDL function's spec types its calls' results")
            << QByteArray("defs:\n  f:\n    function: {x: string}\n    spec: string\n"
                          "    return: ${ x }\ncall: ${ f }\nargs: {x: ok}\n")
            << "ok";
        QTest::newRow("get reads an expression path")
            << QByteArray("defs:\n  p: {data: {a: {b: 7}}}\nget: p.a.b\n") << "7";
        QTest::newRow("negative maxIterations runs nothing")
            << QByteArray("repeat: x\nmaxIterations: -1\n") << "";
        QTest::newRow("message content keeps its defs")
            << QByteArray("defs:\n  x: 1\ntext:\n- content:\n    defs:\n      x: 2\n"
                          "    text: ${ x }\n  contribute: []\n- ${ x }\n")
            << "1";
        QTest::newRow("def flows to later siblings, even from nested blocks")
            << QByteArray("text:\n- text:\n  - def: x\n    data: 3\n- ${ x + 1 }\n") << "34";
        QTest::newRow("defs see earlier defs")
            << QByteArray("defs:\n  a: 2\n  b: ${ a * 10 }\ntext: ${ b }\n") << "20";
        QTest::newRow("lastOf") << QByteArray("lastOf:\n- 1\n- two\n") << "two";
        QTest::newRow("array") << QByteArray("array:\n- 1\n- ${ 1 + 1 }\n") << "[1, 2]";
        QTest::newRow("object mapping form")
            << QByteArray("object:\n  a: 1\n  b:\n    text: [x, y]\n")
            << "{\"a\": 1, \"b\": \"xy\"}";
        QTest::newRow("object list form merges")
            << QByteArray("object:\n- data: {a: 1}\n- data: {b: 2}\n") << "{\"a\": 1, \"b\": 2}";
        QTest::newRow("sequence join with separator")
            << QByteArray("sequence: [a, b, c]\njoin:\n  with: ', '\n") << "a, b, c";
        QTest::newRow("data raw keeps templates")
            << QByteArray("data: {x: '${ y }'}\nraw: true\n") << "{\"x\": \"${ y }\"}";
        QTest::newRow("data evaluates keys too")
            << QByteArray("defs:\n  k: key\ndata: {'${ k }': 1}\n") << "{\"key\": 1}";
        QTest::newRow("if then") << QByteArray("if: ${ 1 < 2 }\nthen: \"yes\"\nelse: \"no\"\n")
                                 << "yes";
        QTest::newRow("if else") << QByteArray("if: ${ 1 > 2 }\nthen: \"yes\"\nelse: \"no\"\n")
                                 << "no";
        QTest::newRow("if without else is empty")
            << QByteArray("if: ${ false }\nthen: \"yes\"\n") << "";
        QTest::newRow("match literal, guard and binding")
            << QByteArray("match: ${ [1, 5] }\nwith:\n- case: {array: [1, 2]}\n  then: \"no\"\n- "
                          "case:\n    array:\n    - 1\n    - def: n\n      any: null\n  if: ${ n > "
                          "3 }\n  then: big ${ n }\n")
            << "big 5";
        QTest::newRow("match object pattern and default")
            << QByteArray("match: \"${ {'k': 'v', 'o': 1} }\"\nwith:\n- case: {object: {k: w}}\n  "
                          "then: \"no\"\n- then: default\n")
            << "default";
        QTest::newRow("repeat for zips lists")
            << QByteArray(
                   "for:\n  a: [1, 2]\n  b: [x, y]\nrepeat: ${ a }${ b }\njoin:\n  with: '|'\n")
            << "1x|2y";
        QTest::newRow("repeat join as array")
            << QByteArray("for:\n  i: [1, 2, 3]\nrepeat: ${ i * i }\njoin:\n  as: array\n")
            << "[1, 4, 9]";
        QTest::newRow("repeat join as object")
            << QByteArray(
                   "for:\n  i: [a, b]\nrepeat:\n  data: {'${ i }': 1}\njoin:\n  as: object\n")
            << "{\"a\": 1, \"b\": 1}";
        QTest::newRow("repeat until, index and scope accumulating")
            << QByteArray("defs:\n  n: 0\nindex: i\nrepeat:\n  lastOf:\n  - def: n\n    data: ${ n "
                          "+ i }\n  - ${ n }\nuntil: ${ n > 5 }\njoin:\n  as: array\n")
            << "[0, 1, 3, 6]";
        QTest::newRow("while checked before each iteration")
            << QByteArray(
                   "defs:\n  n: 0\nwhile: ${ n < 3 }\nrepeat:\n  def: n\n  data: ${ n + 1 }\n")
            << "123";
        QTest::newRow("maxIterations") << QByteArray("repeat: x\nmaxIterations: 3\n") << "xxx";
        QTest::newRow("map keeps order with parallel workers")
            << QByteArray("for:\n  i: [1, 2, 3, 4, 5, 6]\nmap: ${ i * 10 }\nmaxWorkers: 3\njoin:\n "
                          " as: array\n")
            << "[10, 20, 30, 40, 50, 60]";
        QTest::newRow("map reduce with a PDL function")
            << QByteArray("defs:\n  add:\n    function: {x: integer, y: integer}\n    return: ${ x "
                          "+ y }\nfor:\n  i: [1, 2, 3, 4]\nmap: ${ i }\njoin:\n  as: reduce\n  "
                          "reduce: ${ add }\n")
            << "10";
        QTest::newRow("call with args and defaults of optional params")
            << QByteArray("defs:\n  f:\n    function: {a: string, b: {optional: string}}\n    "
                          "return: ${ a }-${ b if b is defined else 'none' }\ntext:\n- call: ${ f "
                          "}\n  args: {a: x}\n- ' '\n- call: ${ f }\n  args: {a: x, b: y}\n")
            << "x-none x-y";
        QTest::newRow("function called from an expression")
            << QByteArray("defs:\n  sq:\n    function: {n: integer}\n    return: ${ n * n }\ntext: "
                          "${ sq(7) } ${ sq(n=3) }\n")
            << "49 9";
        QTest::newRow("closure captures its defining scope")
            << QByteArray("defs:\n  x: outer\n  f:\n    function: {}\n    return: ${ x }\n  x2:\n  "
                          "  def: x\n    data: changed\ncall: ${ f }\n")
            << "outer";
        QTest::newRow("contribute [] hides the result")
            << QByteArray("text:\n- a\n- data: b\n  contribute: []\n- c\n") << "ac";
        QTest::newRow("contribute replacement value")
            << QByteArray(
                   "text:\n- data: secret\n  contribute:\n  - result:\n      value: redacted\n")
            << "redacted";
        QTest::newRow("pdl_context holds messages with role and defsite")
            << QByteArray("text:\n- hello\n- role: system\n  text: [sys]\n- ${ pdl_context | "
                          "map(attribute='role') | join(',') } ${ pdl_context[0].pdl__defsite }\n")
            << "hellosysuser,system text.0.data";
        QTest::newRow("independent context: siblings do not see each other")
            << QByteArray("context: independent\ntext:\n- a\n- ${ pdl_context | length }\n")
            << "a0";
        QTest::newRow("call resets context with pdl_context: []")
            << QByteArray(
                   "defs:\n  f:\n    function: {}\n    return: ${ pdl_context | length }\ntext:\n- "
                   "a\n- call: ${ f }\n- call: ${ f }\n  args: {pdl_context: []}\n")
            << "a10";
        QTest::newRow("message block makes one message")
            << QByteArray("lastOf:\n- role: system\n  content: be brief\n- ${ pdl_context[0].role "
                          "}:${ pdl_context[0].content }\n")
            << "system:be brief";
        QTest::newRow("parser json tolerant of prose and fences")
            << QByteArray("lastOf:\n- text: \"Sure! ```json\\n{'a': [1, 2,],}\\n```\"\n  parser: "
                          "json\n  def: v\n- ${ v.a[1] }\n")
            << "2";
        QTest::newRow("parser regex search with spec")
            << QByteArray(
                   "data: 'id=42 name=bob'\nparser:\n  regex: 'id=(?P<id>\\d+) "
                   "name=(?P<name>\\w+)'\n  mode: search\n  spec: {id: string, name: string}\n")
            << "{\"id\": \"42\", \"name\": \"bob\"}";
        QTest::newRow("fallback after a failure")
            << QByteArray("data: ${ undefined_name }\nfallback: recovered\n") << "recovered";
        QTest::newRow("fallback after a spec failure")
            << QByteArray("data: 3\nspec: string\nfallback: was not a string\n")
            << "was not a string";
        QTest::newRow("jinja code block")
            << QByteArray("defs:\n  xs:\n    data: [a, b]\nlang: jinja\ncode: '{% for x in xs "
                          "%}[{{ x }}]{% endfor %}'\n")
            << "[a][b]";
        QTest::newRow("command code block")
            << QByteArray("lang: command\ncode: printf 'a b'\n") << "a b";
        QTest::newRow("args block without a shell")
            << QByteArray("args: [printf, '%s-%s', 'x y', z]\n") << "x y-z";
        QTest::newRow("python code block sees variables and returns result")
            << QByteArray("defs:\n  n: 4\nlang: python\ncode: |\n  result = [n * 2, {'k': n}]\n")
            << "[8, {\"k\": 4}]";
        QTest::newRow("pdl code block runs generated programs")
            << QByteArray("lang: pdl\ncode: 'text: [\"gen\", \"${ 1 + 1 }\"]'\n") << "gen2";
        QTest::newRow("model mock_response")
            << QByteArray("text:\n- Hi\n- model: ollama/granite\n  parameters: {mock_response: "
                          "Hello there}\n")
            << "HiHello there";
        QTest::newRow("pdl_usage counts model calls")
            << QByteArray("text:\n- model: x/y\n  parameters: {mock_response: a}\n  contribute: "
                          "[]\n- ${ pdl_usage.model_calls }\n")
            << "1";
    }

    void programs()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, expected);
        QCOMPARE(outputOf(program), expected);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::newRow("undefined variable, at its line")
            << QByteArray("text:\n- a\n- ${ nope }\n") << "'nope' is undefined" << 3;
        QTest::newRow("spec failure at the spec line")
            << QByteArray("data: 3\n# comment\nspec: string\n")
            << "Type errors during spec checking" << 3;
        QTest::newRow("for values must be lists")
            << QByteArray("for:\n  i: ${ 3 }\nrepeat: x\n") << "must be lists" << 2;
        QTest::newRow("runaway recursion stops")
            << QByteArray("defs:\n  f:\n    function: {n: integer}\n    return: ${ g(n + 1) }\n  "
                          "g: ${ f }\ntext: ${ f(0) }\n")
            << "is undefined" << 0;
        QTest::newRow("missing include names the file")
            << QByteArray("text:\n- include: no/such/file.pdl\n") << "no/such/file.pdl" << 2;
        QTest::newRow("model without provider says how to configure one")
            << QByteArray("model: ollama/granite\n") << "OLLAMA_API_BASE" << 1;
        QTest::newRow("python exception with its type")
            << QByteArray("lang: python\ncode: |\n  raise ValueError('bad value')\n")
            << "ValueError: bad value" << 0;
        QTest::newRow("command failure carries stderr")
            << QByteArray("lang: command\ncode: sh -c 'echo oops >&2; exit 3'\n") << "oops" << 0;
        QTest::newRow("every argument problem at once, at the args")
            << QByteArray("defs:\n  f:\n    function: {n: integer, m: string}\n"
                          "    return: ${ n }\ncall: ${ f }\nargs:\n  n: text\n  z: 1\n")
            << "Missing required field: m" << 6;
        QTest::newRow("function result against its spec, at return")
            << QByteArray("defs:\n  f:\n    function: {}\n    spec: integer\n"
                          "    return: text\ncall: ${ f }\n")
            << "Type errors in the result of the function" << 5;
        QTest::newRow("python error in assembled code, at the code block")
            << QByteArray("text:\n- lang: python\n  code:\n    text:\n    - \"x = 1\\n\"\n"
                          "    - raise KeyError('k')\n")
            << "KeyError" << 2;
        QTest::newRow("wrong argument type")
            << QByteArray("defs:\n  f:\n    function: {n: integer}\n    return: ${ n }\ncall: ${ f "
                          "}\nargs: {n: text}\n")
            << "Type errors in the arguments" << 6;
    }

    void errors()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, message);
        QFETCH(int, line);
        RunResult r = runText(program);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(message), qPrintable(r.error.message));
        if (line > 0)
            QCOMPARE(r.error.span.line, line);
    }

    void recursionDepthIsBounded()
    {
        // A function that calls itself through a variable bound after it is defined: the closure
        // sees the variable through the caller's args.
        RunOptions o;
        o.maxCallDepth = 50;
        RunResult r = runText("defs:\n  f:\n    function: {self: null, n: integer}\n"
                              "    return: ${ self(self, n + 1) }\ntext: ${ f(f, 0) }\n",
                              o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("nested deeper than 50")),
                 qPrintable(r.error.message));
    }

    void retryCountsAttempts()
    {
        QTemporaryDir dir;
        const QByteArray program = "defs:\n  c:\n    lang: python\n    code: |\n      import "
                                   "itertools\n      result = itertools.count(1)\n"
                                   "lang: python\ncode: |\n  n = next(c)\n  if n < 3:\n    raise "
                                   "ConnectionError('down')\n  result = n\n"
                                   "retry:\n  tries: 4\n  exceptions: [OSError]\n";
        QCOMPARE(outputOf(program), QStringLiteral("3"));
        const QByteArray noRetry = "lang: python\ncode: |\n  raise KeyError('x')\nretry:\n  tries: "
                                   "4\n  exceptions: ConnectionError\n";
        RunResult r = runText(noRetry);
        QVERIFY(!r.ok);
        QVERIFY(r.error.message.contains(QLatin1String("KeyError")));
    }

    void readUsesTheInputCallback()
    {
        RunOptions o;
        QStringList prompts;
        o.readInput = [&](const std::string& prompt, bool) -> std::optional<std::string> {
            prompts << QString::fromStdString(prompt);
            return std::string("typed");
        };
        o.writeStdout = [](std::string_view) {
        };
        QCOMPARE(outputOf("text:\n- read:\n  message: 'Name? '\n- '!'\n", o),
                 QStringLiteral("typed!"));
        QCOMPARE(prompts, QStringList{QStringLiteral("Name? ")});
    }

    void cancelStopsTheRun()
    {
        RunOptions o;
        o.cancel.cancel();
        RunResult r = runText("repeat: x\nmaxIterations: 1000000\n", o);
        QVERIFY(!r.ok);
        QVERIFY(r.error.message.contains(QLatin1String("cancelled")));
    }

    // `--stream result` (the reference's default): the result is written as it is produced,
    // in order, and what was written is the result, with nothing shown twice or left out.
    void streamResult_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("streamed");
        QTest::newRow("text around a model reply")
            << QByteArray("text:\n- 'Hello '\n- model: m\n  parameters: {mock_response: Hi!}\n"
                          "- ' after'\n")
            << QStringLiteral("Hello Hi! after");
        QTest::newRow("array prints whole")
            << QByteArray("text:\n- a\n- array: [1, 2]\n- b\n") << QStringLiteral("a[1, 2]b");
        QTest::newRow("object prints whole")
            << QByteArray("text:\n- object: {k: v}\n") << QStringLiteral("{\"k\": \"v\"}");
        QTest::newRow("lastOf prints its last child")
            << QByteArray("lastOf:\n- hidden\n- shown\n") << QStringLiteral("shown");
        QTest::newRow("defs and contribute without result print nothing")
            << QByteArray("defs:\n  a: secret\ntext:\n- ${ a }!\n- data: no\n  contribute: []\n")
            << QStringLiteral("secret!");
        QTest::newRow("a parsed block without result prints nothing")
            << QByteArray("lastOf:\n- def: r\n  data: '{\"a\": 1}'\n  parser: json\n"
                          "  contribute: []\n- ${ r.a }\n")
            << QStringLiteral("1");
        QTest::newRow("text join streams its separators")
            << QByteArray("for:\n  i: [1, 2, 3]\nrepeat: ${ i }\njoin:\n  with: ', '\n")
            << QStringLiteral("1, 2, 3");
        QTest::newRow("parsed result prints once parsed")
            << QByteArray("text:\n- data: '{\"a\": 1}'\n  parser: json\n")
            << QStringLiteral("{\"a\": 1}");
        QTest::newRow("function bodies stream where called, not where defined")
            << QByteArray("text:\n- def: f\n  function: {x: string}\n  return: Hi ${ x }\n"
                          "- call: ${ f }\n  args: {x: A}\n- ' ${ f(\"B\") }'\n")
            << QStringLiteral("Hi A Hi B");
        QTest::newRow("a model's input is not output")
            << QByteArray("model: m\ninput: ask this\nparameters: {mock_response: answer}\n")
            << QStringLiteral("answer");
        QTest::newRow("a loop's one-child text streams each iteration")
            << QByteArray("text:\n- repeat:\n    text: \"${ i }-\"\n  index: i\n"
                          "  maxIterations: 3\n- lastOf:\n  - hidden\n  - ${ 1 + 1 }\n")
            << QStringLiteral("0-1-2-2");
        QTest::newRow("if streams its branch")
            << QByteArray("if: ${ true }\nthen:\n  text: [x, y]\nelse: z\n")
            << QStringLiteral("xy");
    }

    void streamResult()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, streamed);
        RunOptions o;
        o.streamResult = true;
        std::string out;
        o.writeStdout = [&](std::string_view s) {
            out += s;
        };
        RunResult r = runText(program, o);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(out), streamed);
        QCOMPARE(QString::fromStdString(out), QString::fromStdString(r.result.toText()));
    }

    void traceHasReferenceIdsAndLocations()
    {
        RunOptions o;
        o.trace = true;
        RunResult r =
            runText("text:\n- def: x\n  data: 1\n- for:\n    i: [1, 2]\n  repeat: ${ i + x }\n", o);
        QVERIFY(r.ok);
        QVERIFY(r.trace);
        nlohmann::json j = nlohmann::json::parse(traceToString(*r.trace));
        QCOMPARE(j["kind"], "text");
        QCOMPARE(j["pdl__id"], "text");
        QCOMPARE(j["pdl__result"], "123");
        QCOMPARE(j["text"][0]["pdl__id"], "text.0.data");
        QCOMPARE(j["text"][1]["pdl__id"], "text.1.repeat");
        QCOMPARE(j["text"][1]["pdl__trace"][1]["pdl__id"], "text.1.repeat.1.data");
        QCOMPARE(j["text"][1]["pdl__trace"][1]["data"]["pdl__result"], 3);
        QCOMPARE(j["text"][1]["pdl__location"]["line"], 4);
        QCOMPARE(j["text"][1]["pdl__location"]["column"], 3);
        QVERIFY(j["pdl__timing"]["end_nanos"].get<int64_t>() >=
                j["pdl__timing"]["start_nanos"].get<int64_t>());
    }

    void failedBlockIsAnErrorNodeInThePartialTrace()
    {
        RunOptions o;
        o.trace = true;
        RunResult r = runText("text:\n- ok\n- ${ missing }\n", o);
        QVERIFY(!r.ok);
        nlohmann::json j = nlohmann::json::parse(traceToString(*r.trace));
        QCOMPARE(j["text"][0]["pdl__result"], "ok");
        QCOMPARE(j["text"][1]["kind"], "error");
        QVERIFY(j["text"][1]["msg"].get<std::string>().find("missing") != std::string::npos);
    }

    void modelAgainstLocalServerStreamsAndReplays()
    {
        testing::OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueueChat(
            testing::ScriptedReply::chatStream({QStringLiteral("Bon"), QStringLiteral("jour")}));
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-secret");
        Result<std::shared_ptr<models::IModelProvider>> provider =
            models::createDefaultProvider(QDir::tempPath());
        QVERIFY(provider.ok());
        const QByteArray program = "text:\n- Say hello in French\n- model: openai/test\n";
        RunOptions o;
        o.models = *provider;
        o.trace = true;
        o.streamResult = true;
        std::string streamed;
        o.writeStdout = [&](std::string_view s) {
            streamed += s;
        };
        RunResult r = runText(program, o);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.toText()),
                 QStringLiteral("Say hello in FrenchBonjour"));
        // `--stream result` prints the whole result as it is produced, the reply as it arrives.
        QCOMPARE(streamed, std::string("Say hello in FrenchBonjour"));
        // The model saw the context so far, without Hako's pdl__defsite.
        const auto requests = server.requests();
        QCOMPARE(requests.size(), 1);
        nlohmann::json body = nlohmann::json::parse(requests[0].body.toStdString());
        QCOMPARE(body["messages"][0]["content"], "Say hello in French");
        QVERIFY(!body["messages"][0].contains("pdl__defsite"));
        QVERIFY(requests[0].body.indexOf("sk-test-secret") < 0);
        // The trace says which model answered: the name the endpoint was asked for and the one
        // the server reported, beside the block's own `openai/test`.
        std::function<const TraceNode*(const TraceNode&)> modelNode =
            [&](const TraceNode& n) -> const TraceNode* {
            if (n.kind == BlockKind::Model)
                return &n;
            for (const auto& c : n.children)
                for (const auto& child : c.nodes)
                    if (const TraceNode* m = child ? modelNode(*child) : nullptr)
                        return m;
            return nullptr;
        };
        const TraceNode* called = modelNode(*r.trace);
        QVERIFY(called && called->usage.isDict());
        QCOMPARE(called->usage.asDict().find("resolved_model")->toText(), std::string("test"));
        QCOMPARE(called->usage.asDict().find("response_model")->toText(),
                 std::string("test-model"));

        // Replay reuses the recorded reply without any request.
        RunOptions replay;
        replay.replay =
            std::make_shared<std::unordered_map<std::string, Value>>(replayTable(*r.trace));
        RunResult again = runText(program, replay);
        QVERIFY2(again.ok, qPrintable(again.error.message));
        QCOMPARE(again.result.toText(), r.result.toText());
        QCOMPARE(server.requests().size(), 1);
    }

    void replayedCallKeepsItsRecordedTokens()
    {
        testing::OpenAiTestServer server;
        QVERIFY(server.start());
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-secret");
        Result<std::shared_ptr<models::IModelProvider>> provider =
            models::createDefaultProvider(QDir::tempPath());
        QVERIFY(provider.ok());
        const QByteArray program = "text:\n- Say hello\n- model: openai/test\n";
        RunOptions o;
        o.models = *provider;
        o.trace = true;
        RunResult first = runText(program, o);
        QVERIFY2(first.ok, qPrintable(first.error.message));
        // A re-run replaying the call (as Re-run from Here does) counts the tokens its recording
        // took, so comparing the two runs compares like with like.
        std::unordered_map<std::string, TracePtr> records;
        std::function<void(const TracePtr&)> collect = [&](const TracePtr& n) {
            records[n->id] = n;
            for (const auto& c : n->children)
                for (const auto& child : c.nodes)
                    if (child)
                        collect(child);
        };
        collect(first.trace);
        RunOptions replay;
        replay.trace = true;
        replay.replay =
            std::make_shared<std::unordered_map<std::string, Value>>(replayTable(*first.trace));
        replay.replayRecords =
            std::make_shared<std::unordered_map<std::string, TracePtr>>(std::move(records));
        RunResult again = runText(program, replay);
        QVERIFY2(again.ok, qPrintable(again.error.message));
        QCOMPARE(server.requests().size(), 1);
        auto tokensOf = [](const TraceNode& root) {
            int64_t total = 0;
            std::function<void(const TraceNode&)> walk = [&](const TraceNode& n) {
                if (n.kind == BlockKind::Model && n.usage.isDict())
                    if (const Value* p = n.usage.asDict().find("prompt_tokens"))
                        total += p->asInt();
                for (const auto& c : n.children)
                    for (const auto& child : c.nodes)
                        if (child)
                            walk(*child);
            };
            walk(root);
            return total;
        };
        QVERIFY(tokensOf(*first.trace) > 0);
        QCOMPARE(tokensOf(*again.trace), tokensOf(*first.trace));
    }

    void structuredOutputIsRepairedOnce()
    {
        testing::OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueueChat(testing::ScriptedReply::chat(QStringLiteral("{\"name\": 3}")));
        server.enqueueChat(testing::ScriptedReply::chat(QStringLiteral("{\"name\": \"Ada\"}")));
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-secret");
        Result<std::shared_ptr<models::IModelProvider>> provider =
            models::createDefaultProvider(QDir::tempPath());
        QVERIFY(provider.ok());
        RunOptions o;
        o.models = *provider;
        const QByteArray program = "model: openai/test\ninput: Who?\nspec: {name: string}\n";
        RunResult r = runText(program, o);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.json()), QStringLiteral("{\"name\": \"Ada\"}"));
        const auto requests = server.requests();
        QCOMPARE(requests.size(), 2);
        QVERIFY(requests[1].body.contains("The JSON object is invalid for the following reason"));
        QVERIFY(requests[0].body.contains("json_schema"));
    }
};

QTEST_GUILESS_MAIN(TestInterpreter)
#include "tst_interpreter.moc"
