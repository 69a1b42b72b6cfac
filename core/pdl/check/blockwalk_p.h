#pragma once

#include "core/pdl/ast/block.h"
#include "core/pdl/parser/yamlvalue.h"

#include <functional>
#include <string>

namespace hako::pdl::detail {

/// Where the key `name` of the mapping under `field` is written in the block's YAML (`defs:`,
/// `function:`, `args:`, `for:` entries, also inside `pdl__expr`); an invalid span when the block
/// has no such key.
inline SourceSpan keySpanOf(const Block& b, std::string_view field, const std::string& name)
{
    if (!b.node || !b.node->isMapping())
        return {};
    const YamlValue* v = b.node->value(field);
    if (v && v->isMapping()) {
        if (const YamlValue* inner = v->value("pdl__expr"); inner && inner->isMapping())
            v = inner;
        if (const YamlValue::Entry* e = v->find(name))
            return e->key.span();
    }
    return {};
}

/// Which of a block's children a walk visits.
enum class ChildBlocks {
    All,
    /// Those that can run: not an error block's program (the error block only raises).
    Runnable,
    /// Only those whose definitions stay visible after the block: not a `map:` body, a
    /// `function:` body or an error block's program, which keep theirs to themselves.
    SharedScope,
};

/// Calls `fn(child, name)` for each child block of `b`'s own kind (not `defs:` nor `fallback`),
/// in source order as far as the AST keeps it; object fields get their key as name.
inline void forEachKindChild(const Block& b,
                             const std::function<void(const BlockPtr&, const std::string&)>& fn,
                             ChildBlocks which = ChildBlocks::All)
{
    auto each = [&](const BlockPtr& c, const std::string& name = {}) {
        if (c)
            fn(c, name);
    };
    const bool all = which == ChildBlocks::All;
    const bool ownScopes = which != ChildBlocks::SharedScope;
    switch (b.kind) {
    case BlockKind::Text:
    case BlockKind::LastOf:
    case BlockKind::Array:
    case BlockKind::Sequence:
        for (const auto& c : static_cast<const ListBlockBase&>(b).children)
            each(c);
        break;
    case BlockKind::Object: {
        const auto& o = static_cast<const ObjectBlock&>(b);
        for (const auto& [k, c] : o.fields)
            each(c, k);
        for (const auto& c : o.items)
            each(c);
        break;
    }
    case BlockKind::Model:
        each(static_cast<const ModelBlock&>(b).input);
        break;
    case BlockKind::Message:
        each(static_cast<const MessageBlock&>(b).content);
        break;
    case BlockKind::If: {
        const auto& i = static_cast<const IfBlock&>(b);
        each(i.then);
        each(i.elseBlock);
        break;
    }
    case BlockKind::Match:
        for (const MatchCase& c : static_cast<const MatchBlock&>(b).cases)
            each(c.then);
        break;
    case BlockKind::Repeat:
        each(static_cast<const LoopBlockBase&>(b).body);
        break;
    case BlockKind::Map:
        if (ownScopes)
            each(static_cast<const LoopBlockBase&>(b).body);
        break;
    case BlockKind::Function:
        if (ownScopes)
            each(static_cast<const FunctionBlock&>(b).returns);
        break;
    case BlockKind::Code:
        each(static_cast<const CodeBlock&>(b).code);
        break;
    case BlockKind::Error:
        if (all)
            each(static_cast<const ErrorBlock&>(b).program);
        break;
    default:
        break;
    }
}

/// Calls `fn(child, name)` for each block directly inside `b`, in source order as far as the
/// AST keeps it: `defs:` entries (name = the key), then the kind's own children (object fields
/// get their key as name), then `fallback`. Parser `pdl:` blocks are not visited.
inline void forEachChildBlock(const Block& b,
                              const std::function<void(const BlockPtr&, const std::string&)>& fn)
{
    for (const auto& [name, child] : b.defs) {
        if (child)
            fn(child, name);
    }
    forEachKindChild(b, fn);
    if (b.fallback)
        fn(b.fallback, {});
}

} // namespace hako::pdl::detail
