#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QMenu;
class QSettings;
class QWidget;

namespace hako {

class EditorPane;
class ProgramTabs;
class RecentFiles;
class RecoveryStore;

/// The workbench's file handling: opens a path by what it is (detectFileKind) — a program in
/// its own tab of ProgramTabs (the current one when it is blank, the program's tab when it is
/// open already), and for traces, documents and memory stores a request to the pane that shows
/// them —, New/Save/Save As with one "save changes?" question per action, the recent files,
/// the examples and templates, recovery of programs left unsaved by a session that crashed, and
/// files dropped onto the window. Dialogs can be replaced by functions (tests answer without
/// blocking). GUI thread; lives as long as the window it is given.
class FileController : public QObject {
    Q_OBJECT
public:
    /// The answer to "save changes before …?".
    enum class SaveChoice { Save, Discard, Cancel };
    /// Asked before unsaved changes would be lost; receives the document's display name.
    using SaveQuestion = std::function<SaveChoice(const QString& documentName)>;
    /// Asks for a file name (empty = cancelled); receives the suggested path or folder.
    using PathQuestion = std::function<QString(const QString& suggested)>;
    /// Asked at start-up when unsaved programs of an earlier session were found; receives
    /// their names, returns whether to restore them.
    using RecoveryQuestion = std::function<bool(const QStringList& names)>;

    /// Handles the files of `tabs`' programs with `settings` (not owned; recent files, last
    /// folder) and accepts files dropped onto `window` (also the parent of its dialogs).
    FileController(ProgramTabs* tabs, QSettings* settings, QWidget* window);
    ~FileController() override;

    void setSaveQuestion(SaveQuestion question) { m_saveQuestion = std::move(question); }
    void setSavePathQuestion(PathQuestion question) { m_savePathQuestion = std::move(question); }
    void setOpenPathQuestion(PathQuestion question) { m_openPathQuestion = std::move(question); }
    void setRecoveryQuestion(RecoveryQuestion question)
    {
        m_recoveryQuestion = std::move(question);
    }

    /// Opens the program at `path` in a tab (or shows its tab when it is open); on failure the
    /// error is shown in the message bar and false returned; the current program stays.
    bool openFile(const QString& path, QString* error = nullptr);
    /// Opens `path` by what it is: a program as openFile; a trace, a document or a memory store
    /// by emitting the matching request (and adding it to the recent files).
    bool openPath(const QString& path, QString* error = nullptr);
    /// File › Open: asks for a file, then openPath.
    void openWithDialog();
    /// Asks for a file to open in `caption`'s dialog with `filter`; empty when cancelled.
    QString askOpenPath(const QString& caption, const QString& filter) const;
    /// A trace asked for by openPath loaded and names `program`: it opens in a tab (or its tab
    /// comes forward); the trace stays on show. A trace naming a program that is not found says
    /// so; one naming none (OpenTelemetry) says nothing.
    void openProgramOfTrace(const QString& tracePath, const QString& program,
                            bool namesProgram = true);
    /// File › New: a blank program in a new tab (the current one when it is blank).
    bool newFile();
    /// File › Close Program: offers to save `editor`'s changes (the current program when null),
    /// then closes its tab; false when the user cancelled.
    bool closeProgram(EditorPane* editor = nullptr);
    /// File › New from Template…: shows the TemplateDialog (window-modal, not blocking); Create
    /// calls newFromTemplate() with the chosen one.
    void newFromTemplateDialog();
    /// Opens template `id` (from :/templates) as a new, unnamed, modified program in a tab, as
    /// New does; the message bar says what to change.
    bool newFromTemplate(const QString& id);
    /// Saves to the current file (asking for a name if it has none).
    bool save();
    /// Asks for a file name and saves there.
    bool saveAs();
    /// Saves to `path` without asking and makes it the current file.
    bool saveTo(const QString& path);
    /// Offers to save `editor`'s unsaved changes (the current program when null; its tab comes
    /// forward first); true when it is fine to discard the program.
    bool maybeSave(EditorPane* editor = nullptr);
    /// maybeSave() for every open program (closing the window); false at the first Cancel.
    bool maybeSaveAll();
    /// The language of the templates' texts: HAKO_LANGUAGE, else the `ui/language` setting,
    /// else the system locale.
    QString templateLanguage() const;
    /// Opens a copy of the example `fileName` (from :/examples) in the editor; examples that
    /// need a model explain how to connect one in the message bar.
    bool openExample(const QString& fileName);
    /// Offers to restore programs left unsaved by a session that crashed or was killed: each
    /// opens in its own tab (the newest last, so it is the current one); copies that cannot be
    /// read are skipped and said in the message bar. Returns the number restored.
    int offerRecovery();
    /// The editors stop writing recovery copies (before the window goes).
    void detachRecovery();

    /// The open programs as they are (Settings › Language rebuilds the window with them): each
    /// one's file, unsaved text, cursor, view and side, in tab order, and the current one.
    struct OpenPrograms {
        struct Program {
            QString path;
            QString text;
            bool modified = false;
            bool prompt = false;
            int line = 0;
            int index = 0;
            int side = 0;
        };
        QList<Program> programs;
        int current = 0;
    };
    OpenPrograms openPrograms() const;
    /// Opens them again as they were: files read anew, unsaved text put back (as changes).
    void reopen(const OpenPrograms& open);

    QStringList recentFiles() const;
    /// Adds New, New from Template…, Open Document…, Open…, Open Recent, Open Trace…, Recover
    /// Unsaved, Save, Save As… and Close Program to the File menu `file`.
    void populateFileMenu(QMenu* file);
    /// Fill the File › Open Recent, File › Recover Unsaved and Help › Examples menus.
    void populateRecentMenu(QMenu* menu);
    void populateRecoveryMenu(QMenu* menu);
    void populateExamplesMenu(QMenu* menu);

Q_SIGNALS:
    /// openPath found a trace, a document or a memory store: the pane that shows it opens it.
    void traceOpenRequested(const QString& path);
    void documentOpenRequested(const QString& path);
    void memoryStoreOpenRequested(const QString& path);
    /// A Jupyter notebook was chosen: the Notebook pane opens it.
    void notebookOpenRequested(const QString& path);
    /// A program was opened in the editor; `isTracesProgram`: it is the program of the trace
    /// file on show (openProgramOfTrace), which stays.
    void programOpened(const QString& path, bool isTracesProgram);
    void statusMessage(const QString& text, int timeout);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool loadProgram(const QString& path, QString* error, bool isTracesProgram = false);
    /// The current program when it is blank, else a new tab.
    EditorPane* blankProgram();
    /// Undoes blankProgram() when nothing was put in it.
    void dropIfUnused(EditorPane* editor, EditorPane* previous);
    EditorPane* editor() const;
    bool saveProgram(EditorPane* editor);
    bool saveProgramAs(EditorPane* editor);
    bool restoreEntry(const QString& bufferId);
    QString lastDirectory() const;

    ProgramTabs* m_tabs;
    QSettings* m_settings;
    QWidget* m_window;
    std::unique_ptr<RecentFiles> m_recent;
    std::unique_ptr<RecoveryStore> m_recovery;
    QString m_traceWantingProgram;
    SaveQuestion m_saveQuestion;
    PathQuestion m_savePathQuestion;
    PathQuestion m_openPathQuestion;
    RecoveryQuestion m_recoveryQuestion;
};

} // namespace hako
