#include "core/pdl/ast/block.h"

namespace hako::pdl {

const char* blockKindName(BlockKind kind)
{
    switch (kind) {
    case BlockKind::Data:
        return "data";
    case BlockKind::Model:
        return "model";
    case BlockKind::Read:
        return "read";
    case BlockKind::Text:
        return "text";
    case BlockKind::LastOf:
        return "lastOf";
    case BlockKind::Array:
        return "array";
    case BlockKind::Object:
        return "object";
    case BlockKind::Sequence:
        return "sequence";
    case BlockKind::Get:
        return "get";
    case BlockKind::Message:
        return "message";
    case BlockKind::If:
        return "if";
    case BlockKind::Match:
        return "match";
    case BlockKind::Repeat:
        return "repeat";
    case BlockKind::Map:
        return "map";
    case BlockKind::Function:
        return "function";
    case BlockKind::Call:
        return "call";
    case BlockKind::Code:
        return "code";
    case BlockKind::Args:
        return "code";
    case BlockKind::Include:
        return "include";
    case BlockKind::Import:
        return "import";
    case BlockKind::Aggregator:
        return "aggregator";
    case BlockKind::Empty:
        return "empty";
    case BlockKind::Error:
        return "error";
    }
    return "empty";
}

SourceSpan Block::fieldSpan(std::string_view name) const
{
    for (const auto& [n, s] : fieldSpans) {
        if (n == name)
            return s;
    }
    return {};
}

} // namespace hako::pdl
