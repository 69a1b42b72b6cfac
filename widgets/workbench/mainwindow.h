#pragma once

#include "widgets/workbench/filecontroller.h"
#include "widgets/workbench/runactions.h"

#include <QMainWindow>

#include <memory>

class QDockWidget;
class QStackedWidget;
class QLabel;
class QSettings;

namespace hako {

class BoxView;
class ConsolePane;
namespace pdl {
class TraceLoader;
class TraceModel;
} // namespace pdl
class DockLayout;
class DocumentPane;
class EditorPane;
class RunController;
class MemoryInspector;
class DatasetPane;
class EvalLinks;
class LibraryLinks;
class StartPage;
class DebugLinks;
class EvalResultsPane;
class OtelReceive;
class PlaygroundLinks;
class PlaygroundPane;
class PromptLogPane;
class ProgramStack;
class ProgramTabs;
class TraceDocks;
class ShapeLinks;
class WorkbenchContext;

/// The workbench window: the open programs in the centre (ProgramTabs: a tab each, with its
/// own editor and run; two side by side in the split view), the panes in their docks, each
/// handed the one WorkbenchContext, and menus and status bar wired to the objects that do the
/// work — FileController (opening by kind, saving, recent files, recovery), TraceDocks (the
/// trace panes and what they show), RunActions (running, trust, run errors), EditMenu and
/// DockLayout (saved and first-start layout). The per-program panes (Console, Problems,
/// Outline) show the current program's page (ProgramStack). GUI thread only.
///
/// Settings (geometry, window state, recent files) go to the default QSettings of the
/// application (organisation "Hako", application "Hako" in the real program).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    using SaveChoice = FileController::SaveChoice;
    using SaveQuestion = FileController::SaveQuestion;
    using SavePathQuestion = FileController::PathQuestion;
    using RecoveryQuestion = FileController::RecoveryQuestion;
    using TrustChoice = RunActions::TrustChoice;
    using TrustQuestion = RunActions::TrustQuestion;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    WorkbenchContext* context() const { return m_context; }
    /// The current program's editor (ProgramTabs: one per open program).
    EditorPane* editorPane() const;
    ProgramTabs* programTabs() const { return m_tabs; }
    DocumentPane* documentPane() const { return m_documentPane; }
    /// The agent-memory pane (in a dock, hidden until View › Memory).
    MemoryInspector* memoryInspector() const { return m_memoryInspector; }
    PromptLogPane* promptLogPane() const { return m_promptLogPane; }
    PlaygroundPane* playgroundPane() const { return m_playgroundPane; }
    PlaygroundLinks* playgroundLinks() const { return m_playgroundLinks; }
    OtelReceive* otelReceive() const { return m_otelReceive; }
    DatasetPane* datasetPane() const { return m_datasetPane; }
    EvalResultsPane* evalResultsPane() const { return m_evalPane; }
    EvalLinks* evalLinks() const { return m_evalLinks; }
    FileController* files() const { return m_files; }
    RunActions* runActions() const { return m_runActions; }
    TraceDocks* traceDocks() const { return m_traces; }
    /// The Graph and Flame panes (the agent's shape).
    ShapeLinks* shapeLinks() const { return m_shapeLinks; }
    DockLayout* dockLayout() const { return m_layout; }
    /// The current program's run and console.
    RunController* runController() const;
    ConsolePane* consolePane() const;
    BoxView* boxView() const;
    /// The model of trace files opened with openTrace, and its loader.
    pdl::TraceModel* fileTraceModel() const;
    pdl::TraceLoader* traceLoader() const;

    /// Replace the modal dialogs (tests answer without blocking): Save/Discard/Cancel, the
    /// trust question, Save As, File › Open (receives the folder it would start in) and the
    /// offer to restore unsaved programs.
    void setSaveQuestion(SaveQuestion question);
    void setTrustQuestion(TrustQuestion question);
    void setSavePathQuestion(SavePathQuestion question);
    void setOpenPathQuestion(SavePathQuestion question);
    void setRecoveryQuestion(RecoveryQuestion question);

    /// Writes the window's geometry and dock layout to the settings now (also done shortly
    /// after every change, so that a crash or kill keeps the layout).
    void saveLayout();

    /// File operations (FileController): a program in the editor, or any file by its kind.
    bool openFile(const QString& path, QString* error = nullptr);
    bool openPath(const QString& path, QString* error = nullptr);
    /// Help › Getting Started: the start page in place of the editor until a program opens.
    void showStartPage();
    /// The editor back in the window's centre.
    void showEditor();
    /// At start-up without a file: the start page, unless the user turned it off or the
    /// editor already holds a program. Whether it shows.
    bool showStartPageIfIdle();
    StartPage* startPage() const { return m_start; }
    DebugLinks* debugLinks() const { return m_debugLinks; }
    bool newFile();
    bool save();
    bool saveAs();
    bool saveTo(const QString& path);
    bool maybeSave();
    QStringList recentFiles() const;
    int offerRecovery();
    bool openExample(const QString& fileName);
    /// Opens a trace file in every trace pane (TraceDocks::openTrace).
    void openTrace(const QString& path);

    /// Settings › Language without a restart: a new window built in the new language takes over
    /// this one's program (its unsaved text, cursor and view; the dock layout is saved and
    /// restored), and this one closes without asking to save. Returns the new window (shown).
    static MainWindow* rebuild(MainWindow* old);

    /// Run operations (RunActions): F5, Shift+F5, Run › Save Trace As.
    bool runProgram();
    void stopProgram();
    bool saveTrace(const QString& path);

Q_SIGNALS:
    /// The language changed while nothing runs: whoever owns the window may rebuild() it.
    void rebuildRequested();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createDocks();
    void createMenus();
    /// The title, the cursor position label and the Problems dock's title follow the current
    /// program.
    void followCurrentProgram();
    QDockWidget* addPaneDock(QWidget* pane, const QString& title, const QString& objectName);
    void updateTitle();
    void showAbout();
    void showModelSettings();

    WorkbenchContext* m_context;
    ProgramTabs* m_tabs;
    std::unique_ptr<QSettings> m_settings;
    FileController* m_files;
    TraceDocks* m_traces = nullptr;
    ShapeLinks* m_shapeLinks = nullptr;
    RunActions* m_runActions = nullptr;
    DockLayout* m_layout = nullptr;
    DocumentPane* m_documentPane = nullptr;
    MemoryInspector* m_memoryInspector = nullptr;
    ProgramStack* m_console = nullptr;
    QDockWidget* m_docsDock = nullptr;
    QDockWidget* m_memoryDock = nullptr;
    PromptLogPane* m_promptLogPane = nullptr;
    QDockWidget* m_promptLogDock = nullptr;
    PlaygroundPane* m_playgroundPane = nullptr;
    QDockWidget* m_playgroundDock = nullptr;
    PlaygroundLinks* m_playgroundLinks = nullptr;
    OtelReceive* m_otelReceive = nullptr;
    DatasetPane* m_datasetPane = nullptr;
    QDockWidget* m_datasetsDock = nullptr;
    EvalResultsPane* m_evalPane = nullptr;
    QDockWidget* m_evalDock = nullptr;
    EvalLinks* m_evalLinks = nullptr;
    LibraryLinks* m_library = nullptr;
    StartPage* m_start = nullptr;
    DebugLinks* m_debugLinks = nullptr;
    QDockWidget* m_debugDock = nullptr;
    QDockWidget* m_outlineDock = nullptr;
    QStackedWidget* m_central = nullptr;
    bool m_closingForRebuild = false;
    QDockWidget* m_consoleDock = nullptr;
    QDockWidget* m_problemsDock = nullptr;
    QLabel* m_positionLabel = nullptr;
    QLabel* m_eolLabel = nullptr;
};

} // namespace hako
