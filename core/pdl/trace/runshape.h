#pragma once

#include "core/pdl/ast/block.h"
#include "core/pdl/trace/tracediff.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hako::pdl {

struct TraceItem;
struct TraceNode;

/// What a block or span is in the agent's shape (issue 28 §2).
enum class ShapeRole {
    Agent, ///< an agent span, a PDL call (a function doing a job), the run's root
    Tool,  ///< a tool, retriever or memory span, a PDL code block
    Model, ///< an LLM or embedding span, a PDL model block
    Step,  ///< anything else (chains, sequences, text): drawn only in the flame view
};

/// One node of a run, flattened (pre-order): what the graph and flame views need of it.
struct ShapeSpan {
    int parent = -1; ///< index of the enclosing node; -1 at the root
    int depth = 0;
    ShapeRole role = ShapeRole::Step;
    BlockKind kind = BlockKind::Empty;
    std::string name; ///< what a node or bar is labelled with: def (span name), description,
                      ///< callee, model, kind
    std::string key;  ///< what makes two executions "the same callee" (role, name, source place)
    std::string id;   ///< `pdl__id`: how the workbench selects it
    int64_t startNanos = 0;
    int64_t endNanos = 0;
    TraceMeasures own; ///< the node's own duration, tokens and cost
    bool failed = false;
};

/// A run, flattened: spans[0] is the root; a node's children follow it (pre-order).
struct RunShape {
    std::vector<ShapeSpan> spans;
};

/// Flattens a finished trace tree (a PDL run's or an OTLP trace's). Defs are left out (they are
/// definitions, not executions).
RunShape collectShape(const TraceNode& root);
/// Flattens the tree a TraceModel shows (null: empty).
RunShape collectShape(const TraceItem* root);

/// The role of one node: OpenTelemetry's category (the `otel` expression) when the node came
/// from a span, else the PDL kind (model → Model, call → Agent, code → Tool).
ShapeRole shapeRoleOf(const TraceNode& node);

} // namespace hako::pdl
