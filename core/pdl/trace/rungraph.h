#pragma once

#include "core/pdl/trace/runshape.h"

#include <string>
#include <vector>

namespace hako::pdl {

/// One callee of the agent's graph: every execution of one agent, tool or model call (the same
/// name and source place) is one node.
struct GraphNode {
    ShapeRole role = ShapeRole::Agent;
    std::string name;
    std::vector<int> spans; ///< the executions (indices into RunShape::spans), in run order
    TraceMeasures total;    ///< summed over the executions (duration: summed own durations)
    int failures = 0;
    // Layout (filled by layoutGraph).
    int layer = 0;
    int order = 0; ///< position inside the layer (among nodes and the lanes of long edges)
    double x = 0, y = 0, width = 0, height = 0;
};

/// Who called whom: one edge per caller, callee and kind, however often it happened (a loop
/// calling a tool 20 times is one edge with count 20).
struct GraphEdge {
    enum class Kind { Call, Handoff };
    int from = -1;
    int to = -1;
    Kind kind = Kind::Call;
    int count = 0;
    /// The edge closes a cycle (an agent calling back an agent above it): drawn, but ignored by
    /// the layering.
    bool back = false;
    /// Where an edge crossing layers passes each layer between its ends (the left edge of its
    /// lane, its middle: x, y), filled by layoutGraph.
    std::vector<std::pair<double, double>> waypoints;
};

/// The agent's shape of one run: agents, tools and model calls as nodes, calls and hand-offs as
/// edges. Steps (chains, sequences, text) are transparent: their agents, tools and models hang
/// under the nearest agent, tool or model above them. The root is always node 0.
struct RunGraph {
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    /// For every span of the shape: the graph node it belongs to (its own, or the nearest
    /// enclosing one's).
    std::vector<int> nodeOfSpan;
    int layerCount = 0;
    double width = 0, height = 0; ///< of the laid-out graph

    /// The node an id (`pdl__id`) belongs to, or -1.
    int nodeOfId(const RunShape& shape, const std::string& id) const;
};

/// Builds the graph. Call edges go from a node's nearest enclosing agent/tool/model node to it;
/// a hand-off is an agent that starts after a sibling agent under the same caller finished
/// (the edge goes from the earlier agent to the later one).
RunGraph buildRunGraph(const RunShape& shape);

struct GraphLayoutParams {
    double nodeWidth = 170;
    double nodeHeight = 46;
    double layerGap = 70; ///< between layers (columns, left to right)
    double nodeGap = 18;  ///< between nodes of one layer
    int sweeps = 4;       ///< barycentre passes (down and up) to reduce crossings
};

/// Lays the graph out left to right: layers by longest path from the root (every non-back edge
/// goes to a later layer), an edge crossing layers given a lane in each (so it passes between
/// nodes, not through them), each layer ordered by the barycentre of its neighbours to reduce
/// crossings, layers centred vertically. Pure: any thread.
void layoutGraph(RunGraph& graph, const GraphLayoutParams& params = {});

/// Counts edge crossings between neighbouring layers (what the ordering reduces; tests).
int countCrossings(const RunGraph& graph);

} // namespace hako::pdl
