// PDL's template strings: typed single expressions, rendered mixed strings, comments, errors,
// caching across threads.
#include "core/pdl/expr/expression.h"

#include <QTest>

#include <atomic>
#include <thread>

using namespace hako;
using namespace hako::pdl;

namespace {

MapScope testScope()
{
    MapScope s;
    s.set("x", Value(5));
    s.set("s", Value("hi"));
    s.set("name", Value("World"));
    s.set("l", Value(List{Value(1), Value(2)}));
    Dict d;
    d.set("k", Value(List{Value(1), Value(true), Value()}));
    s.set("d", Value(d));
    return s;
}

QString outcome(const Result<Value>& r)
{
    if (r.ok())
        return QString::fromStdString(r.value().repr());
    return "ERROR: " + r.error().message.section('\n', 0, 0);
}

} // namespace

class TestTemplate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void render_data();
    void render();
    void errorSpans_data();
    void errorSpans();
    void checkTemplate();
    void threadedCache();
};

void TestTemplate::render_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, const char* t, const char* r) {
        QTest::newRow(name) << QString::fromUtf8(t) << QString::fromUtf8(r);
    };
    // Typed results of a single `${ }`.
    row("single int", "${ x }", "5");
    row("single no spaces", "${x+1}", "6");
    row("single string stays string", "${ s }", "'hi'");
    row("single list", "${ l }", "[1, 2]");
    row("single dict literal", "${ {'a': 1} }", "{'a': 1}");
    row("single brace in string", "${ 'a}' }", "'a}'");
    row("single dict", "${ d }", "{'k': [1, True, None]}");
    row("single bool", "${ x > 3 }", "True");
    row("single none", "${ none }", "None");
    row("single minus", "${-1}", "-1");
    row("single multiline", "${\n  x +\n  1\n}", "6");
    row("single bare tuple refused", "${ 1, 2 }", "ERROR: chunk after expression");
    // Mixed strings render values with str().
    row("mixed", "a ${ {'k': [1, true, none]} }", "\"a {'k': [1, True, None]}\"");
    row("mixed two", "${ x }${ x }", "'55'");
    row("mixed text after", "${ x } apples", "'5 apples'");
    row("mixed string value", "Hello ${ name }!", "'Hello World!'");
    row("mixed none", "a ${ none } ${ true }", "'a None True'");
    row("mixed float", "v=${ 1 / 4 }", "'v=0.25'");
    row("mixed tuple", "a ${ 1, 2 }", "'a (1, 2)'");
    row("mixed trailing newline kept", "x ${ x }\n", "'x 5\\n'");
    row("mixed crlf normalized", "a\r\nb ${ x }", "'a\\nb 5'");
    row("mixed if without else", "a ${ 1 if 0 }", "'a '");
    row("mixed if with undefined branch", "a ${ nope if 1 else 2 }", "ERROR: 'nope' is undefined");
    row("mixed nested if without else", "a ${ (1 if 0) if 1 else 2 }", "'a '");
    row("mixed undefined in list", "a ${ [1, nope, 2 if 0] } b", "'a [1, Undefined, Undefined] b'");
    row("mixed undefined in dict", "${ {'k': nope} }!", "\"{'k': Undefined}!\"");
    row("whitespace control before", "a  ${- x }", "'a5'");
    row("whitespace control after", "${ x -}  a", "'5a'");
    row("whitespace control minus literal", "a ${-1}", "'a1'");
    // No expressions: unchanged.
    row("plain", "just text", "'just text'");
    row("plain trailing newline", "a\n", "'a\\n'");
    row("empty", "", "''");
    row("dollar alone", "costs $5 {not jinja}", "'costs $5 {not jinja}'");
    row("block tags literal", "{% if x %}yes{% endif %}", "'{% if x %}yes{% endif %}'");
    row("block tags with expr", "{% x %} ${ x }", "'{% x %} 5'");
    // Comments.
    row("comment", "a {# hidden #} b", "'a  b'");
    row("comment only", "{# c #}", "''");
    row("comment strip", "a {#- c -#} b", "'ab'");
    row("comment with expr", "${ x } {# ${ nope } #}", "'5 '");
    // Unicode.
    row("unicode text", "日本語 ${ s }", "'日本語 hi'");
    row("unicode value", "${ '日本' ~ s }", "'日本hi'");
    // Errors.
    row("undefined", "${ y }", "ERROR: 'y' is undefined");
    row("undefined mixed", "a ${ y } b", "ERROR: 'y' is undefined");
    row("undefined attribute", "${ x.nope }", "ERROR: 'nope' is undefined");
    row("undefined single if", "${ 1 if 0 }",
        "ERROR: the inline if-expression evaluated to false "
        "and no else section was defined.");
    row("syntax", "${ x + }", "ERROR: unexpected 'end of print statement'");
    row("unclosed expr", "abc ${", "ERROR: unexpected 'end of template'");
    row("unclosed paren", "${ (1 }", "ERROR: unexpected '}', expected ')'");
    row("unclosed comment", "a {# b", "ERROR: Missing end of comment tag");
    row("extra token", "${ x y }", "ERROR: expected token 'end of print statement', got 'y'");
    row("comment after single", "${ x }{# c #}", "ERROR: chunk after expression");
    row("dotted numbers are items", "${ l.1 }", "2");
    row("empty expression", "${ }", "ERROR: Expected an expression, got 'end of print statement'");
}

void TestTemplate::render()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    MapScope scope = testScope();
    QCOMPARE(outcome(evaluateTemplate(text.toStdString(), scope)), expected);
    // Undefined values nested in a typed result come back as they are (json null).
    Result<Value> nested = evaluateTemplate("${ [1, nope] }", scope);
    QVERIFY(nested.ok());
    QCOMPARE(QString::fromStdString(nested.value().json()), QString("[1, null]"));
    // A second evaluation comes from the cache and agrees.
    QCOMPARE(outcome(evaluateTemplate(text.toStdString(), scope)), expected);
}

void TestTemplate::errorSpans_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("caret");
    QTest::newRow("missing operand") << "${ x + }" << 1 << 8 << "${ x + }\n       ^";
    QTest::newRow("undefined") << "Hi ${ who }" << 1 << 7 << "Hi ${ who }\n      ^";
    QTest::newRow("second line") << "line one\nand ${ 1 / 0 }" << 2 << 10
                                 << "and ${ 1 / 0 }\n         ^";
    QTest::newRow("japanese") << QString::fromUtf8("日本語のテキスト ${ x + }") << 1 << 17
                              << QString::fromUtf8("日本語のテキスト ${ x + }\n                ^");
    QTest::newRow("bad char") << "${ x ! 1 }" << 1 << 6 << "${ x ! 1 }\n     ^";
}

void TestTemplate::errorSpans()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, caret);
    MapScope scope = testScope();
    Result<Value> r = evaluateTemplate(text.toStdString(), scope);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().span.line, line);
    QCOMPARE(r.error().span.column, column);
    QVERIFY2(r.error().message.endsWith("\n" + caret), qPrintable(r.error().message));
}

void TestTemplate::checkTemplate()
{
    QVERIFY(!pdl::checkTemplate("plain").has_value());
    QVERIFY(!pdl::checkTemplate("${ a + b } and ${ c }").has_value());
    std::optional<Diagnostic> d = pdl::checkTemplate("ok ${ a + }");
    QVERIFY(d.has_value());
    QCOMPARE(d->span.column, 11);
    // Undefined names are not syntax errors.
    QVERIFY(!pdl::checkTemplate("${ nowhere }").has_value());
}

void TestTemplate::threadedCache()
{
    // Many threads evaluate the same few templates through the shared cache.
    const std::vector<std::pair<std::string, std::string>> cases{
        {"${ x * 2 }", "10"},
        {"n=${ x + 1 }!", "'n=6!'"},
        {"${ [x, s] }", "[5, 'hi']"},
        {"${ s ~ x ~ s }", "'hi5hi'"},
    };
    MapScope scope = testScope();
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t]() {
            for (int i = 0; i < 2000; ++i) {
                const auto& [text, expected] = cases[(i + t) % cases.size()];
                Result<Value> r = evaluateTemplate(text, scope);
                if (!r.ok() || r.value().repr() != expected)
                    ++failures;
                // Distinct texts exercise insertion and eviction concurrently.
                std::string distinct = "${ x + " + std::to_string(t * 100000 + i) + " }";
                Result<Value> r2 = evaluateTemplate(distinct, scope);
                if (!r2.ok() || r2.value().asInt() != 5 + t * 100000 + i)
                    ++failures;
            }
        });
    }
    for (auto& th : threads)
        th.join();
    QCOMPARE(failures.load(), 0);
}

QTEST_GUILESS_MAIN(TestTemplate)
#include "tst_template.moc"
