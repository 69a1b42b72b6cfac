// The trace panes while spans of an agent run are received: rows the user opened stay open,
// the selected span stays selected and the tree does not jump back to the top as more spans
// arrive (earlier siblings, the parents they waited for), and the box view and timeline follow
// the moves without stale rows.
#include "core/otel/otellivefeed.h"
#include "core/pdl/trace/tracefilterproxy.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/trace/boxview.h"
#include "widgets/trace/tracetimelineview.h"
#include "widgets/trace/tracetreeview.h"

#include <QScrollBar>
#include <QSplitter>
#include <QTest>
#include <QTreeView>

#include <cstdio>

using namespace hako;
using namespace hako::otel;

namespace {

const std::string kTrace = "4bf92f3577b34da6a3ce929d0e0e4736";

std::string spanId(int i)
{
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016x", i + 1);
    return buf;
}

Span span(int i, int parent, int64_t start, const std::string& name)
{
    Span s;
    s.traceId = kTrace;
    s.spanId = spanId(i);
    if (parent >= 0)
        s.parentSpanId = spanId(parent);
    s.name = name;
    s.startNanos = 1700000000000000000LL + start * 1000000;
    s.endNanos = s.startNanos + 500000;
    return s;
}

} // namespace

class TestOtelLiveTree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void openRowsStayOpenAsSpansArrive()
    {
        WorkbenchContext context;
        pdl::TraceModel model;
        context.setTraceModel(&model);
        QWidget window;
        auto* split = new QSplitter(&window);
        auto* tree = new TraceTreeView(&context, split);
        new TraceTimelineView(&context, split);
        new BoxView(&context, split);
        window.resize(1200, 300);
        split->resize(window.size());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        OtelLiveFeed feed(&model);
        QTreeView* view = tree->treeView();
        auto rowOf = [&](int i) {
            const pdl::TraceItem* item = model.findById(QString::fromStdString(spanId(i)));
            return item ? tree->filterProxy()->mapFromSource(model.indexOf(item)) : QModelIndex();
        };
        // The agent's first steps: a tool (3) and many LLM calls (10…39) under a step (1) that
        // has not ended yet, so under a placeholder.
        std::vector<Span> first{span(3, 1, 5, "search")};
        for (int i = 10; i < 40; ++i)
            first.push_back(span(i, 1, 10 + i, "llm call " + std::to_string(i)));
        feed.push(std::move(first));
        feed.flush();
        const QModelIndex waiting = rowOf(1);
        QVERIFY(waiting.isValid());
        view->expand(waiting);
        view->setCurrentIndex(rowOf(30));
        view->scrollTo(rowOf(30), QAbstractItemView::PositionAtTop);
        QCOMPARE(tree->selectedId(), QString::fromStdString(spanId(30)));
        const int scroll = view->verticalScrollBar()->value();
        QVERIFY(scroll > 0);

        // A sibling under the step that sorts last, the step itself (under the agent, still
        // running), then the agent: rows are inserted and moved, never reset.
        feed.push({span(40, 1, 90, "summarise")});
        feed.flush();
        QVERIFY(view->isExpanded(rowOf(1)));
        feed.push({span(1, 0, 2, "plan step"), span(2, 0, 1, "load memory")});
        feed.flush();
        QCOMPARE(view->model()->data(rowOf(1)).toString(), QStringLiteral("plan step"));
        QVERIFY(view->isExpanded(rowOf(1)));
        feed.push({span(0, -1, 0, "agent")});
        feed.flush();
        QCOMPARE(view->model()->data(view->model()->index(0, 0)).toString(),
                 QStringLiteral("agent"));
        QVERIFY(view->isExpanded(rowOf(1)));
        QCOMPARE(tree->selectedId(), QString::fromStdString(spanId(30)));
        // The tree did not jump back to the top: the selected row is still on screen.
        QVERIFY(view->verticalScrollBar()->value() >= scroll);
        QVERIFY(view->viewport()->rect().intersects(view->visualRect(rowOf(30))));
        QCOMPARE(model.itemCount(), 35);
    }
};

QTEST_MAIN(TestOtelLiveTree)
#include "tst_otellivetree.moc"
