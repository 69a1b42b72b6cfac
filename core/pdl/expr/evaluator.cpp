#include "core/pdl/expr/evaluator.h"

#include "core/pdl/expr/operators.h"

namespace hako::pdl::expr {

const std::string kMissingElse =
    "the inline if-expression evaluated to false and no else section was defined.";

std::string undefinedMessage(const Value& undefined)
{
    const std::string& name = undefined.undefinedName();
    if (name.empty())
        return "undefined value";
    // Undefined values made by attribute lookups carry a full sentence (e.g. "'int object'
    // has no attribute 'y'"); plain names get Jinja's "'x' is undefined".
    if (name.find(' ') != std::string::npos)
        return name;
    return "'" + name + "' is undefined";
}

namespace {

[[noreturn]] void throwUndefined(const Value& v, uint32_t pos, EvalContext& ctx)
{
    ctx.at = pos;
    throw EvalError(undefinedMessage(v));
}

inline void requireDefined(const Value& v, const Node& node, EvalContext& ctx)
{
    if (v.isUndefined())
        throwUndefined(v, node.pos, ctx);
}

// Evaluates without copying constants and variables: most operands are one or the other.
inline const Value& evalRef(const Node& node, EvalContext& ctx, Value& tmp)
{
    if (node.kind == NodeKind::Const)
        return node.value;
    if (node.kind == NodeKind::Name) {
        if (const Value* v = ctx.scope.lookup(node.name))
            return *v;
    }
    tmp = evaluate(node, ctx);
    return tmp;
}

inline const Value& evalDefinedRef(const Node& node, EvalContext& ctx, Value& tmp)
{
    const Value& v = evalRef(node, ctx, tmp);
    requireDefined(v, node, ctx);
    return v;
}

bool isMissingElse(const Value& v)
{
    return v.isUndefined() && v.undefinedName() == kMissingElse;
}

// Python truthiness; Jinja's plain Undefined (an if-expression without else) is false, the
// strict one an error.
bool truthy(const Value& v, const Node& node, EvalContext& ctx)
{
    if (v.isUndefined()) {
        if (isMissingElse(v))
            return false;
        throwUndefined(v, node.pos, ctx);
    }
    ctx.at = node.pos;
    return v.truthy();
}

// Comparisons with an undefined operand: Jinja's plain Undefined equals only another plain
// Undefined; everything else about undefined values is an error.
bool compareUndefined(Op op, const Value& left, const Value& right, const Node& node, size_t i,
                      EvalContext& ctx)
{
    const Value& strict = !left.isUndefined() || isMissingElse(left) ? right : left;
    if (strict.isUndefined() && !isMissingElse(strict))
        throwUndefined(strict, (&strict == &left ? node.children[i] : node.children[i + 1])->pos,
                       ctx);
    bool both = isMissingElse(left) && isMissingElse(right);
    if (op == Op::Eq)
        return both;
    if (op == Op::Ne)
        return !both;
    if (op == Op::In || op == Op::NotIn) {
        // Jinja's plain Undefined iterates as empty and equals only another Undefined.
        bool found = false;
        if (right.isList()) {
            for (const Value& v : right.asList())
                found = found || isMissingElse(v);
        } else if (right.isString()) {
            ctx.at = node.children[i + 1]->pos;
            throw EvalError("'in <string>' requires string as left operand, not Undefined");
        } else if (!right.isDict() && !right.isUndefined()) {
            ctx.at = node.children[i + 1]->pos;
            throw EvalError(std::string("argument of type '") + right.typeName() +
                            "' is not iterable");
        }
        return op == Op::In ? found : !found;
    }
    const Value& u = left.isUndefined() ? left : right;
    throwUndefined(u, (left.isUndefined() ? node.children[i] : node.children[i + 1])->pos, ctx);
}

// A reference from evalRef may point into the scope. When evaluating `next` can run code (a
// call, a filter), that code could rebind names, so the earlier operand is copied first.
inline const Value& pin(const Value& v, Value& tmp, const Node& next)
{
    if (&v == &tmp || next.kind == NodeKind::Const || next.kind == NodeKind::Name)
        return v;
    tmp = v;
    return tmp;
}

inline bool hasArgs(const Node& node)
{
    return !node.args.empty();
}

// A call's receiver or a filter's input, kept in `tmp` while the arguments are evaluated (they
// could change the variable it refers to).
inline const Value& pinForArgs(const Value& v, Value& tmp, const Node& call)
{
    if (!hasArgs(call) || &v == &tmp)
        return v;
    tmp = v;
    return tmp;
}

const CallArgs& noArgs()
{
    static const CallArgs empty;
    return empty;
}

void buildArgs(const ArgNodes& nodes, EvalContext& ctx, CallArgs& out)
{
    out.positional.reserve(nodes.positional.size());
    for (const auto& n : nodes.positional)
        out.positional.push_back(evaluateDefined(*n, ctx));
    if (nodes.starArgs) {
        Value extra = evaluateDefined(*nodes.starArgs, ctx);
        if (!extra.isList()) {
            ctx.at = nodes.starArgs->pos;
            throw EvalError(std::string("argument after * must be an iterable, not ") +
                            extra.typeName());
        }
        for (const Value& v : extra.asList())
            out.positional.push_back(v);
    }
    for (size_t i = 0; i < nodes.keyword.size(); ++i)
        out.keyword.emplace_back(nodes.keywordNames[i], evaluateDefined(*nodes.keyword[i], ctx));
    if (nodes.starKwargs) {
        Value extra = evaluateDefined(*nodes.starKwargs, ctx);
        if (!extra.isDict()) {
            ctx.at = nodes.starKwargs->pos;
            throw EvalError(std::string("argument after ** must be a mapping, not ") +
                            extra.typeName());
        }
        for (const auto& [k, v] : extra.asDict()) {
            if (!k.isString()) {
                ctx.at = nodes.starKwargs->pos;
                throw EvalError("keywords must be strings");
            }
            out.keyword.emplace_back(k.asString(), v);
        }
    }
}

Value evalCall(const Node& node, EvalContext& ctx)
{
    const Node& callee = *node.children[0];
    CallArgs args;
    if (callee.kind == NodeKind::Attr) {
        // `obj.method(args)`: call the Python method directly instead of binding it first.
        Value tmp;
        const Value& obj = pinForArgs(evalDefinedRef(*callee.children[0], ctx, tmp), tmp, node);
        buildArgs(node.args, ctx, args);
        ctx.at = callee.pos;
        if (builtins::hasMethod(obj, callee.name))
            return builtins::callMethod(obj, callee.name, args);
        Value fn = builtins::getAttribute(obj, callee.name);
        if (fn.isUndefined())
            throwUndefined(fn, callee.pos, ctx);
        return callValue(fn, args);
    }
    Value fn = evaluateDefined(callee, ctx);
    buildArgs(node.args, ctx, args);
    ctx.at = node.pos;
    return callValue(fn, args);
}

} // namespace

const Value* findUndefined(const Value& v, int depth)
{
    if (v.isUndefined())
        return &v;
    if (depth > 1000)
        return nullptr;
    if (v.isList()) {
        for (const Value& item : v.asList())
            if (const Value* u = findUndefined(item, depth + 1))
                return u;
    } else if (v.isDict()) {
        for (const auto& [k, item] : v.asDict())
            if (const Value* u = findUndefined(item, depth + 1))
                return u;
    }
    return nullptr;
}

Value callValue(const Value& fn, const CallArgs& args)
{
    if (!fn.isCallable())
        throw EvalError(std::string("'") + fn.typeName() + "' object is not callable");
    return fn.asCallable()->call(args);
}

Value evaluateDefined(const Node& node, EvalContext& ctx)
{
    Value v = evaluate(node, ctx);
    requireDefined(v, node, ctx);
    return v;
}

namespace {

// A list or tuple display: [a, b] or (a, b).
Value evalSequence(const Node& node, EvalContext& ctx)
{
    List items;
    items.reserve(node.children.size());
    // Jinja stores undefined values in containers; using them later is the error.
    for (const auto& c : node.children) {
        items.push_back(evaluate(*c, ctx));
        if (items.back().isUndefined())
            ctx.mayHoldUndefined = true;
    }
    return Value(std::move(items), node.kind == NodeKind::Tuple);
}

// A dict display: {k: v, ...}.
Value evalDict(const Node& node, EvalContext& ctx)
{
    Dict d;
    for (size_t i = 0; i + 1 < node.children.size(); i += 2) {
        Value key = evaluateDefined(*node.children[i], ctx);
        Value value = evaluate(*node.children[i + 1], ctx);
        if (value.isUndefined())
            ctx.mayHoldUndefined = true;
        ctx.at = node.children[i]->pos;
        if (!key.isHashable())
            throw EvalError(std::string("unhashable type: '") + key.typeName() + "'");
        d.set(std::move(key), std::move(value));
    }
    return Value(std::move(d));
}

// A comparison chain: a < b <= c.
Value evalCompare(const Node& node, EvalContext& ctx)
{
    Value left = evaluate(*node.children[0], ctx);
    for (size_t i = 0; i < node.compareOps.size(); ++i) {
        Value right = evaluate(*node.children[i + 1], ctx);
        if (left.isUndefined() || right.isUndefined()) {
            if (!compareUndefined(node.compareOps[i], left, right, node, i, ctx))
                return Value(false);
            left = std::move(right);
            continue;
        }
        ctx.at = node.children[i + 1]->pos;
        if (!compareOp(node.compareOps[i], left, right))
            return Value(false);
        left = std::move(right);
    }
    return Value(true);
}

// obj[start:stop:step].
Value evalSlice(const Node& node, EvalContext& ctx)
{
    Value obj = evaluateDefined(*node.children[0], ctx);
    Value bounds[3];
    for (int i = 0; i < 3; ++i)
        if (const auto& c = node.children[i + 1])
            bounds[i] = evaluateDefined(*c, ctx);
    ctx.at = node.pos;
    return builtins::getSlice(obj, bounds[0], bounds[1], bounds[2]);
}

// x | filter(args) or x is test(args).
Value evalFilterOrTest(const Node& node, EvalContext& ctx)
{
    Value tmp;
    const Value& input = pinForArgs(evalRef(*node.children[0], ctx, tmp), tmp, node);
    // Tests see undefined input (the builtins refuse it where Jinja's StrictUndefined
    // would); filters only when they accept it.
    if (input.isUndefined() && !node.acceptsUndefined && node.kind == NodeKind::Filter)
        throwUndefined(input, node.children[0]->pos, ctx);
    CallArgs args;
    if (!node.args.empty())
        buildArgs(node.args, ctx, args);
    const CallArgs& a = node.args.empty() ? noArgs() : args;
    ctx.at = node.pos;
    if (node.kind == NodeKind::Filter) {
        Value v = node.filter(input, a);
        if (v.isList() || v.isDict())
            ctx.mayHoldUndefined = true;
        return v;
    }
    return Value(node.test(input, a) != node.negated);
}

} // namespace

Value evaluate(const Node& node, EvalContext& ctx)
{
    switch (node.kind) {
    case NodeKind::Const:
        return node.value;
    case NodeKind::Name: {
        if (const Value* v = ctx.scope.lookup(node.name))
            return *v;
        if (const Value* g = builtins::findGlobal(node.name))
            return *g;
        return Value::undefined(node.name);
    }
    case NodeKind::List:
    case NodeKind::Tuple:
        return evalSequence(node, ctx);
    case NodeKind::Dict:
        return evalDict(node, ctx);
    case NodeKind::Unary: {
        Value tmp;
        const Value& v = evalDefinedRef(*node.children[0], ctx, tmp);
        ctx.at = node.pos;
        return unaryOp(node.op, v);
    }
    case NodeKind::Binary: {
        Value t1;
        Value t2;
        const Value& a = pin(evalDefinedRef(*node.children[0], ctx, t1), t1, *node.children[1]);
        const Value& b = evalDefinedRef(*node.children[1], ctx, t2);
        ctx.at = node.pos;
        return binaryOp(node.op, a, b);
    }
    case NodeKind::And:
    case NodeKind::Or: {
        Value a = evaluate(*node.children[0], ctx);
        bool t = truthy(a, *node.children[0], ctx);
        if (node.kind == NodeKind::And ? !t : t)
            return a;
        return evaluateDefined(*node.children[1], ctx);
    }
    case NodeKind::Not: {
        Value tmp;
        const Value& v = evalRef(*node.children[0], ctx, tmp);
        return Value(!truthy(v, *node.children[0], ctx));
    }
    case NodeKind::Compare:
        return evalCompare(node, ctx);
    case NodeKind::CondExpr: {
        Value tmp;
        const Value& test = evalRef(*node.children[0], ctx, tmp);
        if (truthy(test, *node.children[0], ctx))
            return evaluate(*node.children[1], ctx);
        if (node.children.size() > 2)
            return evaluate(*node.children[2], ctx);
        return Value::undefined(kMissingElse);
    }
    case NodeKind::Attr: {
        Value tmp;
        const Value& obj = evalDefinedRef(*node.children[0], ctx, tmp);
        ctx.at = node.pos;
        return builtins::getAttribute(obj, node.name);
    }
    case NodeKind::Item: {
        Value t1;
        Value t2;
        const Value& obj = pin(evalDefinedRef(*node.children[0], ctx, t1), t1, *node.children[1]);
        const Value& key = evalDefinedRef(*node.children[1], ctx, t2);
        ctx.at = node.pos;
        return builtins::getItem(obj, key);
    }
    case NodeKind::Slice:
        return evalSlice(node, ctx);
    case NodeKind::Call:
        return evalCall(node, ctx);
    case NodeKind::Filter:
    case NodeKind::Test:
        return evalFilterOrTest(node, ctx);
    }
    return Value();
}

} // namespace hako::pdl::expr
