#include "core/pdl/trace/rungraph.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace hako::pdl {

namespace {

void addMeasures(TraceMeasures& total, const TraceMeasures& part)
{
    if (part.durationNanos >= 0)
        total.durationNanos = std::max<int64_t>(total.durationNanos, 0) + part.durationNanos;
    total.promptTokens += part.promptTokens;
    total.completionTokens += part.completionTokens;
    total.hasTokens = total.hasTokens || part.hasTokens;
    total.cost += part.cost;
    total.hasCost = total.hasCost || part.hasCost;
}

class GraphBuilder {
public:
    explicit GraphBuilder(const RunShape& shape) : m_shape(shape) {}

    RunGraph build()
    {
        const auto& spans = m_shape.spans;
        m_graph.nodeOfSpan.assign(spans.size(), -1);
        m_significant.assign(spans.size(), -1);
        for (size_t i = 0; i < spans.size(); ++i)
            visit(int(i));
        return std::move(m_graph);
    }

private:
    void visit(int i)
    {
        const ShapeSpan& s = m_shape.spans[size_t(i)];
        if (s.parent >= 0 && s.role == ShapeRole::Step) {
            m_graph.nodeOfSpan[size_t(i)] = m_graph.nodeOfSpan[size_t(s.parent)];
            m_significant[size_t(i)] = m_significant[size_t(s.parent)];
            return;
        }
        const int node = nodeFor(s);
        m_graph.nodeOfSpan[size_t(i)] = node;
        m_significant[size_t(i)] = i;
        GraphNode& n = m_graph.nodes[size_t(node)];
        n.spans.push_back(i);
        addMeasures(n.total, s.own);
        n.failures += s.failed ? 1 : 0;
        if (s.parent < 0)
            return;
        const int callerSpan = m_significant[size_t(s.parent)];
        addEdge(m_graph.nodeOfSpan[size_t(callerSpan)], node, GraphEdge::Kind::Call);
        if (s.role != ShapeRole::Agent)
            return;
        // A hand-off: the previous agent under the same caller had finished when this began.
        auto [it, fresh] = m_lastAgent.try_emplace(callerSpan, i);
        if (!fresh) {
            const ShapeSpan& previous = m_shape.spans[size_t(it->second)];
            const int from = m_graph.nodeOfSpan[size_t(it->second)];
            if (from != node && previous.endNanos <= s.startNanos)
                addEdge(from, node, GraphEdge::Kind::Handoff);
            it->second = i;
        }
    }

    int nodeFor(const ShapeSpan& s)
    {
        auto [it, fresh] = m_byKey.try_emplace(s.key, int(m_graph.nodes.size()));
        if (fresh) {
            GraphNode n;
            n.role = s.role;
            n.name = s.name;
            m_graph.nodes.push_back(std::move(n));
        }
        return it->second;
    }

    void addEdge(int from, int to, GraphEdge::Kind kind)
    {
        const uint64_t key = (uint64_t(uint32_t(from)) << 33) | (uint64_t(uint32_t(to)) << 1) |
                             (kind == GraphEdge::Kind::Handoff ? 1u : 0u);
        auto [it, fresh] = m_edgeIndex.try_emplace(key, int(m_graph.edges.size()));
        if (fresh)
            m_graph.edges.push_back({from, to, kind, 0, from == to, {}});
        ++m_graph.edges[size_t(it->second)].count;
    }

    const RunShape& m_shape;
    RunGraph m_graph;
    std::vector<int> m_significant; ///< per span: the nearest agent/tool/model span (itself)
    std::unordered_map<std::string, int> m_byKey;
    std::unordered_map<uint64_t, int> m_edgeIndex;
    std::unordered_map<int, int> m_lastAgent; ///< caller span → its latest agent child span
};

// Marks the edges that close a cycle (depth-first from the root, without recursion).
void markBackEdges(RunGraph& g)
{
    const size_t n = g.nodes.size();
    std::vector<std::vector<int>> out(n);
    for (size_t e = 0; e < g.edges.size(); ++e)
        out[size_t(g.edges[e].from)].push_back(int(e));
    std::vector<char> state(n, 0); // 0 new, 1 on the path, 2 done
    std::vector<std::pair<int, size_t>> stack;
    for (size_t start = 0; start < n; ++start) {
        if (state[start])
            continue;
        stack.emplace_back(int(start), 0);
        state[start] = 1;
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            if (next == out[size_t(v)].size()) {
                state[size_t(v)] = 2;
                stack.pop_back();
                continue;
            }
            GraphEdge& e = g.edges[size_t(out[size_t(v)][next++])];
            if (state[size_t(e.to)] == 1)
                e.back = true;
            else if (state[size_t(e.to)] == 0) {
                state[size_t(e.to)] = 1;
                stack.emplace_back(e.to, 0);
            }
        }
    }
}

// Longest path from the sources over the forward edges (Kahn's order).
void assignLayers(RunGraph& g)
{
    const size_t n = g.nodes.size();
    std::vector<std::vector<int>> out(n);
    std::vector<int> indegree(n, 0);
    for (const GraphEdge& e : g.edges)
        if (!e.back) {
            out[size_t(e.from)].push_back(e.to);
            ++indegree[size_t(e.to)];
        }
    std::vector<int> queue;
    for (size_t v = 0; v < n; ++v) {
        g.nodes[v].layer = 0;
        if (indegree[v] == 0)
            queue.push_back(int(v));
    }
    for (size_t head = 0; head < queue.size(); ++head) {
        const int v = queue[head];
        for (int w : out[size_t(v)]) {
            g.nodes[size_t(w)].layer =
                std::max(g.nodes[size_t(w)].layer, g.nodes[size_t(v)].layer + 1);
            if (--indegree[size_t(w)] == 0)
                queue.push_back(w);
        }
    }
    g.layerCount = 0;
    for (const GraphNode& node : g.nodes)
        g.layerCount = std::max(g.layerCount, node.layer + 1);
}

// The items ordered inside layers: the graph's nodes, then one stand-in per layer an edge
// crosses without stopping (so that long edges take part in the ordering and get a lane).
struct LayerItems {
    std::vector<int> layer, order;
    std::vector<int> edge; ///< the edge a stand-in carries; -1 for a node
    std::vector<std::vector<int>> neighbours;
    std::vector<std::vector<int>> layers;
};

LayerItems layerItems(RunGraph& g)
{
    LayerItems items;
    const size_t n = g.nodes.size();
    items.layer.resize(n);
    items.edge.assign(n, -1);
    items.neighbours.resize(n);
    for (size_t v = 0; v < n; ++v)
        items.layer[v] = g.nodes[v].layer;
    for (size_t e = 0; e < g.edges.size(); ++e) {
        const GraphEdge& edge = g.edges[e];
        if (edge.back)
            continue;
        int previous = edge.from;
        for (int l = g.nodes[size_t(edge.from)].layer + 1; l < g.nodes[size_t(edge.to)].layer;
             ++l) {
            const int stand = int(items.layer.size());
            items.layer.push_back(l);
            items.edge.push_back(int(e));
            items.neighbours.emplace_back();
            items.neighbours[size_t(previous)].push_back(stand);
            items.neighbours[size_t(stand)].push_back(previous);
            previous = stand;
        }
        items.neighbours[size_t(previous)].push_back(edge.to);
        items.neighbours[size_t(edge.to)].push_back(previous);
    }
    items.order.assign(items.layer.size(), 0);
    items.layers.assign(size_t(g.layerCount), {});
    for (size_t i = 0; i < items.layer.size(); ++i) {
        auto& layer = items.layers[size_t(items.layer[i])];
        items.order[i] = int(layer.size());
        layer.push_back(int(i));
    }
    return items;
}

// One barycentre pass: each layer (in `down` order) sorted by the mean relative position of its
// neighbours on the side already placed.
void sweep(LayerItems& items, bool down)
{
    const int count = int(items.layers.size());
    std::vector<double> key(items.layer.size(), 0);
    for (int k = 0; k < count; ++k) {
        const int l = down ? k : count - 1 - k;
        auto& layer = items.layers[size_t(l)];
        const double size = double(layer.size());
        for (int v : layer) {
            double sum = 0;
            int n = 0;
            for (int w : items.neighbours[size_t(v)]) {
                const int other = items.layer[size_t(w)];
                if (down ? other < l : other > l) {
                    sum +=
                        (items.order[size_t(w)] + 0.5) / double(items.layers[size_t(other)].size());
                    ++n;
                }
            }
            key[size_t(v)] = n ? sum / n : (items.order[size_t(v)] + 0.5) / size;
        }
        std::stable_sort(layer.begin(), layer.end(),
                         [&key](int a, int b) { return key[size_t(a)] < key[size_t(b)]; });
        for (size_t i = 0; i < layer.size(); ++i)
            items.order[size_t(layer[i])] = int(i);
    }
}

} // namespace

int RunGraph::nodeOfId(const RunShape& shape, const std::string& id) const
{
    for (size_t i = 0; i < shape.spans.size() && i < nodeOfSpan.size(); ++i)
        if (shape.spans[i].id == id)
            return nodeOfSpan[i];
    return -1;
}

RunGraph buildRunGraph(const RunShape& shape)
{
    RunGraph graph = GraphBuilder(shape).build();
    markBackEdges(graph);
    return graph;
}

void layoutGraph(RunGraph& g, const GraphLayoutParams& params)
{
    assignLayers(g);
    LayerItems items = layerItems(g);
    for (int i = 0; i < params.sweeps; ++i)
        sweep(items, i % 2 == 0);
    // A stand-in takes a thin lane; layers are centred on the tallest.
    const double lane = 12;
    auto heightOf = [&](int item) {
        return items.edge[size_t(item)] < 0 ? params.nodeHeight : lane;
    };
    std::vector<double> heights(items.layers.size(), 0);
    double tallest = 0;
    for (size_t l = 0; l < items.layers.size(); ++l) {
        for (int item : items.layers[l])
            heights[l] += heightOf(item) + params.nodeGap;
        heights[l] = std::max(0.0, heights[l] - params.nodeGap);
        tallest = std::max(tallest, heights[l]);
    }
    for (GraphEdge& e : g.edges)
        e.waypoints.clear();
    for (size_t l = 0; l < items.layers.size(); ++l) {
        double y = (tallest - heights[l]) / 2;
        const double x = double(l) * (params.nodeWidth + params.layerGap);
        for (int item : items.layers[l]) {
            if (items.edge[size_t(item)] >= 0) {
                g.edges[size_t(items.edge[size_t(item)])].waypoints.push_back({x, y + lane / 2});
            } else {
                GraphNode& node = g.nodes[size_t(item)];
                node.order = items.order[size_t(item)];
                node.width = params.nodeWidth;
                node.height = params.nodeHeight;
                node.x = x;
                node.y = y;
            }
            y += heightOf(item) + params.nodeGap;
        }
    }
    g.width =
        g.layerCount ? g.layerCount * (params.nodeWidth + params.layerGap) - params.layerGap : 0;
    g.height = std::max(tallest, 0.0);
}

int countCrossings(const RunGraph& g)
{
    std::vector<std::pair<int, int>> pairs; // (order in layer L, order in layer L+1), by layer
    int crossings = 0;
    for (int layer = 0; layer + 1 < g.layerCount; ++layer) {
        pairs.clear();
        for (const GraphEdge& e : g.edges) {
            const GraphNode& a = g.nodes[size_t(e.from)];
            const GraphNode& b = g.nodes[size_t(e.to)];
            if (!e.back && a.layer == layer && b.layer == layer + 1)
                pairs.emplace_back(a.order, b.order);
        }
        for (size_t i = 0; i < pairs.size(); ++i)
            for (size_t j = i + 1; j < pairs.size(); ++j)
                if ((pairs[i].first - pairs[j].first) * (pairs[i].second - pairs[j].second) < 0)
                    ++crossings;
    }
    return crossings;
}

} // namespace hako::pdl
