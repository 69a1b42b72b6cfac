#pragma once

#include "core/util/latestjob.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>

class QAction;
class QDockWidget;
class QMainWindow;

namespace hako {

class TraceDiffView;
class WorkbenchContext;

namespace pdl {
struct TraceNode;
}

/// Traces › Compare Traces…: asks for two trace files (or one file to compare with the trace
/// the panes show, a live run's or an opened file's), reads and compares them off the GUI
/// thread (a newer comparison supersedes a running one) and shows the result in a "Trace
/// Comparison" dock (TraceDiffView) at the bottom of the window. A trace that cannot be read is
/// reported in the view's message bar and as a status message. GUI thread; wiring only.
///
/// MainWindow wiring (in createMenus, replacing the line that creates the Traces menu):
/// \code
///   QMenu* traces = menuBar()->addMenu(tr("&Traces"));
///   traces->addAction(m_otelReceive->action());
///   auto* diffLinks = new DiffLinks(this, m_context);
///   traces->addActions(diffLinks->actions());
///   connect(diffLinks, &DiffLinks::statusMessage, this,
///           [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout);
///           });
/// \endcode
/// (plus `#include "widgets/workbench/difflinks.h"`; the dock's toggleViewAction() may join
/// the View menu.)
class DiffLinks : public QObject {
    Q_OBJECT
public:
    /// Creates the (hidden) dock in `window`, parented to it; `context` (may be null) gives the
    /// trace the panes show for compareCurrentAction().
    explicit DiffLinks(QMainWindow* window, WorkbenchContext* context = nullptr);
    ~DiffLinks() override;

    /// "Compare Traces…" (two files) and "Compare Shown Trace with File…".
    QList<QAction*> actions() const;
    QAction* compareAction() const { return m_compare; }
    QAction* compareCurrentAction() const { return m_compareCurrent; }
    QDockWidget* dock() const { return m_dock; }
    TraceDiffView* view() const { return m_view; }

public Q_SLOTS:
    /// Asks for two trace files, then compares them.
    void chooseAndCompare();
    /// Asks for a trace file and compares the shown trace with it.
    void chooseAndCompareWithCurrent();
    /// Reads both files on a worker thread and shows their comparison.
    void compareFiles(const QString& left, const QString& right);
    /// Compares the trace the panes show (left) with `right`.
    void compareCurrentWith(const QString& right);
    /// Compares two traces in memory (a run and its re-run), named as given.
    void compareTraces(std::shared_ptr<pdl::TraceNode> left, std::shared_ptr<pdl::TraceNode> right,
                       const QString& leftName, const QString& rightName);

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);
    /// A comparison is on show (tests wait for it).
    void compared();
    /// A comparison failed: `message` names the file.
    void failed(const QString& message);

private:
    struct Outcome;
    void start(std::shared_ptr<pdl::TraceNode> leftTrace, const QString& left,
               std::shared_ptr<pdl::TraceNode> rightTrace, const QString& right,
               const QString& leftName, const QString& rightName);
    void show(const std::shared_ptr<Outcome>& outcome, LatestJob::Ticket ticket);
    QString askForTrace(const QString& title);

    QPointer<QMainWindow> m_window;
    QPointer<WorkbenchContext> m_context;
    QDockWidget* m_dock;
    TraceDiffView* m_view;
    QAction* m_compare;
    QAction* m_compareCurrent;
    LatestJob m_latest;
    QString m_lastDir;
};

} // namespace hako
