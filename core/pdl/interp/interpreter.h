#pragma once

#include "core/pdl/ast/block.h"
#include "core/pdl/interp/debughook.h"
#include "core/pdl/interp/tracenode.h"
#include "core/pdl/value.h"
#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace hako::models {
class IModelProvider;
}

namespace hako::pdl {

/// Hears about a run as it happens, on the interpreter's worker thread. Implementations that
/// update a GUI must hop threads themselves (queued signals). Calls are serialised per run
/// except inside `map` iterations running in parallel, which may call from several threads.
class IRunObserver {
public:
    virtual ~IRunObserver() = default;
    /// A block started; `node` has kind, id, span and block but no result yet.
    virtual void blockStarted(const TraceNode& node) = 0;
    /// A block finished (or failed: node.error is set).
    virtual void blockFinished(const TraceNode& node) = 0;
    /// A piece of a model reply as it streams in, for the model block `node` (still running).
    virtual void modelDelta(const TraceNode& node, std::string_view delta) = 0;
};

/// What the interpreter may do and where its input and output go.
struct RunOptions {
    /// Initial variables (the reference's `-d`/`-f` data).
    Dict initialScope;
    /// Build the trace tree (RunResult::trace). Off, a run keeps no per-block records.
    bool trace = false;
    /// Where model blocks go; null: model blocks fail (unless `mock_response` is set).
    std::shared_ptr<models::IModelProvider> models;
    /// `--stream result` (the reference's default): the result is written to writeStdout as
    /// it is produced, literal text, code results and model replies (as they arrive) in
    /// order, so that everything streamed is the result's text (structured values such as
    /// arrays print whole when they are done).
    bool streamResult = false;
    /// `--stream context`: write every message a leaf block contributes to the background
    /// context to stdout (writeStdout) as it is appended, as `\n<role>: <content>`, the way
    /// the reference streams the background. Messages of `defs` and imports are not shown.
    bool streamContext = false;
    /// Reads a line (or, with `multiline`, everything up to end of input) from the user after
    /// showing `prompt`; nullopt at end of input. Default: standard input.
    std::function<std::optional<std::string>(const std::string& prompt, bool multiline)> readInput;
    /// Receives text for standard output (read prompts, `contribute: [stdout]`, streamed
    /// replies) and standard error. Default: the process's stdout/stderr.
    std::function<void(std::string_view)> writeStdout;
    std::function<void(std::string_view)> writeStderr;
    /// Polled at every block boundary and while waiting for code or models.
    CancelToken cancel;
    /// Function calls nested deeper than this stop the run with an error.
    int maxCallDepth = 500;
    /// Run code blocks under the sandbox (bubblewrap).
    bool sandbox = false;
    /// Replay: recorded leaf results by `pdl__id` (model replies, code results, reads), used
    /// instead of calling anything.
    std::shared_ptr<const std::unordered_map<std::string, Value>> replay;
    /// With `replay` (optional): the recorded trace nodes by `pdl__id`. A replayed node shows
    /// what its recording was asked (evaluated fields, the prompt sent), since that is what
    /// produced the result it reuses; nothing was sent this time.
    std::shared_ptr<const std::unordered_map<std::string, TracePtr>> replayRecords;
    IRunObserver* observer = nullptr;
    /// Record on every trace node the variables visible when its block finished (what the
    /// workbench's Variables pane shows). Costs a map copy when a variable changes afterwards.
    bool captureScope = false;
    /// Build RunResult::context even when nothing in the program reads the context.
    bool keepContext = false;
    /// A debugger consulted before every block and when a block fails (breakpoints, stepping,
    /// inspection; see IDebugHook). Null (the default) costs one pointer test per block.
    IDebugHook* debugger = nullptr;
    /// With `replay`: asked before a recorded result is reused for block `block` with id `id`;
    /// false means the program changed there (RunResult::replayDivergedAt), and that block and
    /// every later one run live.
    std::function<bool(const std::string& id, const Block& block)> replayCheck;
};

/// The outcome of a run: the result or the error, the final scope, and the trace when asked.
struct RunResult {
    bool ok = false;
    Value result;
    Diagnostic error; ///< when !ok: message and the failing block's location
    /// When !ok: the line IBM's reference interpreter reports for this error (its line table
    /// for the failing block's path, see referencelines.h); 0 when it reports none.
    int referenceLine = 0;
    TracePtr trace; ///< the root node when RunOptions::trace (partial after an error)
    Dict scope;     ///< the variables at the end of the run
    List context;   ///< the background context at the end of the run
    /// With RunOptions::replayCheck: the `pdl__id` and span of the first block whose recording
    /// no longer matched the program (empty when the replay held to the end).
    std::string replayDivergedAt;
    SourceSpan replayDivergedSpan;
};

/// Runs PDL programs as IBM's reference interpreter does (see pdl-semantics.md).
///
/// One Interpreter runs one program at a time on the calling thread, which must not be the GUI
/// thread: model and code blocks block while they wait. Cancel from another thread through
/// RunOptions::cancel. Programs are immutable and may be shared between interpreters.
class Interpreter {
public:
    explicit Interpreter(RunOptions options = {});
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    RunResult run(const std::shared_ptr<const Program>& program);
    /// Parses (reporting every structural error at once) and runs the file.
    RunResult runFile(const QString& path);

private:
    RunOptions m_options;
};

/// The `pdl__id`-keyed leaf results of a trace, for RunOptions::replay.
std::unordered_map<std::string, Value> replayTable(const TraceNode& root);

/// The `pdl__id` of the block the calling thread is executing (empty outside a run). Functions
/// a run provides to expressions (`memory.retrieve`, …) use it to record which block called
/// them, so what they journal links back to the trace. Thread-local: each interpreter thread
/// sees its own innermost block.
std::string currentBlockId();

} // namespace hako::pdl
