// The Jinja2 expression grammar and Python operator semantics of the expression engine.
#include "core/pdl/expr/expression.h"

#include <QTest>

using namespace hako;
using namespace hako::pdl;

namespace {

MapScope testScope()
{
    MapScope s;
    s.set("x", Value(5));
    s.set("y", Value(3));
    s.set("f", Value(2.5));
    s.set("s", Value("hi"));
    s.set("name", Value("World"));
    s.set("empty", Value(List{}));
    s.set("l", Value(List{Value(1), Value(2), Value(3)}));
    Dict d;
    d.set("a", Value(1));
    d.set("b", Value(List{Value("x"), Value("y")}));
    s.set("d", Value(d));
    s.set("big", Value(int64_t(9223372036854775807LL)));
    s.set("add", Value(makeCallable("add", [](const CallArgs& a) {
              int64_t sum = 0;
              for (const Value& v : a.positional)
                  sum += v.asInt();
              for (const auto& [k, v] : a.keyword)
                  sum += v.asInt() * 100;
              return Value(sum);
          })));
    return s;
}

// The result as Python's repr, or "ERROR: <message>" (first line of the diagnostic).
QString outcome(const Result<Value>& r)
{
    if (r.ok())
        return QString::fromStdString(r.value().repr());
    return "ERROR: " + r.error().message.section('\n', 0, 0);
}

} // namespace

class TestExpression : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void evaluate_data();
    void evaluate();
    void shortCircuitSkipsErrors();
    void errorColumns_data();
    void errorColumns();
    void deepNesting_data();
    void deepNesting();
    void hugeInputs();
    void caretLine();
    void variables();
    void callables();
};

void TestExpression::evaluate_data()
{
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* e, const char* r) {
        QTest::newRow(e) << QString(e) << QString(r);
    };

    // literals
    row("42", "42");
    row("1_000", "1000");
    row("0x1F + 0b11 + 0o7", "41");
    row("1e3", "1000.0");
    row("2.5e-3", "0.0025");
    row("3.14", "3.14");
    row("'it''s'", "'its'");
    row("\"a\" 'b'", "'ab'");
    row("'a\\nb\\t\\\\'", "'a\\nb\\t\\\\'");
    row("'\\'q\\' \"d\"'", "'\\'q\\' \"d\"'");
    row("'\\u00e9\\x41'", "'éA'");
    row("'\\q'", "'\\\\q'");
    row("'\\101\\0'", "'A\\x00'");
    row("'\\N{BULLET}'", "ERROR: \\N{...} escapes are not supported; use \\uXXXX");
    row("'\\x4'", "ERROR: truncated \\xXX escape in string");
    row("true", "True");
    row("False", "False");
    row("none", "None");
    row("None", "None");
    row("[1, 'a', none, true]", "[1, 'a', None, True]");
    row("[1, 2,]", "[1, 2]");
    row("[]", "[]");
    row("(1,)", "(1,)");
    row("(1, 2)", "(1, 2)");
    row("()", "()");
    row("(1)", "1");
    row("{'a': 1, 'b': [x]}", "{'a': 1, 'b': [5]}");
    row("{'a': 1, 'a': 2}", "{'a': 2}");
    row("{}", "{}");
    // arithmetic with Python semantics
    row("1 + 2 * 3", "7");
    row("(1 + 2) * 3", "9");
    row("7 / 2", "3.5");
    row("6 / 3", "2.0");
    row("-7 // 2", "-4");
    row("7 // -2", "-4");
    row("-7 % 2", "1");
    row("7 % -2", "-1");
    row("-7.5 // 2", "-4.0");
    row("-7.5 % 2", "0.5");
    row("5.0 // 2", "2.0");
    row("2 ** 10", "1024");
    row("2 ** -1", "0.5");
    row("2 ** 0.5", "1.4142135623730951");
    row("2 ** 3 ** 2", "64");
    row("-2 ** 2", "4");
    row("-x", "-5");
    row("+x", "5");
    row("--x", "5");
    row("x - -1", "6");
    row("1 + 2.5", "3.5");
    row("true + 1", "2");
    row("'ab' + 'cd'", "'abcd'");
    row("[1] + [2, 3]", "[1, 2, 3]");
    row("'ab' * 3", "'ababab'");
    row("3 * 'ab'", "'ababab'");
    row("'ab' * -1", "''");
    row("[0] * 3", "[0, 0, 0]");
    row("1 ~ 2", "'12'");
    row("'a' ~ none ~ true ~ [1]", "'aNoneTrue[1]'");
    row("x ~ s", "'5hi'");
    row("1/0", "ERROR: division by zero");
    row("1.0/0", "ERROR: float division by zero");
    row("1//0", "ERROR: integer division or modulo by zero");
    row("1%0", "ERROR: integer modulo by zero");
    row("0 ** -1", "ERROR: 0.0 cannot be raised to a negative power");
    row("big + 1", "ERROR: integer overflow: the result does not fit in 64 bits");
    row("big * 2", "ERROR: integer overflow: the result does not fit in 64 bits");
    row("-big - 2", "ERROR: integer overflow: the result does not fit in 64 bits");
    row("2 ** 64", "ERROR: integer overflow: the result does not fit in 64 bits");
    row("1 + 'a'", "ERROR: unsupported operand type(s) for +: 'int' and 'str'");
    row("'a' + 1", "ERROR: can only concatenate str (not \"int\") to str");
    row("-'a'", "ERROR: bad operand type for unary -: 'str'");
    // comparisons and chains
    row("1 < 2", "True");
    row("2 <= 2", "True");
    row("3 > 4", "False");
    row("3 >= 4", "False");
    row("1 == 1.0", "True");
    row("1 != 2", "True");
    row("1 < x < 10", "True");
    row("1 < x < 3", "False");
    row("1 < 2 > 1 == 1", "True");
    row("'abc' < 'abd'", "True");
    row("'Z' < 'a'", "True");
    row("[1, 2] < [1, 3]", "True");
    row("[1, 2] < [1, 2, 0]", "True");
    row("[1, 2] == [1, 2]", "True");
    row("'a' < 1", "ERROR: '<' not supported between instances of 'str' and 'int'");
    // boolean operators return operands
    row("0 or 'x'", "'x'");
    row("[] and 1", "[]");
    row("1 and 2", "2");
    row("none or none", "None");
    row("not 0", "True");
    row("not not 1", "True");
    row("not 1 == 2", "True");
    row("true and not false", "True");
    row("1 or 2 and 0", "1");
    // membership
    row("'i' in s", "True");
    row("'x' in s", "False");
    row("2 in l", "True");
    row("2 not in l", "False");
    row("'a' in d", "True");
    row("'z' not in d", "True");
    row("1 in 'abc'", "ERROR: 'in <string>' requires string as left operand, not int");
    row("1 in 2", "ERROR: argument of type 'int' is not iterable");
    // conditional expressions
    row("'yes' if x > 3 else 'no'", "'yes'");
    row("'yes' if x > 9 else 'no'", "'no'");
    row("1 if 0 else 2 if 0 else 3", "3");
    row("1 if 0", "ERROR: the inline if-expression evaluated to false and no else section "
                  "was defined.");
    // names
    row("x", "5");
    row("undefined_thing", "ERROR: 'undefined_thing' is undefined");
    row("missing + 1", "ERROR: 'missing' is undefined");
    row("[missing, 1] | length", "2");
    row("[missing][0] + 1", "ERROR: 'missing' is undefined");
    row("{'k': missing}.k ~ 'x'", "ERROR: 'missing' is undefined");
    row("(1 if 0) == (2 if 0)", "True");
    row("(1 if 0) != 1", "True");
    row("not (1 if 0)", "True");
    row("(1 if 0) or 'fallback'", "'fallback'");
    row("missing == 1", "ERROR: 'missing' is undefined");
    row("(1 if 0) + 1", "ERROR: the inline if-expression evaluated to false and no else "
                        "section was defined.");
    row("0 and missing", "0");
    row("1 or missing", "1");
    // calls
    row("add(1, 2)", "3");
    row("add(1, y=2)", "201");
    row("add(*[1, 2], **{'k': 1})", "103");
    row("add()", "0");
    row("x()", "ERROR: 'int' object is not callable");
    row("nofunc(1)", "ERROR: 'nofunc' is undefined");
    // syntax
    row("x +", "ERROR: unexpected 'end of template'");
    row("(1", "ERROR: unexpected end of template, expected ')'.");
    row("1 2", "ERROR: chunk after expression");
    row("x ! 1", "ERROR: unexpected char '!' at 2");
    row("'abc", "ERROR: unterminated string literal");
    row(".5", "ERROR: unexpected '.'");
    row("1, 2", "ERROR: chunk after expression");
    row("x is nosuchtest", "ERROR: No test named 'nosuchtest'.");
    row("x | nosuchfilter", "ERROR: No filter named 'nosuchfilter'.");
    row("f(1, x=2, 3)", "ERROR: invalid syntax for function call expression");
    row("99999999999999999999", "ERROR: integer literal too large");
}

void TestExpression::evaluate()
{
    QFETCH(QString, expr);
    QFETCH(QString, expected);
    MapScope scope = testScope();
    QCOMPARE(outcome(evaluateExpression(expr.toStdString(), scope)), expected);
}

void TestExpression::shortCircuitSkipsErrors()
{
    MapScope scope = testScope();
    // The right operand is never evaluated, so its error never happens.
    QCOMPARE(outcome(evaluateExpression("0 and 1/0", scope)), QString("0"));
    QCOMPARE(outcome(evaluateExpression("1 or 1/0", scope)), QString("1"));
    QCOMPARE(outcome(evaluateExpression("1 > 2 > 1/0", scope)), QString("False"));
    QCOMPARE(outcome(evaluateExpression("1/0 if false else 7", scope)), QString("7"));
}

void TestExpression::errorColumns_data()
{
    QTest::addColumn<QString>("expr");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::newRow("missing operand") << "x + " << 1 << 5;
    QTest::newRow("bad char") << "x ! 1" << 1 << 3;
    QTest::newRow("second line") << "x +\n  (1 +)" << 2 << 7;
    QTest::newRow("division") << "1 + 1 / 0" << 1 << 7;
    QTest::newRow("undefined name") << "x + nope" << 1 << 5;
    QTest::newRow("unicode before") << "'日本語' ~ nope" << 1 << 9;
    QTest::newRow("unclosed") << "[1, 2" << 1 << 6;
}

void TestExpression::errorColumns()
{
    QFETCH(QString, expr);
    QFETCH(int, line);
    QFETCH(int, column);
    MapScope scope = testScope();
    Result<Value> r = evaluateExpression(expr.toStdString(), scope);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().span.line, line);
    QCOMPARE(r.error().span.column, column);
    // The message carries the caret line under the failing column.
    QVERIFY2(r.error().message.endsWith("^"), qPrintable(r.error().message));
}

void TestExpression::deepNesting_data()
{
    QTest::addColumn<QString>("expr");
    QTest::addColumn<bool>("ok");
    auto nested = [](int n, const char* open, const char* mid, const char* close) {
        QString s;
        for (int i = 0; i < n; ++i)
            s += open;
        s += mid;
        for (int i = 0; i < n; ++i)
            s += close;
        return s;
    };
    QTest::newRow("parens 100") << nested(100, "(", "1", ")") << true;
    QTest::newRow("parens 10000") << nested(10000, "(", "1", ")") << false;
    QTest::newRow("lists 10000") << nested(10000, "[", "1", "]") << false;
    QTest::newRow("dicts 10000") << nested(10000, "{'a': ", "1", "}") << false;
    QTest::newRow("not 10000") << nested(10000, "not ", "1", "") << false;
    QTest::newRow("minus 10000") << nested(10000, "-", "1", "") << false;
    QTest::newRow("calls 10000") << nested(10000, "add(", "1", ")") << false;
    QTest::newRow("subscripts 10000") << "l" + nested(10000, "[", "0", "]") << false;
    QTest::newRow("plus chain 5000") << QString("1" + QString(" + 1").repeated(5000)) << false;
    QTest::newRow("plus chain 500") << QString("1" + QString(" + 1").repeated(500)) << true;
    QTest::newRow("attribute chain 5000") << "d" + QString(".a").repeated(5000) << false;
    QTest::newRow("unbalanced 10000") << nested(10000, "(", "", "") << false;
}

void TestExpression::deepNesting()
{
    QFETCH(QString, expr);
    QFETCH(bool, ok);
    MapScope scope = testScope();
    Result<Value> r = evaluateExpression(expr.toStdString(), scope);
    if (ok) {
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
    } else {
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains("nested too deeply") ||
                     r.error().message.contains("unexpected"),
                 qPrintable(r.error().message.left(200)));
    }
}

void TestExpression::hugeInputs()
{
    MapScope scope = testScope();
    Result<Value> r = evaluateExpression(std::string(5000, '7'), scope);
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.startsWith("integer literal too large"));

    std::string longString = "'" + std::string(1000000, 'a') + "'";
    r = evaluateExpression(longString + " ~ 'b'", scope);
    QVERIFY(r.ok());
    QCOMPARE(r.value().length(), 1000001);

    r = evaluateExpression("'ab' * 100000000000", scope);
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.contains("too large"));

    // Garbage of every kind ends in an error, never a crash.
    for (const char* junk :
         {"}",    "]",   ")",        "{",  "'",    "\"",  "\\",  "$",   "#",  "@",
          "x..y", "x[",  "x[:",      "f(", "f(,)", "[,]", "{:}", "not", "-",  "1 if",
          "x is", "x |", "x . 1 . ", "**", "//",   "1 <", "0x",  "0b2", "1e", "a=1"}) {
        Result<Value> j = evaluateExpression(junk, scope);
        QVERIFY2(!j.ok() || QByteArray(junk) == "1e", junk);
    }
}

void TestExpression::caretLine()
{
    QCOMPARE(QString::fromStdString(pdl::caretLine("${ x + }", 1, 8)),
             QString("${ x + }\n       ^"));
    QCOMPARE(QString::fromStdString(pdl::caretLine("a\n\tb c", 2, 4)), QString("\tb c\n\t  ^"));
    QCOMPARE(QString::fromStdString(pdl::caretLine("日本 x", 1, 4)), QString("日本 x\n   ^"));
}

void TestExpression::variables()
{
    std::vector<std::string> expected{"b", "a", "c"};
    QCOMPARE(templateVariables("${ b + a } and ${ a if c else b }"), expected);
    QVERIFY(templateVariables("no expressions").empty());
    QVERIFY(templateVariables("${ broken + }").empty());
    std::vector<std::string> attr{"obj", "n"};
    QCOMPARE(templateVariables("${ obj.items[n] ~ 'true' ~ none }"), attr);
}

void TestExpression::callables()
{
    MapScope scope = testScope();
    int calls = 0;
    scope.set("count", Value(makeCallable("count", [&calls](const CallArgs&) {
                  ++calls;
                  return Value(calls);
              })));
    QCOMPARE(outcome(evaluateExpression("count() + count()", scope)), QString("3"));
    QCOMPARE(calls, 2);

    // A call that rebinds names (growing the scope's table) while an operand is held.
    MapScope& ref = scope;
    scope.set("rebind", Value(makeCallable("rebind", [&ref](const CallArgs&) {
                  for (int i = 0; i < 2000; ++i)
                      ref.set("v" + std::to_string(i), Value(i));
                  ref.set("s", Value("changed"));
                  return Value(1);
              })));
    QCOMPARE(outcome(evaluateExpression("s ~ rebind() ~ s", scope)), QString("'hi1changed'"));
    QCOMPARE(outcome(evaluateExpression("[x][0] + rebind()", scope)), QString("6"));
}

QTEST_GUILESS_MAIN(TestExpression)
#include "tst_expression.moc"
