// Quick fixes on diagnostics: misspelt fields, block kinds, variables and model names; a field
// that lost its indentation; an undefined variable defined as an input. Each fix is checked
// for its exact text and for what the checker says about the fixed program; a sweep over the
// conformance programs misspells their fields one at a time and expects a fix that gives the
// original bytes back.
#include "core/pdl/analysis/quickfix.h"
#include "core/pdl/parser/fieldtables.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/programcheck.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace hako;
using namespace hako::pdl;

namespace {

// Every field of a file is cheap to sweep (a parse each); the cap only bounds huge files.
constexpr int kFieldsPerFile = 40;
const QString kShared = QStringLiteral(HAKO_SHARED_DIR "/conformance");

ProgramReport analyze(const QString& text)
{
    return analyzeProgramText(text.toUtf8(), QStringLiteral("p.pdl"));
}

QStringList messages(const ProgramReport& report, Severity severity)
{
    QStringList out;
    for (const Diagnostic& d : report.diagnostics)
        if (d.severity == severity)
            out << d.message;
    return out;
}

// Every key of a block mapping, in document order.
void blockKeys(const YamlValue& node, const Program& program, std::vector<const YamlValue*>& out)
{
    if (node.isSequence()) {
        for (const YamlValue& item : node.items())
            blockKeys(item, program, out);
    } else if (node.isMapping()) {
        const bool block = std::find(program.blockNodes.begin(), program.blockNodes.end(), &node) !=
                           program.blockNodes.end();
        for (const auto& e : node.entries()) {
            if (block && e.key.isString() && e.key.style() == YamlValue::Style::Plain)
                out.push_back(&e.key);
            blockKeys(e.value, program, out);
        }
    }
}

// The last field of a block that is the last item of a list (`- model: m` / `  input: …`),
// with the item's dash column: that field, moved out to the dash, lands outside its block.
struct LastField {
    const YamlValue* key;
    int dashColumn; ///< 0-based
};

void lastFields(const YamlValue& node, const Program& program, std::vector<LastField>& out)
{
    if (node.isSequence()) {
        for (const YamlValue& item : node.items())
            lastFields(item, program, out);
        if (node.items().empty())
            return;
        const YamlValue& last = node.items().back();
        const bool block = std::find(program.blockNodes.begin(), program.blockNodes.end(), &last) !=
                           program.blockNodes.end();
        if (block && last.isMapping() && last.entries().size() >= 2) {
            const YamlValue& key = last.entries().back().key;
            const int column = last.entries().front().key.span().column - 1;
            if (key.isString() && key.style() == YamlValue::Style::Plain &&
                key.span().column - 1 == column && column >= 2)
                out.push_back({&key, column - 2});
        }
    } else if (node.isMapping()) {
        for (const auto& e : node.entries())
            lastFields(e.value, program, out);
    }
}

QStringList conformanceFiles()
{
    QStringList files;
    const QStringList dirs = {kShared + QStringLiteral("/pdl"),
                              kShared + QStringLiteral("/pdl-unit")};
    for (const QString& dir : dirs) {
        QDirIterator it(dir, {QStringLiteral("*.pdl"), QStringLiteral("*.yaml")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
    }
    files.sort();
    return files;
}

} // namespace

class TestQuickFix : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fixes_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<int>("line"); ///< the diagnostic's line
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("fixed");
        QTest::addColumn<bool>("first"); ///< the fix is offered first

        // `${　name　}` typed with a Japanese input method's spaces.
        QTest::newRow("full-width spaces")
            << QStringLiteral("defs:\n  name: 太郎\ntext:\n- \"こんにちは ${\u3000name\u3000}\"\n")
            << 4 << QStringLiteral("Replace the full-width spaces with ordinary spaces")
            << QStringLiteral("defs:\n  name: 太郎\ntext:\n- \"こんにちは ${ name }\"\n") << true;
        // Misspelt fields.
        QTest::newRow("model keyword, kind guessed")
            << QStringLiteral("text:\n- modle: granite\n  input: hi\n") << 2
            << QStringLiteral("Change to `model`")
            << QStringLiteral("text:\n- model: granite\n  input: hi\n") << true;
        QTest::newRow("model field")
            << QStringLiteral("model: m\ninptu: hi\n") << 2 << QStringLiteral("Change to `input`")
            << QStringLiteral("model: m\ninput: hi\n") << true;
        QTest::newRow("common field") << QStringLiteral("descrption: d\ntext: hi\n") << 1
                                      << QStringLiteral("Change to `description`")
                                      << QStringLiteral("description: d\ntext: hi\n") << true;
        QTest::newRow("kind keyword alone") << QStringLiteral("text:\n- lastOff:\n  - hi\n") << 2
                                            << QStringLiteral("Change to `lastOf`")
                                            << QStringLiteral("text:\n- lastOf:\n  - hi\n") << true;
        QTest::newRow("quoted key") << QStringLiteral("model: m\n\"inptu\": hi\n") << 2
                                    << QStringLiteral("Change to `input`")
                                    << QStringLiteral("model: m\n\"input\": hi\n") << true;
        QTest::newRow("crlf, japanese text around")
            << QStringLiteral("# 日本語\r\nmodel: m\r\nparamters:\r\n  temperature: 0\r\n") << 3
            << QStringLiteral("Change to `parameters`")
            << QStringLiteral("# 日本語\r\nmodel: m\r\nparameters:\r\n  temperature: 0\r\n")
            << true;
        // Misspelt block kind.
        QTest::newRow("kind value")
            << QStringLiteral("kind: modle\nmodel: m\n") << 1 << QStringLiteral("Change to `model`")
            << QStringLiteral("kind: model\nmodel: m\n") << true;
        // Misspelt variables: the names in reach.
        QTest::newRow("variable") << QStringLiteral("defs:\n  article: x\ntext:\n- ${ artcle }\n")
                                  << 4 << QStringLiteral("Change to `article`")
                                  << QStringLiteral("defs:\n  article: x\ntext:\n- ${ article }\n")
                                  << true;
        QTest::newRow("japanese variable")
            << QStringLiteral("defs:\n  名前: x\ntext:\n- \"😀 ${ 名後 }\"\n") << 4
            << QStringLiteral("Change to `名前`")
            << QStringLiteral("defs:\n  名前: x\ntext:\n- \"😀 ${ 名前 }\"\n") << true;
        // Define the input.
        QTest::newRow("define: no defs")
            << QStringLiteral("description: d\ntext:\n- ${ article }\n") << 3
            << QStringLiteral("Define `article` as an input of the program")
            << QStringLiteral("description: d\ndefs:\n  article: \"\"\ntext:\n- ${ article }\n")
            << true;
        QTest::newRow("define: no defs, comments, crlf, 4-space file")
            << QStringLiteral("# header\r\n\r\n# the body\r\ntext:\r\n-   model: m\r\n    input: "
                              "${ article }\r\n")
            << 6 << QStringLiteral("Define `article` as an input of the program")
            << QStringLiteral("# header\r\n\r\ndefs:\r\n    article: \"\"\r\n# the body\r\ntext:"
                              "\r\n-   model: m\r\n    input: ${ article }\r\n")
            << true;
        QTest::newRow("define: defs with a block scalar")
            << QStringLiteral("defs:\n  a: x\n  b: |\n    multi\n\ntext:\n- ${ article }\n") << 7
            << QStringLiteral("Define `article` as an input of the program")
            << QStringLiteral("defs:\n  a: x\n  b: |\n    multi\n  article: \"\"\n\ntext:\n- ${ "
                              "article }\n")
            << true;
        QTest::newRow("define: empty defs")
            << QStringLiteral("defs:\ntext:\n- ${ x }\n") << 3
            << QStringLiteral("Define `x` as an input of the program")
            << QStringLiteral("defs:\n  x: \"\"\ntext:\n- ${ x }\n") << true;
        QTest::newRow("define: flow defs")
            << QStringLiteral("defs: {a: 1}\ntext:\n- ${ x }\n") << 3
            << QStringLiteral("Define `x` as an input of the program")
            << QStringLiteral("defs: {a: 1, x: \"\"}\ntext:\n- ${ x }\n") << true;
        QTest::newRow("define: used in a later def")
            << QStringLiteral("defs:\n  a: x\n  b: ${ y }\ntext: ${ b }\n") << 3
            << QStringLiteral("Define `y` as an input of the program")
            << QStringLiteral("defs:\n  a: x\n  y: \"\"\n  b: ${ y }\ntext: ${ b }\n") << true;
        QTest::newRow("define: no final newline")
            << QStringLiteral("text: ${ x }") << 1
            << QStringLiteral("Define `x` as an input of the program")
            << QStringLiteral("defs:\n  x: \"\"\ntext: ${ x }") << true;
        // A field outside its block.
        QTest::newRow("indent: at the dash column")
            << QStringLiteral("text:\n- model: m\ninput: hi\n") << 3
            << QStringLiteral("Indent `input:` under the model block above")
            << QStringLiteral("text:\n- model: m\n  input: hi\n") << true;
        QTest::newRow("indent: YAML error at the dash column")
            << QStringLiteral("text:\n  - model: m\n  input: hi\n") << 3
            << QStringLiteral("Indent `input:` under the model block above")
            << QStringLiteral("text:\n  - model: m\n    input: hi\n") << true;
        QTest::newRow("indent: with nested lines")
            << QStringLiteral("description: d\ntext:\n- model: m\n  input: |\n    hello\n\n    "
                              "there\nparameters:\n  temperature: 0\n  # warm\n\n"
                              "# the end\n")
            << 8 << QStringLiteral("Indent `parameters:` under the model block above")
            << QStringLiteral("description: d\ntext:\n- model: m\n  input: |\n    hello\n\n    "
                              "there\n  parameters:\n    temperature: 0\n    # warm\n\n"
                              "# the end\n")
            << true;
        QTest::newRow("indent: block scalar")
            << QStringLiteral("lastOf:\n- model: m\ninput: |\n  line one\n\n  line two\n") << 3
            << QStringLiteral("Indent `input:` under the model block above")
            << QStringLiteral("lastOf:\n- model: m\n  input: |\n    line one\n\n    line two\n")
            << true;
        QTest::newRow("indent: under an empty field")
            << QStringLiteral("text:\n- model: m\n  input: hi\n  parameters:\n  temperature: 0\n")
            << 5 << QStringLiteral("Indent `temperature:` under `parameters:`")
            << QStringLiteral("text:\n- model: m\n  input: hi\n  parameters:\n    temperature: "
                              "0\n")
            << true;
        QTest::newRow("indent: under empty defs")
            << QStringLiteral("defs:\narticle: x\ntext:\n- ${ article }\n") << 2
            << QStringLiteral("Indent `article:` under `defs:`")
            << QStringLiteral("defs:\n  article: x\ntext:\n- ${ article }\n") << true;
        QTest::newRow("indent: odd column, into the block rather than its parameters")
            << QStringLiteral("text:\n- model: m\n  parameters:\n    temperature: 0\n input: "
                              "hi\n")
            << 5 << QStringLiteral("Indent `input:` under the model block above")
            << QStringLiteral("text:\n- model: m\n  parameters:\n    temperature: 0\n  input: "
                              "hi\n")
            << true;
        QTest::newRow("indent: nested lastOf item, crlf")
            << QStringLiteral("text:\r\n- lastOf:\r\n  - model: m\r\n  input: hi\r\n") << 4
            << QStringLiteral("Indent `input:` under the model block above")
            << QStringLiteral("text:\r\n- lastOf:\r\n  - model: m\r\n    input: hi\r\n") << true;
    }

    void fixes()
    {
        QFETCH(QString, program);
        QFETCH(int, line);
        QFETCH(QString, title);
        QFETCH(QString, fixed);
        QFETCH(bool, first);
        const ProgramReport report = analyze(program);
        const Diagnostic* diagnostic = nullptr;
        for (const Diagnostic& d : report.diagnostics)
            if (d.span.line == line && !diagnostic)
                diagnostic = &d;
        QVERIFY2(diagnostic, "no diagnostic on the line");
        const std::vector<QuickFix> fixes = quickFixes(report, program, *diagnostic);
        QStringList titles;
        for (const QuickFix& f : fixes)
            titles << f.title;
        const auto it = std::find_if(fixes.begin(), fixes.end(),
                                     [&](const QuickFix& f) { return f.title == title; });
        QVERIFY2(it != fixes.end(), qPrintable(titles.join(QStringLiteral(" | "))));
        if (first)
            QCOMPARE(fixes.front().title, title);
        QCOMPARE(applyQuickFix(program, *it), fixed);
        m_oracle.append(QJsonObject{
            {QStringLiteral("row"), QString::fromUtf8(QTest::currentDataTag())},
            {QStringLiteral("original"), program},
            {QStringLiteral("fixed"), fixed},
            {QStringLiteral("kind"), int(it->kind)},
            {QStringLiteral("title"), it->title},
            {QStringLiteral("old"),
             program.mid(it->edits.front().offset, it->edits.front().length)},
            {QStringLiteral("new"), it->edits.front().replacement},
        });
        // The same fixes through the line.
        const std::vector<QuickFix> onLine = quickFixesOnLine(report, program, line);
        QVERIFY(std::find(onLine.begin(), onLine.end(), *it) != onLine.end());

        // The fixed program no longer says it, and says nothing new.
        const ProgramReport after = analyze(fixed);
        QVERIFY(after.parse.program);
        const QStringList before =
            messages(report, Severity::Error) + messages(report, Severity::Warning);
        QVERIFY2(!messages(after, Severity::Error).contains(diagnostic->message) &&
                     !messages(after, Severity::Warning).contains(diagnostic->message),
                 qPrintable(diagnostic->message));
        for (const QString& m : messages(after, Severity::Error))
            QVERIFY2(before.contains(m), qPrintable(m));
        QVERIFY(after.errorCount() <= report.errorCount());
    }

    // The oracle: PyYAML (what the reference reads programs with) loads every fixed text of
    // fixes(), and reads it as the original with only the fix's change: a renamed name, one
    // more `defs` entry holding "", a field nested deeper.
    void pyyamlOracle()
    {
        QVERIFY(!m_oracle.isEmpty());
        QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            QSKIP("python3 not found; the PyYAML oracle needs it");
        static const char* const script = R"PY(
import json, re, sys
import yaml
problems = []
def load(text):
    try:
        return True, yaml.safe_load(text)
    except yaml.YAMLError as e:
        return False, str(e).replace("\n", " ")
def depth(node, key, d=0):
    found = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                found.append(d)
            found += depth(v, key, d + 1)
    elif isinstance(node, list):
        for v in node:
            found += depth(v, key, d + 1)
    return found
for c in json.load(sys.stdin):
    row = c["row"]
    ok, fixed = load(c["fixed"])
    if not ok:
        problems.append(row + ": PyYAML refuses the fixed text: " + fixed)
        continue
    ook, orig = load(c["original"])
    if c["kind"] == 0:
        want = json.dumps(orig, ensure_ascii=False).replace(c["old"], c["new"])
        got = json.dumps(fixed, ensure_ascii=False)
        if not ook or want != got:
            problems.append(row + ": renamed " + got + ", expected " + want)
    elif c["kind"] == 2:
        name = re.search("`([^`]+)`", c["title"]).group(1)
        defs = fixed.get("defs") or {}
        if defs.get(name) != "":
            problems.append(row + ": defs has no empty " + name)
            continue
        del defs[name]
        if not defs:
            if "defs" not in orig:
                del fixed["defs"]
            elif orig["defs"] is None:
                fixed["defs"] = None
        if fixed != orig:
            problems.append(row + ": more than the definition changed")
    elif c["kind"] == 3:
        want = json.dumps(orig, ensure_ascii=False).replace("\u3000", " ")
        got = json.dumps(fixed, ensure_ascii=False)
        if not ook or want != got:
            problems.append(row + ": spaces " + got + ", expected " + want)
    else:
        key = re.search("`([^`:]+):", c["title"]).group(1)
        after = depth(fixed, key)
        before = depth(orig, key) if ook else [-1]
        if not after or max(after) <= max(before or [-1]):
            problems.append(row + ": " + key + " is not nested deeper")
print(json.dumps(problems))
)PY";
        QProcess py;
        py.start(python, {QStringLiteral("-c"), QString::fromUtf8(script)});
        QVERIFY(py.waitForStarted());
        py.write(QJsonDocument(m_oracle).toJson(QJsonDocument::Compact));
        py.closeWriteChannel();
        QVERIFY(py.waitForFinished(60000));
        const QByteArray err = py.readAllStandardError();
        if (err.contains("No module named 'yaml'"))
            QSKIP("python3 cannot import yaml (install python3-yaml); skipping the oracle");
        QVERIFY2(py.exitCode() == 0, err.constData());
        const QJsonArray problems = QJsonDocument::fromJson(py.readAllStandardOutput()).array();
        QStringList list;
        for (const auto& p : problems)
            list << p.toString();
        QVERIFY2(list.isEmpty(), qPrintable(list.join(QLatin1Char('\n'))));
    }

    void noFixes_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<int>("line");
        QTest::newRow("nothing close") << QStringLiteral("model: m\nzzzzzzzz: 1\n") << 2;
        // Not a layout slip: the field would have to move past `maxIterations`.
        QTest::newRow("not adjacent")
            << QStringLiteral("text:\n- repeat:\n    text:\n    - model: m\n  maxIterations: "
                              "2\n  input: x\n")
            << 6;
        QTest::newRow("flow top level") << QStringLiteral("{text: \"${ x }\"}\n") << 1;
    }

    void noFixes()
    {
        QFETCH(QString, program);
        QFETCH(int, line);
        const ProgramReport report = analyze(program);
        QVERIFY(!report.diagnostics.empty());
        for (const QuickFix& f : quickFixesOnLine(report, program, line)) {
            QVERIFY2(f.kind != QuickFix::Kind::Indent, qPrintable(f.title));
            QVERIFY2(f.kind != QuickFix::Kind::DefineInput, qPrintable(f.title));
            QVERIFY2(!f.title.contains(QLatin1String("zzz")), qPrintable(f.title));
        }
        if (program.startsWith(QLatin1String("model")))
            QVERIFY(quickFixesOnLine(report, program, line).empty());
    }

    void modelNames_data()
    {
        QTest::addColumn<QString>("written");
        QTest::addColumn<QStringList>("expected"); ///< the fixes' names, in order
        QTest::newRow("typo") << QStringLiteral("ollama/granite3.3:8d")
                              << QStringList{QStringLiteral("ollama/granite3.3:8b")};
        QTest::newRow("prefix typo")
            << QStringLiteral("olama/llama3") << QStringList{QStringLiteral("ollama/llama3")};
        QTest::newRow("bare name")
            << QStringLiteral("gpt-4o") << QStringList{QStringLiteral("openai/gpt-4o")};
        QTest::newRow("alias") << QStringLiteral("defualt")
                               << QStringList{QStringLiteral("default")};
        QTest::newRow("known") << QStringLiteral("ollama/granite3.3:8b") << QStringList{};
        QTest::newRow("far") << QStringLiteral("mistral-large") << QStringList{};
    }

    void modelNames()
    {
        QFETCH(QString, written);
        QFETCH(QStringList, expected);
        const QStringList names = {
            QStringLiteral("default"), QStringLiteral("ollama/"), QStringLiteral("openai/"),
            QStringLiteral("ollama/granite3.3:8b"), QStringLiteral("openai/gpt-4o")};
        const QString program =
            QStringLiteral("text:\n- model: %1\n  input: hi\n- model: \"%1\"\n").arg(written);
        const ProgramReport report = analyze(program);
        for (int line : {2, 4}) {
            const std::vector<QuickFix> fixes = quickFixesOnLine(report, program, line, names);
            QStringList got;
            for (const QuickFix& f : fixes) {
                QCOMPARE(f.edits.size(), 1);
                got << f.edits.front().replacement;
                QCOMPARE(f.title,
                         QStringLiteral("Change to `%1`").arg(f.edits.front().replacement));
            }
            QCOMPARE(got.mid(0, expected.size()), expected);
            if (expected.isEmpty())
                QVERIFY(got.isEmpty());
            else
                QCOMPARE(applyQuickFix(program, fixes.front()),
                         QString(program).replace(line == 2 ? QStringLiteral("model: ") + written
                                                            : QStringLiteral("\"%1\"").arg(written),
                                                  line == 2
                                                      ? QStringLiteral("model: ") + expected[0]
                                                      : QStringLiteral("\"%1\"").arg(expected[0])));
        }
    }

    // Each field name of each conformance program misspelt in turn (a swap, a letter dropped,
    // a letter replaced): one of the fixes must give the original text back, byte for byte.
    void sweep()
    {
        const QStringList files = conformanceFiles();
        if (files.isEmpty())
            QSKIP("../shared/conformance is absent; skipping the sweep");
        int tried = 0, silent = 0, fixedCount = 0, firstFixes = 0;
        QStringList failures, silentExamples;
        for (const QString& path : files) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            const QString original = QString::fromUtf8(bytes);
            if (original.toUtf8() != bytes)
                continue;
            const ProgramReport clean = analyze(original);
            if (!clean.parse.program || clean.errorCount() > 0)
                continue;
            std::vector<const YamlValue*> keys;
            blockKeys(*clean.parse.program->document, *clean.parse.program, keys);
            int done = 0;
            for (const YamlValue* key : keys) {
                if (done == kFieldsPerFile)
                    break;
                const QString name = QString::fromStdString(key->scalar().asString());
                // Trace bookkeeping (`scope`, `result`) is accepted and ignored: not a field to
                // offer.
                if (name.size() < 3 || (isIgnoredField(key->scalar().asString()) && name != "kind"))
                    continue;
                // A swap, a letter dropped, a letter replaced: in turn.
                QString typo = name;
                switch (done % 3) {
                case 0:
                    if (typo.at(1) == typo.at(2))
                        typo[1] = QLatin1Char(typo.at(1) == QLatin1Char('x') ? 'q' : 'x');
                    else
                        std::swap(typo[1], typo[2]);
                    break;
                case 1:
                    typo.remove(typo.size() - 1, 1);
                    break;
                default:
                    typo[typo.size() / 2] =
                        QLatin1Char(typo.at(typo.size() / 2) == QLatin1Char('x') ? 'q' : 'x');
                }
                ++done;
                const SourceSpan& s = key->span();
                QStringList lines = original.split(QLatin1Char('\n'));
                QString& l = lines[s.line - 1];
                // Columns are code points; keys here follow ASCII indentation.
                const qsizetype at = QString(l).toUcs4().mid(0, s.column - 1).size();
                const qsizetype offset =
                    QString::fromUcs4(reinterpret_cast<const char32_t*>(l.toUcs4().constData()), at)
                        .size();
                if (l.mid(offset, name.size()) != name)
                    continue;
                l.replace(offset, name.size(), typo);
                const QString broken = lines.join(QLatin1Char('\n'));
                const ProgramReport report = analyze(broken);
                const Diagnostic* diagnostic = nullptr;
                for (const Diagnostic& d : report.diagnostics)
                    if (d.span.line == s.line && d.span.column == s.column && !diagnostic)
                        diagnostic = &d;
                ++tried;
                if (!diagnostic) {
                    ++silent; // the typo is a field too (`defs` → `def`), or nothing checks it
                    if (silentExamples.size() < 8)
                        silentExamples << name + QStringLiteral("→") + typo;
                    continue;
                }
                bool restored = false;
                const std::vector<QuickFix> fixes = quickFixes(report, broken, *diagnostic);
                for (const QuickFix& fix : fixes)
                    restored = restored || applyQuickFix(broken, fix) == original;
                if (!fixes.empty() && applyQuickFix(broken, fixes.front()) == original)
                    ++firstFixes;
                if (restored)
                    ++fixedCount;
                else
                    failures << QStringLiteral("%1:%2: %3 → %4 (%5)")
                                    .arg(path)
                                    .arg(s.line)
                                    .arg(name, typo, diagnostic->message);
            }
        }
        qInfo("sweep: %d files, %d typos, %d restored (%d by the first fix), %d not reported",
              int(files.size()), tried, fixedCount, firstFixes, silent);
        qInfo("not reported, e.g.: %s", qPrintable(silentExamples.join(QStringLiteral(", "))));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 20).join(QLatin1Char('\n'))));
        QVERIFY(fixedCount > 100);
    }

    // The last field of each list item that ends a list, moved out to the item's dash column
    // (with the lines under it): an indentation fix must give the original text back.
    void indentSweep()
    {
        const QStringList files = conformanceFiles();
        if (files.isEmpty())
            QSKIP("../shared/conformance is absent; skipping the sweep");
        int tried = 0, silent = 0, restoredCount = 0, restoredFirst = 0;
        QStringList failures;
        for (const QString& path : files) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString original = QString::fromUtf8(f.readAll());
            const ProgramReport clean = analyze(original);
            if (!clean.parse.program || clean.errorCount() > 0)
                continue;
            std::vector<LastField> fields;
            lastFields(*clean.parse.program->document, *clean.parse.program, fields);
            for (const LastField& field : fields) {
                QStringList lines = original.split(QLatin1Char('\n'));
                const int first = field.key->span().line;
                const int column = field.key->span().column - 1;
                const int shift = column - field.dashColumn;
                bool movable = true;
                // `key:` then `- item` at the key's column is the key's list too.
                const bool compact = lines[first - 1].trimmed().endsWith(QLatin1Char(':'));
                for (int l = first - 1; l < lines.size(); ++l) {
                    const QString& text = lines[l];
                    const bool blank = text.trimmed().isEmpty();
                    int indent = 0;
                    while (indent < text.size() && text.at(indent) == QLatin1Char(' '))
                        ++indent;
                    const bool item = compact && indent == column &&
                                      text.mid(indent).startsWith(QLatin1String("- "));
                    if (l > first - 1 && !blank && indent <= column && !item)
                        break;
                    if (blank)
                        continue;
                    movable = movable && indent >= shift;
                    lines[l].remove(0, std::min(shift, indent));
                }
                if (!movable)
                    continue;
                const QString broken = lines.join(QLatin1Char('\n'));
                const ProgramReport report = analyze(broken);
                ++tried;
                bool restored = false, reported = false;
                for (const Diagnostic& d : report.diagnostics) {
                    if (d.span.line != first || d.severity != Severity::Error)
                        continue;
                    reported = true;
                    const std::vector<QuickFix> fixes = quickFixes(report, broken, d);
                    for (const QuickFix& fix : fixes)
                        restored = restored || applyQuickFix(broken, fix) == original;
                    if (!fixes.empty() && applyQuickFix(broken, fixes.front()) == original)
                        ++restoredFirst;
                }
                if (!reported)
                    ++silent; // still valid where it landed (a common field like `def`)
                else if (restored)
                    ++restoredCount;
                else
                    failures << QStringLiteral("%1:%2: %3")
                                    .arg(path)
                                    .arg(first)
                                    .arg(QString::fromStdString(field.key->scalar().asString()));
            }
        }
        qInfo("indent sweep: %d fields moved out, %d restored (%d by the first fix), %d not "
              "reported",
              tried, restoredCount, restoredFirst, silent);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 20).join(QLatin1Char('\n'))));
        QVERIFY(restoredCount > 20);
        QCOMPARE(restoredFirst, restoredCount); // and it is the one offered first
    }

private:
    QJsonArray m_oracle; ///< what fixes() applied, for the PyYAML oracle
};

QTEST_GUILESS_MAIN(TestQuickFix)
#include "tst_quickfix.moc"
