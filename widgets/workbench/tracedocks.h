#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QDockWidget;
class QMainWindow;

namespace hako {

class BoxView;
class OtelRunList;
class RunController;
class WorkbenchContext;
namespace otel {
struct RunRow;
struct TraceSummary;
} // namespace otel
namespace pdl {
class TraceLoader;
class TraceModel;
struct TraceNode;
} // namespace pdl

/// The trace panes of the workbench window — boxes (with their load strip), tree, timeline,
/// detail and variables — each in its dock, all following one WorkbenchContext; and which trace
/// they show: the live run's or a trace file's (loaded in the background, reloaded when the file
/// changes). The Trace dock's title names what is shown. GUI thread; the docks belong to the
/// window, the file trace model and its loader to this object.
class TraceTreeView;

class TraceDocks : public QObject {
    Q_OBJECT
public:
    /// Creates the docks in `window` (boxes, detail and variables on the right, tree and
    /// timeline at the bottom). `run`'s trace is the live one.
    TraceDocks(QMainWindow* window, WorkbenchContext* context, RunController* run);

    QDockWidget* traceDock() const { return m_traceDock; }
    QDockWidget* treeDock() const { return m_treeDock; }
    QDockWidget* timelineDock() const { return m_timelineDock; }
    QDockWidget* detailDock() const { return m_detailDock; }
    QDockWidget* variablesDock() const { return m_variablesDock; }
    /// The runs of an OTLP file or of the live receiver (OtelRunList).
    QDockWidget* runsDock() const { return m_runsDock; }
    OtelRunList* runList() const { return m_runList; }
    /// Every trace dock, in View menu order.
    QList<QDockWidget*> docks() const;
    BoxView* boxView() const { return m_boxView; }
    TraceTreeView* treeView() const { return m_treeView; }
    /// The model of trace files opened with openTrace.
    pdl::TraceModel* fileTraceModel() const { return m_fileTrace; }
    pdl::TraceLoader* traceLoader() const { return m_loader; }

    /// Loads a trace file (Hako's or the reference's) into every trace pane.
    void openTrace(const QString& path);
    /// Lists runs in the Runs dock (shown) with `heading`; picking one calls `open` with its
    /// trace id. What a file or the live receiver calls whenever its runs change.
    void showRuns(const QString& heading, const std::vector<otel::TraceSummary>& runs,
                  const std::string& shown, std::function<void(const QString&)> open);
    /// Builds the tree of a listed run (for Compare), on the GUI thread; null when it is gone.
    using RunBuilder = std::function<std::shared_ptr<pdl::TraceNode>(const QString& id)>;
    /// As above with the Runs list's rows (tokens, sessions, users); `build` gives a run's
    /// tree for Compare.
    /// `slowBuild`: `build` reads a file or a store, so it runs off the GUI thread.
    void showRuns(const QString& heading, const std::vector<otel::RunRow>& runs,
                  const std::string& shown, std::function<void(const QString&)> open,
                  RunBuilder build, bool slowBuild = false);
    /// The tree of listed run `id` (null when the runs give no trees or it is gone).
    std::shared_ptr<pdl::TraceNode> buildRun(const QString& id) const
    {
        return m_buildRun ? m_buildRun(id) : nullptr;
    }
    /// Whether the listed runs' trees are read again from a file or a store (buildRun may then
    /// run on any thread, and should not run on the GUI thread).
    bool runsAreAFile() const { return m_runsOfFile || m_slowBuild; }
    WorkbenchContext* context() const { return m_context; }
    RunBuilder runBuilder() const { return m_buildRun; }
    /// Makes `model` the trace every pane shows.
    void showTrace(pdl::TraceModel* model);
    /// Shows the live run's trace (when a run starts).
    void showRunTrace();
    /// Another program became current: its run's trace is the live one, and is shown unless
    /// a trace file is on show and that run has no trace yet.
    void setRun(RunController* run);
    /// Renames the Trace dock after what it shows ("Trace — run of x.pdl", "Trace — x.json").
    void updateTitle();
    /// A program was opened in the editor. The previous program's run trace would describe
    /// another program, so the panes start empty (unless a run goes on); `keepFileTrace`: the
    /// program is the one the shown trace file names, which stays on show.
    void programOpened(bool keepFileTrace);

Q_SIGNALS:
    /// A trace file loaded; `program` is the absolute path of the program its root names when
    /// that file exists (else empty); `namesProgram`: the root names one at all (an
    /// OpenTelemetry trace has none).
    void traceLoaded(const QString& path, const QString& program, bool namesProgram);
    void statusMessage(const QString& text, int timeout);

private:
    WorkbenchContext* m_context;
    RunController* m_run;
    pdl::TraceModel* m_fileTrace;
    pdl::TraceLoader* m_loader;
    BoxView* m_boxView = nullptr;
    TraceTreeView* m_treeView = nullptr;
    QDockWidget* m_traceDock = nullptr;
    QDockWidget* m_treeDock = nullptr;
    QDockWidget* m_timelineDock = nullptr;
    QDockWidget* m_detailDock = nullptr;
    QDockWidget* m_variablesDock = nullptr;
    QDockWidget* m_runsDock = nullptr;
    OtelRunList* m_runList = nullptr;
    std::function<void(const QString&)> m_openRun;
    RunBuilder m_buildRun;
    bool m_runsOfFile = false; ///< the Runs dock lists a trace file's runs
    bool m_slowBuild = false;  ///< the listed runs' builder reads a store

    void listFileRuns(const QString& path);
    void openFileRun(const QString& path, const QString& traceId);
};

} // namespace hako
