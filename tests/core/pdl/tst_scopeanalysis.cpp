// Static scope analysis: which variables are in reach where, and the "used but never defined"
// warnings `hako check` and the editor show.
#include "core/pdl/check/scopeanalysis.h"
#include "core/pdl/programcheck.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace hako;
using namespace hako::pdl;

namespace {

// "line:column:name" of every warning, in order.
QStringList warningsOf(const QByteArray& text, const QString& file = QStringLiteral("p.pdl"),
                       const QStringList& external = {})
{
    ScopeOptions options;
    options.externalNames = external;
    const ProgramReport report = analyzeProgramText(text, file, options);
    QStringList out;
    if (!report.scopes)
        return {QStringLiteral("no analysis")};
    for (const Diagnostic& d : report.scopes->warnings) {
        const QString name = d.message.section(QLatin1Char('\''), 1, 1);
        out << QStringLiteral("%1:%2:%3").arg(d.span.line).arg(d.span.column).arg(name);
    }
    return out;
}

} // namespace

class TestScopeAnalysis : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void warnings_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QStringList>("expected");

        QTest::newRow("undefined in mixed string")
            << QByteArray("text:\n- \"Hello ${ name }\"\n") << QStringList{"2:13:name"};
        QTest::newRow("after an escaped newline in a double-quoted string")
            << QByteArray("text:\n- \"\\nHello ${ name }\"\n") << QStringList{"2:15:name"};
        QTest::newRow("def flows to later sibling")
            << QByteArray("text:\n- def: x\n  data: 1\n- ${ x }\n") << QStringList{};
        QTest::newRow("nested def flows out")
            << QByteArray("text:\n- text:\n  - def: x\n    data: 3\n- ${ x + 1 }\n")
            << QStringList{};
        QTest::newRow("use before the def")
            << QByteArray("text:\n- ${ y }\n- def: y\n  data: 2\n") << QStringList{"2:6:y"};
        QTest::newRow("function parameters and closure")
            << QByteArray("defs:\n  f:\n    function:\n      a: int\n    return: ${ a + b }\n"
                          "text:\n- ${ f(a=1) }\n")
            << QStringList{"5:20:b"};
        QTest::newRow("parameters do not leak")
            << QByteArray(
                   "lastOf:\n- def: g\n  function:\n    p: str\n  return: ${ p }\n- ${ p }\n")
            << QStringList{"6:6:p"};
        QTest::newRow("repeat for, index, until sees the body")
            << QByteArray("repeat:\n  lastOf:\n  - ${ i + n }\n  - def: done\n    data: true\n"
                          "for:\n  n: [1, 2]\nindex: i\nuntil: ${ done }\n")
            << QStringList{};
        QTest::newRow("repeat body reads what an earlier iteration defined")
            << QByteArray("defs:\n  n: 0\nindex: i\nrepeat:\n  lastOf:\n  - ${ total if i > 0 "
                          "else 0 }\n  - def: total\n    data: ${ n }\nmaxIterations: 2\n")
            << QStringList{};
        QTest::newRow("map variables do not leak")
            << QByteArray("lastOf:\n- map: ${ x }\n  for:\n    x: [1, 2]\n- ${ x }\n")
            << QStringList{"5:6:x"};
        QTest::newRow("guarded by is defined and default")
            << QByteArray("text:\n- ${ foo if foo is defined else 1 }\n- ${ bar | default(2) }\n")
            << QStringList{};
        QTest::newRow("built-ins and Jinja globals")
            << QByteArray("text:\n- ${ pdl_context | length }\n- ${ range(3) | list }\n- ${ "
                          "pdl_usage }\n")
            << QStringList{};
        QTest::newRow("attributes and filter names are not variables")
            << QByteArray("defs:\n  s: abc\ntext: ${ s.upper() | replace('A', 'b') }\n")
            << QStringList{};
        QTest::newRow("match binding")
            << QByteArray("match: ${ [1, 2] }\nwith:\n- case:\n    array:\n    - 1\n    - def: n\n"
                          "      any: null\n  if: ${ n > 1 }\n  then: ${ n }\n")
            << QStringList{};
        QTest::newRow("block scalar, second line")
            << QByteArray("text: |\n  line one\n  and ${ zed }\n") << QStringList{"3:10:zed"};
        QTest::newRow("Japanese before the name")
            << QByteArray("text:\n- \"日本語 ${ nai }\"\n") << QStringList{"2:11:nai"};
        QTest::newRow("get of an undefined variable")
            << QByteArray("text:\n- get: nothing\n") << QStringList{"2:8:nothing"};
        QTest::newRow("model response defines a variable")
            << QByteArray("text:\n- model: m\n  modelResponse: raw\n  parameters:\n    "
                          "mock_response: hi\n- ${ raw }\n")
            << QStringList{};
        QTest::newRow("nested in a data mapping")
            << QByteArray("data:\n  a: [1, \"${ q }\"]\n") << QStringList{"2:14:q"};
        QTest::newRow("call args keys are parameters, values are uses")
            << QByteArray("defs:\n  f:\n    function:\n      a: int\n    return: ${ a }\n"
                          "call: ${ f }\nargs:\n  a: ${ w }\n")
            << QStringList{"8:9:w"};
        QTest::newRow("syntax error gives no warning")
            << QByteArray("text: ${ x + }\n") << QStringList{};
    }

    void warnings()
    {
        QFETCH(QByteArray, program);
        QFETCH(QStringList, expected);
        QCOMPARE(warningsOf(program), expected);
    }

    void messageSaysNeverDefined()
    {
        const ProgramReport r = analyzeProgramText("text: ${ ghost }\n", QStringLiteral("p.pdl"));
        QVERIFY(r.scopes);
        QCOMPARE(r.scopes->warnings.size(), size_t(1));
        const Diagnostic& d = r.scopes->warnings.front();
        QCOMPARE(d.severity, Severity::Warning);
        QCOMPARE(d.message, QStringLiteral("variable 'ghost' is used but never defined"));
        QCOMPARE(d.span.line, 1);
        QCOMPARE(d.span.column, 10);
        QCOMPARE(d.span.endColumn, 14);
        // The report merges it with the parse diagnostics; warnings alone are not errors.
        QCOMPARE(r.errorCount(), 0);
        QCOMPARE(r.diagnostics.size(), size_t(1));
    }

    void externalNamesAreDefined()
    {
        QCOMPARE(warningsOf("text: ${ something }\n", QStringLiteral("p.pdl"),
                            {QStringLiteral("something")}),
                 QStringList{});
    }

    void includeBringsNames()
    {
        QTemporaryDir dir;
        QFile lib(dir.filePath(QStringLiteral("lib.pdl")));
        QVERIFY(lib.open(QIODevice::WriteOnly));
        lib.write("defs:\n  fromlib: 1\ntext: ${ unrelated_in_lib }\n");
        lib.close();
        const QString main = dir.filePath(QStringLiteral("main.pdl"));
        // The included file's own problems are not reported against this file.
        QCOMPARE(warningsOf("text:\n- include: lib.pdl\n- ${ fromlib }\n", main), QStringList{});
        QCOMPARE(warningsOf("text:\n- ${ fromlib }\n- include: lib.pdl\n", main),
                 QStringList{"2:6:fromlib"});
    }

    // Every kind of block is walked as its own kind: an `import` block was once read as an
    // empty block (for its `factor`), and the analysis of any program importing a library
    // crashed. Factor weights are expressions whose names are checked.
    void importAndFactorBlocks()
    {
        QTemporaryDir dir;
        QFile lib(dir.filePath(QStringLiteral("lib.pdl")));
        QVERIFY(lib.open(QIODevice::WriteOnly));
        lib.write("defs:\n  greet:\n    function: {}\n    return: hello\n");
        lib.close();
        const QString main = dir.filePath(QStringLiteral("main.pdl"));
        QCOMPARE(warningsOf("defs:\n  lib:\n    import: lib\ntext:\n- ${ examples }\n"
                            "- factor: ${ weight }\n",
                            main),
                 (QStringList{"5:6:examples", "6:14:weight"}));
    }

    void definitionsForHover()
    {
        const QByteArray text = "text:\n- def: answer\n  data: 42\n- ${ answer }\n";
        const ProgramReport r = analyzeProgramText(text, QStringLiteral("p.pdl"));
        QVERIFY(r.scopes);
        // On the use (line 4, inside `answer`), the definition is the `def` on line 2.
        const VariableDefinition* d = r.scopes->resolveAt(4, 7);
        QVERIFY(d);
        QCOMPARE(d->name, std::string("answer"));
        QCOMPARE(d->kind, VariableKind::Def);
        QCOMPARE(d->span.line, 2);
        QCOMPARE(d->span.column, 8);
        QVERIFY(!r.scopes->resolveAt(4, 3)); // `${` is not a name
        // On the definition itself.
        QCOMPARE(r.scopes->resolveAt(2, 9), d);
    }

    void namesInReachForCompletion()
    {
        const QByteArray text = "text:\n- def: early\n  data: 1\n- lastOf:\n  - def: f\n    "
                                "function:\n      p: int\n    return: ${ p }\n  - ${ early }\n"
                                "- def: late\n  data: 2\n";
        const ProgramReport r = analyzeProgramText(text, QStringLiteral("p.pdl"));
        QVERIFY(r.scopes);
        auto names = [&](int line, int column) {
            QStringList out;
            for (const VariableDefinition* d : r.scopes->namesInReach(line, column))
                out << QString::fromStdString(d->name);
            return out;
        };
        const QStringList inBody = names(8, 16);
        QVERIFY2(inBody.contains(QLatin1String("p")), qPrintable(inBody.join(',')));
        QVERIFY(inBody.contains(QLatin1String("early")));
        QVERIFY(inBody.contains(QLatin1String("pdl_context")));
        QVERIFY(!inBody.contains(QLatin1String("late")));
        const QStringList after = names(9, 8);
        QVERIFY2(!after.contains(QLatin1String("p")), qPrintable(after.join(',')));
        QVERIFY(after.contains(QLatin1String("f")));
        QVERIFY(!after.contains(QLatin1String("late")));
    }

    // No false positives: every conformance program that runs successfully (with the data its
    // case passes) analyses without a warning; every failing one whose reference error is
    // "'X' is undefined" gets a warning for X on the reference's line.
    void conformancePrograms()
    {
        const QString root = QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl");
        QFile casesFile(root + QStringLiteral("/cases.json"));
        if (!casesFile.open(QIODevice::ReadOnly))
            QSKIP("../shared/conformance/pdl is not present");
        const QJsonArray cases = QJsonDocument::fromJson(casesFile.readAll()).array();
        QVERIFY(cases.size() >= 83);
        const QRegularExpression undefinedError(
            QStringLiteral(":(\\d+) - Error during the evaluation of .*'(\\w+)' is undefined"));
        QStringList problems;
        int clean = 0;
        int caught = 0;
        for (const QJsonValue& c : cases) {
            const QJsonObject o = c.toObject();
            ScopeOptions options;
            options.externalNames = o.value(QLatin1String("scope")).toObject().keys();
            const QString path =
                root + QStringLiteral("/programs/") + o.value(QLatin1String("program")).toString();
            const ProgramReport r = analyzeProgram(path, options);
            if (!r.scopes) {
                problems << path + QStringLiteral(": not analysed");
                continue;
            }
            if (o.value(QLatin1String("exit")).toInt() == 0) {
                for (const Diagnostic& d : r.scopes->warnings)
                    problems << d.toString();
                ++clean;
                continue;
            }
            QString stderrText;
            for (const QJsonValue& line : o.value(QLatin1String("stderr")).toArray())
                stderrText += line.toString() + QLatin1Char('\n');
            const QRegularExpressionMatch m = undefinedError.match(stderrText);
            if (!m.hasMatch())
                continue;
            const int line = m.captured(1).toInt();
            const QString name = m.captured(2);
            const bool found = std::any_of(
                r.scopes->warnings.begin(), r.scopes->warnings.end(), [&](const Diagnostic& d) {
                    return d.span.line == line &&
                           d.message.contains(QLatin1Char('\'') + name + QLatin1Char('\''));
                });
            if (found)
                ++caught;
            else
                problems
                    << QStringLiteral("%1:%2: no warning for '%3'").arg(path).arg(line).arg(name);
        }
        qInfo("%d successful programs without warnings, %d undefined-variable failures caught",
              clean, caught);
        QVERIFY(clean > 50);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void noWarningsOnTestData()
    {
        QDirIterator it(QStringLiteral(HAKO_TEST_DATA_DIR), {QStringLiteral("*.pdl")}, QDir::Files,
                        QDirIterator::Subdirectories);
        QStringList problems;
        int analysed = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            // The model suite's programs run with `-d {server: …}` (tst_modelconformancegen),
            // as `hako run -d` gives a program names it does not define.
            ScopeOptions options;
            if (path.contains(QLatin1String("/conformance/model/")))
                options.externalNames = {QStringLiteral("server")};
            const ProgramReport r = analyzeProgram(path, options);
            if (!r.scopes || r.parse.diagnostics.size() > 0)
                continue; // fixtures of broken programs test the parser, not scopes
            ++analysed;
            for (const Diagnostic& d : r.scopes->warnings) {
                // all_kinds.pdl is parsed, never run: its `get: x` reads a function's
                // parameter outside the function, which a run would report too.
                if (path.endsWith(QLatin1String("pdl/all_kinds.pdl")) && d.span.line == 31)
                    continue;
                problems << d.toString();
            }
        }
        QVERIFY(analysed > 0);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestScopeAnalysis)
#include "tst_scopeanalysis.moc"
