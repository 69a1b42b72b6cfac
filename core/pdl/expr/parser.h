#pragma once

#include "core/pdl/expr/ast.h"
#include "core/pdl/expr/lexer.h"

#include <string_view>

namespace hako::pdl::expr {

/// Bracket/unary nesting the parser accepts before reporting "expression nested too deeply".
inline constexpr int kMaxNesting = 200;
/// Height an expression tree may reach (long operator chains), keeping evaluation recursion
/// bounded.
inline constexpr uint32_t kMaxTreeDepth = 1000;

/// Parses the tokens of one `${ }` body: a Jinja "print statement", where a bare comma makes a
/// tuple. The tokens end with End or Eof. Throws SyntaxError.
NodePtr parseTemplateExpression(const LexedExpression& lexed);

/// Parses a bare expression (Jinja's compile_expression: no bare tuple; the whole text must be
/// consumed, "chunk after expression" otherwise). Throws SyntaxError.
NodePtr parseBareExpression(const LexedExpression& lexed);

} // namespace hako::pdl::expr
