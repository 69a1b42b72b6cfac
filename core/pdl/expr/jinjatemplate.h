#pragma once

#include "core/pdl/expr/ast.h"
#include "core/pdl/expr/evaluator.h"
#include "core/pdl/expr/expression.h"
#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hako::pdl {

/// Jinja2 environment options a `code: … lang: jinja` block may set in `parameters`.
/// Defaults are Jinja's: no trim_blocks, no lstrip_blocks, a single trailing newline dropped.
struct JinjaOptions {
    bool trimBlocks = false;
    bool lstripBlocks = false;
    bool keepTrailingNewline = false;
    /// Using an undefined variable is an error naming it (Jinja's StrictUndefined). Off: Jinja's
    /// default Undefined, which prints as "" and is false and empty.
    bool strictUndefined = true;
    /// The tag delimiters (Jinja's variable_start_string, variable_end_string,
    /// block_start_string, block_end_string, comment_start_string, comment_end_string). A
    /// variable's end must start with `}` (the expression ends at its first unmatched `}`).
    std::string variableStart = "{{";
    std::string variableEnd = "}}";
    std::string blockStart = "{%";
    std::string blockEnd = "%}";
    std::string commentStart = "{#";
    std::string commentEnd = "#}";

    bool operator==(const JinjaOptions&) const = default;

    /// The options in a block's `parameters` mapping (trim_blocks, lstrip_blocks,
    /// keep_trailing_newline, undefined: "strict"|"default", the *_start_string and
    /// *_end_string delimiters); an error names an unsupported key or value.
    static Result<JinjaOptions> fromParameters(const Value& parameters);
};

/// Renders a Jinja2 template with standard delimiters — `{{ expr }}`, `{% stmt %}`, `{# #}` —
/// over `scope`: if/elif/else, for (tuple targets, `if` filter, else, `loop.*`), set (also the
/// block form, with filters), filter blocks, macros, with, raw, whitespace control (`-`/`+`)
/// and the options above. Expressions are those of the PDL engine (same filters, tests and
/// methods); `{{ x }}` prints Python str() (None → "None"). Errors (syntax, undefined names,
/// failing filters) carry the 1-based line/column inside `source` and a caret line.
/// Thread-safe; compiled templates are cached by source text and options.
Result<std::string> renderJinja(std::string_view source, const Scope& scope,
                                const JinjaOptions& options = {});

/// Checks a Jinja2 template's syntax without rendering it; nullopt when it parses.
std::optional<Diagnostic> checkJinja(std::string_view source, const JinjaOptions& options = {});

namespace expr {

/// One node of a compiled Jinja statement template. Immutable after compiling.
struct JinjaNode;
using JinjaBody = std::vector<JinjaNode>;

/// An assignment target: a name, or a (possibly nested) tuple of targets.
struct JinjaTarget {
    std::string name; ///< empty for a tuple
    std::vector<JinjaTarget> items;
    uint32_t pos = 0;
};

struct JinjaNode {
    enum class Kind : uint8_t { Text, Output, If, For, Set, SetBlock, FilterBlock, Macro, With };
    Kind kind = Kind::Text;
    uint32_t pos = 0;
    std::string text;  ///< Text: literal output; Macro: its name
    NodePtr expr;      ///< Output, For (iterable), Set (value), SetBlock/FilterBlock (filters)
    NodePtr condition; ///< For: the `if` filter
    JinjaTarget target;
    /// If: one (condition, body) per if/elif, then else as a null condition.
    std::vector<std::pair<NodePtr, JinjaBody>> branches;
    JinjaBody body;     ///< For, SetBlock, FilterBlock, Macro, With
    JinjaBody elseBody; ///< For
    bool usesLoop = false;
    /// Macro: parameter names and defaults (null when required); With: names and values.
    std::vector<std::pair<std::string, NodePtr>> params;
};

/// A compiled Jinja template, or the syntax error that prevented it.
struct JinjaTemplate {
    std::string source; ///< the source as lexed: newlines `\n`, final newline per the options
    JinjaBody body;
    std::string error;      ///< non-empty: did not parse
    size_t errorOffset = 0; ///< byte offset of the error in the source
};

using JinjaTemplatePtr = std::shared_ptr<const JinjaTemplate>;

/// `source` with `\r\n`/`\r` as `\n` and, unless kept, one final newline removed (as Jinja).
std::string normalizeJinjaSource(std::string_view source, bool keepTrailingNewline);

/// Parses `source` (never throws: errors are in the result).
JinjaTemplatePtr compileJinja(std::string_view source, const JinjaOptions& options);
/// The compiled form from a bounded, thread-safe cache keyed by source and options.
JinjaTemplatePtr cachedJinja(std::string_view source, const JinjaOptions& options);

/// Renders a compiled template that parsed. Throws EvalError with `ctx.at` set.
std::string renderCompiledJinja(const JinjaTemplate& tpl, EvalContext& ctx,
                                const JinjaOptions& options);

/// The name bound to a block filter's input while its filters run (`{% filter upper %}`).
extern const std::string_view kJinjaFilterInput;

} // namespace expr

} // namespace hako::pdl
