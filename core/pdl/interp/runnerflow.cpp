// Structured blocks: text/lastOf/array/sequence, object, if, match, repeat, map, functions.
#include "core/pdl/expr/builtins.h"
#include "core/pdl/interp/functionvalue.h"
#include "core/pdl/interp/pdlfunction_p.h"
#include "core/pdl/interp/runner_p.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/types/jsonschema.h"
#include "core/pdl/types/pdltype.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace hako::pdl {

ActiveEvaluation& activeEvaluation()
{
    // Initial-exec: an offset from the thread pointer instead of a __tls_get_addr call (two
    // pointers of the static TLS space every library may take a little of).
    static thread_local ActiveEvaluation active [[gnu::tls_model("initial-exec")]];
    return active;
}

namespace {

// Whether the block's body field (`text: …`) was written as a list: children ids then carry
// their index (`text.0.data`), a single body does not (`text.data`).
bool bodyIsList(const Block& b, const char* field)
{
    if (!b.node || !b.node->isMapping())
        return true;
    const YamlValue* v = b.node->value(field);
    return !v || v->isSequence();
}

// Sets whether a structured block's children stream their results (`--stream result`) for
// its lifetime; the block's own flag comes back when it ends, by exception too.
class ChildStreaming {
public:
    ChildStreaming(State& st, bool on) : m_st(st), m_saved(st.streamResult)
    {
        st.streamResult = on;
    }
    ~ChildStreaming() { m_st.streamResult = m_saved; }
    ChildStreaming(const ChildStreaming&) = delete;
    ChildStreaming& operator=(const ChildStreaming&) = delete;

private:
    State& m_st;
    bool m_saved;
};

} // namespace

Value Runner::execData(const DataBlock& b, State& st, TraceNode* node)
{
    if (b.raw) {
        if (node)
            node->exprs.emplace_back("data", b.data.value);
        return b.data.value;
    }
    return eval(b.data, st, node, "data");
}

Value Runner::execList(const ListBlockBase& b, State& st, const std::string& id, TraceNode* node,
                       const JoinSpec* join)
{
    const char* field = blockKindName(b.kind);
    const bool list = bodyIsList(b, field);
    const bool independent = b.context == ContextMode::Independent;
    if (b.kind == BlockKind::Text && !join && b.children.size() == 1 && !independent) {
        // A text of one child (a loop's usual body): the child's string as it is, else its text
        // as TextJoin gives it; the child streams as the text would (children of a text
        // stream when the text does).
        TracePtr* slot = node ? &node->addChild(field, nullptr, !list) : nullptr;
        Value v = execChild(b.children[0], st, id,
                            list ? ChildPlace::item(0) : ChildPlace::named("."), slot);
        if (v.isString())
            return v;
        TextJoin text;
        text.append(std::move(v));
        return text.take();
    }
    const ContextPtr initial = st.context;
    ContextPtr collected = initial;
    std::vector<Value> values;
    TextJoin text;
    // A text of one string child is that string (what TextJoin gives, without its piece list).
    std::optional<Value> onlyText;
    const bool oneText = b.kind == BlockKind::Text && !join && b.children.size() == 1;
    if (b.kind != BlockKind::Text || join)
        values.reserve(b.children.size());
    // `--stream result`: text and text-joined sequences stream child by child, lastOf its last
    // child; blocks that build a value (array, other joins) stream it whole when done.
    const bool streaming = st.streamResult;
    const bool streamChildren =
        streaming && (b.kind == BlockKind::Text || b.kind == BlockKind::LastOf ||
                      (join && join->as == JoinSpec::As::Text));
    std::string separator;
    if (streamChildren && join && join->with)
        separator = evalValue(join->with.value, st, join->with.span).toText();
    {
        ChildStreaming childStreaming(st, streamChildren);
        for (size_t i = 0; i < b.children.size(); ++i) {
            if (independent)
                st.context = initial;
            if (b.kind == BlockKind::LastOf)
                st.streamResult = streamChildren && i + 1 == b.children.size();
            else if (streamChildren && join && i > 0)
                streamValue(st, Value(separator));
            // The child's slot exists before it runs, so a failing child stays in the trace.
            TracePtr* slot = node ? &node->addChild(field, nullptr, !list) : nullptr;
            Value v = execChild(b.children[i], st, id,
                                list ? ChildPlace::item(i) : ChildPlace::named("."), slot);
            if (independent) {
                for (Value& m : contextSince(st.context, initial))
                    collected = contextAppend(collected, std::move(m));
            }
            if (oneText && v.isString())
                onlyText = std::move(v);
            else if (b.kind == BlockKind::Text && !join)
                text.append(std::move(v));
            else
                values.push_back(std::move(v));
        }
    }
    if (independent)
        st.context = collected;
    Value result;
    switch (b.kind) {
    case BlockKind::Text:
        return onlyText ? std::move(*onlyText) : text.take();
    case BlockKind::LastOf:
        return values.empty() ? Value() : values.back();
    case BlockKind::Array:
        result = Value(List(std::move(values)));
        break;
    default:
        result = this->join(values, *join, st, node, b.span);
        break;
    }
    if (!streamChildren)
        streamValue(st, result);
    return result;
}

Value Runner::execObject(const ObjectBlock& b, State& st, const std::string& id, TraceNode* node)
{
    // The object streams whole when it is complete, not field by field.
    Value result;
    {
        ChildStreaming childStreaming(st, false);
        result = execObjectFields(b, st, id, node);
    }
    streamValue(st, result);
    return result;
}

Value Runner::execObjectFields(const ObjectBlock& b, State& st, const std::string& id,
                               TraceNode* node)
{
    // `context: independent`: every field sees the context from before the object, and the
    // object contributes what all of them added, in order (as for the items of a list block).
    const bool independent = b.context == ContextMode::Independent;
    const ContextPtr initial = st.context;
    ContextPtr collected = initial;
    auto runField = [&](const BlockPtr& child, const std::string& prefix) {
        if (independent)
            st.context = initial;
        TracePtr cn;
        Value v = exec(child, st, prefix, node ? &cn : nullptr);
        if (node)
            node->addChild("object", cn);
        if (independent) {
            for (Value& m : contextSince(st.context, initial))
                collected = contextAppend(collected, std::move(m));
        }
        return v;
    };
    Dict out;
    if (!b.listForm) {
        for (const auto& [name, child] : b.fields)
            out.set(name, runField(child, id + "." + name + "."));
        if (independent)
            st.context = collected;
        return Value(std::move(out));
    }
    for (size_t i = 0; i < b.items.size(); ++i) {
        Value v = runField(b.items[i], indexPrefix(id, i));
        if (!v.isDict())
            throw PdlError("the items of an object block must produce objects, got " +
                               std::string(v.typeName()),
                           b.items[i]->span);
        for (const auto& [k, x] : v.asDict())
            out.set(k, x);
    }
    if (independent)
        st.context = collected;
    return Value(std::move(out));
}

Value Runner::execMessage(const MessageBlock& b, State& st, const std::string& id, TraceNode* node)
{
    State cs = st;
    TracePtr cn;
    Value content = b.content
                        ? exec(b.content, cs, childPrefix(id, ".content."), node ? &cn : nullptr)
                        : Value("");
    if (node && cn)
        node->addChild("content", cn, true);
    // The content's definitions stay inside the message, as in the reference.
    // The reference's message object: its fields in this order, with the block's id as its
    // definition site.
    Dict m;
    m.set("role", Value(st.role));
    m.set("content", content);
    m.set("pdl__defsite", Value(id));
    if (b.name)
        m.set("name", eval(b.name, st, node, "name"));
    if (b.toolCallId)
        m.set("tool_call_id", eval(b.toolCallId, st, node, "tool_call_id"));
    if (b.toolCalls)
        m.set("tool_calls", eval(b.toolCalls, st, node, "tool_calls"));
    return Value(std::move(m)).wrapped(Value::Wrapper::Message);
}

Value Runner::execIf(const IfBlock& b, State& st, const std::string& id, TraceNode* node)
{
    Value cond = eval(b.condition, st, node, "if");
    if (cond.isUndefined())
        throw PdlError("the condition of an if block is undefined", b.condition.span);
    const bool taken = cond.truthy();
    const BlockPtr& branch = taken ? b.then : b.elseBlock;
    if (!branch)
        return Value("");
    TracePtr* slot = node ? &node->addChild(taken ? "then" : "else", nullptr, true) : nullptr;
    Value v = execChild(branch, st, id, ChildPlace::named(taken ? ".then." : ".else_."), slot);
    return v;
}

namespace {

bool matchPattern(const Pattern& p, const Value& v,
                  std::vector<std::pair<std::string, Value>>& binds)
{
    bool ok = false;
    switch (p.kind) {
    case Pattern::Kind::Literal:
        ok = v == p.literal;
        break;
    case Pattern::Kind::Any:
        ok = true;
        break;
    case Pattern::Kind::Array:
        if (v.isList() && v.asList().size() == p.items.size()) {
            ok = true;
            for (size_t i = 0; ok && i < p.items.size(); ++i)
                ok = matchPattern(p.items[i], v.asList()[i], binds);
        }
        break;
    case Pattern::Kind::Object:
        if (v.isDict()) {
            ok = true;
            for (const auto& [k, sub] : p.fields) {
                const Value* x = v.asDict().find(k);
                ok = ok && x && matchPattern(sub, *x, binds);
            }
        }
        break;
    case Pattern::Kind::AnyOf:
        for (const Pattern& alt : p.items) {
            size_t mark = binds.size();
            if (matchPattern(alt, v, binds)) {
                ok = true;
                break;
            }
            binds.resize(mark);
        }
        break;
    }
    if (ok && p.def)
        binds.emplace_back(*p.def, v);
    return ok;
}

} // namespace

Value Runner::execMatch(const MatchBlock& b, State& st, const std::string& id, TraceNode* node)
{
    Value subject = eval(b.match, st, node, "match");
    for (size_t i = 0; i < b.cases.size(); ++i) {
        const MatchCase& c = b.cases[i];
        std::vector<std::pair<std::string, Value>> binds;
        if (c.pattern && !matchPattern(*c.pattern, subject, binds))
            continue;
        State cs = st;
        for (auto& [name, v] : binds)
            cs.scope.set(name, v);
        if (c.guard && !evalValue(c.guard.value, cs, c.guard.span).truthy())
            continue;
        st.scope = std::move(cs.scope);
        if (!c.then)
            return Value("");
        TracePtr cn;
        Value v =
            exec(c.then, st, id + ".with." + std::to_string(i) + ".then.", node ? &cn : nullptr);
        if (node)
            node->addChild("with", cn);
        return v;
    }
    return Value("");
}

namespace {

// Evaluated `for` lists, checked to be lists of equal length.
std::vector<std::pair<std::string, List>> forLists(Runner& r, const LoopBlockBase& b,
                                                   const State& st, TraceNode* node)
{
    std::vector<std::pair<std::string, List>> lists;
    Dict traced;
    for (const auto& [name, e] : b.forVars) {
        Value v = r.evalValue(e.value, st, e.span);
        // The reference takes any Python iterable and loops over list(value): a mapping's keys,
        // a string's characters (_evaluate_for_field, pdl_interpreter.py).
        if (v.isDict() || v.isString()) {
            traced.set(name, v);
            lists.emplace_back(name, builtins::listOf(v));
            continue;
        }
        if (!v.isList()) {
            throw PdlError("Values inside the For block must be lists but got <class '" +
                               std::string(v.typeName()) + "'>: " + name,
                           e.span);
        }
        traced.set(name, v);
        lists.emplace_back(name, v.asList());
    }
    for (size_t i = 1; i < lists.size(); ++i) {
        if (lists[i].second.size() != lists[0].second.size())
            throw PdlError("Lists inside the For block must be of the same length",
                           b.fieldSpan("for").isValid() ? b.fieldSpan("for") : b.forSpan);
    }
    if (node && !b.forVars.empty())
        node->exprs.emplace_back("for", Value(std::move(traced)));
    return lists;
}

} // namespace

Value Runner::execRepeat(const RepeatBlock& b, State& st, const std::string& id, TraceNode* node)
{
    auto lists = forLists(*this, b, st, node);
    const bool hasFor = !lists.empty();
    const size_t forCount = hasFor ? lists[0].second.size() : 0;
    int64_t maxIterations = -1;
    if (b.maxIterations) {
        Value m = eval(b.maxIterations, st, node, "maxIterations");
        if (!m.isInt())
            throw PdlError("maxIterations must be an integer", b.maxIterations.span);
        // A negative bound runs no iteration, as in the reference (-1 is not "unbounded").
        maxIterations = std::max<int64_t>(m.asInt(), 0);
    }
    if (!hasFor && !b.whileCond && !b.until && maxIterations < 0)
        throw PdlError("a repeat block needs for, while, until or maxIterations to stop", b.span);
    const bool independent = b.context == ContextMode::Independent;
    const ContextPtr initial = st.context;
    ContextPtr collected = initial;
    const bool lastOnly = b.join.as == JoinSpec::As::LastOf;
    const bool asText = b.join.as == JoinSpec::As::Text;
    std::string separator;
    if (asText && b.join.with)
        separator = evalValue(b.join.with.value, st, b.join.with.span).toText();
    std::vector<Value> values;
    Value last;
    TextJoin text(separator);
    // `--stream result`: a text join streams iteration by iteration, other joins whole.
    const bool streaming = st.streamResult;
    ChildStreaming childStreaming(st, streaming && asText);
    for (size_t i = 0;; ++i) {
        if (hasFor && i >= forCount)
            break;
        if (maxIterations >= 0 && int64_t(i) >= maxIterations)
            break;
        checkCancelled();
        for (const auto& [name, items] : lists)
            st.scope.set(name, items[i]);
        if (b.index)
            st.scope.set(*b.index, Value(int64_t(i)));
        if (b.whileCond && !evalValue(b.whileCond.value, st, b.whileCond.span).truthy())
            break;
        if (independent)
            st.context = initial;
        if (asText && i > 0)
            streamValue(st, Value(separator));
        TracePtr* slot = node ? &node->addChild("pdl__trace", nullptr) : nullptr;
        Value v = execChild(b.body, st, id, ChildPlace::item(i), slot);
        if (independent) {
            for (Value& m : contextSince(st.context, initial))
                collected = contextAppend(collected, std::move(m));
        }
        if (asText) {
            text.append(std::move(v));
        } else if (lastOnly) {
            last = std::move(v);
        } else {
            values.push_back(std::move(v));
        }
        if (b.until && evalValue(b.until.value, st, b.until.span).truthy())
            break;
    }
    if (independent)
        st.context = collected;
    if (asText)
        return text.take();
    st.streamResult = streaming;
    Value result = lastOnly ? last : join(values, b.join, st, node, b.span);
    streamValue(st, result);
    return result;
}

Value Runner::execMap(const MapBlock& b, State& st, const std::string& id, TraceNode* node)
{
    auto lists = forLists(*this, b, st, node);
    const bool hasFor = !lists.empty();
    int64_t count = hasFor ? int64_t(lists[0].second.size()) : -1;
    if (b.maxIterations) {
        Value m = eval(b.maxIterations, st, node, "maxIterations");
        if (!m.isInt())
            throw PdlError("maxIterations must be an integer", b.maxIterations.span);
        count = count < 0 ? m.asInt() : std::min(count, m.asInt());
    }
    if (count < 0)
        throw PdlError("a map block needs for or maxIterations", b.span);
    int64_t workers = std::max<int64_t>(1, std::thread::hardware_concurrency());
    if (b.maxWorkers) {
        Value w = eval(b.maxWorkers, st, node, "maxWorkers");
        if (w.isInt() && w.asInt() > 0)
            workers = w.asInt();
    }
    workers = std::min<int64_t>(workers, std::max<int64_t>(count, 1));

    std::vector<Value> values(size_t(std::max<int64_t>(count, 0)));
    std::vector<TracePtr> traces(values.size());
    std::vector<std::exception_ptr> errors(values.size());
    // Parallel iterations start one after another in index order (each waits until the one
    // before has reported its start), so that the live trace lists them as the written one.
    std::mutex turnMutex;
    std::condition_variable turnChanged;
    int64_t turn = 0;
    auto advanceTurn = [&](int64_t to) {
        {
            std::lock_guard lock(turnMutex);
            turn = std::max(turn, to);
        }
        turnChanged.notify_all();
    };
    auto runOne = [&](int64_t i) {
        State is = st;
        if (workers > 1) {
            std::unique_lock lock(turnMutex);
            turnChanged.wait(lock, [&] { return turn >= i; });
            is.onStarted = [&advanceTurn, i] {
                advanceTurn(i + 1);
            };
        }
        is.streamResult = false; // iterations may run in parallel: the result streams whole
        for (const auto& [name, items] : lists)
            is.scope.set(name, items[size_t(i)]);
        if (b.index)
            is.scope.set(*b.index, Value(i));
        try {
            values[size_t(i)] =
                exec(b.body, is, indexPrefix(id, size_t(i)), node ? &traces[size_t(i)] : nullptr);
        } catch (...) {
            errors[size_t(i)] = std::current_exception();
        }
        advanceTurn(i + 1); // also when the iteration failed before it started
    };
    if (workers <= 1) {
        for (int64_t i = 0; i < count; ++i) {
            runOne(i);
            if (errors[size_t(i)])
                break;
        }
    } else {
        std::atomic<int64_t> next{0};
        std::atomic<bool> failed{false};
        std::vector<std::thread> pool;
        for (int64_t w = 0; w < workers; ++w) {
            pool.emplace_back([&] {
                for (int64_t i; !failed && (i = next++) < count;) {
                    runOne(i);
                    if (errors[size_t(i)])
                        failed = true;
                }
            });
        }
        for (std::thread& t : pool)
            t.join();
    }
    if (node) {
        for (TracePtr& t : traces)
            if (t)
                node->addChild("pdl__trace", t);
    }
    for (auto& e : errors)
        if (e)
            std::rethrow_exception(e);
    Value result = join(values, b.join, st, node, b.span);
    streamValue(st, result);
    return result;
}

Value Runner::join(std::vector<Value>& values, const JoinSpec& join, const State& st,
                   TraceNode* node, const SourceSpan& span)
{
    switch (join.as) {
    case JoinSpec::As::Text: {
        TextJoin out(join.with ? evalValue(join.with.value, st, join.with.span).toText()
                               : std::string());
        for (Value& v : values)
            out.append(std::move(v));
        return out.take();
    }
    case JoinSpec::As::Array:
        return Value(List(std::move(values)));
    case JoinSpec::As::Object: {
        Dict out;
        for (const Value& v : values) {
            if (!v.isDict())
                throw PdlError("join as object needs every iteration to produce an object, got " +
                                   std::string(v.typeName()),
                               join.span.isValid() ? join.span : span);
            for (const auto& [k, x] : v.asDict())
                out.set(k, x);
        }
        return Value(std::move(out));
    }
    case JoinSpec::As::LastOf:
        return values.empty() ? Value() : values.back();
    case JoinSpec::As::Reduce: {
        Value fn = evalValue(join.reduce.value, st, join.reduce.span);
        if (values.empty())
            return Value();
        Value acc = values[0];
        for (size_t i = 1; i < values.size(); ++i) {
            CallArgs args;
            args.positional = {acc, values[i]};
            ActiveEvaluationScope active(this, &st);
            try {
                acc = fn.isCallable() ? fn.asCallable()->call(args)
                                      : throw PdlError("reduce needs a function, got " +
                                                           std::string(fn.typeName()),
                                                       join.reduce.span);
            } catch (const EvalError& e) {
                throw PdlError(e.what(), join.reduce.span);
            }
        }
        return acc;
    }
    }
    return Value();
}

Value Runner::execFunction(const FunctionBlock& b, State& st, const BlockPtr& self,
                           const std::string& id)
{
    return Value(std::static_pointer_cast<const Callable>(std::make_shared<PdlFunction>(
        self, st.scope, st.program, b.def ? *b.def : std::string("function"), id, st.role)));
}

namespace {

// The reference's ClosureBlock.signature (pdl_interpreter.py, process_block_body, case
// FunctionBlock): name and description only when the block has them.
Value signatureOf(const FunctionBlock& f, Value parameters)
{
    Dict function;
    if (f.def)
        function.set("name", Value(*f.def));
    if (f.description)
        function.set("description", Value(*f.description));
    function.set("parameters", std::move(parameters));
    Dict signature;
    signature.set("type", Value("function"));
    signature.set("function", Value(std::move(function)));
    return Value(std::move(signature));
}

} // namespace

Value Runner::callFunction(const Value& fnValue, const Dict& args, State& caller,
                           const std::string& id, TraceNode* node, const SourceSpan& span,
                           const SourceSpan& argsSpan, CallKind kind)
{
    auto callable = fnValue.isCallable() ? fnValue.asCallable() : nullptr;
    auto fn = std::dynamic_pointer_cast<const PdlFunction>(callable);
    if (!fn) {
        if (!callable)
            throw PdlError("call needs a function, got " + std::string(fnValue.typeName()), span);
        CallArgs ca;
        for (const auto& [k, v] : args)
            ca.keyword.emplace_back(k.str(), v);
        ActiveEvaluationScope active(this, &caller);
        try {
            return callable->call(ca);
        } catch (const EvalError& e) {
            throw PdlError(e.what(), span);
        }
    }
    if (caller.callDepth >= options.maxCallDepth)
        throw PdlError("function calls nested deeper than " + std::to_string(options.maxCallDepth) +
                           " (runaway recursion?); raise the limit with --max-call-depth",
                       span);
    const FunctionBlock& f = fn->function();
    State cs;
    cs.scope = fn->closure();
    // The reference's closure scope holds the function itself under its `def`, so a function
    // defined in a `text` list calls itself (process_block_body, case FunctionBlock). Bound at
    // each call rather than captured, so the closure does not own itself.
    if (f.def)
        cs.scope.set(*f.def, fnValue);
    cs.context = caller.context;
    cs.role = caller.role;
    cs.program = fn->program();
    cs.callDepth = caller.callDepth + 1;
    cs.debugDepth = caller.debugDepth;
    cs.streamResult = caller.streamResult;
    cs.traceParent = caller.traceParent; // the body is traced under the call block
    if (kind == CallKind::Block) {
        bindCheckedArguments(f, fn->name(), args, cs, argsSpan.isValid() ? argsSpan : span);
    } else {
        for (const auto& [k, v] : args) {
            if (k.isString() && k.asString() == "pdl_context" && v.isList())
                cs.context = contextFromList(v.asList());
            else
                cs.scope.set(k.isString() ? k.asString() : k.str(), v);
        }
    }
    if (!f.returns)
        return Value();
    const ContextPtr before = cs.context;
    TracePtr* slot = node ? &node->addChild("pdl__trace", nullptr, true) : nullptr;
    Value result = execChild(f.returns, cs, id, ChildPlace::named("."), slot);
    // A function's spec types its result, checked at each call (not the closure itself).
    if (f.spec) {
        const SourceSpan returns = f.fieldSpan("return");
        try {
            checkSpec(*f.spec, result, returns.isValid() ? returns : f.span);
        } catch (PdlError& e) {
            std::string msg = e.what();
            const std::string generic = "Type errors during spec checking:";
            if (msg.rfind(generic, 0) == 0)
                msg = "Type errors in the result of the function '" + fn->name() +
                      "':" + msg.substr(generic.size());
            throw PdlError(msg, e.span);
        }
    }
    // The body's messages join the caller's context.
    for (Value& m : contextSince(cs.context, before))
        caller.context = contextAppend(caller.context, std::move(m));
    return result;
}

void Runner::bindCheckedArguments(const FunctionBlock& f, const std::string& name, const Dict& args,
                                  State& cs, const SourceSpan& argsSpan)
{
    std::vector<std::string> argErrors;
    for (const auto& [k, v] : args) {
        std::string param = k.isString() ? k.asString() : k.str();
        if (param == "pdl_context") {
            if (!v.isList())
                throw PdlError("pdl_context must be a list of messages", argsSpan);
            cs.context = contextFromList(v.asList());
            continue;
        }
        auto declared = std::find_if(f.params.begin(), f.params.end(),
                                     [&](const auto& p) { return p.first == param; });
        if (declared == f.params.end()) {
            argErrors.push_back("Field not allowed: " + param + " (function '" + name +
                                "' has no parameter '" + param + "')");
            continue;
        }
        if (!declared->second.isNull()) {
            Result<JsonSchema> schema = compilePdlType(declared->second);
            if (!schema.ok()) {
                argErrors.push_back(param + ": the parameter's type is invalid: " +
                                    schema.error().message.toStdString());
                continue;
            }
            for (const auto& e : schema->validate(v))
                argErrors.push_back(param + e.toString().substr(1));
        }
        cs.scope.set(param, v);
    }
    for (const auto& [param, type] : f.params) {
        bool optional = type.isDict() && type.asDict().find("optional");
        if (!optional && !args.find(param))
            argErrors.push_back("Missing required field: " + param);
    }
    if (!argErrors.empty()) {
        std::string msg = "Type errors in the arguments of the call to '" + name + "':";
        for (const std::string& e : argErrors)
            msg += "\n" + e;
        throw PdlError(msg, argsSpan);
    }
}

Value Runner::execCall(const CallBlock& b, State& st, const std::string& id, TraceNode* node)
{
    Value fn = eval(b.call, st, nullptr, "call");
    Value args = b.args ? eval(b.args, st, node, "args") : Value(Dict());
    if (!args.isDict())
        throw PdlError("the args of a call must be an object, got " + std::string(args.typeName()),
                       b.args.span);
    return callFunction(fn, args.asDict(), st, id, node, b.fieldSpan("call"), b.fieldSpan("args"));
}

const FunctionBlock* pdlFunctionBlock(const Callable& fn)
{
    const auto* pdlFn = dynamic_cast<const PdlFunction*>(&fn);
    return pdlFn ? &pdlFn->function() : nullptr;
}

Value PdlFunction::attribute(std::string_view name) const
{
    const FunctionBlock& f = function();
    if (name == "description")
        return f.description ? Value(*f.description) : Value();
    if (name == "function" || name == "signature") {
        // `function: null` and `function: {}` differ in the reference's signature (no schema
        // vs an empty object's schema); the parsed parameters do not tell them apart.
        const YamlValue* written = f.node ? f.node->value("function") : nullptr;
        if (!written || written->isNull())
            return name == "function" ? Value() : signatureOf(f, Value(Dict()));
        Dict params;
        for (const auto& [param, type] : f.params)
            params.set(param, type);
        if (name == "function")
            return Value(std::move(params));
        Dict object;
        object.set("object", Value(std::move(params)));
        // The reference's get_json_schema(function, False) (pdl_schema_utils.py): a type it
        // cannot convert gives no parameters at all, with a warning.
        Result<Value> schema = pdlTypeToJsonSchema(Value(std::move(object)), false);
        return signatureOf(f, schema.ok() ? *schema : Value());
    }
    return Value::undefined();
}

Value PdlFunction::call(const CallArgs& args) const
{
    ActiveEvaluation active = activeEvaluation();
    if (!active.runner)
        throw EvalError("the PDL function '" + m_name +
                        "' can only be called while a program runs");
    const FunctionBlock& f = function();
    // ClosureBlock.__call__'s message (pdl_interpreter.py).
    if (args.positional.size() > f.params.size())
        throw EvalError(f.def ? "Too many arguments to the call of " + *f.def
                              : std::string("Too many arguments to the call"));
    Dict named;
    for (size_t i = 0; i < args.positional.size(); ++i)
        named.set(f.params[i].first, args.positional[i]);
    for (const auto& [k, v] : args.keyword)
        named.set(k, v);
    State caller = *active.state;
    caller.streamResult = false; // a call inside an expression is part of the expression's value
    caller.role = m_role;
    try {
        return active.runner->callFunction(
            Value(std::static_pointer_cast<const Callable>(std::make_shared<PdlFunction>(*this))),
            named, caller, m_id.empty() ? std::string("call") : m_id + ".instance0", nullptr,
            f.span, {}, Runner::CallKind::Expression);
    } catch (const PdlError& e) {
        throw EvalError(e.what());
    }
}

} // namespace hako::pdl
