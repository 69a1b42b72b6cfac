#include "core/pdl/interp/tracenode.h"

namespace hako::pdl {

// A node and its shared_ptr's count fill a 512-byte allocation (a million-span trace holds a
// million of them); a field more moves every node to the 640-byte size class.
static_assert(sizeof(void*) != 8 || sizeof(TraceNode) <= 496,
              "TraceNode outgrew the 512-byte size class: keep rare fields in a RareField");

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
