// The Graph and Flame panes (issue 28 §2) over one WorkbenchContext: they show the context's
// trace (an empty state without one), clicking a node or bar selects the block in every pane
// (the Trace Tree follows), a selection elsewhere lights it here, the flame search marks and
// steps through matching bars, arrows move the selection, totals are shown at the top.
#include "core/pdl/interp/tracenode.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/shape/flameview.h"
#include "widgets/shape/graphview.h"
#include "widgets/trace/tracetreeview.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace hako;
using namespace hako::pdl;

namespace {

constexpr int64_t kMs = 1000000;

TracePtr node(BlockKind kind, const std::string& def, const std::string& id, int64_t startMs,
              int64_t endMs)
{
    auto n = std::make_shared<TraceNode>();
    n->kind = kind;
    n->def = def;
    n->id = id;
    n->startNanos = startMs * kMs + 1;
    n->endNanos = endMs * kMs + 1;
    return n;
}

TracePtr modelCall(const std::string& def, const std::string& id, int64_t startMs, int64_t endMs)
{
    TracePtr n = node(BlockKind::Model, def, id, startMs, endMs);
    Dict usage;
    usage.set("prompt_tokens", Value(int64_t(100)));
    usage.set("completion_tokens", Value(int64_t(20)));
    n->usage = Value(std::move(usage));
    return n;
}

// root: a loop of 3 × (plan, search), then the writer agent calling draft.
TracePtr agentRun()
{
    TracePtr root = node(BlockKind::Sequence, "", "text", 0, 100);
    TracePtr loop = node(BlockKind::Repeat, "", "text.0.repeat", 0, 60);
    for (int i = 0; i < 3; ++i) {
        const std::string base = "text.0.repeat." + std::to_string(i);
        TracePtr iteration = node(BlockKind::Sequence, "", base, i * 20, i * 20 + 20);
        iteration->addChild("text", modelCall("plan", base + ".plan", i * 20, i * 20 + 10));
        iteration->addChild(
            "text", node(BlockKind::Code, "search", base + ".search", i * 20 + 10, i * 20 + 20));
        loop->addChild("text", iteration);
    }
    root->addChild("text", loop);
    TracePtr writer = node(BlockKind::Call, "writer", "text.1.call", 60, 100);
    writer->span = SourceSpan{QStringLiteral("/tmp/agent.pdl"), 12, 3, 14, 1};
    writer->addChild("pdl__trace", modelCall("draft", "text.1.call.draft", 60, 100));
    root->addChild("text", writer);
    return root;
}

int graphNodeNamed(const GraphCanvas* canvas, const std::string& name)
{
    const auto& nodes = canvas->graph().nodes;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == name)
            return int(i);
    return -1;
}

QString treeCurrentId(TraceTreeView* tree)
{
    return tree->treeView()->currentIndex().data(TraceModel::IdRole).toString();
}

} // namespace

class TestShapeViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void emptyStateUntilATraceIsShown()
    {
        WorkbenchContext context;
        GraphView graph(&context);
        FlameView flame(&context);
        graph.show();
        QVERIFY(graph.canvas()->graph().nodes.empty());
        QVERIFY(graph.totalsLabel()->isHidden());
        TraceModel model;
        model.setTrace(agentRun());
        context.setTraceModel(&model);
        QCOMPARE(graph.canvas()->graph().nodes.size(),
                 size_t(5)); // root, plan, search, writer, draft
        QVERIFY(!graph.totalsLabel()->isHidden());
        QVERIFY2(graph.totalsLabel()->text().contains(QStringLiteral("480")),
                 qPrintable(graph.totalsLabel()->text()));
        QVERIFY(graph.canvas()->accessibleDescription().contains(QStringLiteral("5")));
        // A closed pane builds nothing until it is shown.
        QVERIFY(flame.canvas()->flame().bars.empty());
        flame.show();
        QCOMPARE(flame.canvas()->flame().bars.size(), size_t(13));
    }

    void clickingANodeSelectsItsBlockEverywhere()
    {
        WorkbenchContext context;
        TraceModel model;
        model.setTrace(agentRun());
        context.setTraceModel(&model);
        GraphView graph(&context);
        TraceTreeView tree(&context);
        graph.resize(900, 400);
        graph.show();
        QVERIFY(QTest::qWaitForWindowExposed(&graph));
        GraphCanvas* canvas = graph.canvas();
        const int plan = graphNodeNamed(canvas, "plan");
        QVERIFY(plan > 0);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->nodeRect(plan).center().toPoint());
        QCOMPARE(context.currentNode(), QStringLiteral("text.0.repeat.0.plan"));
        QCOMPARE(treeCurrentId(&tree), QStringLiteral("text.0.repeat.0.plan"));
        // Clicking again steps to the loop's next call of the same model block.
        QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->nodeRect(plan).center().toPoint());
        QCOMPARE(context.currentNode(), QStringLiteral("text.0.repeat.1.plan"));
        QVERIFY(canvas->accessibleDescription().contains(QStringLiteral("plan")));
        // Right from the root goes to a callee; Left comes back.
        canvas->setFocus();
        canvas->selectNode(0);
        QTest::keyClick(canvas, Qt::Key_Right);
        QVERIFY(canvas->currentNode() > 0);
        QTest::keyClick(canvas, Qt::Key_Left);
        QCOMPARE(canvas->currentNode(), 0);
        QCOMPARE(context.currentNode(), QStringLiteral("text"));
        // +/- zoom.
        const double zoom = canvas->zoom();
        QTest::keyClick(canvas, Qt::Key_Minus);
        QVERIFY(canvas->zoom() < zoom);
    }

    void aSelectionElsewhereLightsTheNodeAndBar()
    {
        WorkbenchContext context;
        TraceModel model;
        model.setTrace(agentRun());
        context.setTraceModel(&model);
        GraphView graph(&context);
        FlameView flame(&context);
        graph.show();
        flame.show();
        context.setCurrentNode(QStringLiteral("text.1.call.draft"));
        QCOMPARE(graph.canvas()->currentNode(), graphNodeNamed(graph.canvas(), "draft"));
        const int bar = flame.canvas()->currentBar();
        QVERIFY(bar >= 0);
        QCOMPARE(model.findById(QStringLiteral("text.1.call.draft"))->label(),
                 QStringLiteral("draft"));
        // A step (the loop) lights the node that called it: the root.
        context.setCurrentNode(QStringLiteral("text.0.repeat"));
        QCOMPARE(graph.canvas()->currentNode(), 0);
    }

    void flameSearchAndKeyboard()
    {
        WorkbenchContext context;
        TraceModel model;
        model.setTrace(agentRun());
        context.setTraceModel(&model);
        FlameView flame(&context);
        TraceTreeView tree(&context);
        flame.resize(900, 300);
        flame.show();
        QVERIFY(QTest::qWaitForWindowExposed(&flame));
        QTest::keyClicks(flame.searchField(), QStringLiteral("plan"));
        int marked = 0;
        for (char m : flame.canvas()->marks())
            marked += m;
        QCOMPARE(marked, 3);
        QVERIFY(flame.canvas()->accessibleDescription().contains(QStringLiteral("3")));
        // Enter selects the first match, then the next one.
        QTest::keyClick(flame.searchField(), Qt::Key_Return);
        QCOMPARE(context.currentNode(), QStringLiteral("text.0.repeat.0.plan"));
        QTest::keyClick(flame.searchField(), Qt::Key_Return);
        QCOMPARE(context.currentNode(), QStringLiteral("text.0.repeat.1.plan"));
        QCOMPARE(treeCurrentId(&tree), QStringLiteral("text.0.repeat.1.plan"));
        // Up goes to the iteration, Right to the next one.
        FlameCanvas* canvas = flame.canvas();
        canvas->setFocus();
        QTest::keyClick(canvas, Qt::Key_Up);
        QCOMPARE(context.currentNode(), QStringLiteral("text.0.repeat.1"));
        QTest::keyClick(canvas, Qt::Key_Right);
        QCOMPARE(context.currentNode(), QStringLiteral("text.0.repeat.2"));
        // Clicking a bar selects it.
        const int writerBar = 11;
        QTest::mouseClick(canvas, Qt::LeftButton, {},
                          canvas->barRect(writerBar).center().toPoint());
        QCOMPARE(context.currentNode(), QStringLiteral("text.1.call"));
        // Enter (or a double click) shows the block's source, as the boxes do.
        QSignalSpy reveal(&context, &WorkbenchContext::revealSourceRequested);
        QTest::keyClick(canvas, Qt::Key_Return);
        QCOMPARE(reveal.count(), 1);
        QCOMPARE(reveal.at(0).at(0).value<SourceSpan>().line, 12);
        // Sized by tokens, the writer's bar is its draft's share (120 of 480 tokens).
        flame.metricBox()->setCurrentIndex(1);
        QVERIFY(qAbs(canvas->flame().bars[size_t(writerBar)].width - 0.25) < 1e-9);
        const double zoom = canvas->zoom();
        QTest::keyClick(canvas, Qt::Key_Plus);
        QVERIFY(canvas->zoom() > zoom);
    }
};

QTEST_MAIN(TestShapeViews)
#include "tst_shapeviews.moc"
