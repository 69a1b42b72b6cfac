#pragma once

#include "core/pdl/expr/builtins.h"
#include "core/pdl/value.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hako::pdl::expr {

enum class NodeKind : uint8_t {
    Const,    ///< value
    Name,     ///< name
    List,     ///< children: items
    Tuple,    ///< children: items
    Dict,     ///< children: key, value, key, value, ...
    Unary,    ///< op; children[0]
    Binary,   ///< op; children[0], children[1]
    And,      ///< children[0] and children[1]
    Or,       ///< children[0] or children[1]
    Not,      ///< not children[0]
    Compare,  ///< children: operands; compareOps: one op between each pair
    CondExpr, ///< children: test, then, [else]
    Attr,     ///< children[0] . name
    Item,     ///< children[0] [ children[1] ]
    Slice,    ///< children[0] [ children[1] : children[2] : children[3] ] (null = omitted)
    Call,     ///< children[0] (args)
    Filter,   ///< children[0] | name(args)
    Test,     ///< children[0] is [not] name(args)
};

enum class Op : uint8_t {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    Concat, // binary
    Neg,
    Pos, // unary
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn, // comparisons
};

struct Node;
using NodePtr = std::unique_ptr<Node>;

/// Arguments of a call, filter or test, as written.
struct ArgNodes {
    std::vector<NodePtr> positional;
    std::vector<std::string> keywordNames;
    std::vector<NodePtr> keyword;
    NodePtr starArgs;   ///< *args, or null
    NodePtr starKwargs; ///< **kwargs, or null

    bool empty() const { return positional.empty() && keyword.empty() && !starArgs && !starKwargs; }
};

/// One node of a parsed expression. Immutable after parsing, shared between threads.
struct Node {
    NodeKind kind = NodeKind::Const;
    Op op = Op::Add;
    bool negated = false;          ///< Test: `is not`
    bool acceptsUndefined = false; ///< Filter/Test: input may be Undefined
    uint32_t pos = 0;              ///< byte offset of the node's token in the source text
    uint32_t depth = 1;            ///< height of the subtree (bounded by the parser)
    Value value;                   ///< Const: the value
    std::string name;              ///< Name, Attr, Filter, Test
    std::vector<NodePtr> children;
    std::vector<Op> compareOps;
    ArgNodes args; ///< Call, Filter, Test
    builtins::FilterFn filter = nullptr;
    builtins::TestFn test = nullptr;
};

} // namespace hako::pdl::expr
