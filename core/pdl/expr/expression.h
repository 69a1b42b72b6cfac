#pragma once

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace hako::pdl {

/// Where an expression looks up names. Implementations decide the lookup chain (the PDL
/// interpreter chains block scopes); lookups must not mutate shared state.
class Scope {
public:
    virtual ~Scope() = default;
    /// The value bound to `name`, or nullptr when unbound.
    virtual const Value* lookup(std::string_view name) const = 0;
};

/// A flat scope over a hash map; enough for tests, tools and simple callers.
class MapScope : public Scope {
public:
    MapScope() = default;
    explicit MapScope(const Dict& vars);
    void set(std::string name, Value value) { m_vars[std::move(name)] = std::move(value); }
    const Value* lookup(std::string_view name) const override;

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, Value, Hash, std::equal_to<>> m_vars;
};

/// Evaluates a PDL template string (Jinja2 with `${ }` variable delimiters):
/// - exactly one `${ expr }` → the typed value of expr;
/// - a mixed string → text, values rendered in Python `str()` form;
/// - no `${` → the string unchanged.
/// `{% %}` is literal text, `{# #}` a comment. Undefined variables are errors naming them.
/// Errors carry 1-based line/column (code points) inside `text` in the Diagnostic's span.
/// Thread-safe; parsed templates are cached by source text.
Result<Value> evaluateTemplate(std::string_view text, const Scope& scope);

/// Evaluates a bare Jinja2 expression (no delimiters), e.g. `x + 1`.
Result<Value> evaluateExpression(std::string_view expr, const Scope& scope);

/// Checks a template's syntax without evaluating it; nullopt when it parses.
std::optional<Diagnostic> checkTemplate(std::string_view text);

/// The free variable names a template reads (for "used but never defined" warnings), in
/// order of first use, without duplicates. Empty when the template does not parse.
std::vector<std::string> templateVariables(std::string_view text);

/// A Diagnostic for `message` at byte `offset` of `text`: 1-based line/column (code points)
/// in the span and the offending line with a caret appended to the message.
Diagnostic diagnosticAtOffset(std::string_view text, size_t offset, const std::string& message);

/// The text with a caret line under `column` (1-based code points) of line `line`, for
/// error messages:
///   ${ x + }
///          ^
std::string caretLine(std::string_view text, int line, int column);

} // namespace hako::pdl
