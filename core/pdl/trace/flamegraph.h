#pragma once

#include "core/pdl/trace/runshape.h"

#include <QString>

#include <vector>

namespace hako::pdl {

/// What a flame bar's width shows.
enum class FlameMetric { Duration, Tokens, Cost };

/// One bar: a node of the run, as wide as its share of its parent (children packed from the
/// parent's left edge). Positions are fractions of the root's width (0…1).
struct FlameBar {
    int span = -1;   ///< index into RunShape::spans
    int parent = -1; ///< index of the parent's bar; -1 at the root
    int depth = 0;
    double x = 0;
    double width = 0;
    double value = 0; ///< the bar's size in the metric's unit (ns, tokens, cost)
};

/// What the root's run adds up to.
struct RunTotals {
    int64_t durationNanos = -1; ///< the root's duration (first start to last end when absent)
    int64_t promptTokens = 0;
    int64_t completionTokens = 0;
    bool hasTokens = false;
    double cost = 0;
    bool hasCost = false;
    int modelCalls = 0;
    int toolCalls = 0;
    int failures = 0;
    int64_t tokens() const { return promptTokens + completionTokens; }
};

struct FlameLayout {
    FlameMetric metric = FlameMetric::Duration;
    std::vector<FlameBar> bars; ///< pre-order; bars[0] is the root (none when the run is empty)
    int maxDepth = 0;
    double total = 0; ///< the root's value
};

/// Sums the run's duration, tokens, cost, model and tool calls and failures.
RunTotals runTotals(const RunShape& shape);

/// Lays out the bars. Duration: a bar is as wide as its node took, or as its children together
/// when they ran in parallel longer; tokens and cost: its own plus its children's. Bars of
/// value 0 have width 0.
FlameLayout layoutFlame(const RunShape& shape, FlameMetric metric);

/// Marks the bars whose name (or kind) contains `query`, ignoring case; returns how many. An
/// empty query marks none.
int searchFlame(const RunShape& shape, const FlameLayout& layout, const QString& query,
                std::vector<char>& marks);

/// The bar of a span, or -1.
int barOfSpan(const FlameLayout& layout, int span);

} // namespace hako::pdl
