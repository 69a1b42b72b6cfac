#include "core/pdl/value.h"

#include <QTest>
#include <QThread>

#include <nlohmann/json.hpp>

using namespace hako::pdl;

namespace {
Value parse(const char* json)
{
    return Value::fromJson(nlohmann::ordered_json::parse(json));
}
} // namespace

class TestValue : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void floatRepr_data()
    {
        QTest::addColumn<double>("input");
        QTest::addColumn<QString>("expected");
        // Expected strings are Python's repr() of the same doubles.
        QTest::newRow("sum") << (0.1 + 0.2) << "0.30000000000000004";
        QTest::newRow("big") << 1e20 << "1e+20";
        QTest::newRow("small") << 2.5e-07 << "2.5e-07";
        QTest::newRow("one") << 1.0 << "1.0";
        QTest::newRow("1e16") << 1e16 << "1e+16";
        QTest::newRow("1e15") << 1e15 << "1000000000000000.0";
        QTest::newRow("1e-4") << 0.0001 << "0.0001";
        QTest::newRow("1e-5") << 0.00001 << "1e-05";
        QTest::newRow("neg") << -123.456 << "-123.456";
        QTest::newRow("negzero") << -0.0 << "-0.0";
        QTest::newRow("third") << (1.0 / 3) << "0.3333333333333333";
        QTest::newRow("max") << 1.7976931348623157e308 << "1.7976931348623157e+308";
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "inf";
        QTest::newRow("123456789012345680") << 1.2345678901234568e17 << "1.2345678901234568e+17";
    }
    void floatRepr()
    {
        QFETCH(double, input);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(formatFloat(input)), expected);
    }

    void pythonStr_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("str");
        QTest::addColumn<QString>("dumps");
        QTest::newRow("nested") << "{\"k\": [1, true, null]}"
                                << "{'k': [1, True, None]}"
                                << "{\"k\": [1, true, null]}";
        QTest::newRow("quote") << "[\"it's\"]"
                               << "[\"it's\"]"
                               << "[\"it's\"]";
        QTest::newRow("both quotes") << "[\"it's \\\"x\\\"\"]"
                                     << "['it\\'s \"x\"']"
                                     << "[\"it's \\\"x\\\"\"]";
        QTest::newRow("japanese") << "[\"銀河　鉄道\"]"
                                  << "['銀河\\u3000鉄道']"
                                  << "[\"\\u9280\\u6cb3\\u3000\\u9244\\u9053\"]";
        QTest::newRow("newline") << "[\"a\\nb\\\\\"]"
                                 << "['a\\nb\\\\']"
                                 << "[\"a\\nb\\\\\"]";
        QTest::newRow("float") << "[1.5, 2.0]"
                               << "[1.5, 2.0]"
                               << "[1.5, 2.0]";
        QTest::newRow("empty") << "{\"a\": {}, \"b\": []}"
                               << "{'a': {}, 'b': []}"
                               << "{\"a\": {}, \"b\": []}";
        QTest::newRow("string") << "\"plain\""
                                << "plain"
                                << "\"plain\"";
        QTest::newRow("emoji") << "[\"😀\"]"
                               << "['😀']"
                               << "[\"\\ud83d\\ude00\"]";
        QTest::newRow("control") << "[\"\\u0001\"]"
                                 << "['\\x01']"
                                 << "[\"\\u0001\"]";
    }
    void pythonStr()
    {
        QFETCH(QString, json);
        QFETCH(QString, str);
        QFETCH(QString, dumps);
        const Value v = parse(json.toUtf8().constData());
        QCOMPARE(QString::fromStdString(v.str()), str);
        QCOMPARE(QString::fromStdString(v.json()), dumps);
    }

    void tuples()
    {
        QCOMPARE(Value::tuple({Value(1)}).str(), std::string("(1,)"));
        QCOMPARE(Value::tuple({}).str(), std::string("()"));
        QCOMPARE(Value::tuple({Value(1), Value("a")}).json(), std::string("[1, \"a\"]"));
        QVERIFY(Value::tuple({Value(1)}) != Value(List{Value(1)}));
    }

    void equalityAndOrder()
    {
        QVERIFY(Value(1) == Value(1.0));
        QVERIFY(Value(true) == Value(1));
        QCOMPARE(Value(1).hash(), Value(1.0).hash());
        QVERIFY(Value("a") != Value(1));
        QVERIFY(Value::less(Value(1), Value(1.5)));
        QVERIFY(Value::less(Value("abc"), Value("abd")));
        QVERIFY(Value::less(Value("z"), Value("あ"))); // code point order
        QVERIFY(parse("[1, 2]") == parse("[1.0, 2]"));
        QVERIFY(parse("{\"a\": 1, \"b\": 2}") == parse("{\"b\": 2, \"a\": 1}"));
        QVERIFY_THROWS_EXCEPTION(EvalError, Value::compare(Value("a"), Value(1)));
        QVERIFY_THROWS_EXCEPTION(EvalError, parse("[1]").hash());
        const int64_t big = (1LL << 62) + 1;
        QVERIFY(Value(big) != Value(double(1LL << 62)));
        QVERIFY(Value::less(Value(double(1LL << 62)), Value(big)));
    }

    void truthiness()
    {
        QVERIFY(!Value().truthy());
        QVERIFY(!Value(0).truthy());
        QVERIFY(!Value(0.0).truthy());
        QVERIFY(!Value("").truthy());
        QVERIFY(!Value(List{}).truthy());
        QVERIFY(Value("0").truthy());
        QVERIFY_THROWS_EXCEPTION(EvalError, Value::undefined("x").truthy());
        QVERIFY_THROWS_EXCEPTION(EvalError, Value::undefined("x").str());
        // Nested in a container it prints as Jinja's Undefined repr does.
        QCOMPARE(Value(List{Value(1), Value::undefined("x")}).str(), std::string("[1, Undefined]"));
    }

    void unicodeLength()
    {
        QCOMPARE(Value("銀河鉄道").length(), 4);
        QCOMPARE(Value("a😀b").length(), 3);
        QCOMPARE(utf8::offsetOf("a銀b", 2), size_t(4));
        QCOMPARE(utf8::encode(utf8::decode("銀河😀")), std::string("銀河😀"));
    }

    void dictKeepsOrderAndIndexes()
    {
        Dict d;
        for (int i = 0; i < 100; ++i)
            d.set(Value("k" + std::to_string(99 - i)), Value(i));
        QCOMPARE(d.size(), size_t(100));
        QCOMPARE(d.items().front().first.asString(), std::string("k99"));
        QCOMPARE(d.find("k0")->asInt(), 99);
        d.set("k50", Value(-1));
        QCOMPARE(d.size(), size_t(100));
        QCOMPARE(d.find("k50")->asInt(), -1);
        QVERIFY(d.remove(Value("k50")));
        QVERIFY(!d.find("k50"));
        QCOMPARE(d.find("k1")->asInt(), 98);
        d.set(Value(1), Value("int key"));
        QCOMPARE(d.find(Value(1.0))->asString(), std::string("int key"));
        QCOMPARE(Value(Dict{{Value(1), Value("a")}}).str(), std::string("{1: 'a'}"));
        QCOMPARE(Value(Dict{{Value(1), Value("a")}}).json(), std::string("{\"1\": \"a\"}"));
    }

    void copyOnWrite()
    {
        Value a(List{Value(1)});
        Value b = a;
        b.mutableList().push_back(Value(2));
        QCOMPARE(a.length(), 1);
        QCOMPARE(b.length(), 2);
    }

    // A copy made to be changed keeps what the value was: a tuple stays a tuple, a message
    // stays a message, and the value it was copied from is untouched.
    void copyOnWriteKeepsTheKindOfValue()
    {
        const Value t = Value::tuple({Value(1)});
        Value u = t;
        u.mutableList().push_back(Value(2));
        QVERIFY(u.isTuple());
        QCOMPARE(u.repr(), std::string("(1, 2)"));
        QCOMPARE(t.repr(), std::string("(1,)"));
        const Value m =
            Value(Dict{{Value("role"), Value("user")}}).wrapped(Value::Wrapper::Message);
        Value n = m;
        n.mutableDict().set("content", Value("hi"));
        QCOMPARE(n.wrapper(), Value::Wrapper::Message);
        QCOMPARE(n.length(), 2);
        QCOMPARE(m.length(), 1);
        // A value moved from is None, and assigning a value to itself keeps it.
        Value moved = std::move(n);
        QVERIFY(n.isNull());
        moved = moved;
        QCOMPARE(moved.length(), 2);
    }

    // Values shared between threads (a live trace view reads what the interpreter's thread
    // made) are copied, changed and dropped on both at once: each keeps its own, the shared
    // one stays as it was, and its payloads are freed once (a double free would crash here).
    void sharedValuesAcrossThreads()
    {
        const Value shared(List{Value("a string longer than the inline buffer of a string"),
                                Value(Dict{{Value("k"), Value(List{Value(1), Value(2)})}})});
        auto work = [&shared](int seed) {
            int64_t sum = 0;
            for (int i = 0; i < 100000; ++i) {
                Value copy = shared;
                Value other;
                other = copy;
                if (i % 7 == seed)
                    other.mutableList().push_back(Value(i));
                Value moved = std::move(copy);
                sum += moved.length() + other.length();
            }
            return sum;
        };
        int64_t sums[2] = {0, 0};
        QThread* a = QThread::create([&] { sums[0] = work(0); });
        QThread* b = QThread::create([&] { sums[1] = work(3); });
        a->start();
        b->start();
        QVERIFY(a->wait(60000));
        QVERIFY(b->wait(60000));
        delete a;
        delete b;
        // Each round: the moved copy has 2 items, the other 2 or 3 (changed one round in 7).
        const int64_t changed0 = (100000 + 6) / 7, changed3 = (100000 - 3 + 6) / 7;
        QCOMPARE(sums[0], 4 * 100000 + changed0);
        QCOMPARE(sums[1], 4 * 100000 + changed3);
        QCOMPARE(shared.length(), 2);
        QCOMPARE(shared.asList()[0].asString(),
                 std::string("a string longer than the inline buffer of a string"));
        QCOMPARE(shared.asList()[1].json(), std::string("{\"k\": [1, 2]}"));
    }

    // A function is the same value however many Values hold it.
    void callablesCompareByTheirFunction()
    {
        auto f = makeCallable("f", [](const CallArgs&) { return Value(1); });
        const Value a(f), b(f);
        QVERIFY(a == b);
        QCOMPARE(a.hash(), b.hash());
        QVERIFY(a != Value(makeCallable("f", [](const CallArgs&) { return Value(1); })));
        QCOMPARE(a.asCallable().get(), f.get());
    }

    void jsonRoundTrip()
    {
        const char* text = "{\"a\": [1, 2.5, \"x\", null, true], \"b\": {\"c\": -7}}";
        const Value v = parse(text);
        QCOMPARE(Value::fromJson(v.toJson()), v);
        QCOMPARE(v.toText(), v.json());
        QCOMPARE(Value("s").toText(), std::string("s"));
    }

    void nestingDepthIsKeptWithTheValue()
    {
        QCOMPARE(Value(1).nestingDepth(), 0);
        QCOMPARE(Value("s").nestingDepth(), 0);
        QCOMPARE(parse("[]").nestingDepth(), 1);
        QCOMPARE(parse(R"([1, {"a": [2, [3]]}, []])").nestingDepth(), 4);
        Value x(0);
        for (int i = 0; i < 100000; ++i)
            x = Value(List{x});
        QCOMPARE(x.nestingDepth(), 100000);
        // Changed in place: the depth follows.
        Value shallow = parse("[1, 2]");
        shallow.mutableList().push_back(x);
        QCOMPARE(shallow.nestingDepth(), 100001);
        Value d = parse(R"({"a": 1})");
        d.mutableDict().set("b", parse("[[1]]"));
        QCOMPARE(d.nestingDepth(), 3);
    }

    void textJoinRendersAsToText()
    {
        const QList<Value> pieces{Value("a"),
                                  parse(R"([1, "x\u00e9", {"k": [null, true, 2.5]}])"),
                                  Value(7),
                                  Value(),
                                  parse(R"({"b": {"c": []}})"),
                                  Value("z")};
        for (const std::string& sep : {std::string(), std::string(", ")}) {
            std::string expected;
            TextJoin join(sep);
            for (qsizetype i = 0; i < pieces.size(); ++i) {
                if (i)
                    expected += sep;
                expected += pieces[i].toText();
                join.append(pieces[i]);
            }
            const Value v = join.take();
            QVERIFY(v.isString());
            std::string written;
            v.writeText([&](std::string_view s) { written += s; });
            QCOMPARE(written, expected); // before anything rendered it
            QCOMPARE(v.asString(), expected);
            QCOMPARE(v.toText(), expected);
            QCOMPARE(v.json(), Value(expected).json());
            QVERIFY(v == Value(expected));
            QCOMPARE(v.hash(), Value(expected).hash());
            QCOMPARE(v.length(), Value(expected).length());
            written.clear();
            v.writeText([&](std::string_view s) { written += s; });
            QCOMPARE(written, expected); // and after
        }
        // Only strings: one plain string; a joined text inside a join stays lazy and renders.
        TextJoin plain;
        plain.append(Value("x"));
        plain.append(Value("y"));
        QCOMPARE(plain.take().asString(), std::string("xy"));
        TextJoin inner;
        inner.append(parse("[1]"));
        TextJoin outer("-");
        outer.append(inner.take());
        outer.append(parse("[2]"));
        QCOMPARE(outer.take().asString(), std::string("[1]-[2]"));
        TextJoin undefined;
        QVERIFY_THROWS_EXCEPTION(EvalError, undefined.append(Value::undefined("u")));
    }

    void joinedTextOfDeepValuesIsNotRendered()
    {
        // A loop joining `${ [x] }` 40,000 times: the pieces are shared, not rendered (the
        // text would be 1.6 GB); writing it renders one piece at a time.
        Value x(0);
        TextJoin join;
        size_t expected = 0;
        for (int i = 1; i <= 2000; ++i) {
            x = Value(List{x});
            join.append(x);
            expected += size_t(2 * i + 1);
        }
        const Value text = join.take();
        size_t written = 0;
        size_t largest = 0;
        text.writeText([&](std::string_view s) {
            written += s.size();
            largest = std::max(largest, s.size());
        });
        QCOMPARE(written, expected);
        QVERIFY(largest <= 128 * 1024);
        QCOMPARE(text.length(), int64_t(expected));
    }

    void joinsOfJoinsStayShallow()
    {
        // Each join holding the previous one (a loop joining its own last text): rendering and
        // dropping the result never recurses through 10,000 joins.
        Value text("");
        for (int i = 0; i < 10000; ++i) {
            TextJoin join;
            join.append(text);
            join.append(parse("[1]"));
            text = join.take();
        }
        std::string written;
        text.writeText([&](std::string_view s) { written += s; });
        QCOMPARE(written.size(), size_t(30000));
        QCOMPARE(text.asString(), written);
        text = Value();
    }

    void deepValuesKeepTheNestingGuard()
    {
        // On a thread with a 1 MB stack: rendering a list nested 20,000 deep recursively is
        // refused as Python refuses it (RecursionError), and joining it as text is refused in
        // the same way, up front; writeText() writes it without recursing.
        Value x(0);
        for (int i = 0; i < 20000; ++i)
            x = Value(List{x});
        QString toTextError, joinError;
        size_t written = 0;
        QThread* t = QThread::create([&] {
            try {
                (void)x.toText();
            } catch (const EvalError& e) {
                toTextError = QString::fromUtf8(e.what());
            }
            try {
                TextJoin join;
                join.append(x);
            } catch (const EvalError& e) {
                joinError = QString::fromUtf8(e.what());
            }
            x.writeText([&](std::string_view s) { written += s.size(); });
        });
        t->setStackSize(1024 * 1024);
        t->start();
        QVERIFY(t->wait(60000));
        delete t;
        QVERIFY2(toTextError.contains(QLatin1String("nested too deeply")), qPrintable(toTextError));
        QCOMPARE(joinError, toTextError);
        QCOMPARE(written, size_t(2 * 20000 + 1));
    }

    // A list in a dict in a list … 200,000 deep is freed on a thread with a 1 MB stack.
    void deepValuesAreFreedWithoutRecursing()
    {
        bool done = false;
        QThread* t = QThread::create([&done] {
            Value x(0);
            for (int i = 0; i < 200000; ++i)
                x = i % 2 ? Value(List{x}) : Value(Dict{{Value("in"), x}});
            x = Value();
            done = true;
        });
        t->setStackSize(1024 * 1024);
        t->start();
        QVERIFY(t->wait(60000));
        delete t;
        QVERIFY(done);
    }
};

QTEST_GUILESS_MAIN(TestValue)
#include "tst_value.moc"
