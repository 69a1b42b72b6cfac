#pragma once

#include "core/util/diagnostic.h"

#include <QMainWindow>

#include <functional>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QSettings;
class QTimer;

namespace hako {

class BoxView;
class ConsolePane;
class RecoveryStore;
namespace pdl {
class TraceLoader;
class TraceModel;
} // namespace pdl
class DocumentPane;
class EditorPane;
class RunController;
class MemoryInspector;
class RecentFiles;
class WorkbenchContext;

/// The workbench window: menus, status bar and the panes, wired to one WorkbenchContext. It
/// holds no business logic (file handling is in EditorPane/ProgramFile). GUI thread only.
///
/// Settings (geometry, window state, recent files) go to the default QSettings of the
/// application (organisation "Hako", application "Hako" in the real program).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// The answer to "save changes before …?".
    enum class SaveChoice { Save, Discard, Cancel };
    /// Asked before unsaved changes would be lost; receives the document's display name.
    using SaveQuestion = std::function<SaveChoice(const QString& documentName)>;
    /// Asks for a file name to save to (empty = cancelled); receives the suggested path.
    using SavePathQuestion = std::function<QString(const QString& suggested)>;
    /// The answer to "this program runs code on your machine; run it?".
    enum class TrustChoice { RunOnce, TrustFolder, Cancel };
    /// Asked before running a program with code blocks from an untrusted folder; receives the
    /// program file (empty for an unsaved program) and its folder.
    using TrustQuestion = std::function<TrustChoice(const QString& file, const QString& folder)>;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    WorkbenchContext* context() const { return m_context; }
    EditorPane* editorPane() const { return m_editorPane; }
    DocumentPane* documentPane() const { return m_documentPane; }
    /// The agent-memory pane (in a dock, hidden until View › Memory).
    MemoryInspector* memoryInspector() const { return m_memoryInspector; }

    /// Replaces the modal Save/Discard/Cancel dialog (tests answer without blocking).
    void setSaveQuestion(SaveQuestion question) { m_saveQuestion = std::move(question); }
    /// Asked at start-up when unsaved programs of an earlier session were found; receives their
    /// names, returns whether to restore them.
    using RecoveryQuestion = std::function<bool(const QStringList& names)>;
    void setRecoveryQuestion(RecoveryQuestion question)
    {
        m_recoveryQuestion = std::move(question);
    }
    /// Replaces the trust dialog shown before running code from an untrusted folder.
    void setTrustQuestion(TrustQuestion question) { m_trustQuestion = std::move(question); }
    /// Replaces the Save As file dialog.
    void setSavePathQuestion(SavePathQuestion question)
    {
        m_savePathQuestion = std::move(question);
    }
    /// Replaces the File › Open dialog (receives the folder it would start in).
    void setOpenPathQuestion(SavePathQuestion question)
    {
        m_openPathQuestion = std::move(question);
    }
    /// Writes the window's geometry and dock layout to the settings now (also done shortly
    /// after every change, so that a crash or kill keeps the layout).
    void saveLayout();

    /// Opens `path` after offering to save unsaved changes. On failure the error is shown in
    /// the message bar and false returned; the current document stays.
    bool openFile(const QString& path, QString* error = nullptr);
    /// Opens `path` by what it is (detectFileKind): a program in the editor (offering to save
    /// first), a trace in the trace panes (with its program beside it when the trace names one
    /// that exists and the editor has no unsaved changes), a document in Documents, a memory
    /// store in Memory. What `hako FILE`, File › Open and a drop onto the window do.
    bool openPath(const QString& path, QString* error = nullptr);
    /// Starts a new program after offering to save unsaved changes.
    bool newFile();
    /// Saves to the current file (asking for a name if it has none).
    bool save();
    /// Asks for a file name and saves there.
    bool saveAs();
    /// Saves to `path` without asking and makes it the current file.
    bool saveTo(const QString& path);
    /// Offers to save unsaved changes; true when it is fine to discard the document.
    bool maybeSave();

    /// The files currently listed under File › Open Recent.
    QStringList recentFiles() const;

    RunController* runController() const { return m_run; }
    BoxView* boxView() const { return m_boxView; }
    /// Opens a trace file (Hako's or the reference's) in every trace pane; loads in the
    /// background with progress, and reloads when the file changes.
    void openTrace(const QString& path);
    /// The model of trace files opened with openTrace.
    pdl::TraceModel* fileTraceModel() const { return m_fileTrace; }
    pdl::TraceLoader* traceLoader() const { return m_traceLoader; }
    /// Writes the last run's trace to `path`; false with the reason shown when it cannot.
    bool saveTrace(const QString& path);
    /// Offers to restore programs left unsaved by a session that crashed or was killed: the
    /// newest one opens in the editor, the others stay under File › Recover Unsaved. Returns
    /// the number restored (0 or 1).
    int offerRecovery();
    ConsolePane* consolePane() const { return m_console; }
    /// Runs the editor's program (F5): asks about code from untrusted folders first. Returns
    /// false when nothing was started (already running, or the user declined).
    bool runProgram();
    /// Stops the running program (Shift+F5).
    void stopProgram();
    /// Opens a copy of the example `fileName` (from :/examples) in the editor; examples that need
    /// a model explain how to connect one in the message bar.
    bool openExample(const QString& fileName);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void moveEvent(QMoveEvent* event) override;

private:
    bool loadProgram(const QString& path, QString* error);
    void openProgramOfTrace(const QString& tracePath);
    void showTraceModel(pdl::TraceModel* model);
    void updateTraceTitle();
    void createActions();
    void createRunActions();
    void createTraceDocks();
    void populateRecoveryMenu(QMenu* menu);
    bool restoreEntry(const QString& bufferId);
    QDockWidget* addPaneDock(QWidget* pane, const QString& title, const QString& objectName,
                             Qt::DockWidgetArea area);
    void populateExamplesMenu(QMenu* menu);
    void onRunFinished(bool ok, const QString& result, const Diagnostic& error);
    void updateTitle();
    void updateRecentMenu();
    void updateStatus(int line, int column);
    void showAbout();

    WorkbenchContext* m_context;
    EditorPane* m_editorPane;
    DocumentPane* m_documentPane = nullptr;
    QDockWidget* m_docsDock = nullptr;
    QDockWidget* m_memoryDock = nullptr;
    MemoryInspector* m_memoryInspector = nullptr;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<RecentFiles> m_recent;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_positionLabel = nullptr;
    QLabel* m_eolLabel = nullptr;
    RunController* m_run = nullptr;
    std::unique_ptr<RecoveryStore> m_recovery;
    BoxView* m_boxView = nullptr;
    pdl::TraceModel* m_fileTrace = nullptr;
    pdl::TraceLoader* m_traceLoader = nullptr;
    QDockWidget* m_traceDock = nullptr;
    QDockWidget* m_treeDock = nullptr;
    QDockWidget* m_timelineDock = nullptr;
    QDockWidget* m_detailDock = nullptr;
    QDockWidget* m_variablesDock = nullptr;
    ConsolePane* m_console = nullptr;
    QDockWidget* m_consoleDock = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_sandboxAction = nullptr;
    QMenu* m_viewMenu = nullptr;
    SaveQuestion m_saveQuestion;
    TrustQuestion m_trustQuestion;
    bool m_defaultLayoutPending = false;
    QString m_traceWantingProgram;
    // The failed run's message and the program text it ran: the message goes once the text has
    // changed and the live check finds no error (the error was fixed), not at the next run only.
    QString m_runError;
    QString m_runText; // a trace opened by openPath: open its program once loaded
    RecoveryQuestion m_recoveryQuestion;
    SavePathQuestion m_savePathQuestion;
    SavePathQuestion m_openPathQuestion;
    QTimer* m_layoutTimer = nullptr;
};

} // namespace hako
