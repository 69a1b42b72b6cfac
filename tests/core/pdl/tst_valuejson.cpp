// The one bridge between PDL values and Qt's JSON types: what survives a round trip, and what
// JSON (or Qt) cannot carry.
#include "core/pdl/valuejson.h"

#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <limits>

using namespace hako::pdl;

Q_DECLARE_METATYPE(hako::pdl::Value)

namespace {
Value nestedList(int depth)
{
    Value v(int64_t(1));
    for (int i = 0; i < depth; ++i)
        v = Value(List{v});
    return v;
}

QJsonValue nestedArray(int depth)
{
    QJsonValue v(1);
    for (int i = 0; i < depth; ++i)
        v = QJsonArray{v};
    return v;
}

Value orderedDict()
{
    Dict inner;
    inner.set("z", Value(int64_t(1)));
    inner.set("y", Value(int64_t(2)));
    Dict outer;
    outer.set("b", Value(List{Value(int64_t(1)), Value("二")}));
    outer.set("a", Value(std::move(inner)));
    return Value(std::move(outer));
}
} // namespace

class TestValueJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // value → QJsonValue → value; `back` is what comes back, written as PDL's repr().
    void roundTrip_data()
    {
        QTest::addColumn<Value>("value");
        QTest::addColumn<QString>("back");
        QTest::addColumn<QByteArray>("text");
        const double inf = std::numeric_limits<double>::infinity();
        const int64_t max = std::numeric_limits<int64_t>::max();
        const int64_t min = std::numeric_limits<int64_t>::min();
        QTest::newRow("null") << Value() << "None" << QByteArray("null");
        QTest::newRow("undefined") << Value::undefined("x") << "None" << QByteArray("null");
        QTest::newRow("true") << Value(true) << "True" << QByteArray("true");
        QTest::newRow("false") << Value(false) << "False" << QByteArray("false");
        QTest::newRow("int") << Value(int64_t(-42)) << "-42" << QByteArray("-42");
        QTest::newRow("2^53+1 stays exact") << Value(int64_t(9007199254740993))
                                            << "9007199254740993" << QByteArray("9007199254740993");
        QTest::newRow("int64 max")
            << Value(max) << "9223372036854775807" << QByteArray("9223372036854775807");
        QTest::newRow("int64 min")
            << Value(min) << "-9223372036854775808" << QByteArray("-9223372036854775808");
        QTest::newRow("2^64 is a float")
            << Value(18446744073709551616.0) << "1.8446744073709552e+19"
            << QByteArray("1.8446744073709552e+19");
        QTest::newRow("float") << Value(1.5) << "1.5" << QByteArray("1.5");
        // Qt stores every whole number as an integer: 2.0 and -0.0 come back as ints (PDL's ==
        // holds 2 == 2.0); the text form keeps them.
        QTest::newRow("2.0 becomes 2") << Value(2.0) << "2" << QByteArray("2.0");
        QTest::newRow("-0.0 becomes 0") << Value(-0.0) << "0" << QByteArray("-0.0");
        // JSON has no NaN or infinity: they become null rather than spoil the whole document.
        QTest::newRow("nan") << Value(std::nan("")) << "None" << QByteArray("null");
        QTest::newRow("inf") << Value(inf) << "None" << QByteArray("null");
        QTest::newRow("-inf") << Value(-inf) << "None" << QByteArray("null");
        QTest::newRow("japanese") << Value(QStringLiteral("日本語の文").toStdString())
                                  << QStringLiteral("'日本語の文'")
                                  << QStringLiteral("\"日本語の文\"").toUtf8();
        QTest::newRow("nul") << Value(std::string("a\0b", 3)) << "'a\\x00b'"
                             << QByteArray("\"a\\u0000b\"");
        QTest::newRow("nested list")
            << Value(List{Value(int64_t(1)), Value(List{Value(2.5), Value()})})
            << "[1, [2.5, None]]" << QByteArray("[1,[2.5,null]]");
        // QJsonObject sorts its keys; the text form keeps the dict's own order.
        QTest::newRow("dict order")
            << orderedDict() << QStringLiteral("{'a': {'y': 2, 'z': 1}, 'b': [1, '二']}")
            << QStringLiteral("{\"b\":[1,\"二\"],\"a\":{\"z\":1,\"y\":2}}").toUtf8();
        QTest::newRow("non-string key") << Value(Dict{{Value(int64_t(1)), Value("x")}})
                                        << "{'1': 'x'}" << QByteArray("{\"1\":\"x\"}");
    }
    void roundTrip()
    {
        QFETCH(Value, value);
        QFETCH(QString, back);
        QFETCH(QByteArray, text);
        QCOMPARE(QString::fromStdString(fromQJsonValue(toQJsonValue(value)).repr()), back);
        QCOMPARE(toJsonText(value), text);
        // The text form reads back what it wrote.
        const std::optional<Value> read = fromJsonText(text);
        QVERIFY(read);
        QCOMPARE(QByteArray(toJsonText(*read)), text);
    }

    void stringsKeepEveryCharacter()
    {
        const std::string raw("x\0日本\0", 9);
        const QJsonValue json = toQJsonValue(Value(raw));
        QCOMPARE(json.toString().size(), 5);
        QCOMPARE(fromQJsonValue(json).asString(), raw);
    }

    void integersFromJsonTextBeyondDoublePrecision()
    {
        const QJsonDocument doc = QJsonDocument::fromJson("[9007199254740993, 2.5]");
        const Value v = fromQJsonValue(doc.array());
        QCOMPARE(v.asList().at(0).asInt(), int64_t(9007199254740993));
        QVERIFY(v.asList().at(1).isFloat());
    }

    void objectsAndDicts()
    {
        const QJsonObject o = toQJsonObject(orderedDict());
        QCOMPARE(o.value("b").toArray().at(1).toString(), QStringLiteral("二"));
        QCOMPARE(fromQJsonObject(o).size(), size_t(2));
        QVERIFY(toQJsonObject(Value(int64_t(3))).isEmpty());
    }

    void depthLimit()
    {
        QCOMPARE(fromQJsonValue(toQJsonValue(nestedList(kMaxValueJsonDepth))).nestingDepth(),
                 kMaxValueJsonDepth);
        QVERIFY_THROWS_EXCEPTION(EvalError, toQJsonValue(nestedList(kMaxValueJsonDepth + 1)));
        QVERIFY_THROWS_EXCEPTION(EvalError, fromQJsonValue(nestedArray(kMaxValueJsonDepth + 1)));
        QVERIFY_THROWS_EXCEPTION(EvalError, toJsonText(nestedList(kMaxValueJsonDepth + 1)));
        QVERIFY(!fromJsonText(QByteArray(kMaxValueJsonDepth + 1, '[') +
                              QByteArray(kMaxValueJsonDepth + 1, ']')));
    }

    void notJson() { QVERIFY(!fromJsonText("{\"a\":")); }
};

QTEST_GUILESS_MAIN(TestValueJson)
#include "tst_valuejson.moc"
