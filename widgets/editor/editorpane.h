#pragma once

#include "core/util/diagnostic.h"
#include "core/workbench/recoverystore.h"

#include <QTimer>
#include <QWidget>

#include <memory>

class QAction;
class QSplitter;
class QStackedWidget;
class QToolButton;

namespace hako {

namespace pdl {
struct ProgramReport;
}

class EditorAnalysis;
class FindBar;
class MessageBar;
class PdlEditor;
class ProblemsView;
class QuickFixMenu;
class PromptView;
class WorkbenchContext;

/// One program document: the editor with its message bar, find bar and Problems list. Loads and
/// saves through ProgramFile, shows load/save errors inline, and publishes the current program
/// path to the WorkbenchContext. Live diagnostics: ~40 ms after typing stops the text is checked
/// off the GUI thread (EditorAnalysis) and the squiggles, margin markers and Problems list
/// follow. With a RecoveryStore it autosaves unsaved changes every few seconds and removes the
/// copy on save and close. Linked to the WorkbenchContext both ways: revealSourceRequested and
/// currentNodeChanged select the span in the editor (when it is in this file), and cursor moves
/// are published with setSourceCursor. GUI thread only.
///
/// The main window places problemsView() (in the pane by default; moving it into a dock with
/// QDockWidget::setWidget is fine), calls setRecoveryStore() once, and at start-up lists
/// RecoveryStore::list(), asks the user, and calls restoreRecovery() for each accepted entry.
class EditorPane : public QWidget {
    Q_OBJECT
public:
    /// `context` is not owned and must outlive the pane (may be null in tests).
    explicit EditorPane(WorkbenchContext* context, QWidget* parent = nullptr);
    /// Removes the recovery copy: closing the pane is the user's decision about its changes.
    ~EditorPane() override;

    PdlEditor* editor() const { return m_editor; }
    FindBar* findBar() const { return m_findBar; }
    /// Quick Fix… (Ctrl+.) on the editor: the fixes of the problems on the cursor's line.
    QuickFixMenu* quickFix() const { return m_quickFix; }
    MessageBar* messageBar() const { return m_messageBar; }
    /// View › Word Wrap: long lines (prompts) wrap at the window's edge, continued lines
    /// indented; on by default, remembered (QSettings `editor/wordWrap`).
    QAction* wordWrapAction() const { return m_wordWrap; }
    ProblemsView* problemsView() const { return m_problems; }
    /// The Prompt view of the same document (shown instead of the editor in Prompt mode). Its
    /// edits go through the editor, so undo and saving cover both views.
    PromptView* promptView() const { return m_promptView; }
    /// The "Prompt / YAML" switch (Ctrl+Shift+Y): checked shows the Prompt view. Remembered per
    /// file (QSettings `editor/promptMode/<hash of the path>`); YAML by default.
    QAction* promptModeAction() const { return m_promptMode; }
    bool isPromptMode() const;
    void setPromptMode(bool prompt);
    EditorAnalysis* analysis() const { return m_analysis; }

    /// Starts an empty, unnamed, unmodified program.
    void newDocument();
    /// Loads `path`. On failure keeps the current document, shows the error in the message bar,
    /// stores it in `error` (if given) and returns false.
    bool openFile(const QString& path, QString* error = nullptr);
    /// Saves to the current path; false (with the error shown) if it fails or there is no path.
    bool save(QString* error = nullptr);
    /// Saves to `path` and makes it the current path on success. A program's missing prompt
    /// ids (core/pdl/promptidentity.h) are written first, see ensurePromptIds().
    bool saveAs(const QString& path, QString* error = nullptr);
    /// Inserts the prompt ids the program lacks (`# hako-prompt:` comment lines) through the
    /// editor, as one undoable edit that keeps the cursor where it was; true when it inserted
    /// any. Only for PDL programs: `.pdl` files, unnamed buffers, and YAML files that read as a
    /// program with model blocks (never JSON, which has no comments). Saving calls it; so does
    /// running an unnamed program, so that its calls keep their prompts once it is saved.
    bool ensurePromptIds(const QString& path);

    /// Absolute path of the document, empty for a new one.
    QString filePath() const { return m_filePath; }
    /// Whether `file` is this program's file (compared as canonical paths, so a link or a
    /// relative path names it too); an empty `file` is any unnamed program's.
    bool isThisFile(const QString& file) const;
    /// Whether this pane is the window's current program (default true): only the current one
    /// follows the context's reveal and node requests and publishes its path and cursor to it.
    /// Making it current publishes its path.
    bool isActive() const { return m_active; }
    void setActive(bool active);
    /// The file name, or "untitled.pdl" for a new document.
    QString displayName() const;
    bool isModified() const;
    /// "LF", "CRLF" or "CR": the line ending new lines get.
    QString lineEndingName() const;

    /// The latest diagnostics report (null until the first analysis finished).
    std::shared_ptr<const pdl::ProgramReport> report() const;
    /// Names the program may use without defining them (e.g. `-d` data keys); the objects the
    /// workbench binds (BuiltinDocs roots such as `doc`) are always known.
    void setExternalNames(const QStringList& names);
    /// Model names offered after `model:` besides those offered anyway: the names that reach a
    /// server that answered — `default` when it goes to one, the models the servers serve
    /// (ModelCatalog / models::modelChoices, asked in the background for the program's folder
    /// and again at once when the model settings change).
    void setModelNames(const QStringList& names);

    /// Autosaves into `store` (not owned; null stops autosaving). Call once at start-up.
    void setRecoveryStore(RecoveryStore* store);
    /// Autosave period after a change, in milliseconds (default 3000).
    void setAutosaveInterval(int ms) { m_autosave.setInterval(ms); }
    /// The id under which this buffer is autosaved.
    QString bufferId() const { return m_bufferId; }
    /// Loads a recovered buffer: the original file (if it still exists) is opened and its text
    /// replaced by the recovered one as one undoable, unsaved change; an unnamed buffer becomes
    /// a new modified document. The recovery copy stays until the buffer is saved or closed.
    bool restoreRecovery(const RecoveryEntry& entry, QString* error = nullptr);
    /// Writes the recovery copy now (when modified); the timer calls this.
    void autosave();
    /// Forgets the recovery copy (the user discarded the changes or closed the buffer).
    void discardRecovery();

Q_SIGNALS:
    void modificationChanged(bool modified);
    void filePathChanged(const QString& path);
    void cursorPositionChanged(int line, int column);
    /// A new diagnostics report is shown.
    void diagnosticsChanged(int errors, int warnings);
    /// The pane switched between the Prompt view (true) and the YAML editor (false).
    void promptModeChanged(bool prompt);

private:
    bool m_active = true;
    void refreshModelNames();
    void setupPromptView();
    void restorePromptMode();
    /// The folder whose model configuration applies (the program's, or the current one).
    QString modelFolder() const;
    void setFilePath(const QString& path);
    void requestAnalysis(bool now);
    void onTextChanged();
    void onReport(std::shared_ptr<const pdl::ProgramReport> report);
    void revealIfHere(const SourceSpan& span);
    void startNewBuffer();

    WorkbenchContext* m_context;
    PdlEditor* m_editor;
    FindBar* m_findBar;
    MessageBar* m_messageBar;
    QAction* m_wordWrap = nullptr;
    QuickFixMenu* m_quickFix = nullptr;
    ProblemsView* m_problems;
    PromptView* m_promptView = nullptr;
    QStackedWidget* m_stack = nullptr;
    QAction* m_promptMode = nullptr;
    QToolButton* m_promptButton = nullptr;
    QToolButton* m_yamlButton = nullptr;
    QSplitter* m_splitter;
    EditorAnalysis* m_analysis;
    QString m_filePath;
    bool m_hasBom = false;
    QStringList m_externalNames;
    QStringList m_givenModelNames;
    RecoveryStore* m_recovery = nullptr;
    QString m_bufferId;
    QTimer m_autosave;
    bool m_revealing = false;
};

} // namespace hako
