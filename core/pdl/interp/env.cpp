#include "core/pdl/interp/env.h"

namespace hako::pdl {

const Dict& Env::noVars()
{
    static const Dict none;
    return none;
}

void Env::set(std::string_view name, Value value)
{
    if (!m_vars)
        m_vars = std::make_shared<Dict>();
    else if (m_vars.use_count() > 1)
        m_vars = std::make_shared<Dict>(*m_vars);
    m_vars->set(name, std::move(value));
}

namespace {

// Role names are few: share one payload per name instead of one per message.
Value roleValue(const std::string& role)
{
    static const Value user("user"), assistant("assistant"), system("system");
    if (role == "user")
        return user;
    if (role == "assistant")
        return assistant;
    if (role == "system")
        return system;
    return Value(role);
}

} // namespace

ContextNode::~ContextNode()
{
    std::shared_ptr<const ContextNode> p = std::move(prev);
    while (p && p.use_count() == 1) {
        // Sole owner: detach its predecessor first so destroying it does not recurse.
        std::shared_ptr<const ContextNode> next = std::move(const_cast<ContextNode&>(*p).prev);
        p = std::move(next);
    }
}

Value ContextNode::message() const
{
    if (!full.isNull())
        return full;
    static const Value kRole("role"), kContent("content"), kDefsite("pdl__defsite");
    Dict d;
    d.set(kRole, role);
    d.set(kContent, content);
    d.set(kDefsite, Value(defsite));
    return Value(std::move(d));
}

ContextPtr contextAppend(const ContextPtr& ctx, const std::string& role, Value content,
                         std::string defsite)
{
    auto node = std::make_shared<ContextNode>();
    node->prev = ctx;
    node->role = roleValue(role);
    node->content = std::move(content);
    node->defsite = std::move(defsite);
    node->size = ctx ? ctx->size + 1 : 1;
    return node;
}

ContextPtr contextAppend(const ContextPtr& ctx, Value message)
{
    auto node = std::make_shared<ContextNode>();
    node->prev = ctx;
    node->full = std::move(message);
    node->size = ctx ? ctx->size + 1 : 1;
    return node;
}

List contextToList(const ContextPtr& ctx)
{
    return contextSince(ctx, nullptr);
}

List contextSince(const ContextPtr& ctx, const ContextPtr& base)
{
    size_t n = (ctx ? ctx->size : 0) - (base ? base->size : 0);
    List out(n);
    const ContextNode* node = ctx.get();
    for (size_t i = n; i > 0 && node; --i, node = node->prev.get())
        out[i - 1] = node->message();
    return out;
}

ContextPtr contextFromList(const List& messages)
{
    ContextPtr ctx;
    for (const Value& m : messages)
        ctx = contextAppend(ctx, m);
    return ctx;
}

const Value* EvalScope::lookup(std::string_view name) const
{
    if (const Value* v = m_env.find(name)) {
        if (name == "pdl_context") {
            // The binding is a marker; the live context is materialised once per evaluation.
            if (!m_haveContext) {
                m_contextValue = Value(contextToList(m_context)).wrapped(Value::Wrapper::Context);
                m_haveContext = true;
            }
            return &m_contextValue;
        }
        return v;
    }
    if (name == "pdl_scope") {
        if (!m_haveScope) {
            Dict d = m_env.vars();
            if (d.find("pdl_context"))
                d.set("pdl_context",
                      Value(contextToList(m_context)).wrapped(Value::Wrapper::Context));
            m_scopeValue = Value(std::move(d));
            m_haveScope = true;
        }
        return &m_scopeValue;
    }
    return nullptr;
}

} // namespace hako::pdl
