#pragma once

#include <functional>
// Private to the interpreter: the state of one run and the code for each block kind.

#include "core/pdl/interp/env.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/model/modelprovider.h"
#include "core/pdl/promptidentity.h"

#include <QStringList>

namespace hako::pdl::code {
class PythonSession;
class Sandbox;
} // namespace hako::pdl::code

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace hako::pdl {

class Aggregator;

/// An error that stops a block: its message, where it happened, and for errors raised by code
/// (Python exceptions) the exception's type names, so `retry.exceptions` can filter.
class PdlError : public std::runtime_error {
public:
    PdlError(const std::string& message, SourceSpan span, std::vector<std::string> types = {})
        : std::runtime_error(message), span(std::move(span)), types(std::move(types))
    {}
    SourceSpan span;
    std::vector<std::string> types;
    /// A debugger was told about this error already (it pauses once, at the innermost block).
    mutable bool debugged = false;
};

/// The run was cancelled; never caught by fallback or retry.
struct Cancelled {};

/// A program file and what its blocks need to know about it.
struct ProgramInfo {
    std::shared_ptr<const Program> program;
    QString dir;       ///< folder for relative reads, includes and imports
    QStringList lines; ///< the file's lines, for mapping expression errors to columns
    /// Its prompt identity, read from `lines` on the first model call (Runner::identityOf).
    mutable std::once_flag identityOnce;
    mutable std::shared_ptr<const ProgramIdentity> identity;
};

/// Where a block runs: its variables, the context before it, the role its messages take.
struct State {
    Env scope;
    ContextPtr context;
    std::string role = "user";
    const ProgramInfo* program = nullptr;
    int callDepth = 0;
    /// Inside `defs` or an import: nothing is streamed (their context is discarded).
    bool quiet = false;
    /// `--stream result`: the block prints its result as it is produced (the reference's
    /// yield_result). Structured blocks decide which children stream (see Runner::exec).
    bool streamResult = false;
    /// Inside a `lang: pdl` code block: the reference runs that program with a fresh
    /// interpreter state, whose model calls are single requests (batch 1), not streams.
    bool batchCalls = false;
    /// Called once, right after the next block's start was reported to the observer (or at
    /// its start when nothing is traced): parallel `map` iterations start their live trace in
    /// index order, as the written trace lists them. Not inherited by the block's children.
    std::function<void()> onStarted;
    /// The trace node of the enclosing block (its serial is a new node's parentSerial).
    uint64_t traceParent = 0;
    /// Blocks enclosing the next one (what a debugger's step over/out compare).
    int debugDepth = 0;
    /// A model reply typed in a debugger for the model block `handAnswerBlock`.
    std::optional<std::string> handAnswer;
    const Block* handAnswerBlock = nullptr;
};

/// The id prefix of a child of block `id`: `id` followed by `parts` (`.`, `.then.`, an index
/// and `.`), with room left for the kind name Runner::exec appends, so that running the child
/// allocates its id once.
/// A string for an id from this thread's spare ones (see recycleIdBuffer()), empty, with the
/// capacity it had: a loop's ids then take no allocation each.
std::string takeIdBuffer();
/// Gives the buffer of an id that is no longer needed back to this thread's spare ones.
void recycleIdBuffer(std::string&& buffer);

template <typename... Parts> std::string childPrefix(std::string_view id, const Parts&... parts)
{
    constexpr size_t kKindRoom = 16; // `aggregator`, the longest kind name, and some
    std::string s = takeIdBuffer();
    s.reserve(id.size() + (std::string_view(parts).size() + ... + 0) + kKindRoom);
    s += id;
    (s += ... += std::string_view(parts));
    return s;
}

/// `id` + ".<i>.": the prefix of child `i` of a list (see childPrefix()).
std::string indexPrefix(const std::string& id, size_t i);

/// Where a child sits in its parent's id: `<parent>.<index>.` (an item of a list or a loop's
/// iteration) or `<parent><segment>` (`.`, `.then.`, `.content.` …).
struct ChildPlace {
    static constexpr size_t kNamed = size_t(-1);
    size_t index = kNamed;
    std::string_view segment;

    static ChildPlace item(size_t i) { return {i, {}}; }
    static ChildPlace named(std::string_view segment) { return {kNamed, segment}; }
    /// The child's id prefix (with room for its kind: see childPrefix()).
    std::string prefix(const std::string& parentId) const
    {
        return index == kNamed ? childPrefix(parentId, segment) : indexPrefix(parentId, index);
    }
};

/// The id of a running block: the string its exec() made, or, for a block run bare
/// (Runner::execChild), its parent's id and its place, made into a string only when asked for.
struct RunningBlockId {
    const std::string* id = nullptr;
    const std::string* parent = nullptr;
    ChildPlace place;
    BlockKind kind = BlockKind::Data;
    std::string str() const;
};

class Runner {
public:
    Runner(const RunOptions& options);
    ~Runner();

    /// Runs `block` with id `prefix + kind` (built in `prefix`'s own buffer: see childPrefix()).
    /// Updates st.scope (defs flow to later siblings) and appends the block's messages to
    /// st.context. `traceOut` receives the node when tracing.
    Value exec(const BlockPtr& block, State& st, std::string prefix, TracePtr* traceOut);
    /// Runs `child`, the child of block `id` at `place`, as exec() with the child's prefix
    /// would; a data or list block nothing watches runs bare, without exec()'s frame (and a
    /// data block without an id of its own: runsBare()).
    Value execChild(const BlockPtr& child, State& st, const std::string& id, ChildPlace place,
                    TracePtr* slot)
    {
        if (!(tracing && slot) && runsBare(*child, st))
            return execBareChild(*child, st, id, place);
        return exec(child, st, place.prefix(id), slot);
    }

    /// Evaluates an expression field (strings as templates, lists/dicts recursively).
    Value eval(const Expr& e, const State& st, TraceNode* node, const char* field);
    Value evalValue(const Value& v, const State& st, const SourceSpan& span);

    /// How a closure is called: from a `call` block, whose arguments are checked against the
    /// parameters' types, or from an expression (`${ f(1) }`, `join: reduce`), which binds
    /// what it is given unchecked as the reference's ClosureBlock.__call__ does.
    enum class CallKind { Block, Expression };
    /// Calls a PDL closure with named arguments (from a call block or an expression). Errors
    /// in the arguments are reported at `argsSpan` when it is valid, others at `span`.
    Value callFunction(const Value& fn, const Dict& args, State& caller, const std::string& id,
                       TraceNode* node, const SourceSpan& span, const SourceSpan& argsSpan = {},
                       CallKind kind = CallKind::Block);
    /// Binds a call block's arguments in `callee`'s scope, checking them against `f`'s
    /// parameters; throws every problem at once, as the reference reports them.
    void bindCheckedArguments(const FunctionBlock& f, const std::string& name, const Dict& args,
                              State& callee, const SourceSpan& argsSpan);

    /// Parses (once per run) the program at `path` for an include or import (`what`, for
    /// messages) written at `from`; throws PdlError naming the file at `from`.
    const ProgramInfo* loadProgram(const QString& path, const SourceSpan& from, const char* what);
    /// The prompt identity of the program holding the model block at `span` (`current` when it
    /// is that program's), read once per program and run; null when the file is not loaded.
    const ProgramIdentity* identityOf(const SourceSpan& span, const ProgramInfo* current);
    static std::string includeErrors(const QString& file, const SourceSpan& from, const char* what,
                                     const std::vector<Diagnostic>& diagnostics);
    void checkCancelled() const;
    void write(std::string_view text, bool toStderr = false);
    /// `--stream context`: writes the messages `messages` (a block's contribution).
    void streamMessages(const List& messages);
    /// `--stream result`: prints `v` (as the final output would) when `st` streams.
    void streamValue(const State& st, const Value& v);

    const RunOptions& options;
    bool tracing = false;
    /// False when nothing in the run can observe the background context (no model, code,
    /// include or import block, no expression naming pdl_context or pdl_scope): leaf blocks
    /// then skip building messages, which keeps long loops small.
    bool keepContext = true;
    std::mutex observerMutex;
    std::atomic<uint64_t> nextSerial{1};
    /// Time the run spent paused in the debugger (and answering a model by hand there): the
    /// blocks' clock (clock()) stops while paused, so a pause never counts as a block's time.
    std::atomic<int64_t> pausedNanos{0};
    /// Nanoseconds since the epoch, less the time spent paused so far.
    int64_t clock() const;
    std::mutex programsMutex;
    std::map<QString, std::unique_ptr<ProgramInfo>> programs;
    std::map<QString, Value> imports;
    Dict usage; ///< pdl_usage
    int64_t modelCalls = 0, promptTokens = 0, completionTokens = 0;
    /// Set once RunOptions::replayCheck refused a recorded result: the rest runs live.
    std::atomic<bool> replayDiverged{false};
    std::string replayDivergedAt; ///< guarded by observerMutex
    SourceSpan replayDivergedSpan;
    /// Tells the debugger (if any) that `program` was loaded (the run's or an include's).
    void announceProgram(const std::shared_ptr<const Program>& program);
    /// `pdl_usage`: {model_calls, prompt_tokens, completion_tokens} so far.
    Value usageValue() const;

    /// The aggregators created during the run, finished (files written) when it ends.
    std::mutex aggregatorsMutex;
    std::vector<std::shared_ptr<const Aggregator>> aggregators;
    /// Finishes every aggregator; throws the first PdlError after trying them all.
    void finishAggregators();

private:
    Value execBody(const BlockPtr& bp, State& st, const std::string& id, TraceNode* node);
    bool runsBare(const Block& b, const State& st) const;
    Value execBareChild(const Block& child, State& st, const std::string& id, ChildPlace place);
    Value execBare(const DataBlock& b, State& st, const RunningBlockId& id);
    Value execBareList(const ListBlockBase& b, State& st, std::string prefix);
    /// One attempt's result, traced, parsed (streamed once parsed when `streamParsed`) and
    /// checked against the block's spec.
    Value finishAttempt(const Block& b, Value r, State& st, TraceNode* node, bool streamParsed);
    Value execWithRetry(const BlockPtr& bp, State& st, std::string& id, TraceNode* node,
                        bool streamParsed);
    // exec's parts: the block's trace node opened and closed, its `scope`/`defs` bound, its
    // body run (with retries and fallback) and its result contributed.
    TracePtr openTraceNode(const BlockPtr& bp, const State& st, const std::string& id);
    void closeTraceNode(TraceNode& node, const State& st, const Value& result);
    void failTraceNode(TraceNode& node, const PdlError& e);
    void bindBlockScope(const Block& b, State& st, const std::string& id, TraceNode* node);
    Value execContributing(const BlockPtr& bp, State& st, std::string& id, TraceNode* node,
                           bool streamIn);
    void contributeContext(const Block& b, State& st, const ContextPtr& before, const Value& result,
                           bool leafMessage, const std::string& id);
    void contributeOutputs(const Block& b, State& st, const std::string& id, Value& result);
    /// Sends `result` (or the target's replacement value) to the aggregator named by `t`.
    void contributeToAggregator(const Block& b, const ContributeTarget& t, const State& st,
                                const std::string& id, const Value& result);

public:
    // Block kinds (runnerblocks.cpp, runnerflow.cpp).
    Value execData(const DataBlock& b, State& st, TraceNode* node);
    Value execList(const ListBlockBase& b, State& st, const std::string& id, TraceNode* node,
                   const JoinSpec* join);
    Value execObject(const ObjectBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execObjectFields(const ObjectBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execMessage(const MessageBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execIf(const IfBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execMatch(const MatchBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execRepeat(const RepeatBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execMap(const MapBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execFunction(const FunctionBlock& b, State& st, const BlockPtr& self,
                       const std::string& id);
    Value execCall(const CallBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execRead(const ReadBlock& b, State& st, TraceNode* node);
    /// Tells standard error that block `b` failed with `message` and runs again, as the
    /// reference does: `[Retry N/MAX] file:LINE - …`, LINE being the retried block's.
    void writeRetryNotice(const Block& b, const State& st, int64_t attempt, int64_t tries,
                          const std::string& message);
    Value execInclude(const IncludeBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execImport(const ImportBlock& b, State& st, const std::string& id, TraceNode* node);
    Value execAggregator(const AggregatorBlock& b, State& st, TraceNode* node);
    Value execFactor(const EmptyBlock& b, State& st, TraceNode* node);

    /// A block's `retry`, evaluated once before its first try.
    struct RetryPlan {
        int64_t extraTries = 0;
        int64_t shownTries = 0; ///< as the retry notice shows it (-1: forever)
        double delay = 0, backoff = 1, maxDelay = -1, jitterLow = 0, jitterHigh = 0;
    };
    RetryPlan retryPlan(const Block& b, const State& st);
    /// Sleeps (cancellably) before try `attempt + 1`.
    void waitBeforeRetry(const RetryPlan& p, int64_t attempt);
    /// Judges `result` against b's expectations (each feedback function called in `st`); when
    /// one gives an instruction and `mayRetry`, the context for the next try: `context` with
    /// each instruction as a user message. Nothing when the block needs no other try.
    std::optional<ContextPtr> unmetExpectations(const Block& b, const Value& result,
                                                const State& st, ContextPtr context, bool mayRetry,
                                                const std::string& id);
    Value execCode(const CodeBlock& b, State& st, const std::string& id, TraceNode* node);
    /// Runs `part`, a block that feeds its block without being its result (a code block's
    /// source, a model's input, a generated program), on a copy of `st` that does not stream,
    /// with id prefix `prefix`; traces it as the single child `field` of `node`.
    Value execPart(const BlockPtr& part, const State& st, const std::string& prefix,
                   const char* field, TraceNode* node);
    Value execArgs(const ArgsBlock& b, State& st, TraceNode* node);
    Value execModel(const ModelBlock& b, State& st, const std::string& id, TraceNode* node);
    /// What a model call answered: the text, the reply's role, the server's raw response,
    /// the validated value of a structured-output call (else null) and the tokens used.
    struct ModelReply {
        std::string text;
        std::string role = "assistant"; // a mocked or hand-given reply has none of its own
        Value raw;
        Value structured;
        models::Usage usage;
        /// The model the endpoint was asked for, and the one the server says answered.
        std::string resolvedModel;
        std::string servedModel;
    };
    /// The messages a model block sends: its `input` run as messages, else the context.
    List modelMessages(const ModelBlock& b, State& st, const std::string& id, TraceNode* node);
    /// The block's `parameters` completed by pdl_model_default_parameters for `model`.
    Dict modelParameters(const ModelBlock& b, State& st, TraceNode* node, const std::string& model);
    /// Checks a fallback's value against the block's spec, as the block's own value is.
    void checkFallbackSpec(const Block& b, const Value& result);
    /// What the OpenAI client of `platform: openai` adds to a request on its own.
    static void addOpenAiClientFields(models::ChatRequest& request);
    /// Sends the request to the run's provider (streaming the reply where the run prints it).
    ModelReply callProvider(const ModelBlock& b, State& st, const std::string& id, TraceNode* node,
                            models::ChatRequest request);
    /// The structured-output form of callProvider(): the spec's schema, one TypeChat repair.
    void callStructured(const ModelBlock& b, State& st, TraceNode* node,
                        models::ChatRequest& request,
                        const std::function<void(std::string_view)>& onDelta, ModelReply& out);
    /// Counts a finished call's tokens in the run, `pdl_usage` and the block's trace node.
    void recordUsage(State& st, TraceNode* node, const ModelReply& reply);
    /// Adds the spec's JSON schema to a model request's parameters as the reference's provider
    /// sends it (unless `structuredDecoding` is false).
    void addSchemaParameters(const ModelBlock& b, State& st, TraceNode* node, const Value& schema,
                             Dict& parameters);
    /// Where a model block's request comes from, for the prompt log (ChatRequest::site).
    models::CallSite callSite(const ModelBlock& b, const State& st, const std::string& id);

    // Code, commands and parsers (runnerexternal.cpp).
    Value runCode(const CodeBlock& b, const std::string& source, State& st, TraceNode* node);
    /// Runs Python `source` for `b` in the run's Python session; the result is `result`.
    Value runPython(const CodeBlock& b, const std::string& source, State& st, TraceNode* node);
    Value runCommand(const std::vector<std::string>& argv, const SourceSpan& span, TraceNode* node);
    Value parseResult(const ParserSpec& parser, const Value& result, const SourceSpan& span);
    std::shared_ptr<const code::Sandbox> codeSandbox(const SourceSpan& span);
    std::mutex codeMutex;
    std::unique_ptr<code::PythonSession> m_python;
    std::shared_ptr<const code::Sandbox> m_sandbox;

    Value join(std::vector<Value>& values, const JoinSpec& join, const State& st, TraceNode* node,
               const SourceSpan& span);
    /// Applies a block's `parser` to its result.
    Value parse(const Block& b, const Value& result);
    /// Checks `value` against the PDL type `spec`; throws PdlError at `span`.
    void checkSpec(const Value& spec, const Value& value, const SourceSpan& span);
};

} // namespace hako::pdl
