// The agent's shape (issue 28 §2): the graph of a run (agents, tools and model calls as nodes,
// loops collapsed into counted edges, hand-offs), its layered layout, and the flame bars.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/interp/tracenode.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/flamegraph.h"
#include "core/pdl/trace/rungraph.h"
#include "core/pdl/trace/tracemodel.h"

#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

constexpr int64_t kMs = 1000000;

TracePtr node(BlockKind kind, const std::string& def, int64_t startMs, int64_t endMs)
{
    auto n = std::make_shared<TraceNode>();
    n->kind = kind;
    n->def = def;
    static int next = 0;
    n->id = "n" + std::to_string(++next);
    n->startNanos = startMs * kMs + 1;
    n->endNanos = endMs * kMs + 1;
    return n;
}

TracePtr model(const std::string& def, int64_t startMs, int64_t endMs, int64_t in, int64_t out)
{
    TracePtr n = node(BlockKind::Model, def, startMs, endMs);
    Dict usage;
    usage.set("prompt_tokens", Value(in));
    usage.set("completion_tokens", Value(out));
    usage.set("cost", Value(double(in + out) / 1000));
    n->usage = Value(std::move(usage));
    return n;
}

void add(const TracePtr& parent, TracePtr child)
{
    parent->addChild("text", std::move(child));
}

// A ReAct-like run: a loop of 3 (plan, search), then the writer agent drafting, then the reviewer.
TracePtr reactRun()
{
    TracePtr root = node(BlockKind::Sequence, "", 0, 100);
    TracePtr loop = node(BlockKind::Repeat, "", 0, 60);
    for (int i = 0; i < 3; ++i) {
        TracePtr iteration = node(BlockKind::Sequence, "", i * 20, i * 20 + 20);
        add(iteration, model("plan", i * 20, i * 20 + 10, 100, 10));
        add(iteration, node(BlockKind::Code, "search", i * 20 + 10, i * 20 + 20));
        add(loop, iteration);
    }
    add(root, loop);
    TracePtr writer = node(BlockKind::Call, "writer", 60, 80);
    add(writer, model("draft", 60, 80, 300, 200));
    add(root, writer);
    TracePtr reviewer = node(BlockKind::Call, "reviewer", 80, 100);
    add(root, reviewer);
    return root;
}

int nodeNamed(const RunGraph& g, const std::string& name)
{
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].name == name)
            return int(i);
    return -1;
}

const GraphEdge* edge(const RunGraph& g, int from, int to, GraphEdge::Kind kind)
{
    for (const GraphEdge& e : g.edges)
        if (e.from == from && e.to == to && e.kind == kind)
            return &e;
    return nullptr;
}

void checkLayout(const RunGraph& g)
{
    for (const GraphEdge& e : g.edges)
        if (!e.back)
            QVERIFY2(g.nodes[size_t(e.to)].layer > g.nodes[size_t(e.from)].layer,
                     (g.nodes[size_t(e.from)].name + " → " + g.nodes[size_t(e.to)].name).c_str());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const GraphNode& a = g.nodes[i];
        QVERIFY(a.width > 0 && a.height > 0);
        for (size_t j = i + 1; j < g.nodes.size(); ++j) {
            const GraphNode& b = g.nodes[j];
            const bool apart = a.x + a.width <= b.x || b.x + b.width <= a.x ||
                               a.y + a.height <= b.y || b.y + b.height <= a.y;
            QVERIFY2(apart, (a.name + " overlaps " + b.name).c_str());
        }
        QVERIFY(a.x >= 0 && a.y >= 0 && a.x + a.width <= g.width + 0.01 &&
                a.y + a.height <= g.height + 0.01);
    }
}

} // namespace

class TestRunGraph : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void graphOfAKnownRun()
    {
        const RunShape shape = collectShape(*reactRun());
        QCOMPARE(shape.spans.size(), size_t(14));
        const RunGraph g = buildRunGraph(shape);
        // Root, plan, search, writer, draft, reviewer: the loop and its iterations are steps.
        QCOMPARE(g.nodes.size(), size_t(6));
        const int root = 0, plan = nodeNamed(g, "plan"), search = nodeNamed(g, "search"),
                  writer = nodeNamed(g, "writer"), draft = nodeNamed(g, "draft"),
                  reviewer = nodeNamed(g, "reviewer");
        QVERIFY(plan > 0 && search > 0 && writer > 0 && draft > 0 && reviewer > 0);
        QCOMPARE(g.nodes[size_t(plan)].role, ShapeRole::Model);
        QCOMPARE(g.nodes[size_t(search)].role, ShapeRole::Tool);
        QCOMPARE(g.nodes[size_t(writer)].role, ShapeRole::Agent);
        QCOMPARE(g.nodes[size_t(plan)].spans.size(), size_t(3));
        QCOMPARE(g.nodes[size_t(plan)].total.tokens(), int64_t(330));
        // The loop's 3 calls are one edge each, counted.
        QCOMPARE(g.edges.size(), size_t(6));
        QVERIFY(edge(g, root, plan, GraphEdge::Kind::Call));
        QCOMPARE(edge(g, root, plan, GraphEdge::Kind::Call)->count, 3);
        QCOMPARE(edge(g, root, search, GraphEdge::Kind::Call)->count, 3);
        QCOMPARE(edge(g, writer, draft, GraphEdge::Kind::Call)->count, 1);
        QVERIFY(edge(g, root, reviewer, GraphEdge::Kind::Call));
        // The reviewer started when the writer had finished: a hand-off.
        QVERIFY(edge(g, writer, reviewer, GraphEdge::Kind::Handoff));
        QVERIFY(!edge(g, root, draft, GraphEdge::Kind::Call));
        // A step belongs to its caller's node; the draft to the writer's.
        QCOMPARE(g.nodeOfId(shape, shape.spans[1].id), root);
        QCOMPARE(g.nodeOfSpan[12], draft);
    }

    void graphOfAPdlRun()
    {
        // A function called in a loop of 3, each call asking the model.
        const QByteArray text = R"(description: Support desk
defs:
  ask:
    function:
      q: string
    return:
      model: demo/model
      def: answer
      parameters:
        mock_response: "ok"
text:
- repeat:
    call: ${ ask }
    args:
      q: hi
  maxIterations: 3
)";
        ParseResult parsed = parseProgramText(text, QStringLiteral("/tmp/shape.pdl"));
        QVERIFY(parsed.ok());
        RunOptions options;
        options.trace = true;
        Interpreter interp(options);
        const RunResult run = interp.run(parsed.program);
        QVERIFY(run.trace);
        const RunShape shape = collectShape(*run.trace);
        const RunGraph g = buildRunGraph(shape);
        const int ask = nodeNamed(g, "ask"), answer = nodeNamed(g, "answer");
        QVERIFY2(ask > 0 && answer > 0, qPrintable(QString::number(g.nodes.size())));
        QCOMPARE(g.nodes[size_t(ask)].role, ShapeRole::Agent);
        QCOMPARE(g.nodes[size_t(ask)].spans.size(), size_t(3));
        QCOMPARE(g.nodes[size_t(answer)].role, ShapeRole::Model);
        QCOMPARE(edge(g, 0, ask, GraphEdge::Kind::Call)->count, 3);
        QCOMPARE(g.nodes[0].name, std::string("Support desk")); // the program's description
        QCOMPARE(edge(g, ask, answer, GraphEdge::Kind::Call)->count, 3);
    }

    void otelCategoriesDecideTheRole()
    {
        TracePtr root = node(BlockKind::LastOf, "agent run", 0, 10);
        Dict agent, tool;
        agent.set("category", Value("agent"));
        tool.set("category", Value("tool"));
        root->exprs.emplace_back("otel", Value(std::move(agent)));
        TracePtr call = node(BlockKind::Call, "get_weather", 1, 2);
        call->exprs.emplace_back("otel", Value(std::move(tool)));
        add(root, call);
        const RunShape shape = collectShape(*root);
        QCOMPARE(shape.spans[0].role, ShapeRole::Agent);
        QCOMPARE(shape.spans[1].role, ShapeRole::Tool);
        QCOMPARE(shape.spans[1].name, std::string("get_weather"));
    }

    void layoutHasNoOverlapsAndLayersIncrease()
    {
        const RunShape shape = collectShape(*reactRun());
        RunGraph g = buildRunGraph(shape);
        layoutGraph(g);
        checkLayout(g);
        // The reviewer comes after the writer (hand-off), so a layer later.
        QCOMPARE(g.nodes[size_t(nodeNamed(g, "reviewer"))].layer,
                 g.nodes[size_t(nodeNamed(g, "writer"))].layer + 1);
        // The root's call of the reviewer crosses the writer's layer in a lane of its own,
        // between the nodes there, not through them.
        const GraphEdge* longEdge = edge(g, 0, nodeNamed(g, "reviewer"), GraphEdge::Kind::Call);
        QVERIFY(longEdge);
        QCOMPARE(longEdge->waypoints.size(), size_t(1));
        const auto [x, y] = longEdge->waypoints.front();
        for (const GraphNode& n : g.nodes)
            QVERIFY2(!(x >= n.x && x < n.x + n.width && y >= n.y - 6 && y <= n.y + n.height + 6),
                     n.name.c_str());
    }

    void cyclesAreBrokenAndCrossingsReduced()
    {
        // a calls b which calls a again (recursion between agents); the tools are met first
        // under the root (t1, t2, t3), then c, d, e call them in the other order.
        TracePtr root = node(BlockKind::Sequence, "", 0, 100);
        const char* tools[] = {"t1", "t2", "t3"};
        for (const char* tool : tools)
            add(root, node(BlockKind::Code, tool, 0, 0));
        TracePtr a = node(BlockKind::Call, "a", 0, 70);
        TracePtr b = node(BlockKind::Call, "b", 1, 40);
        add(b, node(BlockKind::Call, "a", 2, 30));
        add(a, b);
        add(root, a);
        const char* agents[] = {"c", "d", "e"};
        for (int i = 0; i < 3; ++i) { // running in parallel: no hand-offs
            TracePtr agent = node(BlockKind::Call, agents[i], 50 + i, 60 + i);
            add(agent, node(BlockKind::Code, tools[2 - i], 50 + i, 50 + i));
            add(root, agent);
        }
        RunGraph g = buildRunGraph(collectShape(*root));
        int back = 0;
        for (const GraphEdge& e : g.edges)
            back += e.back ? 1 : 0;
        QCOMPARE(back, 1);
        GraphLayoutParams unordered;
        unordered.sweeps = 0;
        layoutGraph(g, unordered);
        checkLayout(g);
        QVERIFY(countCrossings(g) > 0);
        layoutGraph(g);
        checkLayout(g);
        QCOMPARE(countCrossings(g), 0);
    }

    void flameBarsBySize()
    {
        const RunShape shape = collectShape(*reactRun());
        const RunTotals totals = runTotals(shape);
        QCOMPARE(totals.durationNanos, 100 * kMs);
        QCOMPARE(totals.tokens(), int64_t(830));
        QCOMPARE(totals.modelCalls, 4);
        QCOMPARE(totals.toolCalls, 3);
        QVERIFY(qAbs(totals.cost - 0.83) < 1e-9);

        const FlameLayout byTokens = layoutFlame(shape, FlameMetric::Tokens);
        QCOMPARE(byTokens.bars.size(), shape.spans.size());
        QCOMPARE(byTokens.total, 830.0);
        // The writer's bar is its draft's 500 tokens; the code blocks used none.
        const int writer = 11, draft = 12, search = 4;
        QVERIFY(qAbs(byTokens.bars[size_t(writer)].width - 500.0 / 830) < 1e-9);
        QCOMPARE(byTokens.bars[size_t(draft)].x, byTokens.bars[size_t(writer)].x);
        QCOMPARE(byTokens.bars[size_t(search)].width, 0.0);
        // Children sit inside their parent, side by side.
        for (const FlameBar& bar : byTokens.bars) {
            if (bar.parent < 0)
                continue;
            const FlameBar& p = byTokens.bars[size_t(bar.parent)];
            QVERIFY(bar.x >= p.x - 1e-9 && bar.x + bar.width <= p.x + p.width + 1e-9);
            QCOMPARE(bar.depth, p.depth + 1);
        }
        const FlameLayout byTime = layoutFlame(shape, FlameMetric::Duration);
        QVERIFY(qAbs(byTime.bars[size_t(writer)].width - 0.2) < 1e-9);
        QVERIFY(byTime.bars[size_t(search)].width > 0);
    }

    void flameSearchMarksMatchingBars()
    {
        const RunShape shape = collectShape(*reactRun());
        const FlameLayout layout = layoutFlame(shape, FlameMetric::Duration);
        std::vector<char> marks;
        QCOMPARE(searchFlame(shape, layout, QStringLiteral("PLAN"), marks), 3);
        QCOMPARE(int(marks[3]), 1);
        QCOMPARE(int(marks[4]), 0);
        QCOMPARE(searchFlame(shape, layout, QStringLiteral("model"), marks), 4);
        QCOMPARE(searchFlame(shape, layout, QString(), marks), 0);
    }

    void shapeOfATraceModelSkipsDefs()
    {
        TracePtr root = reactRun();
        root->defs.emplace_back("helper", node(BlockKind::Function, "helper", 0, 0));
        TraceModel model;
        model.setTrace(root);
        const RunShape shape = collectShape(model.root());
        QCOMPARE(shape.spans.size(), size_t(14));
        QCOMPARE(shape.spans[3].name, std::string("plan"));
    }
};

QTEST_GUILESS_MAIN(TestRunGraph)
#include "tst_rungraph.moc"
