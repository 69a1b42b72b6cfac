#pragma once

#include "core/workbench/runcontroller.h"

#include <QTreeWidget>
#include <QWidget>

class QLineEdit;
class QPushButton;

namespace hako {

/// The call stack of a paused run: the paused block on top, then each block enclosing it out
/// to the program's root, as `call square  prog.pdl:14`. Clicking a row selects that frame.
class CallStackView : public QTreeWidget {
    Q_OBJECT
public:
    explicit CallStackView(QWidget* parent = nullptr);
    /// Shows `stack` (innermost first) with row `selected` current.
    void showStack(const std::vector<pdl::StackFrame>& stack, int selected);
    void clearStack();
    const std::vector<pdl::StackFrame>& stack() const { return m_stack; }

Q_SIGNALS:
    /// The person picked frame `index` (0: the paused block).
    void frameSelected(int index);

private:
    std::vector<pdl::StackFrame> m_stack;
    bool m_filling = false;
};

/// Watch expressions: a list of PDL expressions (`i * 2`, `${ answer.score }`) with their
/// values in the selected frame of the paused run; a line adds one, a double click edits one,
/// Remove (or Delete) drops the selected one. An expression that fails shows its error.
class WatchView : public QWidget {
    Q_OBJECT
public:
    explicit WatchView(QWidget* parent = nullptr);
    QStringList expressions() const;
    /// Replaces the expressions (values are blank until the next pause).
    void setExpressions(const QStringList& expressions);
    /// Shows the values of a pause (matched by row).
    void showValues(const QList<RunController::WatchValue>& values);
    /// Not paused: the values are blank.
    void clearValues();
    QTreeWidget* list() const { return m_list; }
    QLineEdit* addLine() const { return m_add; }
    /// Adds `expression` (ignored when blank) and says so.
    void addExpression(const QString& expression);
    void removeSelected();

Q_SIGNALS:
    /// The person added, edited or removed an expression: all of them.
    void expressionsChanged(const QStringList& expressions);

private:
    QTreeWidget* m_list;
    QLineEdit* m_add;
    QPushButton* m_remove;
    bool m_filling = false;
};

/// Every breakpoint of the program: a check box turns it on or off, its condition and
/// logpoint message are edited in place (double click), a click goes to its line, Remove and
/// Remove All drop them.
class BreakpointsView : public QWidget {
    Q_OBJECT
public:
    explicit BreakpointsView(QWidget* parent = nullptr);
    /// Shows the breakpoints of `file`, by line.
    void showBreakpoints(const QString& file, const QMap<int, pdl::BreakpointSpec>& breakpoints);
    QTreeWidget* list() const { return m_list; }
    QPushButton* removeButton() const { return m_remove; }
    QPushButton* removeAllButton() const { return m_removeAll; }

Q_SIGNALS:
    /// The person changed the breakpoint on `line` (turned it off, edited its condition or
    /// message).
    void breakpointChanged(int line, const pdl::BreakpointSpec& spec);
    void removeRequested(int line);
    void removeAllRequested();
    /// The person clicked the breakpoint on `line`.
    void lineActivated(int line);

private:
    pdl::BreakpointSpec specOf(const QTreeWidgetItem* item) const;

    QTreeWidget* m_list;
    QPushButton* m_remove;
    QPushButton* m_removeAll;
    bool m_filling = false;
};

} // namespace hako
