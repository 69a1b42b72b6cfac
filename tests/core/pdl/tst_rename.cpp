// Renaming a variable across a program (planRename): every name shape, every refusal, and an
// oracle over the shared conformance programs (rename each variable, re-analyse, rename back).
#include "core/pdl/analysis/rename.h"
#include "core/pdl/programcheck.h"

#include <QDirIterator>
#include <QFile>
#include <QTest>

#include <set>

using namespace hako;
using namespace hako::pdl;

namespace {

// `program` with a `|` marking the cursor: the text without it and the cursor's line/column.
struct Marked {
    QByteArray text;
    int line = 0;
    int column = 0;
};

Marked unmark(const QByteArray& program)
{
    Marked m;
    const qsizetype at = program.indexOf('|');
    m.text = program;
    m.text.remove(at, 1);
    const QByteArray before = program.left(at);
    m.line = int(before.count('\n')) + 1;
    const qsizetype lineStart = before.lastIndexOf('\n') + 1;
    m.column = int(QString::fromUtf8(before.mid(lineStart)).toUcs4().size()) + 1;
    return m;
}

Result<RenamePlan> plan(const Marked& m, const QString& newName, ProgramReport* keep = nullptr)
{
    ProgramReport report = analyzeProgramText(m.text, QStringLiteral("p.pdl"));
    if (!report.parse.program || !report.scopes)
        return makeError(QStringLiteral("no program"));
    auto r = planRename(*report.parse.program, m.text, *report.scopes, m.line, m.column, newName);
    if (keep)
        *keep = std::move(report);
    return r;
}

} // namespace

class TestRename : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void renames_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("newName");
        QTest::addColumn<QByteArray>("expected");

        QTest::newRow("def and plain use")
            << QByteArray("text:\n- def: |x\n  data: 1\n- ${ x }\n") << "y"
            << QByteArray("text:\n- def: y\n  data: 1\n- ${ y }\n");
        QTest::newRow("from a use") << QByteArray("text:\n- def: x\n  data: 1\n- ${ |x }\n") << "y"
                                    << QByteArray("text:\n- def: y\n  data: 1\n- ${ y }\n");
        QTest::newRow("attribute, index, call argument")
            << QByteArray("text:\n- def: |x\n  data: {a: [1]}\n- ${ x.a }${ x[0] }${ len(x) }\n")
            << "obj"
            << QByteArray(
                   "text:\n- def: obj\n  data: {a: [1]}\n- ${ obj.a }${ obj[0] }${ len(obj) }\n");
        QTest::newRow("attribute of the same name untouched")
            << QByteArray("text:\n- def: |name\n  data: 1\n- def: x\n  data: {name: 2}\n"
                          "- ${ x.name + name }\n")
            << "n"
            << QByteArray("text:\n- def: n\n  data: 1\n- def: x\n  data: {name: 2}\n"
                          "- ${ x.name + n }\n");
        QTest::newRow("string literal untouched")
            << QByteArray("text:\n- def: |x\n  data: 1\n- ${ 'x' ~ x }\n- \"x is ${x}\"\n") << "y"
            << QByteArray("text:\n- def: y\n  data: 1\n- ${ 'x' ~ y }\n- \"x is ${y}\"\n");
        QTest::newRow("get field") << QByteArray("lastOf:\n- def: |x\n  data: 1\n- get: x\n") << "y"
                                   << QByteArray("lastOf:\n- def: y\n  data: 1\n- get: y\n");
        QTest::newRow("quoted def and comments kept")
            << QByteArray("text:\n- def: \"|x\"  # the x\n  data: 1\n- ${ x } # x\n") << "y"
            << QByteArray("text:\n- def: \"y\"  # the x\n  data: 1\n- ${ y } # x\n");
        QTest::newRow("defs key") << QByteArray("defs:\n  |x: 1\n  z: ${ x + 1 }\ntext: ${ x }\n")
                                  << "y"
                                  << QByteArray("defs:\n  y: 1\n  z: ${ y + 1 }\ntext: ${ y }\n");
        QTest::newRow("redefinition renamed together")
            << QByteArray("lastOf:\n- def: |x\n  data: 1\n- def: x\n  data: ${ x + 1 }\n- ${ x }\n")
            << "y"
            << QByteArray("lastOf:\n- def: y\n  data: 1\n- def: y\n  data: ${ y + 1 }\n- ${ y }\n");
        QTest::newRow("if branches are one variable")
            << QByteArray("lastOf:\n- if: ${ true }\n  then:\n    def: |x\n    data: 1\n  else:\n"
                          "    def: x\n    data: 2\n- ${ x }\n")
            << "y"
            << QByteArray("lastOf:\n- if: ${ true }\n  then:\n    def: y\n    data: 1\n  else:\n"
                          "    def: y\n    data: 2\n- ${ y }\n");
        QTest::newRow("parameter with args key and keyword argument")
            << QByteArray("defs:\n  f:\n    function:\n      |a: int\n    return: ${ a * 2 }\n"
                          "lastOf:\n- call: ${ f }\n  args:\n    a: 1\n- ${ f(a=2) }\n"
                          "- ${ a if a is defined else 0 }\n")
            << "n"
            << QByteArray("defs:\n  f:\n    function:\n      n: int\n    return: ${ n * 2 }\n"
                          "lastOf:\n- call: ${ f }\n  args:\n    n: 1\n- ${ f(n=2) }\n"
                          "- ${ a if a is defined else 0 }\n");
        QTest::newRow("parameter of a def'd function, quoted args key")
            << QByteArray("lastOf:\n- def: g\n  function:\n    |p: str\n  return: ${ p }\n"
                          "- call: ${ g }\n  args:\n    \"p\": 1 # p\n- call: ${ h }\n  args:\n"
                          "    p: 2\n")
            << "q"
            << QByteArray("lastOf:\n- def: g\n  function:\n    q: str\n  return: ${ q }\n"
                          "- call: ${ g }\n  args:\n    \"q\": 1 # p\n- call: ${ h }\n  args:\n"
                          "    p: 2\n");
        QTest::newRow("parameter shadows an outer def")
            << QByteArray("lastOf:\n- def: |a\n  data: 1\n- def: f\n  function:\n    a: int\n"
                          "  return: ${ a }\n- ${ a }\n")
            << "b"
            << QByteArray("lastOf:\n- def: b\n  data: 1\n- def: f\n  function:\n    a: int\n"
                          "  return: ${ a }\n- ${ b }\n");
        QTest::newRow("loop variable and index")
            << QByteArray("repeat: ${ |item ~ i }\nfor:\n  item: [1, 2]\nindex: i\n") << "it"
            << QByteArray("repeat: ${ it ~ i }\nfor:\n  it: [1, 2]\nindex: i\n");
        QTest::newRow("loop index")
            << QByteArray("repeat: ${ item ~ |i }\nfor:\n  item: [1, 2]\nindex: i\n") << "k"
            << QByteArray("repeat: ${ item ~ k }\nfor:\n  item: [1, 2]\nindex: k\n");
        QTest::newRow("block scalar use")
            << QByteArray("lastOf:\n- def: |x\n  data: 1\n- text: |\n    a\n    b ${ x } c\n")
            << "y"
            << QByteArray("lastOf:\n- def: y\n  data: 1\n- text: |\n    a\n    b ${ y } c\n");
        QTest::newRow("non-ASCII before the name")
            << QByteArray("text:\n- def: |x\n  data: 1\n- \"héllo ☃ ${ x }\"\n") << "y"
            << QByteArray("text:\n- def: y\n  data: 1\n- \"héllo ☃ ${ y }\"\n");
        QTest::newRow("model response")
            << QByteArray("lastOf:\n- model: m\n  modelResponse: |r\n- ${ r }\n") << "resp"
            << QByteArray("lastOf:\n- model: m\n  modelResponse: resp\n- ${ resp }\n");
        QTest::newRow("expression inside PDL code is a use")
            << QByteArray("defs:\n  |x: 1\nlang: pdl\ncode: |\n  data: ${x}\n") << "y"
            << QByteArray("defs:\n  y: 1\nlang: pdl\ncode: |\n  data: ${y}\n");
        QTest::newRow("match binding")
            << QByteArray("match: ${ 1 }\nwith:\n- case:\n    any:\n    def: |v\n  then: ${ v }\n")
            << "w"
            << QByteArray("match: ${ 1 }\nwith:\n- case:\n    any:\n    def: w\n  then: ${ w }\n");
    }

    void renames()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, newName);
        QFETCH(QByteArray, expected);
        const Marked m = unmark(program);
        const auto r = plan(m, newName);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        const QByteArray renamed = applyRenameEdits(m.text, r->edits);
        QCOMPARE(renamed, expected);
        // The UTF-16 offsets replace the same text in the editor's string.
        QString asString = QString::fromUtf8(m.text);
        for (auto it = r->edits.rbegin(); it != r->edits.rend(); ++it)
            asString.replace(it->utf16Offset, it->utf16Length, it->replacement);
        QCOMPARE(asString, QString::fromUtf8(expected));
    }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("newName");
        QTest::addColumn<QString>("error");

        const QByteArray simple(
            "lastOf:\n- def: |x\n  data: 1\n- def: y\n  data: 2\n- ${ x + y }\n");
        QTest::newRow("not an identifier") << simple << "1abc"
                                           << "not a valid variable name";
        QTest::newRow("spaces") << simple << "a b"
                                << "not a valid variable name";
        QTest::newRow("python keyword") << simple << "lambda"
                                        << "keyword";
        QTest::newRow("jinja literal") << simple << "none"
                                       << "keyword";
        QTest::newRow("reserved prefix") << simple << "pdl_context"
                                         << "reserved";
        QTest::newRow("builtin function") << simple << "range"
                                          << "built-in function";
        QTest::newRow("same name") << simple << "x"
                                   << "same";
        QTest::newRow("empty") << simple << ""
                               << "empty";
        QTest::newRow("already in reach")
            << QByteArray("lastOf:\n- def: |x\n  data: 1\n- def: y\n  data: 2\n- ${ x }\n") << "y"
            << "already defined";
        QTest::newRow("would capture a later use")
            << QByteArray("lastOf:\n- def: y\n  data: 2\n- def: |x\n  data: 1\n- ${ x + y }\n")
            << "y"
            << "already used";
        QTest::newRow("capture of an undefined use")
            << QByteArray("lastOf:\n- def: |x\n  data: 1\n- ${ x + y }\n") << "y"
            << "already used";
        QTest::newRow("builtin variable") << QByteArray("text: ${ |pdl_context }\n") << "c"
                                          << "built into PDL";
        QTest::newRow("undefined use") << QByteArray("text: ${ |nope }\n") << "c"
                                       << "not defined";
        QTest::newRow("nothing under the cursor") << QByteArray("te|xt: hello\n") << "c"
                                                  << "Put the cursor on a variable";
        QTest::newRow("read by Python code")
            << QByteArray("defs:\n  |NAME: Alice\nlang: python\ncode: |\n  result = NAME[::-1]\n")
            << "N"
            << "Python code";
        QTest::newRow("read by Jinja code")
            << QByteArray("defs:\n  |world: World\nlang: jinja\ncode: |\n  Hello {{ world }}!\n")
            << "w"
            << "Jinja code";
        QTest::newRow("name built by Jinja delimiters")
            << QByteArray("defs:\n  |name: World\nlang: jinja\ncode: |\n"
                          "  Hello ${ \"${\" } name ${ \"}\" }!\n")
            << "n"
            << "Jinja code";
        QTest::newRow("program reads pdl_scope")
            << QByteArray("defs:\n  |x: 1\ntext: ${ pdl_scope['x'] }\n") << "y"
            << "pdl_scope";
        QTest::newRow("parameter collides with another parameter")
            << QByteArray("def: f\nfunction:\n  |a: int\n  b: int\nreturn: ${ a + b }\n") << "b"
            << "already defined";
    }

    void refusals()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, newName);
        QFETCH(QString, error);
        const auto r = plan(unmark(program), newName);
        QVERIFY2(!r.ok(), "the rename was accepted");
        QVERIFY2(r.error().message.contains(error, Qt::CaseInsensitive),
                 qPrintable(r.error().message));
    }

    void externalRefused()
    {
        const Marked m = unmark("text: ${ |doc }\n");
        ScopeOptions options;
        options.externalNames = {QStringLiteral("doc")};
        const ProgramReport report = analyzeProgramText(m.text, QStringLiteral("p.pdl"), options);
        const auto r =
            planRename(*report.parse.program, m.text, *report.scopes, m.line, m.column, "d");
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QLatin1String("outside")));
    }

    // For every program of the shared conformance corpora that parses and every variable it
    // defines: rename to a fresh name, re-analyse (same resolved uses, no new warnings), and
    // rename back to the exact original bytes.
    void oracle()
    {
        const QStringList roots = {QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl-unit"),
                                   QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl")};
        int programs = 0, variables = 0, refused = 0;
        QStringList refusedWhy;
        bool any = false;
        for (const QString& root : roots) {
            QDirIterator it(root, {QStringLiteral("*.pdl"), QStringLiteral("*.yaml")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                any = true;
                const QString path = it.next();
                QFile f(path);
                if (!f.open(QIODevice::ReadOnly))
                    continue;
                const QByteArray text = f.readAll();
                const ProgramReport report = analyzeProgramText(text, path);
                if (!report.parse.program || !report.parse.ok() || !report.scopes)
                    continue;
                ++programs;
                const ScopeAnalysis& scopes = *report.scopes;
                int resolved = 0;
                for (const VariableUse& u : scopes.uses)
                    resolved += u.definition >= 0;
                std::set<std::pair<int, int>> done;
                int n = 0;
                for (const VariableDefinition& d : scopes.definitions) {
                    if (!d.span.isValid() || d.span.file != path ||
                        !done.insert({d.span.line, d.span.column}).second)
                        continue;
                    const QString where = QStringLiteral("%1:%2:%3 '%4'")
                                              .arg(path)
                                              .arg(d.span.line)
                                              .arg(d.span.column)
                                              .arg(QString::fromStdString(d.name));
                    const QString fresh = QStringLiteral("renamed_%1").arg(++n);
                    const auto r = planRename(*report.parse.program, text, scopes, d.span.line,
                                              d.span.column, fresh);
                    if (!r.ok()) {
                        ++refused;
                        refusedWhy << where + QStringLiteral(": ") + r.error().message;
                        continue;
                    }
                    ++variables;
                    const QByteArray renamed = applyRenameEdits(text, r->edits);
                    const ProgramReport after = analyzeProgramText(renamed, path);
                    QVERIFY2(after.parse.program && after.parse.ok() && after.scopes,
                             qPrintable(where + QStringLiteral(": no longer parses")));
                    int resolvedAfter = 0;
                    for (const VariableUse& u : after.scopes->uses)
                        resolvedAfter += u.definition >= 0;
                    QVERIFY2(resolvedAfter == resolved,
                             qPrintable(where + QStringLiteral(": %1 resolved uses, %2 before")
                                                    .arg(resolvedAfter)
                                                    .arg(resolved)));
                    QVERIFY2(after.scopes->warnings.size() == scopes.warnings.size(),
                             qPrintable(where + QStringLiteral(": warnings changed")));
                    // Back, from the first renamed place that is a use or definition (its
                    // column moves by what earlier edits on its line changed).
                    int backLine = 0, backColumn = 0, shift = 0, shiftLine = 0;
                    for (const RenameEdit& e : r->edits) {
                        if (e.span.line != shiftLine) {
                            shiftLine = e.span.line;
                            shift = 0;
                        }
                        const int column = e.span.column + shift;
                        shift += int(fresh.size()) - (e.span.endColumn - e.span.column + 1);
                        if (after.scopes->useAt(e.span.line, column) ||
                            after.scopes->definitionAt(e.span.line, column)) {
                            backLine = e.span.line;
                            backColumn = column;
                            break;
                        }
                    }
                    QVERIFY2(backLine > 0, qPrintable(where + QStringLiteral(": no edit at it")));
                    const auto back =
                        planRename(*after.parse.program, renamed, *after.scopes, backLine,
                                   backColumn, QString::fromStdString(d.name));
                    QVERIFY2(back.ok(), qPrintable(where + QStringLiteral(": back: ") +
                                                   (back.ok() ? QString() : back.error().message)));
                    QVERIFY2(applyRenameEdits(renamed, back->edits) == text,
                             qPrintable(where + QStringLiteral(": renaming back differs")));
                }
            }
        }
        if (!any)
            QSKIP("../shared/conformance is not present");
        qInfo("oracle: %d programs, %d variables renamed and back, %d refused", programs, variables,
              refused);
        for (const QString& why : refusedWhy)
            qInfo("  refused: %s", qPrintable(why));
        QVERIFY(variables > 0);
    }
};

QTEST_GUILESS_MAIN(TestRename)
#include "tst_rename.moc"
