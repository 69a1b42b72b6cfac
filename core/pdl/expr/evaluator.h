#pragma once

#include "core/pdl/expr/ast.h"
#include "core/pdl/expr/expression.h"

namespace hako::pdl::expr {

/// State of one evaluation: the scope and where the last operation happened (for errors).
struct EvalContext {
    explicit EvalContext(const Scope& s) : scope(s) {}
    const Scope& scope;
    uint32_t at = 0; ///< byte offset of the node being evaluated when an error is thrown
    /// Set when a container literal stored an undefined value or a filter/call returned a
    /// container: the final result then needs a scan for undefined values inside.
    bool mayHoldUndefined = false;
};

/// The first undefined value inside `v` (lists, dicts), or nullptr.
const Value* findUndefined(const Value& v, int depth = 0);

/// Evaluates `node`; the result may be Undefined (a missing name or attribute). Throws
/// EvalError, with `ctx.at` at the failing node. Recursion is bounded by the tree height.
Value evaluate(const Node& node, EvalContext& ctx);

/// Evaluates `node` and refuses an Undefined result with Jinja's "'x' is undefined".
Value evaluateDefined(const Node& node, EvalContext& ctx);

/// The name of the undefined value an if-expression without else gives when false: Jinja's
/// plain Undefined, which compares, tests false and renders as "", unlike StrictUndefined.
extern const std::string kMissingElse;

/// The message for using an Undefined value.
std::string undefinedMessage(const Value& undefined);

/// Calls `fn(args)` for a Callable value, or throws "'int' object is not callable".
Value callValue(const Value& fn, const CallArgs& args);

} // namespace hako::pdl::expr
