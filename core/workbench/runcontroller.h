#pragma once

#include "core/pdl/debug/debugger.h"
#include "core/pdl/interp/tracenode.h"
#include "core/pdl/parser/programparser.h"
#include "core/run/runenvironment.h"
#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace hako::models {
class IModelProvider;
}

namespace hako::pdl {
class TraceFeed;
class TraceModel;
} // namespace hako::pdl

namespace hako {

/// Runs a PDL program for the workbench: parses the editor's text, runs it on a worker thread,
/// streams its output, fills a live TraceModel, asks for standard input through a signal
/// instead of blocking, and can be stopped at any block boundary or during a model or code call.
///
/// Lives on the GUI thread; all signals are delivered there. One run at a time. Destroying the
/// controller stops the run and waits for the worker.
class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    /// The trace of the current or latest run (owned; same object for every run).
    pdl::TraceModel* traceModel() const { return m_model; }
    /// The finished trace tree of the latest run (null while running or when none).
    pdl::TracePtr lastTrace() const { return m_lastTrace; }

    /// What the next runs are given (document, memory, sandbox, provider); composed on the
    /// run's worker. An empty baseFolder means the program's folder.
    void setEnvironment(RunEnvironment environment) { m_environment = std::move(environment); }
    const RunEnvironment& environment() const { return m_environment; }
    /// Uses `provider` for model blocks instead of the configured endpoints (tests, replay).
    void setModelProvider(std::shared_ptr<models::IModelProvider> provider);

    /// Starts running `text` as the program at `path` (relative reads, includes and imports
    /// resolve against its folder; an unsaved program uses the current directory). Returns false
    /// when a run is already going. Parse errors end the run at once with finished(false).
    bool start(const QByteArray& text, const QString& path);
    /// As start(text, path) for a program already parsed (from `programFileName(path)`), so a
    /// caller that had to parse it first (to ask about code trust) does not parse it twice.
    bool start(pdl::ParseResult parsed, const QString& path);
    /// The file name runs of `path` use: absolute, `untitled.pdl` in the current folder for an
    /// unsaved program.
    static QString programFileName(const QString& path);
    /// Stops the running program (cancels; the run ends with finished(false, "cancelled")).
    void stop();
    bool isRunning() const { return m_running; }
    /// The run id of the current or latest run (the prompt log's and the RunArchive's), empty
    /// before the first run.
    QString lastRunId() const { return m_lastRunId; }
    /// The latest run ended because stop() was called (not a failure of the program); valid
    /// from finished() on.
    bool wasStopped() const { return m_stopped; }

    /// Re-run from here: runs `text` (the program at `path`) again, with every block that
    /// finished before the node `nodeId` started in `trace` (a finished run's, e.g. lastTrace())
    /// replayed from it and that node and everything after it run live. Replayed nodes are
    /// marked (TraceNode::replayed); the new run records that it was forked from `fromRunId` at
    /// `nodeId` (forkedFromRun(), and the prompt log's `forked-from:`/`forked-at:` tags). Where
    /// the program changed before the node, the replay stops at the first block that differs
    /// (rerunDivergedAt()) and the rest runs live. False, with `error` set, when a run is going
    /// or the trace has no such node.
    bool startRerun(const QByteArray& text, const QString& path, const pdl::TraceNode& trace,
                    const QString& fromRunId, const QString& nodeId, QString* error = nullptr);
    /// As startRerun(text, …) for a program already parsed (as start(parsed, path)).
    bool startRerun(pdl::ParseResult parsed, const QString& path, const pdl::TraceNode& trace,
                    const QString& fromRunId, const QString& nodeId, QString* error = nullptr);
    /// The run the current or latest run was forked from, and at which node (empty otherwise).
    QString forkedFromRun() const { return m_forkedFromRun; }
    QString forkedFromNode() const { return m_forkedFromNode; }
    /// After a re-run: the `pdl__id` and span of the first replayed block whose source no longer
    /// matched its recording (empty when the whole prefix was replayed).
    QString rerunDivergedAt() const { return m_divergedAt; }
    SourceSpan rerunDivergedSpan() const { return m_divergedSpan; }

    // Debugging. The runs started while debugging is on run under a pdl::Debugger: they pause
    // at breakpoints and steps, paused() tells, and the resume methods go on. Nothing here
    // blocks the GUI thread: the paused worker is asked for its state, which arrives with
    // paused().

    /// A watch expression's value in the selected frame, or why it has none.
    struct WatchValue {
        QString expression;
        std::optional<pdl::Value> value;
        QString error;
    };
    /// What a paused run shows: where it is, its call stack (innermost first), and the
    /// variables, watch values and background context of the selected frame (`frame`, an
    /// index into `stack`; 0 is the paused block).
    struct DebugSnapshot {
        pdl::DebugLocation location;
        pdl::Dict variables;
        pdl::List context;
        std::vector<pdl::StackFrame> stack;
        int frame = 0;
        QList<WatchValue> watches;
    };
    using BreakpointSpec = pdl::BreakpointSpec;
    /// Debug the runs started from now on (until turned off).
    void setDebugging(bool on) { m_debugging = on; }
    bool isDebugging() const { return m_debugging; }
    /// Breakpoints of `file` (absolute path) at these 1-based lines, for the current run (at
    /// once) and the next ones. Replaces that file's earlier breakpoints.
    void setBreakpoints(const QString& file, const QList<int>& lines);
    /// As above, each line with its condition (a PDL expression such as `i == 3`; empty:
    /// always pause).
    void setBreakpoints(const QString& file, const QMap<int, QString>& conditions);
    /// As above, with logpoints and disabled breakpoints.
    void setBreakpoints(const QString& file, const QMap<int, BreakpointSpec>& breakpoints);
    /// The watch expressions (bare, `i * 2`, or templates) evaluated at every pause in the
    /// selected frame; a paused run's snapshot follows at once.
    void setWatchExpressions(const QStringList& expressions);
    QStringList watchExpressions() const { return m_watches; }
    /// Shows frame `index` of the paused run's call stack (its variables and watch values);
    /// paused() follows with the new snapshot.
    void selectFrame(int index);
    QList<int> breakpoints(const QString& file) const { return m_breakpoints.value(file).keys(); }
    /// Pause on errors / before every model call (the next runs and the current one).
    void setPauseOnError(bool on);
    void setPauseBeforeModelCalls(bool on);
    bool isPaused() const { return m_paused; }
    /// The latest pause's snapshot (valid while isPaused()).
    const DebugSnapshot& snapshot() const { return m_snapshot; }
    void continueRun();
    void stepOver();
    void stepInto();
    void stepOut();
    void runToLine(const QString& file, int line);
    /// Pauses the running program before its next block.
    void pauseRun();
    /// Paused before a model block: `reply` is its answer (nothing is sent) and the run goes on.
    void answerModelCall(const QString& reply);
    /// Sets a variable of the paused run (`valueText` in YAML/JSON); paused() follows with the
    /// new snapshot, or debugError() says why not.
    void setVariable(const QString& name, const QString& valueText);
    /// Replaces the content of message `index` of the paused run's background context (what a
    /// model call would see); paused() follows with the new snapshot.
    void setContextMessage(int index, const QString& content);

    /// Answers the pending inputRequested (a line, or everything for a multiline read).
    void provideInput(const QString& text);
    /// Answers the pending inputRequested with end of input.
    void closeInput();
    bool isWaitingForInput() const { return m_waitingForInput; }

Q_SIGNALS:
    void started(const QString& path);
    /// Program output (read prompts, contribute to stdout/stderr, the result as it streams),
    /// coalesced into chunks.
    void output(const QString& text, bool isError);
    /// A `read` block waits for input: show `prompt` and call provideInput or closeInput.
    void inputRequested(const QString& prompt, bool multiline);
    /// A debugged run paused (snapshot() holds where and its state), or its state changed
    /// while paused (a variable set).
    void paused();
    /// A paused run goes on.
    void resumed();
    /// A debugger command could not be carried out.
    void debugError(const QString& message);
    /// The run ended. On failure `error` says why and where.
    void finished(bool ok, const QString& result, const hako::Diagnostic& error);

private:
    struct Shared;
    void connectIo(pdl::RunOptions& options, const std::shared_ptr<Shared>& shared);
    void attachDebugger(pdl::RunOptions& options);
    void flushOutput();
    void onWorkerDone();

    pdl::TraceModel* m_model = nullptr;
    pdl::TraceFeed* m_feed = nullptr;
    RunEnvironment m_environment;
    bool m_running = false;
    bool m_stopped = false;
    bool m_waitingForInput = false;
    std::shared_ptr<Shared> m_shared;
    std::thread m_worker;
    pdl::TracePtr m_lastTrace;
    QString m_lastRunId;
    /// Completes the next run's options (a re-run's replay); cleared when it starts.
    std::function<void(pdl::RunOptions&)> m_prepare;
    void resume(pdl::Debugger::Resume mode, const QString& file = {}, int line = 0);
    void requestSnapshot();
    /// The snapshot of `frame` paused at `at` (on the paused worker thread).
    static DebugSnapshot makeSnapshot(pdl::DebugFrame& frame, const pdl::DebugLocation& at,
                                      int frameIndex, const QStringList& watches);
    void takeSnapshot(const DebugSnapshot& snapshot);
    void installPausedCallback();
    void applyBreakpoints();
    bool m_debugging = false;
    bool m_paused = false;
    bool m_pauseOnError = true;
    bool m_pauseBeforeModel = false;
    std::shared_ptr<pdl::Debugger> m_debugger; ///< the current run's, when debugged
    QMap<QString, QMap<int, BreakpointSpec>> m_breakpoints;
    QStringList m_watches;
    int m_frame = 0;
    DebugSnapshot m_snapshot;
    QString m_forkedFromRun, m_forkedFromNode;
    QString m_divergedAt;
    SourceSpan m_divergedSpan;
};

} // namespace hako
