#include "core/pdl/debug/rerun.h"

#include "core/pdl/parser/yamlvalue.h"

namespace hako::pdl {

namespace {

// The source part of a block's YAML: run data (`pdl__*`, evaluated expressions) removed.
Value sourceOnly(const Value& v, int depth = 0)
{
    if (depth > 200)
        return v;
    if (v.isList()) {
        List out;
        for (const Value& x : v.asList())
            out.push_back(sourceOnly(x, depth + 1));
        return Value(std::move(out));
    }
    if (!v.isDict())
        return v;
    const Dict& d = v.asDict();
    if (const Value* e = d.find("pdl__expr"))
        return sourceOnly(*e, depth + 1);
    Dict out;
    for (const auto& [k, x] : d) {
        const std::string key = k.isString() ? k.asString() : k.str();
        if (key.rfind("pdl__", 0) == 0 || key == "kind")
            continue;
        if (key == "defs" && x.isDict() && x.asDict().size() == 0)
            continue;
        out.set(k, sourceOnly(x, depth + 1));
    }
    return Value(std::move(out));
}

struct Planner {
    const std::string& target;
    std::unordered_map<std::string, Value> table;
    std::unordered_map<std::string, TracePtr> records;
    std::unordered_map<std::string, std::string> signatures;
    std::string targetSignature;
    bool found = false;

    // Visits `n` in execution order; a leaf counts once it is done (after its own children),
    // so the target's ancestors never do.
    void visit(const TraceNode& n, const TracePtr& self, int depth = 0)
    {
        if (found || depth > 5000)
            return;
        if (n.id == target) {
            found = true;
            targetSignature =
                n.block ? blockSignature(*n.block) : std::string(blockKindName(n.kind));
            return;
        }
        for (const auto& d : n.defs) {
            if (d.second)
                visit(*d.second, d.second, depth + 1);
            if (found)
                return;
        }
        for (const auto& c : n.children) {
            for (const auto& x : c.nodes) {
                if (x)
                    visit(*x, x, depth + 1);
                if (found)
                    return;
            }
        }
        if (n.hasResult && n.isLeaf && n.error.empty()) {
            table.emplace(n.id, n.result);
            if (self)
                records.emplace(n.id, self);
            signatures.emplace(n.id, n.block ? blockSignature(*n.block)
                                             : std::string(blockKindName(n.kind)));
        }
    }
};

} // namespace

std::string blockSignature(const Block& block)
{
    std::string s = blockKindName(block.kind);
    if (block.node) {
        s += ' ';
        s += sourceOnly(block.node->toValue()).json();
    }
    return s;
}

RerunPlan planRerun(const TraceNode& root, const std::string& nodeId)
{
    RerunPlan plan;
    plan.nodeId = nodeId;
    Planner p{nodeId, {}, {}, {}, {}, false};
    p.visit(root, nullptr);
    if (!p.found) {
        plan.error =
            QStringLiteral("no block '%1' in the trace").arg(QString::fromStdString(nodeId));
        return plan;
    }
    plan.ok = true;
    plan.nodeSignature = std::move(p.targetSignature);
    plan.replay =
        std::make_shared<const std::unordered_map<std::string, Value>>(std::move(p.table));
    plan.signatures = std::make_shared<const std::unordered_map<std::string, std::string>>(
        std::move(p.signatures));
    plan.records =
        std::make_shared<const std::unordered_map<std::string, TracePtr>>(std::move(p.records));
    return plan;
}

void RerunPlan::apply(RunOptions& options) const
{
    options.replay = replay;
    options.replayRecords = records;
    auto sigs = signatures;
    options.replayCheck = [sigs, chosen = nodeSignature](const std::string& id,
                                                         const Block& block) {
        if (!sigs)
            return true;
        auto it = sigs->find(id);
        if (it == sigs->end())
            return true;
        // The chosen block may be edited before re-running from it: its earlier executions
        // (the iterations before it) are still replayed as recorded.
        if (!chosen.empty() && it->second == chosen && chosen.find(' ') != std::string::npos)
            return true;
        // A recording without source (a trace read from a file) can only be checked by kind.
        const std::string now = blockSignature(block);
        if (it->second.find(' ') == std::string::npos)
            return now.compare(0, it->second.size(), it->second) == 0 &&
                   (now.size() == it->second.size() || now[it->second.size()] == ' ');
        return now == it->second;
    };
}

} // namespace hako::pdl
