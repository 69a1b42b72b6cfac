#pragma once

#include "core/pdl/expr/ast.h"

namespace hako::pdl::expr {

/// Python's binary arithmetic (`+ - * / // % **`) and Jinja's `~`, on 64-bit integers (overflow
/// is an error, never wraps) and doubles. Throws EvalError with Python's messages.
Value binaryOp(Op op, const Value& a, const Value& b);
/// Unary `-` and `+`.
Value unaryOp(Op op, const Value& a);
/// One comparison of a chain (`== != < <= > >= in not in`).
bool compareOp(Op op, const Value& a, const Value& b);

/// Repetition (`'ab' * n`, `[x] * n`) and concatenation results larger than this many bytes
/// or items are refused instead of exhausting memory.
inline constexpr int64_t kMaxResultSize = int64_t(1) << 27;

} // namespace hako::pdl::expr
