// Rendering of compiled Jinja statement templates (jinjatemplate.h) and the public API.

#include "core/pdl/expr/builtins_p.h"
#include "core/pdl/expr/evaluator.h"
#include "core/pdl/expr/jinjatemplate.h"

#include <utility>

namespace hako::pdl {

namespace expr {

namespace {

constexpr int kMaxMacroDepth = 200;

/// One level of template scope: a for-loop iteration, a macro call, a with block, or the
/// template's top level over the caller's scope. Jinja's `set` writes to the innermost one.
class Frame : public Scope {
public:
    explicit Frame(const Scope& parent) : m_parent(parent) {}

    const Value* lookup(std::string_view name) const override
    {
        for (auto it = m_vars.rbegin(); it != m_vars.rend(); ++it)
            if (it->first == name)
                return &it->second;
        return m_parent.lookup(name);
    }

    void set(std::string_view name, Value v)
    {
        for (auto& [n, value] : m_vars) {
            if (n == name) {
                value = std::move(v);
                return;
            }
        }
        m_vars.emplace_back(std::string(name), std::move(v));
    }

private:
    const Scope& m_parent;
    std::vector<std::pair<std::string, Value>> m_vars;
};

class Renderer {
public:
    Renderer(const JinjaOptions& options) : m_opt(options) {}

    void render(const JinjaBody& body, Frame& frame, std::string& out)
    {
        for (const JinjaNode& n : body)
            renderNode(n, frame, out);
    }

    uint32_t at() const { return m_at; }
    Frame* m_root = nullptr;

private:
    [[noreturn]] void fail(uint32_t pos, const std::string& message)
    {
        setAt(pos);
        throw EvalError(message);
    }

    void setAt(uint32_t pos)
    {
        if (!m_atSet) {
            m_at = pos;
            m_atSet = true;
        }
    }

    Value eval(const Node& node, const Scope& scope)
    {
        EvalContext ctx(scope);
        try {
            return evaluate(node, ctx);
        } catch (...) {
            setAt(ctx.at);
            throw;
        }
    }

    // Whether `v`, the value of `node`, is an Undefined that stands for nothing here (false,
    // no output, no items): any Undefined when not strict, and the plain Undefined of an
    // if-expression without else; a strict one is an error at `node`.
    bool emptyUndefined(const Node& node, const Value& v)
    {
        if (!v.isUndefined())
            return false;
        if (!m_opt.strictUndefined || v.undefinedName() == kMissingElse)
            return true;
        fail(node.pos, undefinedMessage(v));
    }

    // Jinja's Undefined in a test position is false (see emptyUndefined()).
    bool truthy(const Node& node, const Scope& scope)
    {
        Value v = eval(node, scope);
        if (emptyUndefined(node, v))
            return false;
        return v.truthy();
    }

    void print(const Node& node, const Scope& scope, std::string& out)
    {
        Value v = eval(node, scope);
        if (emptyUndefined(node, v))
            return;
        if (v.isString()) {
            out += v.asString();
            return;
        }
        if (const Value* u = findUndefined(v)) {
            if (m_opt.strictUndefined)
                fail(node.pos, undefinedMessage(*u));
        }
        try {
            out += v.str();
        } catch (const EvalError&) {
            setAt(node.pos);
            throw;
        }
    }

    List items(const Node& node, const Scope& scope)
    {
        Value v = eval(node, scope);
        if (emptyUndefined(node, v))
            return {};
        try {
            return builtins::detail::iterate(v);
        } catch (const EvalError&) {
            setAt(node.pos);
            throw;
        }
    }

    void bind(const JinjaTarget& target, const Value& v, Frame& frame)
    {
        if (!target.name.empty()) {
            frame.set(target.name, v);
            return;
        }
        if (v.isUndefined())
            fail(target.pos, undefinedMessage(v));
        List parts;
        try {
            parts = builtins::detail::iterate(v);
        } catch (const EvalError& e) {
            fail(target.pos, std::string("cannot unpack non-iterable ") + v.typeName() + " object");
        }
        const size_t want = target.items.size();
        if (parts.size() < want)
            fail(target.pos, "not enough values to unpack (expected " + std::to_string(want) +
                                 ", got " + std::to_string(parts.size()) + ")");
        if (parts.size() > want)
            fail(target.pos, "too many values to unpack (expected " + std::to_string(want) + ")");
        for (size_t i = 0; i < want; ++i)
            bind(target.items[i], parts[i], frame);
    }

    Value applyFilters(const Node& filters, Value input, const Scope& scope)
    {
        Frame f(scope);
        f.set(kJinjaFilterInput, std::move(input));
        return eval(filters, f);
    }

    static Value loopObject(const List& all, size_t i)
    {
        const auto n = int64_t(all.size());
        const auto k = int64_t(i);
        Dict loop;
        loop.set("index", Value(k + 1));
        loop.set("index0", Value(k));
        loop.set("revindex", Value(n - k));
        loop.set("revindex0", Value(n - k - 1));
        loop.set("first", Value(k == 0));
        loop.set("last", Value(k == n - 1));
        loop.set("length", Value(n));
        loop.set("depth", Value(1));
        loop.set("depth0", Value(0));
        if (i > 0)
            loop.set("previtem", all[i - 1]);
        if (i + 1 < all.size())
            loop.set("nextitem", all[i + 1]);
        loop.set("cycle", Value(makeCallable("cycle", [k](const CallArgs& args) {
                     if (args.positional.empty())
                         throw EvalError("no items for cycling given");
                     return args.positional[size_t(k) % args.positional.size()];
                 })));
        return Value(std::move(loop));
    }

    void renderFor(const JinjaNode& n, Frame& frame, std::string& out)
    {
        List all = items(*n.expr, frame);
        if (n.condition) {
            List kept;
            for (Value& item : all) {
                Frame f(frame);
                bind(n.target, item, f);
                if (truthy(*n.condition, f))
                    kept.push_back(std::move(item));
            }
            all = std::move(kept);
        }
        if (all.empty()) {
            render(n.elseBody, frame, out);
            return;
        }
        for (size_t i = 0; i < all.size(); ++i) {
            // Each iteration starts from the enclosing scope: a `set` in the body does not
            // survive into the next iteration or after the loop (Jinja's scoping).
            Frame f(frame);
            if (n.usesLoop)
                f.set("loop", loopObject(all, i));
            bind(n.target, all[i], f);
            render(n.body, f, out);
        }
    }

    Value callMacro(const JinjaNode& n, const CallArgs& args)
    {
        if (++m_macroDepth > kMaxMacroDepth) {
            --m_macroDepth;
            fail(n.pos, "maximum recursion depth exceeded in macro '" + n.text + "'");
        }
        struct Guard {
            int& depth;
            ~Guard() { --depth; }
        } guard{m_macroDepth};
        if (args.positional.size() > n.params.size())
            throw EvalError("macro '" + n.text + "' takes not more than " +
                            std::to_string(n.params.size()) + " argument(s)");
        Frame f(*m_root);
        for (size_t i = 0; i < n.params.size(); ++i) {
            const auto& [name, dflt] = n.params[i];
            if (i < args.positional.size()) {
                f.set(name, args.positional[i]);
            } else if (const Value* kw = args.kw(name)) {
                f.set(name, *kw);
            } else if (dflt) {
                f.set(name, eval(*dflt, f));
            } else {
                f.set(name, Value::undefined("parameter '" + name + "' was not provided"));
            }
        }
        for (const auto& [name, value] : args.keyword) {
            bool known = false;
            for (const auto& p : n.params)
                known = known || p.first == name;
            if (!known)
                throw EvalError("macro '" + n.text + "' takes no keyword argument '" + name + "'");
        }
        std::string out;
        render(n.body, f, out);
        return Value(std::move(out));
    }

    void renderNode(const JinjaNode& n, Frame& frame, std::string& out)
    {
        switch (n.kind) {
        case JinjaNode::Kind::Text:
            out += n.text;
            return;
        case JinjaNode::Kind::Output:
            print(*n.expr, frame, out);
            return;
        case JinjaNode::Kind::If:
            for (const auto& [cond, body] : n.branches) {
                if (!cond || truthy(*cond, frame)) {
                    render(body, frame, out);
                    return;
                }
            }
            return;
        case JinjaNode::Kind::For:
            renderFor(n, frame, out);
            return;
        case JinjaNode::Kind::Set:
            bind(n.target, eval(*n.expr, frame), frame);
            return;
        case JinjaNode::Kind::SetBlock: {
            std::string text;
            {
                Frame inner(frame);
                render(n.body, inner, text);
            }
            Value v(std::move(text));
            if (n.expr)
                v = applyFilters(*n.expr, std::move(v), frame);
            frame.set(n.target.name, std::move(v));
            return;
        }
        case JinjaNode::Kind::FilterBlock: {
            std::string text;
            {
                Frame inner(frame);
                render(n.body, inner, text);
            }
            Value v = applyFilters(*n.expr, Value(std::move(text)), frame);
            if (v.isString())
                out += v.asString();
            else
                out += v.str();
            return;
        }
        case JinjaNode::Kind::Macro: {
            const JinjaNode* node = &n;
            frame.set(n.text, Value(makeCallable(n.text, [this, node](const CallArgs& args) {
                          return callMacro(*node, args);
                      })));
            return;
        }
        case JinjaNode::Kind::With: {
            Frame f(frame);
            for (const auto& [name, value] : n.params)
                f.set(name, eval(*value, frame));
            render(n.body, f, out);
            return;
        }
        }
    }

    const JinjaOptions& m_opt;
    uint32_t m_at = 0;
    bool m_atSet = false;
    int m_macroDepth = 0;
};

} // namespace

std::string renderCompiledJinja(const JinjaTemplate& tpl, EvalContext& ctx,
                                const JinjaOptions& options)
{
    Renderer r(options);
    Frame root(ctx.scope);
    r.m_root = &root;
    std::string out;
    try {
        r.render(tpl.body, root, out);
    } catch (...) {
        ctx.at = r.at();
        throw;
    }
    return out;
}

} // namespace expr

namespace {} // namespace

Result<JinjaOptions> JinjaOptions::fromParameters(const Value& parameters)
{
    JinjaOptions o;
    if (parameters.isNull() || parameters.isUndefined())
        return o;
    if (!parameters.isDict())
        return makeError(QStringLiteral("Jinja parameters must be a mapping, not %1")
                             .arg(QString::fromLatin1(parameters.typeName())));
    for (const auto& [key, value] : parameters.asDict()) {
        const std::string name = key.isString() ? key.asString() : key.str();
        if (name == "trim_blocks") {
            o.trimBlocks = value.truthy();
        } else if (name == "lstrip_blocks") {
            o.lstripBlocks = value.truthy();
        } else if (name == "keep_trailing_newline") {
            o.keepTrailingNewline = value.truthy();
        } else if (name == "variable_start_string" || name == "variable_end_string" ||
                   name == "block_start_string" || name == "block_end_string" ||
                   name == "comment_start_string" || name == "comment_end_string") {
            if (!value.isString() || value.asString().empty())
                return makeError(QStringLiteral("Jinja parameter '%1' must be a non-empty string")
                                     .arg(QString::fromStdString(name)));
            std::string& target = name == "variable_start_string"  ? o.variableStart
                                  : name == "variable_end_string"  ? o.variableEnd
                                  : name == "block_start_string"   ? o.blockStart
                                  : name == "block_end_string"     ? o.blockEnd
                                  : name == "comment_start_string" ? o.commentStart
                                                                   : o.commentEnd;
            target = value.asString();
            if (name == "variable_end_string" && target.front() != '}')
                return makeError(QStringLiteral("Jinja parameter 'variable_end_string' must start "
                                                "with '}' in Hako, not '%1'")
                                     .arg(QString::fromStdString(target)));
        } else if (name == "undefined" && value.isString() &&
                   (value.asString() == "strict" || value.asString() == "default")) {
            o.strictUndefined = value.asString() == "strict";
        } else {
            return makeError(QStringLiteral("unsupported Jinja parameter '%1': Hako supports "
                                            "trim_blocks, lstrip_blocks, keep_trailing_newline, "
                                            "undefined: strict|default and the *_start_string "
                                            "and *_end_string delimiters")
                                 .arg(QString::fromStdString(name)));
        }
    }
    return o;
}

Result<std::string> renderJinja(std::string_view source, const Scope& scope,
                                const JinjaOptions& options)
{
    expr::JinjaTemplatePtr tpl = expr::cachedJinja(source, options);
    if (!tpl->error.empty())
        return diagnosticAtOffset(tpl->source, tpl->errorOffset, tpl->error);
    expr::EvalContext ctx(scope);
    try {
        return expr::renderCompiledJinja(*tpl, ctx, options);
    } catch (const std::exception& e) {
        return diagnosticAtOffset(tpl->source, ctx.at, e.what());
    }
}

std::optional<Diagnostic> checkJinja(std::string_view source, const JinjaOptions& options)
{
    expr::JinjaTemplatePtr tpl = expr::cachedJinja(source, options);
    if (tpl->error.empty())
        return std::nullopt;
    return diagnosticAtOffset(tpl->source, tpl->errorOffset, tpl->error);
}

} // namespace hako::pdl
