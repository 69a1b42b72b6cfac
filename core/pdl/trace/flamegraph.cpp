#include "core/pdl/trace/flamegraph.h"

#include <algorithm>
#include <limits>

namespace hako::pdl {

namespace {

double ownValue(const ShapeSpan& s, FlameMetric metric)
{
    switch (metric) {
    case FlameMetric::Duration:
        return s.own.durationNanos > 0 ? double(s.own.durationNanos) : 0;
    case FlameMetric::Tokens:
        return double(s.own.tokens());
    case FlameMetric::Cost:
        return s.own.cost;
    }
    return 0;
}

} // namespace

RunTotals runTotals(const RunShape& shape)
{
    RunTotals t;
    if (shape.spans.empty())
        return t;
    int64_t first = std::numeric_limits<int64_t>::max(), last = 0;
    for (const ShapeSpan& s : shape.spans) {
        t.promptTokens += s.own.promptTokens;
        t.completionTokens += s.own.completionTokens;
        t.hasTokens = t.hasTokens || s.own.hasTokens;
        t.cost += s.own.cost;
        t.hasCost = t.hasCost || s.own.hasCost;
        t.modelCalls += s.role == ShapeRole::Model ? 1 : 0;
        t.toolCalls += s.role == ShapeRole::Tool ? 1 : 0;
        t.failures += s.failed ? 1 : 0;
        if (s.startNanos > 0 && s.endNanos >= s.startNanos) {
            first = std::min(first, s.startNanos);
            last = std::max(last, s.endNanos);
        }
    }
    t.durationNanos = shape.spans[0].own.durationNanos;
    if (t.durationNanos < 0 && last > 0)
        t.durationNanos = last - first;
    return t;
}

FlameLayout layoutFlame(const RunShape& shape, FlameMetric metric)
{
    FlameLayout layout;
    layout.metric = metric;
    const size_t n = shape.spans.size();
    if (n == 0)
        return layout;
    // Values bottom-up (children come after their parent in pre-order).
    std::vector<double> value(n), childSum(n, 0);
    for (size_t i = n; i-- > 0;) {
        const ShapeSpan& s = shape.spans[i];
        const double own = ownValue(s, metric);
        value[i] = metric == FlameMetric::Duration ? std::max(own, childSum[i]) : own + childSum[i];
        if (s.parent >= 0)
            childSum[size_t(s.parent)] += value[i];
    }
    // Positions top-down: each child starts where its previous sibling ended.
    layout.total = value[0];
    const double scale = value[0] > 0 ? 1 / value[0] : 0;
    std::vector<double> nextX(n, 0);
    std::vector<int> barOf(n, -1);
    layout.bars.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        const ShapeSpan& s = shape.spans[i];
        FlameBar bar;
        bar.span = int(i);
        bar.depth = s.depth;
        bar.value = value[i];
        bar.width = value[i] * scale;
        if (s.parent >= 0) {
            bar.parent = barOf[size_t(s.parent)];
            bar.x = nextX[size_t(s.parent)];
            nextX[size_t(s.parent)] += bar.width;
        }
        nextX[i] = bar.x;
        barOf[i] = int(layout.bars.size());
        layout.maxDepth = std::max(layout.maxDepth, s.depth);
        layout.bars.push_back(bar);
    }
    return layout;
}

int searchFlame(const RunShape& shape, const FlameLayout& layout, const QString& query,
                std::vector<char>& marks)
{
    marks.assign(layout.bars.size(), 0);
    const QString q = query.trimmed();
    if (q.isEmpty())
        return 0;
    int count = 0;
    for (size_t b = 0; b < layout.bars.size(); ++b) {
        const ShapeSpan& s = shape.spans[size_t(layout.bars[b].span)];
        const bool hit =
            QString::fromStdString(s.name).contains(q, Qt::CaseInsensitive) ||
            QString::fromLatin1(blockKindName(s.kind)).contains(q, Qt::CaseInsensitive);
        marks[b] = hit ? 1 : 0;
        count += hit ? 1 : 0;
    }
    return count;
}

int barOfSpan(const FlameLayout& layout, int span)
{
    // Bars are in span order, one per span.
    if (span >= 0 && size_t(span) < layout.bars.size() && layout.bars[size_t(span)].span == span)
        return span;
    return -1;
}

} // namespace hako::pdl
