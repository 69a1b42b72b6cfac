// Jinja2 filters against results computed by real Jinja2 (see tests/tools/gen_builtins_cases.py).

#include "builtinstestutil.h"

#include <iterator>

using namespace hako::pdl;
using namespace hako::pdl::testutil;

class TestFilters : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void jinjaCases_data() { addRows(std::begin(kFilterCases), std::end(kFilterCases)); }
    void jinjaCases()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, args);
        QFETCH(QString, kwargs);
        QFETCH(QString, expected);
        std::string n = name.toStdString();
        builtins::FilterFn fn = builtins::findFilter(n);
        QVERIFY2(fn, qPrintable("no filter " + name));
        Value v = decode(value.toUtf8().constData());
        CallArgs call = decodeArgs(args.toUtf8().constData(), kwargs.toUtf8().constData());
        check([&] { return fn(v, call); }, expected);
    }

    void unknownFilter() { QVERIFY(!builtins::findFilter("nosuchfilter")); }

    void undefinedInput()
    {
        QVERIFY(builtins::filterAcceptsUndefined("default"));
        QVERIFY(builtins::filterAcceptsUndefined("d"));
        QVERIFY(!builtins::filterAcceptsUndefined("upper"));
        CallArgs args;
        args.positional.push_back(Value("fallback"));
        Value r = builtins::findFilter("default")(Value::undefined("x"), args);
        QCOMPARE(QString::fromStdString(r.str()), QStringLiteral("fallback"));
        QVERIFY(builtins::findFilter("default")(Value::undefined("x"), {}).str().empty());
        Value items = builtins::findFilter("items")(Value::undefined("x"), {});
        QCOMPARE(items.length(), 0);
    }

    void groupbyGivesTuples()
    {
        List rows;
        rows.push_back(Value(Dict{{Value("k"), Value(1)}}));
        CallArgs args;
        args.positional.push_back(Value("k"));
        Value r = builtins::findFilter("groupby")(Value(rows), args);
        QVERIFY(r.asList().at(0).isTuple());
    }

    void mapCallsOtherFilters()
    {
        CallArgs args;
        args.positional = {Value("default"), Value("z")};
        Value r = builtins::findFilter("map")(Value(List{Value(1), Value::undefined("u")}), args);
        QCOMPARE(QString::fromStdString(r.repr()), QStringLiteral("[1, 'z']"));
    }
};

QTEST_GUILESS_MAIN(TestFilters)
#include "tst_filters.moc"
