// The trace tree's filter: text, kind, def and failed criteria, recursive (a hit keeps its
// ancestors), over finished and live models, checked with QAbstractItemModelTester.
#include "core/pdl/trace/tracefilterproxy.h"
#include "core/pdl/trace/tracemodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

TracePtr node(BlockKind kind, std::string id, Value result = {}, std::string def = {})
{
    auto n = std::make_shared<TraceNode>();
    n->kind = kind;
    n->id = std::move(id);
    n->def = std::move(def);
    if (!result.isNull()) {
        n->result = std::move(result);
        n->hasResult = true;
    }
    return n;
}

// text
// ├─ data "Hello"                       (text.0)
// ├─ model def=answer "Paris is the capital" (text.1.model)
// ├─ repeat                               (text.2.repeat)
// │   ├─ code "42"                         (text.2.repeat.0.code)
// │   └─ code failed "boom"                (text.2.repeat.1.code)
// └─ data def=summary "bye"              (text.3)
TracePtr sampleTrace()
{
    auto root = node(BlockKind::Text, "text", Value("Hello Paris"));
    root->addChild("text", node(BlockKind::Data, "text.0", Value("Hello")));
    root->addChild("text",
                   node(BlockKind::Model, "text.1.model", Value("Paris is the capital"), "answer"));
    auto loop = node(BlockKind::Repeat, "text.2.repeat", Value("42"));
    loop->addChild("pdl__trace", node(BlockKind::Code, "text.2.repeat.0.code", Value("42")));
    auto failed = node(BlockKind::Code, "text.2.repeat.1.code");
    failed->error = "boom";
    loop->addChild("pdl__trace", failed);
    root->addChild("text", loop);
    root->addChild("text", node(BlockKind::Data, "text.3", Value("bye"), "summary"));
    return root;
}

// Ids of every row the proxy shows, in tree order.
QStringList visibleIds(const QAbstractItemModel& m, const QModelIndex& parent = {})
{
    QStringList ids;
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex i = m.index(r, 0, parent);
        ids.append(i.data(TraceModel::IdRole).toString());
        ids.append(visibleIds(m, i));
    }
    return ids;
}

} // namespace

class TestTraceFilterProxy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void noFilterShowsEverything()
    {
        TraceModel model;
        TraceFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        model.setTrace(sampleTrace(), QStringLiteral("sample"));
        QCOMPARE(visibleIds(proxy).size(), 7);
        QVERIFY(!proxy.isFiltering());
    }

    void filters_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("kinds");
        QTest::addColumn<QString>("def");
        QTest::addColumn<bool>("failed");
        QTest::addColumn<QStringList>("expected");
        const QStringList none;
        // Text in the result; the ancestor stays to show where the hit is.
        QTest::newRow("result text")
            << "capital" << none << "" << false << QStringList{"text", "text.1.model"};
        QTest::newRow("case-insensitive")
            << "PARIS" << none << "" << false << QStringList{"text", "text.1.model"};
        // The label is the def name.
        QTest::newRow("label") << "summary" << none << "" << false << QStringList{"text", "text.3"};
        QTest::newRow("id") << "repeat.1" << none << "" << false
                            << QStringList{"text", "text.2.repeat", "text.2.repeat.1.code"};
        QTest::newRow("error message")
            << "boom" << none << "" << false
            << QStringList{"text", "text.2.repeat", "text.2.repeat.1.code"};
        QTest::newRow("kind code")
            << "" << QStringList{"code"} << "" << false
            << QStringList{"text", "text.2.repeat", "text.2.repeat.0.code", "text.2.repeat.1.code"};
        QTest::newRow("kinds model+data")
            << "" << QStringList{"model", "data"} << "" << false
            << QStringList{"text", "text.0", "text.1.model", "text.3"};
        QTest::newRow("def") << "" << none << "ans" << false << QStringList{"text", "text.1.model"};
        QTest::newRow("failed only")
            << "" << none << "" << true
            << QStringList{"text", "text.2.repeat", "text.2.repeat.1.code"};
        // Criteria combine: a data block whose text contains "bye".
        QTest::newRow("kind and text")
            << "bye" << QStringList{"data"} << "" << false << QStringList{"text", "text.3"};
        QTest::newRow("nothing") << "no such text" << none << "" << false << QStringList{};
        // A matching root does not drag in its children.
        QTest::newRow("root only") << "Hello Paris" << none << "" << false << QStringList{"text"};
    }

    void filters()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, kinds);
        QFETCH(QString, def);
        QFETCH(bool, failed);
        QFETCH(QStringList, expected);
        TraceModel model;
        TraceFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        model.setTrace(sampleTrace());
        proxy.setText(text);
        proxy.setKinds(QSet<QString>(kinds.begin(), kinds.end()));
        proxy.setDef(def);
        proxy.setFailedOnly(failed);
        QCOMPARE(visibleIds(proxy), expected);
        // Clearing every criterion brings all rows back.
        proxy.setText({});
        proxy.setKinds({});
        proxy.setDef({});
        proxy.setFailedOnly(false);
        QCOMPARE(visibleIds(proxy).size(), 7);
    }

    void itemAtMapsThroughTheProxy()
    {
        TraceModel model;
        TraceFilterProxy proxy;
        proxy.setSourceModel(&model);
        model.setTrace(sampleTrace());
        proxy.setKinds({QStringLiteral("model")});
        const QModelIndex root = proxy.index(0, 0);
        QCOMPARE(proxy.rowCount(root), 1);
        const TraceItem* item = proxy.itemAt(proxy.index(0, 0, root));
        QVERIFY(item);
        QCOMPARE(item->node.id, std::string("text.1.model"));
        QVERIFY(proxy.matches(item));
        QVERIFY(!proxy.matches(proxy.itemAt(root)));
    }

    void liveRowsAreFiltered()
    {
        TraceModel model;
        TraceFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setKinds({QStringLiteral("model")});
        model.beginLiveRun(QStringLiteral("p.pdl"));
        auto started = [](uint64_t serial, uint64_t parent, BlockKind kind, std::string id) {
            TraceModel::Event e;
            e.type = TraceModel::Event::Type::Started;
            e.node.serial = serial;
            e.node.parentSerial = parent;
            e.node.kind = kind;
            e.node.id = std::move(id);
            return e;
        };
        std::vector<TraceModel::Event> batch;
        batch.push_back(started(1, 0, BlockKind::Text, "text"));
        batch.push_back(started(2, 1, BlockKind::Data, "text.0"));
        model.applyEvents(std::move(batch));
        QCOMPARE(visibleIds(proxy), QStringList{});
        batch.clear();
        batch.push_back(started(3, 1, BlockKind::Model, "text.1.model"));
        model.applyEvents(std::move(batch));
        QCOMPARE(visibleIds(proxy), (QStringList{"text", "text.1.model"}));
        model.endLiveRun(nullptr);
    }
};

QTEST_GUILESS_MAIN(TestTraceFilterProxy)
#include "tst_tracefilterproxy.moc"
