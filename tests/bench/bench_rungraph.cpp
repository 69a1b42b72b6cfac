// The agent's graph of a 10,000-span run: flattening, building and laying it out (issue 28:
// under 1 s), and the flame bars.
#include "core/pdl/interp/tracenode.h"
#include "core/pdl/trace/flamegraph.h"
#include "core/pdl/trace/rungraph.h"

#include <QElapsedTimer>

#include <cstdio>

using namespace hako::pdl;

namespace {

TracePtr span(BlockKind kind, std::string def, int64_t start, int64_t end)
{
    auto n = std::make_shared<TraceNode>();
    n->kind = kind;
    n->def = std::move(def);
    n->id = std::to_string(start) + "." + std::to_string(end);
    n->startNanos = start;
    n->endNanos = end;
    return n;
}

// 10,000 spans: 40 agents, each handing off to the next, each running loops of model calls
// and tools (200 distinct tools), sub-agents calling each other.
TracePtr bigRun(int& count)
{
    int64_t t = 1;
    TracePtr root = span(BlockKind::Sequence, "orchestrator", t, 0);
    count = 1;
    for (int a = 0; count < 10000; ++a) {
        TracePtr agent = span(BlockKind::Call, "agent" + std::to_string(a % 40), t, 0);
        ++count;
        for (int step = 0; step < 30 && count < 9996; ++step) {
            TracePtr iteration = span(BlockKind::Sequence, "", t, 0);
            iteration->addChild("text", span(BlockKind::Model, "llm", t, t + 1000));
            iteration->addChild(
                "text",
                span(BlockKind::Code, "tool" + std::to_string((a * 7 + step) % 200), t, t + 500));
            TracePtr sub =
                span(BlockKind::Call, "agent" + std::to_string((a + step) % 40), t, t + 2);
            sub->addChild("text", span(BlockKind::Model, "llm", t, t + 1));
            iteration->addChild("text", sub);
            agent->addChild("text", iteration);
            count += 5;
            t += 2000;
        }
        agent->endNanos = t;
        root->addChild("text", agent);
        ++t;
    }
    root->endNanos = t;
    return root;
}

} // namespace

int main()
{
    int count = 0;
    const TracePtr root = bigRun(count);
    QElapsedTimer timer;
    timer.start();
    const RunShape shape = collectShape(*root);
    RunGraph graph = buildRunGraph(shape);
    layoutGraph(graph);
    const double layoutMs = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    const FlameLayout flame = layoutFlame(shape, FlameMetric::Duration);
    const double flameMs = double(timer.nsecsElapsed()) / 1e6;
    std::fprintf(stderr, "%d spans, %zu nodes, %zu edges, %d layers, %zu bars\n", count,
                 graph.nodes.size(), graph.edges.size(), graph.layerCount, flame.bars.size());
    std::printf("BENCH rungraph_layout_10k %.1f ms\n", layoutMs);
    std::printf("BENCH rungraph_flame_10k %.1f ms\n", flameMs);
    return 0;
}
