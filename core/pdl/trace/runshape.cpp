#include "core/pdl/trace/runshape.h"

#include "core/pdl/interp/tracenode.h"
#include "core/pdl/trace/tracemodel.h"

#include <QCoreApplication>

#include <string_view>

namespace hako::pdl {

namespace {

// The `otel.category` a span carried (empty for PDL blocks).
std::string_view otelCategory(const TraceNode& node)
{
    for (const auto& [field, value] : node.exprs) {
        if (field != "otel" || !value.isDict())
            continue;
        if (const Value* c = value.asDict().find("category"); c && c->isString())
            return c->asString();
    }
    return {};
}

// `${ greet }` → `greet`: the function a call block names.
std::string calleeName(const TraceNode& node)
{
    const auto* call = node.block ? node.block->as<CallBlock>() : nullptr;
    if (!call || !call->call.value.isString())
        return {};
    std::string_view s = call->call.value.asString();
    auto trim = [&s] {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\n'))
            s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\n'))
            s.remove_suffix(1);
    };
    trim();
    if (s.size() > 3 && s.substr(0, 2) == "${" && s.back() == '}') {
        s = s.substr(2, s.size() - 3);
        trim();
    }
    return std::string(s);
}

std::string modelName(const TraceNode& node)
{
    for (const auto& [field, value] : node.exprs)
        if (field == "model" && value.isString())
            return value.asString();
    return {};
}

std::string nameOf(const TraceNode& node, ShapeRole role)
{
    if (!otelCategory(node).empty() || !node.def.empty())
        return node.def.empty() ? std::string(blockKindName(node.kind)) : node.def;
    // The block's own words (`description: Summarise the ticket`), first line.
    if (!node.description.empty())
        return node.description.substr(0, node.description.find('\n'));
    if (role == ShapeRole::Agent) {
        if (std::string callee = calleeName(node); !callee.empty())
            return callee;
        // A trace file keeps no callee: the call's place tells calls apart.
        if (node.kind == BlockKind::Call && node.span.line > 0)
            return QCoreApplication::translate("hako::pdl::RunShape", "call at line %1")
                .arg(node.span.line)
                .toStdString();
    }
    if (role == ShapeRole::Model)
        if (std::string model = modelName(node); !model.empty())
            return model;
    return blockKindName(node.kind);
}

ShapeSpan makeSpan(const TraceNode& node, int parent, int depth)
{
    ShapeSpan s;
    s.parent = parent;
    s.depth = depth;
    s.role = shapeRoleOf(node);
    if (depth == 0 && s.role == ShapeRole::Step)
        s.role = ShapeRole::Agent; // the run itself
    s.kind = node.kind;
    s.name = nameOf(node, s.role);
    s.key = std::to_string(int(s.role)) + '\x1f' + s.name;
    if (node.span.line > 0)
        s.key += '\x1f' + node.span.file.toStdString() + ':' + std::to_string(node.span.line) +
                 ':' + std::to_string(node.span.column);
    s.id = node.id;
    s.startNanos = node.startNanos;
    s.endNanos = node.endNanos;
    s.own = nodeMeasures(node);
    s.failed = !node.error.empty();
    return s;
}

void collectNode(const TraceNode& node, int parent, int depth, RunShape& out)
{
    const int index = int(out.spans.size());
    out.spans.push_back(makeSpan(node, parent, depth));
    for (const auto& group : node.children)
        for (const TracePtr& child : group.nodes)
            if (child)
                collectNode(*child, index, depth + 1, out);
}

void collectItem(const TraceItem& item, int parent, int depth, RunShape& out)
{
    const int index = int(out.spans.size());
    out.spans.push_back(makeSpan(item.node, parent, depth));
    for (const auto& child : item.children)
        if (child && child->field != "defs")
            collectItem(*child, index, depth + 1, out);
}

} // namespace

ShapeRole shapeRoleOf(const TraceNode& node)
{
    const std::string_view category = otelCategory(node);
    if (!category.empty()) {
        if (category == "agent")
            return ShapeRole::Agent;
        if (category == "llm" || category == "embedding")
            return ShapeRole::Model;
        if (category == "tool" || category == "retriever" || category == "reranker" ||
            category == "memory")
            return ShapeRole::Tool;
        return ShapeRole::Step;
    }
    switch (node.kind) {
    case BlockKind::Model:
        return ShapeRole::Model;
    case BlockKind::Call:
        return ShapeRole::Agent;
    case BlockKind::Code:
        return ShapeRole::Tool;
    default:
        return ShapeRole::Step;
    }
}

RunShape collectShape(const TraceNode& root)
{
    RunShape out;
    collectNode(root, -1, 0, out);
    return out;
}

RunShape collectShape(const TraceItem* root)
{
    RunShape out;
    if (root)
        collectItem(*root, -1, 0, out);
    return out;
}

} // namespace hako::pdl
