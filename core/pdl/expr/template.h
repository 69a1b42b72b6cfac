#pragma once

#include "core/pdl/expr/ast.h"
#include "core/pdl/expr/evaluator.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hako::pdl::expr {

struct JinjaTemplate;

/// The block delimiters of the reference's template environment for PDL strings: meant to be
/// unmatchable, but a string that holds them runs Jinja statements (`for`, `if`, …) between them.
extern const std::string_view kPdlBlockStart; // `{%%%%%PDL%%%%%%%%%%`
extern const std::string_view kPdlBlockEnd;   // `%%%%%PDL%%%%%%%%%%}`

/// A parsed PDL template (or bare expression), immutable and shared between threads.
struct CompiledTemplate {
    enum class Mode : uint8_t {
        Unchanged, ///< plain text: the source is the result
        Single,    ///< exactly one `${ expr }`: the typed value of `expr`
        Render,    ///< text and expressions rendered to one string
        Error,     ///< did not parse: see error/errorOffset
        Jinja,     ///< holds kPdlBlockStart: a whole Jinja template, rendered to one string
    };
    struct Part {
        std::string text; ///< literal text (newlines normalized), when expr is null
        NodePtr expr;
    };

    Mode mode = Mode::Unchanged;
    std::vector<Part> parts;                    ///< Render
    NodePtr single;                             ///< Single (and bare expressions)
    std::shared_ptr<const JinjaTemplate> jinja; ///< Jinja
    std::string error;                          ///< Error: the message
    size_t errorOffset = 0;                     ///< Error: byte offset in the source
};

using TemplatePtr = std::shared_ptr<const CompiledTemplate>;

/// Parses `text` as a PDL template (never throws: syntax errors give Mode::Error).
TemplatePtr compileTemplate(std::string_view text);
/// Parses `text` as a bare expression (Mode::Single or Mode::Error).
TemplatePtr compileExpression(std::string_view text);

/// The compiled form of `text` from a bounded, thread-safe cache keyed by the source text.
TemplatePtr cachedTemplate(std::string_view text);
TemplatePtr cachedExpression(std::string_view text);
/// Empties both caches (tests, memory pressure).
void clearTemplateCache();

/// Whether `text` is plain text for sure (no `${`, no `{#`), so it needs no parsing.
bool isPlainText(std::string_view text);

/// Evaluates a compiled template that is not Mode::Error. `source` is its text (Unchanged
/// mode returns it). Throws EvalError with `ctx.at` set.
Value runTemplate(const CompiledTemplate& tpl, std::string_view source, EvalContext& ctx);

/// What evaluateTemplate() gives for `text`, compiled as `tpl` (from cachedTemplate(), which a
/// caller that knows `text` is not plain text calls itself): its value, or the error placed in
/// `text`. Never throws.
Result<Value> evaluateCompiled(const CompiledTemplate& tpl, std::string_view text,
                               const Scope& scope);

/// The names a compiled template reads, in source order, without duplicates and globals.
std::vector<std::string> freeVariables(const CompiledTemplate& tpl);

} // namespace hako::pdl::expr
