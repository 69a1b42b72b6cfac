#include "core/pdl/interp/tracenode.h"

namespace hako::pdl {

bool TraceNode::contributesNothing() const
{
    if (!contribute)
        return false;
    for (const std::string& t : *contribute)
        if (t == "result")
            return false;
    return true;
}

TracePtr& TraceNode::addChild(const std::string& field, TracePtr child, bool single)
{
    for (Children& c : children) {
        if (c.field == field) {
            c.nodes.push_back(std::move(child));
            return c.nodes.back();
        }
    }
    children.push_back({field, {std::move(child)}, single});
    return children.back().nodes.back();
}

} // namespace hako::pdl
