#pragma once

#include "core/pdl/value.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hako::pdl::expr {

/// A syntax error at a byte offset of the source text.
class SyntaxError : public std::runtime_error {
public:
    SyntaxError(const std::string& message, size_t offset)
        : std::runtime_error(message), m_offset(offset)
    {}
    size_t offset() const { return m_offset; }

private:
    size_t m_offset;
};

enum class Tok : uint8_t {
    Name,
    String,
    Int,
    Float,
    Operator,
    End, ///< `}` closing a `${` (template mode only)
    Eof,
};

struct Token {
    Tok type = Tok::Eof;
    uint32_t pos = 0;      ///< byte offset in the source text
    std::string_view text; ///< the token as written (names, operators)
    Value value;           ///< String/Int/Float literals

    bool isOp(std::string_view op) const { return type == Tok::Operator && text == op; }
    bool isName(std::string_view n) const { return type == Tok::Name && text == n; }
};

/// The tokens of one expression.
struct LexedExpression {
    std::vector<Token> tokens; ///< ends with End (template mode) or Eof
    size_t next = 0;           ///< offset just after the expression (after `}`)
    bool stripAfter = false;   ///< closed by `-}`: strip the whitespace that follows
};

/// Tokenizes the expression starting at `begin` in `source`. In template mode the expression
/// ends at the first `}` outside brackets (or `-}`); otherwise at the end of `source`.
/// Throws SyntaxError.
LexedExpression lexExpression(std::string_view source, size_t begin, bool templateMode);

/// Jinja's token description for messages: the operator itself, "end of print statement", ...
std::string describeToken(const Token& token);

} // namespace hako::pdl::expr
