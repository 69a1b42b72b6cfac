// Python methods of str/list/dict, item/slice access, % formatting and globals against results
// computed by real Python/Jinja2 (see tests/tools/gen_builtins_cases.py).

#include "builtinstestutil.h"

#include <iterator>

using namespace hako::pdl;
using namespace hako::pdl::testutil;

class TestMethods : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void methodCases_data() { addRows(std::begin(kMethodCases), std::end(kMethodCases)); }
    void methodCases()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, args);
        QFETCH(QString, kwargs);
        QFETCH(QString, expected);
        Value self = decode(value.toUtf8().constData());
        std::string n = name.toStdString();
        QVERIFY2(builtins::hasMethod(self, n), qPrintable("no method " + name));
        CallArgs call = decodeArgs(args.toUtf8().constData(), kwargs.toUtf8().constData());
        check([&] { return builtins::callMethod(self, n, call); }, expected);
        // the bound method reached through attribute access behaves the same
        Value bound = builtins::getAttribute(self, n);
        QVERIFY(bound.isCallable());
        check([&] { return bound.asCallable()->call(call); }, expected);
    }

    void sliceCases_data() { addRows(std::begin(kSliceCases), std::end(kSliceCases)); }
    void sliceCases()
    {
        QFETCH(QString, value);
        QFETCH(QString, args);
        QFETCH(QString, expected);
        Value v = decode(value.toUtf8().constData());
        CallArgs bounds = decodeArgs(args.toUtf8().constData(), "{}");
        const List& b = bounds.positional;
        check([&] { return builtins::getSlice(v, b[0], b[1], b[2]); }, expected);
    }

    void itemCases_data() { addRows(std::begin(kItemCases), std::end(kItemCases)); }
    void itemCases()
    {
        QFETCH(QString, value);
        QFETCH(QString, args);
        QFETCH(QString, expected);
        Value v = decode(value.toUtf8().constData());
        CallArgs key = decodeArgs(args.toUtf8().constData(), "{}");
        check([&] { return builtins::getItem(v, key.positional[0]); }, expected);
    }

    void percentCases_data() { addRows(std::begin(kPercentCases), std::end(kPercentCases)); }
    void percentCases()
    {
        QFETCH(QString, value);
        QFETCH(QString, args);
        QFETCH(QString, expected);
        Value fmt = decode(value.toUtf8().constData());
        CallArgs operand = decodeArgs(args.toUtf8().constData(), "{}");
        check([&] { return Value(builtins::percentFormat(fmt.asString(), operand.positional[0])); },
              expected);
    }

    void attributeLookup()
    {
        Dict d{{Value("items"), Value(1)}, {Value("name"), Value("n")}};
        // a method wins over a key of the same name, as in Jinja
        QVERIFY(builtins::getAttribute(Value(d), "items").isCallable());
        QCOMPARE(QString::fromStdString(builtins::getAttribute(Value(d), "name").str()),
                 QStringLiteral("n"));
        Value missing = builtins::getAttribute(Value(d), "nope");
        QVERIFY(missing.isUndefined());
        QCOMPARE(QString::fromStdString(missing.undefinedName()), QStringLiteral("nope"));
        // a missing element carries Jinja's message
        QCOMPARE(QString::fromStdString(builtins::getItem(Value("x"), Value(-3)).undefinedName()),
                 QStringLiteral("str object has no element -3"));
        QVERIFY(builtins::getAttribute(Value(5), "x").isUndefined());
        // item access falls back to methods for string keys like Jinja's getitem
        QVERIFY(builtins::getItem(Value("abc"), Value("upper")).isCallable());
        QVERIFY(!builtins::hasMethod(Value(List{}), "append"));
        QVERIFY_THROWS_EXCEPTION(EvalError, builtins::callMethod(Value(1), "upper", {}));
    }

    void range()
    {
        const Value* range = builtins::findGlobal("range");
        QVERIFY(range && range->isCallable());
        auto call = [&](List args) {
            CallArgs a;
            a.positional = std::move(args);
            return QString::fromStdString(range->asCallable()->call(a).repr());
        };
        QCOMPARE(call({Value(3)}), QStringLiteral("[0, 1, 2]"));
        QCOMPARE(call({Value(1), Value(4)}), QStringLiteral("[1, 2, 3]"));
        QCOMPARE(call({Value(10), Value(0), Value(-3)}), QStringLiteral("[10, 7, 4, 1]"));
        QCOMPARE(call({Value(0), Value(10), Value(4)}), QStringLiteral("[0, 4, 8]"));
        QCOMPARE(call({Value(5), Value(1)}), QStringLiteral("[]"));
        QCOMPARE(call({Value(-2)}), QStringLiteral("[]"));
        QVERIFY_THROWS_EXCEPTION(EvalError, call({Value(0), Value(1), Value(0)}));
        QVERIFY_THROWS_EXCEPTION(EvalError, call({Value(1.5)}));
        QVERIFY_THROWS_EXCEPTION(EvalError, call({Value(int64_t(1) << 40)}));
    }

    void dictAndNamespace()
    {
        CallArgs a;
        a.keyword.emplace_back("x", Value(1));
        a.keyword.emplace_back("y", Value("b"));
        Value d = builtins::findGlobal("dict")->asCallable()->call(a);
        QCOMPARE(QString::fromStdString(d.repr()), QStringLiteral("{'x': 1, 'y': 'b'}"));
        CallArgs pairs;
        pairs.positional.push_back(Value(List{Value::tuple({Value("k"), Value(2)})}));
        Value d2 = builtins::findGlobal("dict")->asCallable()->call(pairs);
        QCOMPARE(QString::fromStdString(d2.repr()), QStringLiteral("{'k': 2}"));
        Value ns = builtins::findGlobal("namespace")->asCallable()->call(a);
        QCOMPARE(QString::fromStdString(builtins::getAttribute(ns, "x").repr()),
                 QStringLiteral("1"));
        QVERIFY(!builtins::findGlobal("nosuchglobal"));
    }

    void joiner()
    {
        CallArgs sep;
        sep.positional.push_back(Value("|"));
        Value j = builtins::findGlobal("joiner")->asCallable()->call(sep);
        QCOMPARE(QString::fromStdString(j.asCallable()->call({}).str()), QString());
        QCOMPARE(QString::fromStdString(j.asCallable()->call({}).str()), QStringLiteral("|"));
    }

    void strFormatDirect()
    {
        CallArgs a;
        a.positional = {Value(3.14159), Value("x")};
        a.keyword.emplace_back("n", Value(7));
        QCOMPARE(QString::fromStdString(builtins::strFormat("{0:.2f}-{1!r}-{n:03d}", a)),
                 QStringLiteral("3.14-'x'-007"));
    }
};

QTEST_GUILESS_MAIN(TestMethods)
#include "tst_methods.moc"
