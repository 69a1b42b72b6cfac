#include "core/pdl/expr/expression.h"

#include "core/pdl/expr/template.h"

namespace hako::pdl {

MapScope::MapScope(const Dict& vars)
{
    for (const auto& [k, v] : vars)
        m_vars[k.isString() ? k.asString() : k.str()] = v;
}

const Value* MapScope::lookup(std::string_view name) const
{
    auto it = m_vars.find(name);
    return it == m_vars.end() ? nullptr : &it->second;
}

namespace expr {

Result<Value> evaluateCompiled(const CompiledTemplate& tpl, std::string_view text,
                               const Scope& scope)
{
    if (tpl.mode == CompiledTemplate::Mode::Error)
        return diagnosticAtOffset(text, tpl.errorOffset, tpl.error);
    EvalContext ctx(scope);
    try {
        return runTemplate(tpl, text, ctx);
    } catch (const EvalError& e) {
        return diagnosticAtOffset(text, ctx.at, e.what());
    } catch (const std::exception& e) {
        return diagnosticAtOffset(text, ctx.at, e.what());
    }
}

} // namespace expr

Result<Value> evaluateTemplate(std::string_view text, const Scope& scope)
{
    if (expr::isPlainText(text))
        return Value(text);
    expr::TemplatePtr tpl = expr::cachedTemplate(text);
    return expr::evaluateCompiled(*tpl, text, scope);
}

Result<Value> evaluateExpression(std::string_view text, const Scope& scope)
{
    expr::TemplatePtr tpl = expr::cachedExpression(text);
    return expr::evaluateCompiled(*tpl, text, scope);
}

std::optional<Diagnostic> checkTemplate(std::string_view text)
{
    if (expr::isPlainText(text))
        return std::nullopt;
    expr::TemplatePtr tpl = expr::cachedTemplate(text);
    if (tpl->mode != expr::CompiledTemplate::Mode::Error)
        return std::nullopt;
    return diagnosticAtOffset(text, tpl->errorOffset, tpl->error);
}

std::vector<std::string> templateVariables(std::string_view text)
{
    if (expr::isPlainText(text))
        return {};
    expr::TemplatePtr tpl = expr::cachedTemplate(text);
    if (tpl->mode == expr::CompiledTemplate::Mode::Error)
        return {};
    return expr::freeVariables(*tpl);
}

Diagnostic diagnosticAtOffset(std::string_view text, size_t offset, const std::string& message)
{
    offset = std::min(offset, text.size());
    int line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    const int column = int(utf8::length(text.substr(lineStart, offset - lineStart))) + 1;
    SourceSpan span;
    span.line = span.endLine = line;
    span.column = span.endColumn = column;
    return makeError(QString::fromStdString(message + "\n" + caretLine(text, line, column)), span);
}

std::string caretLine(std::string_view text, int line, int column)
{
    size_t start = 0;
    for (int l = 1; l < line; ++l) {
        size_t nl = text.find('\n', start);
        if (nl == std::string_view::npos)
            break;
        start = nl + 1;
    }
    size_t end = text.find('\n', start);
    std::string_view lineText =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!lineText.empty() && lineText.back() == '\r')
        lineText.remove_suffix(1);
    std::string out(lineText);
    out += '\n';
    // Tabs stay tabs so the caret lines up in any tab width.
    size_t offset = utf8::offsetOf(
        lineText, std::min<int64_t>(std::max(column, 1) - 1, utf8::length(lineText)));
    for (size_t i = 0; i < offset; ++i) {
        unsigned char c = static_cast<unsigned char>(lineText[i]);
        if ((c & 0xC0) == 0x80)
            continue;
        out += c == '\t' ? '\t' : ' ';
    }
    if (column - 1 > utf8::length(lineText))
        out += std::string(static_cast<size_t>(column - 1 - utf8::length(lineText)), ' ');
    out += '^';
    return out;
}

} // namespace hako::pdl
