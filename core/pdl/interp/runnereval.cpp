// The runner's expressions (templates evaluated in a block's scope, specs checked) and its
// spare block-id buffers.
#include "core/pdl/interp/runner_p.h"

#include "core/pdl/expr/template.h"
#include "core/pdl/interp/pdlfunction_p.h"
#include "core/pdl/parser/expressionposition.h"
#include "core/pdl/types/jsonschema.h"
#include "core/pdl/types/pdltype.h"
#include "core/util/threadslot.h"

#include <charconv>

namespace hako::pdl {

namespace {

std::string firstLine(const std::string& s)
{
    size_t nl = s.find('\n');
    return nl == std::string::npos ? s : s.substr(0, nl);
}

// This thread's spare id buffers (takeIdBuffer), made by the thread's first block.
struct IdBuffers : std::vector<std::string> {
    IdBuffers() { reserve(64); }
};

IdBuffers& idBuffers()
{
    return ThreadSlot<IdBuffers>::get();
}

} // namespace

Value Runner::evalValue(const Value& v, const State& st, const SourceSpan& span)
{
    switch (v.type()) {
    case Value::Type::String: {
        const std::string& src = v.asString();
        if (expr::isPlainText(src))
            return v;
        EvalScope scope(st.scope, st.context);
        ActiveEvaluationScope active(this, &st);
        // Known not to be plain text: compiled (cached) and run without looking again.
        Result<Value> r = expr::evaluateCompiled(*expr::cachedTemplate(src), src, scope);
        if (r.ok())
            return std::move(r).value();
        const Diagnostic& d = r.error();
        SourceSpan at = span;
        if (st.program && d.span.isValid()) {
            at = mapExpressionPosition(st.program->lines, src, span, d.span.line, d.span.column);
            if (!at.isValid())
                at = span;
        }
        std::string msg = d.message.toStdString();
        static const std::string kPrefix = "Error during the evaluation of ";
        // A function called from this expression failed in its own expression, whose message
        // already says so: wrapping it again repeated it once per call level (500 times for
        // a runaway recursion).
        if (msg.rfind(kPrefix, 0) == 0)
            throw PdlError(firstLine(msg), at);
        throw PdlError(kPrefix + src + ": " + firstLine(msg), at);
    }
    case Value::Type::List: {
        const List& in = v.asList();
        List out;
        out.reserve(in.size());
        for (const Value& x : in)
            out.push_back(evalValue(x, st, span));
        return Value(std::move(out), v.isTuple());
    }
    case Value::Type::Dict: {
        Dict out;
        for (const auto& [k, x] : v.asDict())
            out.set(evalValue(k, st, span), evalValue(x, st, span));
        return Value(std::move(out));
    }
    default:
        return v;
    }
}

Value Runner::eval(const Expr& e, const State& st, TraceNode* node, const char* field)
{
    Value v = evalValue(e.value, st, e.span);
    if (node)
        node->exprs.emplace_back(field, v);
    return v;
}

void Runner::checkSpec(const Value& spec, const Value& value, const SourceSpan& span)
{
    Result<JsonSchema> schema = compilePdlType(spec);
    if (!schema.ok())
        throw PdlError("invalid spec: " + schema.error().message.toStdString(), span);
    std::vector<ValidationError> errors = schema->validate(value);
    if (errors.empty())
        return;
    std::string msg = "Type errors during spec checking:";
    for (const ValidationError& e : errors)
        msg += "\n" + e.toString();
    throw PdlError(msg, span);
}

std::string takeIdBuffer()
{
    IdBuffers& spare = idBuffers();
    if (spare.empty())
        return std::string();
    std::string s = std::move(spare.back());
    spare.pop_back();
    return s;
}

void recycleIdBuffer(std::string&& buffer)
{
    constexpr size_t kMaxSpare = 64, kMaxCapacity = 256;
    IdBuffers& spare = idBuffers();
    if (spare.size() >= kMaxSpare || buffer.capacity() > kMaxCapacity ||
        buffer.capacity() <= std::string().capacity())
        return;
    buffer.clear();
    spare.push_back(std::move(buffer));
}

std::string indexPrefix(const std::string& id, size_t i)
{
    // One allocation, with room for the child's kind (childPrefix).
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, i);
    return childPrefix(id, ".", std::string_view(digits, size_t(end - digits)), ".");
}

} // namespace hako::pdl
