// Jinja2 tests (`is name`) against results computed by real Jinja2.

#include "builtinstestutil.h"

#include <iterator>

using namespace hako::pdl;
using namespace hako::pdl::testutil;

class TestJinjaTests : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void jinjaCases_data() { addRows(std::begin(kTestCases), std::end(kTestCases)); }
    void jinjaCases()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, args);
        QFETCH(QString, kwargs);
        QFETCH(QString, expected);
        builtins::TestFn fn = builtins::findTest(name.toStdString());
        QVERIFY2(fn, qPrintable("no test " + name));
        Value v = decode(value.toUtf8().constData());
        CallArgs call = decodeArgs(args.toUtf8().constData(), kwargs.toUtf8().constData());
        check([&] { return Value(fn(v, call)); }, expected);
    }

    void undefinedValues()
    {
        QVERIFY(builtins::testAcceptsUndefined("defined"));
        QVERIFY(builtins::testAcceptsUndefined("undefined"));
        // type tests inspect StrictUndefined without failing, as in Jinja
        QVERIFY(builtins::testAcceptsUndefined("none"));
        QVERIFY(!builtins::findTest("none")(Value::undefined("x"), {}));
        QVERIFY(!builtins::findTest("string")(Value::undefined("x"), {}));
        QVERIFY(builtins::findTest("callable")(Value::undefined("x"), {}));
        QVERIFY(!builtins::testAcceptsUndefined("even"));
        QVERIFY_THROWS_EXCEPTION(EvalError, builtins::findTest("even")(Value::undefined("x"), {}));
        QVERIFY(!builtins::findTest("defined")(Value::undefined("x"), {}));
        QVERIFY(builtins::findTest("undefined")(Value::undefined("x"), {}));
        QVERIFY(!builtins::findTest("nosuchtest"));
    }

    void callable()
    {
        Value fn = *builtins::findGlobal("range");
        QVERIFY(builtins::findTest("callable")(fn, {}));
        Value method = builtins::getAttribute(Value("abc"), "upper");
        QVERIFY(builtins::findTest("callable")(method, {}));
    }

    void sameasIsIdentityForContainers()
    {
        Value a(List{Value(1)});
        Value copy = a;
        Value other(List{Value(1)});
        CallArgs args;
        args.positional = {copy};
        QVERIFY(builtins::findTest("sameas")(a, args));
        args.positional = {other};
        QVERIFY(!builtins::findTest("sameas")(a, args));
    }
};

QTEST_GUILESS_MAIN(TestJinjaTests)
#include "tst_jinjatests.moc"
