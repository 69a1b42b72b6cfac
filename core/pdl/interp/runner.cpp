#include "core/pdl/interp/runner_p.h"
#include "core/util/boundedfile.h"

#include "core/pdl/imagecontent.h"
#include "core/pdl/interp/aggregator_p.h"
#include "core/pdl/interp/pdlfunction_p.h"

#include "core/pdl/code/pythonsession.h"
#include "core/pdl/code/sandbox.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/programcheck.h"
#include "core/util/stackguard.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <thread>

namespace hako::pdl {

namespace {

int64_t nowNanos()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

bool hasTarget(const Block& b, std::string_view name)
{
    if (!b.contribute)
        return name == "result" || name == "context";
    for (const ContributeTarget& t : *b.contribute) {
        if (t.name == name)
            return true;
    }
    return false;
}

const ContributeTarget* target(const Block& b, std::string_view name)
{
    if (!b.contribute)
        return nullptr;
    for (const ContributeTarget& t : *b.contribute) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

// Blocks whose context contribution is one message holding their result.
bool isLeafKind(BlockKind k)
{
    switch (k) {
    case BlockKind::Data:
    case BlockKind::Get:
    case BlockKind::Read:
    case BlockKind::Code:
    case BlockKind::Args:
    case BlockKind::Model:
    case BlockKind::Message:
        return true;
    default:
        return false;
    }
}

bool tracedAsLeaf(BlockKind k)
{
    return isLeafKind(k) || k == BlockKind::Function || k == BlockKind::Call ||
           k == BlockKind::Empty || k == BlockKind::Aggregator;
}

bool isBuiltinTarget(const std::string& name)
{
    return name == "result" || name == "context" || name == "stdout" || name == "stderr";
}

// Blocks whose value is made of their children's (a context aggregator skips them, as their
// children contributed already).
bool isStructuredKind(BlockKind k)
{
    switch (k) {
    case BlockKind::Text:
    case BlockKind::LastOf:
    case BlockKind::Array:
    case BlockKind::Object:
    case BlockKind::Sequence:
    case BlockKind::If:
    case BlockKind::Match:
    case BlockKind::Repeat:
    case BlockKind::Map:
        return true;
    default:
        return false;
    }
}

// blockKindName() with its length, measured once per kind.
std::string_view kindNameView(BlockKind kind)
{
    static const auto names = [] {
        std::array<std::string_view, size_t(BlockKind::Error) + 1> all;
        for (size_t k = 0; k < all.size(); ++k)
            all[k] = blockKindName(BlockKind(k));
        return all;
    }();
    return names[size_t(kind)];
}

} // namespace

Runner::Runner(const RunOptions& o) : options(o), tracing(o.trace || o.observer) {}
Runner::~Runner() = default;

Value Runner::usageValue() const
{
    Dict u;
    u.set("model_calls", Value(modelCalls));
    u.set("prompt_tokens", Value(promptTokens));
    u.set("completion_tokens", Value(completionTokens));
    return Value(std::move(u));
}

void Runner::checkCancelled() const
{
    if (options.cancel.isCancelled())
        throw Cancelled{};
}

void Runner::write(std::string_view text, bool toStderr)
{
    const auto& sink = toStderr ? options.writeStderr : options.writeStdout;
    if (sink) {
        sink(text);
        return;
    }
    FILE* f = toStderr ? stderr : stdout;
    std::fwrite(text.data(), 1, text.size(), f);
    std::fflush(f);
}

void Runner::streamMessages(const List& messages)
{
    std::string out;
    for (const Value& m : messages) {
        if (!m.isDict())
            continue;
        const Value* role = m.asDict().find("role");
        const Value* content = m.asDict().find("content");
        out += '\n';
        out += role ? role->toText() : std::string("user");
        out += ": ";
        // An image part prints as a short placeholder, not as its base64 text.
        out += content ? contentDisplayText(*content) : std::string();
    }
    std::lock_guard lock(observerMutex); // parallel map iterations write whole messages
    write(out);
}

void Runner::streamValue(const State& st, const Value& v)
{
    if (!st.streamResult || st.quiet)
        return;
    std::lock_guard lock(observerMutex);
    write(v.toText());
}

namespace {

// Points at the id of the innermost block running on this thread (whose frame outlives the
// pointer): no copy per block. Initial-exec, as the thread-locals below: read and written for
// every block, an offset from the thread pointer rather than a __tls_get_addr call each time.
thread_local const RunningBlockId* t_currentBlock [[gnu::tls_model("initial-exec")]] = nullptr;

// Makes `id` the thread's current block for its lifetime, restoring the enclosing one after
// (also when the block throws).
class CurrentBlockScope {
public:
    explicit CurrentBlockScope(const RunningBlockId& id) : m_saved(t_currentBlock)
    {
        t_currentBlock = &id;
    }
    ~CurrentBlockScope() { t_currentBlock = m_saved; }
    CurrentBlockScope(const CurrentBlockScope&) = delete;
    CurrentBlockScope& operator=(const CurrentBlockScope&) = delete;

private:
    const RunningBlockId* m_saved;
};

// Set while a debugger hook runs on this thread: blocks the hook itself runs (functions called
// by an expression it evaluates) are not debugged again.
thread_local bool t_inDebugHook [[gnu::tls_model("initial-exec")]] = false;

class DebugHookScope {
public:
    DebugHookScope() { t_inDebugHook = true; }
    ~DebugHookScope() { t_inDebugHook = false; }
    DebugHookScope(const DebugHookScope&) = delete;
    DebugHookScope& operator=(const DebugHookScope&) = delete;
};

// Counts the blocks enclosing the running one in State::debugDepth, restoring it on every exit.
class DepthScope {
public:
    explicit DepthScope(int& depth) : m_depth(depth), m_saved(depth) { ++depth; }
    ~DepthScope() { m_depth = m_saved; }
    DepthScope(const DepthScope&) = delete;
    DepthScope& operator=(const DepthScope&) = delete;
    int outer() const { return m_saved; }

private:
    int& m_depth;
    int m_saved;
};

// Counts the Runner::exec frames on this thread (see Runner::exec's stack check).
thread_local unsigned t_execDepth [[gnu::tls_model("initial-exec")]] = 0;

// Nesting, calls and includes all nest exec frames: stops before the stack runs out (a deep
// program on a small worker-thread stack, or recursion under a huge call limit). Looking at
// every fourth frame is enough (the reserve is far more than three frames) and spares a
// thread-local lookup per block.
class ExecDepthScope {
public:
    explicit ExecDepthScope(const Block& b)
    {
        const unsigned depth = t_execDepth + 1;
        if ((depth & 3) == 0 && stackExhausted())
            throw PdlError("blocks, calls or includes nested too deeply (out of stack space); "
                           "is this a runaway recursion?",
                           b.span);
        t_execDepth = depth;
    }
    ~ExecDepthScope() { --t_execDepth; }
    ExecDepthScope(const ExecDepthScope&) = delete;
    ExecDepthScope& operator=(const ExecDepthScope&) = delete;
};

// A running block's frame: its place under the stack guard, its id — the prefix with its kind
// appended in place (a prefix made by childPrefix() has room for it, so a block run allocates
// no id of its own), given back to the thread's spare buffers when the frame ends — and the
// thread's current block.
class BlockFrame {
public:
    BlockFrame(const Block& b, std::string&& prefix) : m_depth(b), m_id(std::move(prefix))
    {
        m_id += kindNameView(b.kind);
        t_currentBlock = &m_running;
    }
    ~BlockFrame()
    {
        t_currentBlock = m_saved;
        recycleIdBuffer(std::move(m_id));
    }
    BlockFrame(const BlockFrame&) = delete;
    BlockFrame& operator=(const BlockFrame&) = delete;
    std::string& id() { return m_id; }

private:
    const ExecDepthScope m_depth;
    std::string m_id;
    const RunningBlockId m_running{&m_id};
    const RunningBlockId* const m_saved = t_currentBlock;
};

class RunnerDebugFrame;
// The frame of the innermost block running on this thread under a debugger (the call stack's
// top); each frame links to the one it replaced.
thread_local const RunnerDebugFrame* t_debugTop [[gnu::tls_model("initial-exec")]] = nullptr;

class RunnerDebugFrame final : public DebugFrame {
public:
    RunnerDebugFrame(Runner& runner, State& st, const Block& b, const std::string& id, int depth)
        : m_runner(runner), m_st(st), m_block(b), m_id(id), m_depth(depth), m_enclosing(t_debugTop)
    {
        t_debugTop = this;
    }
    ~RunnerDebugFrame() override { t_debugTop = m_enclosing; }
    RunnerDebugFrame(const RunnerDebugFrame&) = delete;
    RunnerDebugFrame& operator=(const RunnerDebugFrame&) = delete;
    const DebugFrame* enclosing() const override;
    const Block& block() const override { return m_block; }
    const std::string& id() const override { return m_id; }
    int depth() const override { return m_depth; }
    bool cancelled() const override { return m_runner.options.cancel.isCancelled(); }
    Dict variables() const override
    {
        Dict vars = m_st.scope.vars();
        vars.set("pdl_context", Value(contextToList(m_st.context)));
        return vars;
    }
    void setVariable(const std::string& name, Value value) override
    {
        if (name == "pdl_context" && value.isList()) {
            m_st.context = contextFromList(value.asList());
            return;
        }
        m_st.scope.set(name, std::move(value));
    }
    List context() const override { return contextToList(m_st.context); }
    void setContext(const List& messages) override { m_st.context = contextFromList(messages); }
    Result<Value> evaluate(const std::string& source) const override
    {
        try {
            return m_runner.evalValue(Value(source), m_st, m_block.span);
        } catch (const PdlError& e) {
            return makeError(QString::fromStdString(e.what()), e.span);
        } catch (const Cancelled&) {
            return makeError(QStringLiteral("the run was cancelled"));
        } catch (const std::exception& e) {
            return makeError(QString::fromUtf8(e.what()));
        }
    }
    void answerModel(std::string reply) override
    {
        if (m_block.kind != BlockKind::Model)
            return;
        m_st.handAnswer = std::move(reply);
        m_st.handAnswerBlock = &m_block;
    }

private:
    Runner& m_runner;
    State& m_st;
    const Block& m_block;
    const std::string& m_id;
    int m_depth;
    const RunnerDebugFrame* m_enclosing;
};

const DebugFrame* RunnerDebugFrame::enclosing() const
{
    return m_enclosing;
}

} // namespace

void Runner::announceProgram(const std::shared_ptr<const Program>& program)
{
    if (options.debugger && program) {
        DebugHookScope hook;
        options.debugger->programLoaded(program);
    }
}

std::string currentBlockId()
{
    return t_currentBlock ? t_currentBlock->str() : std::string();
}

std::string RunningBlockId::str() const
{
    if (id)
        return *id;
    std::string s = place.prefix(*parent);
    s += kindNameView(kind);
    return s;
}

int64_t Runner::clock() const
{
    return nowNanos() - pausedNanos.load(std::memory_order_relaxed);
}

/// Adds the time from its construction to its end to `paused`: a debugger hook's call.
class PauseClock {
public:
    explicit PauseClock(std::atomic<int64_t>& paused) : m_paused(paused), m_start(nowNanos()) {}
    ~PauseClock() { m_paused.fetch_add(nowNanos() - m_start, std::memory_order_relaxed); }
    PauseClock(const PauseClock&) = delete;
    PauseClock& operator=(const PauseClock&) = delete;

private:
    std::atomic<int64_t>& m_paused;
    int64_t m_start;
};

TracePtr Runner::openTraceNode(const BlockPtr& bp, const State& st, const std::string& id)
{
    const Block& b = *bp;
    auto node = std::make_shared<TraceNode>();
    node->block = bp;
    node->kind = b.kind;
    node->id = id;
    node->span = b.span;
    node->isLeaf = tracedAsLeaf(b.kind);
    node->startNanos = clock();
    node->serial = nextSerial.fetch_add(1, std::memory_order_relaxed);
    node->parentSerial = st.traceParent;
    if (b.def)
        node->def = *b.def;
    if (b.description)
        node->description = *b.description;
    if (b.contribute) {
        node->contribute.emplace();
        for (const ContributeTarget& t : *b.contribute)
            node->contribute->push_back(t.name);
    }
    if (options.observer) {
        std::lock_guard lock(observerMutex);
        options.observer->blockStarted(*node);
    }
    return node;
}

void Runner::bindBlockScope(const Block& b, State& st, const std::string& id, TraceNode* node)
{
    // `scope: {name: value}` adds variables for the block (and, like defs, after it).
    // A code block's `scope` is the code's own (runCode).
    if (b.node && b.node->isMapping() && b.kind != BlockKind::Code) {
        if (const YamlValue* extra = b.node->value("scope"); extra && extra->isMapping()) {
            for (const YamlValue::Entry& e : extra->entries())
                st.scope.set(e.name, evalValue(e.value.toValue(), st, e.value.span()));
        }
    }
    for (const auto& [name, def] : b.defs) {
        State ds = st;
        ds.quiet = true;
        ds.streamResult = false;
        TracePtr* slot = nullptr;
        if (node) {
            node->defs.emplace_back(name, nullptr);
            slot = &node->defs.back().second;
        }
        Value v = exec(def, ds, childPrefix(id, ".defs.", name, "."), slot);
        st.scope = std::move(ds.scope);
        st.scope.set(name, v);
    }
}

void Runner::contributeContext(const Block& b, State& st, const ContextPtr& before,
                               const Value& result, bool leafMessage, const std::string& id)
{
    if (!hasTarget(b, "context")) {
        st.context = before;
        return;
    }
    const ContributeTarget* t = target(b, "context");
    if (t && t->value) {
        st.context =
            contextAppend(before, st.role, evalValue(t->value.value, st, t->value.span), id);
    } else if (leafMessage && keepContext) {
        if (b.kind == BlockKind::Message && result.isDict()) {
            Dict m = result.asDict();
            m.set("pdl__defsite", Value(id));
            st.context = contextAppend(st.context, Value(std::move(m)));
        } else if (b.kind == BlockKind::Model) {
            // execModel appended the assistant message itself.
        } else if (result.wrapper() == Value::Wrapper::Context) {
            // A context as a block's value: the reference's message holds it as its
            // content, with no definition site.
            Dict m;
            m.set("role", Value(st.role));
            m.set("content", result);
            st.context = contextAppend(st.context, Value(std::move(m)));
        } else {
            // The reference's message holds the result itself (a list stays a list);
            // a model request renders such content as text (openaiprotocol).
            st.context = contextAppend(st.context, st.role,
                                       result.isCallable() ? Value(result.toText()) : result, id);
        }
    }
}

void Runner::contributeOutputs(const Block& b, State& st, const std::string& id, Value& result)
{
    if (!b.contribute)
        return; // the default, result and context: nothing to write or aggregate
    // Each contribution is a line, as the reference prints it (its file aggregator's suffix).
    if (hasTarget(b, "stdout"))
        write(result.toText() + "\n");
    if (hasTarget(b, "stderr"))
        write(result.toText() + "\n", true);
    if (b.contribute) {
        for (const ContributeTarget& t : *b.contribute) {
            if (!isBuiltinTarget(t.name))
                contributeToAggregator(b, t, st, id, result);
        }
    }
    if (const ContributeTarget* t = target(b, "result"); t && t->value)
        result = evalValue(t->value.value, st, t->value.span);
    else if (!hasTarget(b, "result"))
        result = Value("");
}

void Runner::closeTraceNode(TraceNode& node, const State& st, const Value& result)
{
    if (options.captureScope) {
        node.scope = st.scope;
        node.hasScope = true;
    }
    if (!node.hasResult) {
        node.result = result;
        node.hasResult = true;
    }
    node.endNanos = std::max(clock(), node.startNanos);
    if (options.observer) {
        std::lock_guard lock(observerMutex);
        options.observer->blockFinished(node);
    }
}

void Runner::failTraceNode(TraceNode& node, const PdlError& e)
{
    node.endNanos = std::max(clock(), node.startNanos);
    // The error belongs to the innermost block that raised it; its ancestors only end.
    bool childFailed = false;
    for (const auto& c : node.children)
        for (const auto& n : c.nodes)
            childFailed = childFailed || (n && !n->error.empty());
    for (const auto& d : node.defs)
        childFailed = childFailed || (d.second && !d.second->error.empty());
    if (!childFailed) {
        node.error = e.what();
        node.errorSpan = e.span;
    }
    if (options.observer) {
        std::lock_guard lock(observerMutex);
        options.observer->blockFinished(node);
    }
}

Value Runner::execContributing(const BlockPtr& bp, State& st, std::string& id, TraceNode* node,
                               bool streamIn)
{
    const Block& b = *bp;
    const ContextPtr before = st.context;
    bindBlockScope(b, st, id, node);
    bool leafMessage = isLeafKind(b.kind);
    // Retries rename the block, not its fallback: its id as it came, kept only for a fallback.
    const std::string blockId = b.fallback ? id : std::string();
    st.streamResult = streamIn && hasTarget(b, "result") && b.parser.kind == ParserSpec::Kind::None;
    Value result;
    try {
        // A parsed result streams once parsed, and only when it is part of the enclosing
        // result (the reference prints it whatever the block's `contribute`: a deliberate
        // difference, README "Programs that call models").
        result = execWithRetry(bp, st, id, node, streamIn && hasTarget(b, "result"));
    } catch (const PdlError&) {
        if (!b.fallback)
            throw;
        st.context = before;
        // The reference streams a fallback whenever the block's result is part of the
        // enclosing one, parser or not (process_advance_block_retry, pdl_interpreter.py).
        st.streamResult = streamIn && hasTarget(b, "result");
        TracePtr fn;
        result = exec(b.fallback, st, childPrefix(blockId, ".fallback."), node ? &fn : nullptr);
        if (node) {
            node->addChild("fallback", fn, true);
            node->result = result;
            node->hasResult = true;
        }
        checkFallbackSpec(b, result);
        leafMessage = false;
    }
    if (b.def)
        st.scope.set(*b.def, result);
    contributeContext(b, st, before, result, leafMessage, id);
    if (options.streamContext && !st.quiet && st.context != before &&
        (leafMessage || (target(b, "context") && target(b, "context")->value)))
        streamMessages(contextSince(st.context, before));
    contributeOutputs(b, st, id, result);
    return result;
}

Value Runner::exec(const BlockPtr& bp, State& st, std::string prefix, TracePtr* traceOut)
{
    checkCancelled();
    const Block& b = *bp;
    BlockFrame blockFrame(b, std::move(prefix));
    std::string& id = blockFrame.id();
    TracePtr node;
    // Only nodes that join the run's trace are made and reported (a function called from an
    // expression has no place in it): the live view and the written trace show one tree.
    if (tracing && traceOut) {
        node = openTraceNode(bp, st, id);
        *traceOut = node;
    }
    if (st.onStarted) {
        const std::function<void()> started = std::move(st.onStarted);
        st.onStarted = nullptr;
        started();
    }
    const DepthScope depth(st.debugDepth);
    // Under a debugger, the block's frame lives as long as it runs: the call stack of a pause
    // inside it reaches it.
    std::optional<RunnerDebugFrame> frame;
    if (options.debugger && !t_inDebugHook) [[unlikely]] {
        frame.emplace(*this, st, b, id, depth.outer());
        {
            DebugHookScope hook;
            const PauseClock paused(pausedNanos);
            options.debugger->beforeBlock(*frame);
        }
        checkCancelled();
    }

    // Only a block with its own `role` changes st.role (its children restore theirs).
    std::optional<std::string> savedRole;
    const uint64_t savedParent = st.traceParent;
    // `--stream result`, as the reference: a block streams only when its result is part of
    // the enclosing result and is not parsed (a parsed result streams once parsed).
    const bool streamIn = st.streamResult;
    if (node)
        st.traceParent = node->serial;
    if (b.role) {
        savedRole = std::move(st.role);
        st.role = *b.role;
    }
    Value result;
    try {
        result = execContributing(bp, st, id, node.get(), streamIn);
    } catch (PdlError& e) {
        if (frame && !e.debugged) [[unlikely]] {
            e.debugged = true;
            DebugHookScope hook;
            const PauseClock paused(pausedNanos);
            options.debugger->blockFailed(*frame, e.what());
        }
        if (savedRole)
            st.role = std::move(*savedRole);
        st.traceParent = savedParent;
        st.streamResult = streamIn;
        if (node)
            failTraceNode(*node, e);
        throw;
    }
    if (savedRole)
        st.role = std::move(*savedRole);
    st.traceParent = savedParent;
    st.streamResult = streamIn;
    if (node)
        closeTraceNode(*node, st, result);
    return result;
}

Value Runner::execBareChild(const Block& child, State& st, const std::string& id, ChildPlace place)
{
    if (child.kind == BlockKind::Data)
        return execBare(static_cast<const DataBlock&>(child), st,
                        RunningBlockId{nullptr, &id, place, child.kind});
    return execBareList(static_cast<const ListBlockBase&>(child), st, place.prefix(id));
}

bool Runner::runsBare(const Block& b, const State& st) const
{
    // The block has nothing around its value (no variable — the usual reason a loop's body is
    // not bare, so looked at first —, contribution, role, parser, type, retry, expectation or
    // fallback), and nothing watches it run (a trace node is ruled out by the caller).
    if (b.def || !b.defs.empty() || b.contribute || b.role || b.spec || b.fallback ||
        b.retry.present || !b.expectations.empty() || b.parser.kind != ParserSpec::Kind::None)
        return false;
    switch (b.kind) {
    case BlockKind::Data:
    case BlockKind::Text:
    case BlockKind::LastOf:
    case BlockKind::Array:
    case BlockKind::Sequence:
        break;
    default:
        return false;
    }
    return !options.debugger && !options.streamContext && !st.onStarted &&
           !(b.node && b.node->isMapping() && b.node->value("scope"));
}

Value Runner::execBare(const DataBlock& b, State& st, const RunningBlockId& id)
{
    // What exec() does for such a block, less the frame: its id is made only if asked for
    // (currentBlockId(), or its message's definition site when the context is kept).
    checkCancelled();
    // A function's body may be such a block: recursion through expressions passes here only.
    const ExecDepthScope execDepth(b);
    const CurrentBlockScope currentBlock(id);
    Value v = execData(b, st, nullptr);
    streamValue(st, v);
    if (keepContext)
        contributeContext(b, st, st.context, v, true, id.str());
    return v;
}

Value Runner::execBareList(const ListBlockBase& b, State& st, std::string prefix)
{
    // What exec() does for such a block, less what it has none of (a list's own message,
    // contributions, a parser, a debugger frame): its children still need its id.
    checkCancelled();
    BlockFrame frame(b, std::move(prefix));
    const JoinSpec* join =
        b.kind == BlockKind::Sequence ? &static_cast<const SequenceBlock&>(b).join : nullptr;
    return execList(b, st, frame.id(), nullptr, join);
}

Value Runner::execBody(const BlockPtr& bp, State& st, const std::string& id, TraceNode* node)
{
    const Block& b = *bp;
    if (options.replay && isLeafKind(b.kind) && b.kind != BlockKind::Data &&
        b.kind != BlockKind::Message) {
        auto it = options.replay->find(id);
        if (it != options.replay->end() && options.replayCheck &&
            !replayDiverged.load(std::memory_order_relaxed) && !options.replayCheck(id, b)) {
            std::lock_guard lock(observerMutex);
            if (!replayDiverged.exchange(true)) {
                replayDivergedAt = id;
                replayDivergedSpan = b.span;
            }
        }
        if (it != options.replay->end() && !replayDiverged.load(std::memory_order_relaxed)) {
            if (node) {
                node->replayed = true;
                if (options.replayRecords) {
                    auto rec = options.replayRecords->find(id);
                    if (rec != options.replayRecords->end() && rec->second) {
                        node->exprs = rec->second->exprs;
                        node->modelInput = rec->second->modelInput;
                        // The tokens the recorded call took (and which model answered): a
                        // re-run compared with its original counts the same prompts alike.
                        node->usage = rec->second->usage;
                    }
                }
            }
            if (b.kind == BlockKind::Model)
                st.context = contextAppend(st.context, b.role ? *b.role : "assistant",
                                           Value(it->second.toText()), id);
            streamValue(st, it->second);
            return it->second;
        }
    }
    switch (b.kind) {
    case BlockKind::Data: {
        Value v = execData(static_cast<const DataBlock&>(b), st, node);
        streamValue(st, v);
        return v;
    }
    case BlockKind::Text: {
        Value v = execList(static_cast<const ListBlockBase&>(b), st, id, node, nullptr);
        return v;
    }
    case BlockKind::LastOf:
    case BlockKind::Array:
        return execList(static_cast<const ListBlockBase&>(b), st, id, node, nullptr);
    case BlockKind::Sequence:
        return execList(static_cast<const ListBlockBase&>(b), st, id, node,
                        &static_cast<const SequenceBlock&>(b).join);
    case BlockKind::Object:
        return execObject(static_cast<const ObjectBlock&>(b), st, id, node);
    case BlockKind::Get: {
        const std::string& name = static_cast<const GetBlock&>(b).get;
        EvalScope scope(st.scope, st.context);
        if (const Value* v = scope.lookup(name)) {
            streamValue(st, *v);
            return *v;
        }
        // The reference reads `get: x.y` as the expression `${ x.y }`.
        const bool simpleName = std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        });
        if (simpleName)
            throw PdlError("'" + name + "' is undefined", b.fieldSpan("get"));
        Value v = evalValue(Value("${ " + name + " }"), st, b.fieldSpan("get"));
        streamValue(st, v);
        return v;
    }
    case BlockKind::Message:
        return execMessage(static_cast<const MessageBlock&>(b), st, id, node);
    case BlockKind::If:
        return execIf(static_cast<const IfBlock&>(b), st, id, node);
    case BlockKind::Match:
        return execMatch(static_cast<const MatchBlock&>(b), st, id, node);
    case BlockKind::Repeat:
        return execRepeat(static_cast<const RepeatBlock&>(b), st, id, node);
    case BlockKind::Map:
        return execMap(static_cast<const MapBlock&>(b), st, id, node);
    case BlockKind::Function:
        return execFunction(static_cast<const FunctionBlock&>(b), st, bp, id);
    case BlockKind::Call:
        return execCall(static_cast<const CallBlock&>(b), st, id, node);
    case BlockKind::Read: {
        Value v = execRead(static_cast<const ReadBlock&>(b), st, node);
        streamValue(st, v);
        return v;
    }
    case BlockKind::Include:
        return execInclude(static_cast<const IncludeBlock&>(b), st, id, node);
    case BlockKind::Import:
        return execImport(static_cast<const ImportBlock&>(b), st, id, node);
    case BlockKind::Code: {
        Value v = execCode(static_cast<const CodeBlock&>(b), st, id, node);
        streamValue(st, v);
        return v;
    }
    case BlockKind::Args: {
        Value v = execArgs(static_cast<const ArgsBlock&>(b), st, node);
        streamValue(st, v);
        return v;
    }
    case BlockKind::Model:
        return execModel(static_cast<const ModelBlock&>(b), st, id, node);
    case BlockKind::Empty:
        return execFactor(static_cast<const EmptyBlock&>(b), st, node);
    case BlockKind::Aggregator:
        return execAggregator(static_cast<const AggregatorBlock&>(b), st, node);
    case BlockKind::Error: {
        const auto& e = static_cast<const ErrorBlock&>(b);
        throw PdlError(e.msg, b.span);
    }
    }
    return Value();
}

void Runner::contributeToAggregator(const Block& b, const ContributeTarget& t, const State& st,
                                    const std::string& id, const Value& result)
{
    const SourceSpan at = t.span.isValid() ? t.span : b.span;
    EvalScope scope(st.scope, st.context);
    const Value* target = scope.lookup(t.name);
    if (!target)
        throw PdlError("unknown contribute target '" + t.name +
                           "': expected result, context, stdout, stderr or the name of an "
                           "aggregator",
                       at);
    auto aggregator = target->isCallable()
                          ? std::dynamic_pointer_cast<const Aggregator>(target->asCallable())
                          : nullptr;
    if (!aggregator)
        throw PdlError("contribute target '" + t.name + "' must be an aggregator, got " +
                           std::string(target->typeName()),
                       at);
    const Value value = t.value ? evalValue(t.value.value, st, t.value.span) : result;
    aggregator->contribute(value, st.role, isLeafKind(b.kind) ? id : std::string(),
                           isStructuredKind(b.kind), at);
}

} // namespace hako::pdl
