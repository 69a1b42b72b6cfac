#pragma once

#include "core/pdl/expr/ast.h"
#include "core/pdl/expr/expression.h"

namespace hako::pdl::expr {

/// State of one evaluation: the scope and where the last operation happened (for errors).
struct EvalContext {
    explicit EvalContext(const Scope& s) : scope(s) {}
    const Scope& scope;
    uint32_t at = 0; ///< byte offset of the node being evaluated when an error is thrown
};

/// Evaluates `node`; the result may be Undefined (a missing name or attribute). Throws
/// EvalError, with `ctx.at` at the failing node. Recursion is bounded by the tree height.
Value evaluate(const Node& node, EvalContext& ctx);

/// Evaluates `node` and refuses an Undefined result with Jinja's "'x' is undefined".
Value evaluateDefined(const Node& node, EvalContext& ctx);

/// The message for using an Undefined value.
std::string undefinedMessage(const Value& undefined);

/// Calls `fn(args)` for a Callable value, or throws "'int' object is not callable".
Value callValue(const Value& fn, const CallArgs& args);

} // namespace hako::pdl::expr
