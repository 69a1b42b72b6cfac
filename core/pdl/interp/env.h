#pragma once

#include "core/pdl/expr/expression.h"
#include "core/pdl/value.h"

#include <memory>
#include <string>
#include <string_view>

namespace hako::pdl {

/// The variables of a running program: an insertion-ordered map shared copy-on-write, so that
/// handing a scope to a closure, a loop iteration or a later sibling costs a pointer copy and a
/// loop that rebinds its variable a million times stays linear (the map is copied only while
/// somebody else still holds the old version). Not thread-safe for writing; copies may be read
/// from several threads.
class Env {
public:
    /// No variables, and no map until one is set: every trace node holds a scope, and most of a
    /// million OpenTelemetry spans never get one.
    Env() = default;

    const Value* find(std::string_view name) const { return m_vars ? m_vars->find(name) : nullptr; }
    void set(std::string_view name, Value value);
    /// The variables in definition order (what `pdl_scope` shows).
    const Dict& vars() const { return m_vars ? *m_vars : noVars(); }

private:
    static const Dict& noVars();
    std::shared_ptr<Dict> m_vars;
};

/// One context message and the messages before it: a persistent list where appending shares
/// everything already there. `pdl_context` materialises it into a Value list on demand.
/// Kept compact (a loop of a million iterations makes a million messages): the common message
/// `{role, content, pdl__defsite}` is stored as its parts and built into a dict only on demand.
struct ContextNode {
    ContextNode() = default;
    ContextNode(const ContextNode&) = delete;
    ContextNode& operator=(const ContextNode&) = delete;
    /// Unlinks the chain iteratively: a million messages must not recurse a million deep.
    ~ContextNode();

    std::shared_ptr<const ContextNode> prev;
    Value role;
    Value content;
    std::string defsite;
    Value full; ///< a message with more keys (tool calls, name), stored whole; else null
    size_t size = 1;

    Value message() const;
};
using ContextPtr = std::shared_ptr<const ContextNode>;

/// Appends the message `{role, content, pdl__defsite}` after `ctx` (null: the empty context).
ContextPtr contextAppend(const ContextPtr& ctx, const std::string& role, Value content,
                         std::string defsite);
/// Appends a whole message dict.
ContextPtr contextAppend(const ContextPtr& ctx, Value message);
/// The messages of `ctx` as a list, oldest first.
List contextToList(const ContextPtr& ctx);
/// The messages between `base` (exclusive) and `ctx` (inclusive), oldest first; `base` must be
/// an ancestor of `ctx` or null.
List contextSince(const ContextPtr& ctx, const ContextPtr& base);
/// A context holding `messages` (from a list value of message dicts).
ContextPtr contextFromList(const List& messages);

/// The Scope an expression sees: the program's variables plus `pdl_context` (materialised only
/// when an expression reads it) and `pdl_scope`.
class EvalScope : public Scope {
public:
    EvalScope(const Env& env, const ContextPtr& context) : m_env(env), m_context(context) {}
    const Value* lookup(std::string_view name) const override;

private:
    const Env& m_env;
    const ContextPtr& m_context;
    mutable Value m_contextValue;
    mutable Value m_scopeValue;
    mutable bool m_haveContext = false;
    mutable bool m_haveScope = false;
};

} // namespace hako::pdl
