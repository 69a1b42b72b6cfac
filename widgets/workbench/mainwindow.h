#pragma once

#include <QMainWindow>

#include <functional>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QSettings;

namespace hako {

class DocumentPane;
class EditorPane;
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

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    WorkbenchContext* context() const { return m_context; }
    EditorPane* editorPane() const { return m_editorPane; }
    DocumentPane* documentPane() const { return m_documentPane; }
    /// The agent-memory pane (in a dock, hidden until View › Memory).
    MemoryInspector* memoryInspector() const { return m_memoryInspector; }

    /// Replaces the modal Save/Discard/Cancel dialog (tests answer without blocking).
    void setSaveQuestion(SaveQuestion question) { m_saveQuestion = std::move(question); }
    /// Replaces the Save As file dialog.
    void setSavePathQuestion(SavePathQuestion question)
    {
        m_savePathQuestion = std::move(question);
    }

    /// Opens `path` after offering to save unsaved changes. On failure the error is shown in
    /// the message bar and false returned; the current document stays.
    bool openFile(const QString& path, QString* error = nullptr);
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

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void updateTitle();
    void updateRecentMenu();
    void updateStatus(int line, int column);
    void showAbout();

    WorkbenchContext* m_context;
    EditorPane* m_editorPane;
    DocumentPane* m_documentPane = nullptr;
    QDockWidget* m_memoryDock = nullptr;
    MemoryInspector* m_memoryInspector = nullptr;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<RecentFiles> m_recent;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_positionLabel = nullptr;
    QLabel* m_eolLabel = nullptr;
    SaveQuestion m_saveQuestion;
    SavePathQuestion m_savePathQuestion;
};

} // namespace hako
