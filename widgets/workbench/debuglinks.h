#pragma once

#include "core/pdl/debug/debugger.h"

#include <QObject>
#include <QPointer>
#include <QToolBar>

#include <functional>
#include <optional>

class QAction;
class QMenu;

namespace hako {

class DebugPane;
class EditorPane;
class ProgramTabs;
class RunActions;
class RunController;
class WorkbenchContext;

/// The debugger in the window: Run › Debug Program (F6), Continue (F8, or F5 while paused), Step
/// Over (F10), Step Into (F11), Step Out (Shift+F11), Run to Cursor (Ctrl+F10), Pause, Toggle
/// Breakpoint (F9), Breakpoint Condition… (pause only when an expression such as `i == 3` is true),
/// Pause on Errors, Pause Before Model Calls; the editor's breakpoint margin (click for a red dot)
/// feeds the run's breakpoints, the paused line is highlighted in the editor, and the Debug pane
/// shows the paused run's variables (editable) and context and answers a model call by hand. Runs
/// start through RunActions (so trust and saving work as for Run). GUI thread; wiring only: the
/// run's worker pauses, never the GUI thread.
/// The commands act on the current program of ProgramTabs (a paused run in another tab shows
/// when its tab comes forward). The Debug pane's call stack selects the frame whose variables
/// and watch values show (and moves the editor to it), its watch expressions are kept per
/// program, its breakpoints list turns breakpoints on and off and edits conditions and
/// logpoints; while paused, hovering a variable in the editor shows its value.
class DebugLinks : public QObject {
    Q_OBJECT
public:
    DebugLinks(ProgramTabs* tabs, RunActions* runActions, QObject* parent = nullptr);
    ~DebugLinks() override;

    /// The Debug pane (unparented until docked; deleted with this object if never docked).
    DebugPane* pane() const { return m_pane; }
    void populateMenu(QMenu* menu);

    QAction* debugAction() const { return m_debug; }
    QAction* continueAction() const { return m_continue; }
    QAction* stepOverAction() const { return m_stepOver; }
    QAction* stepIntoAction() const { return m_stepInto; }
    QAction* stepOutAction() const { return m_stepOut; }
    QAction* pauseAction() const { return m_pause; }
    QAction* toggleBreakpointAction() const { return m_toggleBreakpoint; }
    QAction* breakpointConditionAction() const { return m_condition; }
    QAction* runToCursorAction() const { return m_runToCursor; }
    QAction* stopAction() const { return m_stop; }
    /// The Debug toolbar: Debug, Continue, Step Over/Into/Out, Pause, Stop (unparented until
    /// the window adds it).
    QToolBar* toolBar() const { return m_toolBar; }

    /// How Breakpoint Condition… asks for the condition of the breakpoint on `line` (showing
    /// `current`): nullopt when the person cancels. Tests replace the dialog.
    using ConditionQuestion =
        std::function<std::optional<QString>(int line, const QString& current)>;
    void setConditionQuestion(ConditionQuestion ask) { m_askCondition = std::move(ask); }
    /// The panes' context: a pause selects the paused block's box (or, before it has started,
    /// its enclosing block's) as the current node.
    void setWorkbenchContext(WorkbenchContext* context);

public Q_SLOTS:
    /// Runs the editor's program under the debugger; false when it did not start.
    bool debugProgram();

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);

private:
    /// Follows the current program: its editor's breakpoints, its run's pauses.
    void setProgram(EditorPane* editor, RunController* run);
    void syncBreakpoints();
    void onPaused();
    void onResumed();
    void onFinished();
    void updateActions();
    QString programFile() const;
    /// Why `condition` cannot be a breakpoint's condition (it does not parse), or empty.
    static QString conditionProblem(const QString& condition);
    std::optional<QString> askCondition(int line, const QString& current);
    // The call stack, watch and breakpoints views (debuglinksviews.cpp).
    void setUpViews();
    void linkViews();
    void showBreakpointList();
    void changeBreakpoint(int line, const pdl::BreakpointSpec& spec);
    void selectFrame(int index);
    void loadWatches();
    void saveWatches(const QStringList& expressions);
    QString hoverValue(const QString& word) const;

    RunController* m_run;
    RunActions* m_runActions;
    EditorPane* m_editor;
    // The connections to the current program's editor and run go with it.
    QObject* m_link = nullptr;
    QPointer<DebugPane> m_pane;
    QPointer<WorkbenchContext> m_context;
    QAction* m_debug;
    QAction* m_continue;
    QAction* m_stepOver;
    QAction* m_stepInto;
    QAction* m_stepOut;
    QAction* m_pause;
    QAction* m_toggleBreakpoint;
    QAction* m_condition;
    QAction* m_runToCursor;
    ConditionQuestion m_askCondition;
    QAction* m_pauseOnError;
    QAction* m_pauseBeforeModel;
    QAction* m_stop = nullptr;
    QPointer<QToolBar> m_toolBar;
};

} // namespace hako
