#pragma once

// Complete types: the signals carry these pointers, and every connection needs their metatypes.
#include "core/workbench/runcontroller.h"
#include "widgets/editor/editorpane.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <functional>
#include <vector>

class QAction;
class QSplitter;
class QTabWidget;

namespace hako {

class WorkbenchContext;

/// The programs open in the window, each in its tab: its own EditorPane (text, undo history,
/// Prompt view) and its own RunController (its run, its console and its trace), so one program
/// can run while another is edited. The tabs sit in one group, or in two side by side (the split
/// view, to compare two programs). The current program is the current tab of the group that
/// last had the focus; only its editor follows the WorkbenchContext (EditorPane::setActive),
/// and the window's collaborators follow currentChanged().
///
/// Closing asks nothing: closeRequested() lets the window offer to save first, then it calls
/// removeProgram(). A program that is still running when removed is stopped and deleted once
/// its run has ended. There is always at least one program (a blank one takes the last one's
/// place). GUI thread only.
class ProgramTabs : public QWidget {
    Q_OBJECT
public:
    /// `context` (not owned) is handed to every EditorPane. Starts with one blank program.
    explicit ProgramTabs(WorkbenchContext* context, QWidget* parent = nullptr);
    ~ProgramTabs() override;

    EditorPane* currentEditor() const { return m_current; }
    RunController* currentRun() const;
    RunController* runOf(const EditorPane* editor) const;
    /// Every open program, the left group's tabs first.
    QList<EditorPane*> editors() const;
    int count() const { return int(m_sessions.size()); }
    /// Whether any program's run is going.
    bool anyRunning() const;
    /// The program whose file is `path` (EditorPane::isThisFile), or null.
    EditorPane* editorOf(const QString& path) const;
    /// Untitled, unchanged and empty: opening a file may reuse it instead of adding a tab.
    static bool isBlank(const EditorPane* editor);

    /// A new blank program in a tab of the current group, made current.
    EditorPane* addProgram();
    void setCurrentEditor(EditorPane* editor);
    /// Closes the program's tab without asking (see closeRequested()).
    void removeProgram(EditorPane* editor);

    bool isSplit() const;
    /// The split view: on, the current program moves to a second group on the right (a blank
    /// one is made when it is the only program); off, every tab returns to the left group.
    void setSplit(bool split);
    /// Moves the current program to the other group (splitting when needed).
    void moveToOtherSide();
    /// The tab group on the left (0) or right (1).
    QTabWidget* group(int side) const;
    /// The side (0 or 1) whose group holds `editor`; -1 when it is not one of these programs.
    int sideOf(const EditorPane* editor) const;

    /// View menu actions: Close Program (Ctrl+W), Next/Previous Program (Ctrl+PgDown/PgUp,
    /// Ctrl+Tab/Ctrl+Shift+Tab), Split View (Ctrl+\, checkable), Move to Other Side.
    QAction* closeAction() const { return m_closeAction; }
    QAction* nextAction() const { return m_nextAction; }
    QAction* previousAction() const { return m_previousAction; }
    QAction* splitAction() const { return m_splitAction; }
    QAction* moveAction() const { return m_moveAction; }

    /// A window action standing for the current program's own action `of(editor)` (Word Wrap,
    /// Prompt View, Quick Fix…): its text, checked and enabled state follow the current
    /// program's, triggering it triggers that one, and it takes the programs' shortcut (which
    /// they lose, so that a key has one action in the window).
    QAction* mirror(std::function<QAction*(EditorPane*)> of);

Q_SIGNALS:
    /// A program was added (before it becomes current): per-program panes are made for it.
    void programAdded(hako::EditorPane* editor, hako::RunController* run);
    /// A program is being removed (its widgets are still alive).
    void programRemoved(hako::EditorPane* editor, hako::RunController* run);
    /// Another program became current.
    void currentChanged(hako::EditorPane* editor, hako::RunController* run);
    /// The user asked to close `editor`'s tab (its close button, Ctrl+W).
    void closeRequested(hako::EditorPane* editor);
    /// The current program's own signals, and after every currentChanged() its state.
    void currentFilePathChanged(const QString& path);
    void currentModificationChanged(bool modified);
    void currentCursorPositionChanged(int line, int column);
    void currentDiagnosticsChanged(int errors, int warnings);
    void currentTextChanged();

private:
    struct Session {
        EditorPane* editor;
        RunController* run;
        int errors = 0;
        int warnings = 0;
    };
    const Session* sessionOf(const EditorPane* editor) const;
    QTabWidget* makeGroup(int side);
    void updateTab(EditorPane* editor);
    void onGroupCurrentChanged(int side);
    void onFocusChanged(QWidget* now);
    void moveTo(EditorPane* editor, int side);
    void step(int delta);
    void updateActions();

    WorkbenchContext* m_context;
    QSplitter* m_splitter;
    QTabWidget* m_groups[2];
    std::vector<Session> m_sessions;
    EditorPane* m_current = nullptr;
    bool m_moving = false;
    QAction* m_closeAction;
    QAction* m_nextAction;
    QAction* m_previousAction;
    QAction* m_splitAction;
    QAction* m_moveAction;
};

} // namespace hako
