#pragma once

#include "core/workbench/runcontroller.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace hako {

class BreakpointsView;
class CallStackView;
class WatchView;

/// The Debug pane: where a debugged run is paused, its call stack (a click selects a frame),
/// the watch expressions' values, the breakpoints list, its variables (name and value as JSON; a
/// double click or Enter edits a value) and its background context (a message's content is
/// edited the same way), and a line to answer a model call by hand. Shows the snapshots
/// RunController::paused() delivers; GUI thread only.
class DebugPane : public QWidget {
    Q_OBJECT
public:
    explicit DebugPane(QWidget* parent = nullptr);

    /// Shows `snapshot` (a paused run).
    void showSnapshot(const RunController::DebugSnapshot& snapshot);
    /// The run is going (or over): the pane shows `status` and nothing to edit.
    void showRunning(const QString& status);

    QTreeWidget* variablesView() const { return m_variables; }
    QTreeWidget* contextView() const { return m_context; }
    CallStackView* callStackView() const { return m_stack; }
    WatchView* watchView() const { return m_watches; }
    BreakpointsView* breakpointsView() const { return m_breakpoints; }

Q_SIGNALS:
    /// The person edited a variable's value (YAML/JSON text).
    void setVariableRequested(const QString& name, const QString& valueText);
    /// The person edited the content of message `index` of the context.
    void setContextMessageRequested(int index, const QString& content);
    /// The person typed a reply for the model call the run is paused before.
    void answerRequested(const QString& reply);

private:
    QLabel* m_where;
    QTreeWidget* m_variables;
    QTreeWidget* m_context;
    QLineEdit* m_answer;
    QPushButton* m_answerButton;
    CallStackView* m_stack;
    WatchView* m_watches;
    BreakpointsView* m_breakpoints;
    bool m_filling = false;
};

} // namespace hako
