#pragma once

#include "core/pdl/interp/debughook.h"

#include <QString>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hako::pdl {

/// Where a paused run stands and why it paused.
struct DebugLocation {
    enum class Reason { Entry, Breakpoint, Step, ModelCall, Error, Pause, RunToLine };
    Reason reason = Reason::Step;
    SourceSpan span; ///< the block's span (file, 1-based line and column)
    BlockKind kind = BlockKind::Empty;
    std::string id;     ///< the block's `pdl__id`
    std::string def;    ///< the block's `def`, if any
    int depth = 0;      ///< blocks enclosing it
    int breakpoint = 0; ///< the breakpoint's number when reason is Breakpoint
    std::string error;  ///< the error when reason is Error
    /// `prog.pdl:7 (model block 'answer')`: what a person reads when the run pauses.
    QString describe() const;
};

/// A breakpoint: the block starting at or covering FILE:LINE (the innermost one), optionally
/// only when `condition` (a PDL expression such as `${ i == 3 }`) is true in its scope.
struct Breakpoint {
    int number = 0;
    QString file; ///< as given: a path, or a file name matched against the program's files
    int line = 0;
    std::string condition;
    /// A logpoint's message, a template (`i is ${ i }`): written through the log callback
    /// instead of pausing. Empty: an ordinary breakpoint.
    std::string logMessage;
    bool enabled = true; ///< a disabled breakpoint is kept but never stops nor logs
    int hits = 0;
};

/// A breakpoint as an editor keeps it, by line: a condition (empty: always), a logpoint's
/// message template (empty: it pauses), and whether it is on.
struct BreakpointSpec {
    QString condition;
    QString logMessage;
    bool enabled = true;
    bool operator==(const BreakpointSpec&) const = default;
};

/// One row of a paused run's call stack: a block enclosing the paused one (or that block).
struct StackFrame {
    SourceSpan span;
    BlockKind kind = BlockKind::Empty;
    std::string id;     ///< the block's `pdl__id`
    std::string def;    ///< the block's `def`, if any
    std::string callee; ///< for a call block: the function called, as written (`get_weather`)
    /// `call get_weather`, `repeat 'answers'`, `text`: the block as the person knows it (the
    /// function it calls, its def, its kind).
    QString name() const;
    /// `prog.pdl:9`
    QString where() const;
    /// `call get_weather  prog.pdl:9`
    QString describe() const;
};

/// An interactive debugger for the interpreter: breakpoints, stepping, pause on error or before
/// model calls, and inspection of a paused run (variables, context, expressions), which it can
/// change (set a variable, edit the context, answer a model call by hand).
///
/// Threading: the interpreter calls the IDebugHook methods on its worker thread, which blocks
/// there while paused (on a condition variable; cancelling the run or interrupt() wakes it at
/// once). Every other method may be called from any other thread. While paused, inspect() and
/// post() run a function on the paused worker thread (where the frame is valid): inspect() waits
/// for it, post() does not (for a GUI thread, which must never block). One thread is paused at a
/// time; parallel `map` iterations that want to pause wait their turn.
///
/// With nothing armed (no breakpoints, no stepping, no pause requested) beforeBlock costs one
/// relaxed atomic load.
class Debugger final : public IDebugHook {
public:
    enum class Resume { Continue, StepOver, StepInto, StepOut, RunToLine };

    Debugger();
    ~Debugger() override;

    // Configuration, at any time.
    /// Adds a breakpoint and returns its number (from 1).
    /// With `logMessage`, a logpoint: it writes its message (a template evaluated where it
    /// stops) through the log callback and the run goes on.
    int addBreakpoint(const QString& file, int line, std::string condition = {},
                      std::string logMessage = {});
    /// Turns breakpoint `number` on or off (a disabled one is kept in breakpoints()).
    bool setBreakpointEnabled(int number, bool on);
    /// Called on the worker thread when a logpoint is hit, with its evaluated message (or the
    /// evaluation's error) and where. Set before the run starts.
    void setLogCallback(std::function<void(const QString& message, const DebugLocation&)> callback);
    /// `i == 3` read as `${ i == 3 }`; a text holding `${` as it is.
    static std::string asTemplate(const std::string& expression);
    /// The call stack of `frame`, innermost first: `frame`'s block, then each enclosing one.
    static std::vector<StackFrame> stackOf(const DebugFrame& frame);
    /// The frame `index` steps out of `frame` (0: `frame` itself), or null past the root.
    static const DebugFrame* frameAt(const DebugFrame& frame, int index);
    /// Checks a breakpoint (or a run-to-line target) before it is set, against the programs
    /// loaded so far: the line the run would stop at — `line` itself, or the next line that
    /// starts a block when `line` has no block of its own (a blank line, a key) — or an error
    /// naming the file, the line or the condition (`condition` as addBreakpoint takes it) that
    /// is wrong. A file not loaded yet is accepted when it exists (an included program).
    Result<int> checkLocation(const QString& file, int line,
                              const std::string& condition = {}) const;
    bool removeBreakpoint(int number);
    void clearBreakpoints();
    std::vector<Breakpoint> breakpoints() const;
    /// Keep the background context of programs that never read it, so that context() shows it
    /// (default on; set before the run starts).
    void setKeepContext(bool on) { m_keepContext = on; }
    bool wantsContext() const override { return m_keepContext; }
    /// Pause before the first block of the run.
    void setPauseOnEntry(bool on);
    /// Pause at the innermost block of every error (before fallback or retry handle it).
    void setPauseOnError(bool on);
    /// Pause before every model block.
    void setPauseBeforeModelCalls(bool on);
    /// Pause before the next block that runs.
    void requestPause();
    /// Called on the worker thread each time the run pauses, before it waits (a GUI controller
    /// queues a signal from here). Set before the run starts.
    void setPausedCallback(std::function<void(const DebugLocation&)> callback);

    // A paused run.
    bool isPaused() const;
    std::optional<DebugLocation> location() const;
    /// Runs `fn` on the paused worker thread and waits for it; false when no run is paused (or
    /// the run was resumed or stopped before `fn` ran).
    bool inspect(const std::function<void(DebugFrame&)>& fn);
    /// Queues `fn` for the paused worker thread without waiting (it may hop back to a GUI thread
    /// itself); false when no run is paused. Functions still queued when the run resumes are
    /// dropped.
    bool post(std::function<void(DebugFrame&)> fn);
    /// Blocking conveniences over inspect().
    /// `expression` (bare or a template) in the paused block's scope, or in that of the
    /// enclosing frame `frame` of callStack().
    Result<Value> evaluate(const std::string& expression, int frame = 0);
    std::optional<Dict> variables(int frame = 0);
    /// The paused run's call stack, innermost first (nullopt when not paused).
    std::optional<std::vector<StackFrame>> callStack();
    std::optional<List> context();
    /// Sets `name` to `valueText` read as YAML/JSON (`3`, `"text"`, `[1, 2]`, `{a: 1}`).
    Result<bool> setVariable(const std::string& name, const QString& valueText);
    /// Replaces the background context with `messagesText`, a YAML/JSON list of messages.
    Result<bool> setContext(const QString& messagesText);
    /// Paused before a model block: its reply is `text` (nothing is sent; the trace node is
    /// marked answered by hand), and the run resumes as `then` says.
    Result<bool> answerModel(const std::string& text, Resume then = Resume::Continue);
    /// Resumes a paused run. `RunToLine` runs to the block at file:line (a one-off breakpoint).
    void resume(Resume mode, const QString& file = {}, int line = 0);
    /// Wakes a paused run for good: no further pauses (call after cancelling the run).
    void interrupt();

    /// For a synchronous controller (the command line): waits until the run pauses (true) or
    /// runFinished() is called (false).
    bool waitForPause();
    /// The run ended (call from whoever ran it).
    void runFinished();

    // IDebugHook (the interpreter's worker thread).
    void programLoaded(const std::shared_ptr<const Program>& program) override;
    void beforeBlock(DebugFrame& frame) override;
    void blockFailed(DebugFrame& frame, const std::string& message) override;

private:
    struct Request;
    struct Resolved {
        int number; ///< breakpoint number; 0 for run-to-line
        const Block* block;
    };
    void rearm();
    void resolveAll();
    std::vector<const Block*> resolve(const QString& file, int line) const;
    void pause(DebugFrame& frame, DebugLocation location, std::unique_lock<std::mutex>& lock);
    /// The breakpoint `frame` stops at (its number), after conditions and logpoints; 0: none.
    int breakpointHit(DebugFrame& frame, std::unique_lock<std::mutex>& lock, bool& runToLine);

    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::atomic<bool> m_armed{false};
    std::vector<Breakpoint> m_breakpoints;
    std::vector<Resolved> m_resolved;
    std::vector<std::shared_ptr<const Program>> m_programs;
    int m_nextNumber = 1;
    std::atomic<bool> m_keepContext{true};
    bool m_pauseOnEntry = false;
    bool m_pauseOnError = false;
    bool m_pauseBeforeModel = false;
    bool m_pauseRequested = false;
    // Stepping after a resume.
    Resume m_stepMode = Resume::Continue;
    int m_stepDepth = 0;
    QString m_runToFile;
    int m_runToLine = 0;
    // The pause.
    bool m_paused = false;
    bool m_interrupted = false;
    bool m_finished = false;
    std::optional<Resume> m_resume;
    DebugLocation m_location;
    std::deque<std::shared_ptr<Request>> m_requests;
    std::function<void(const DebugLocation&)> m_onPaused;
    std::function<void(const QString&, const DebugLocation&)> m_onLog;
};

} // namespace hako::pdl
