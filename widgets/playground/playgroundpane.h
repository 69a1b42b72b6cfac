#pragma once

#include "core/playground/playgroundprompt.h"
#include "core/util/diagnostic.h"

#include <QJsonObject>
#include <QWidget>

#include <functional>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QStackedWidget;
class QTableView;
class QTableWidget;
class QTextBrowser;
class QToolButton;
class QMenu;
class QHBoxLayout;

namespace hako {

class MessageBar;
class PlaygroundSessions;
class VariantEditor;

namespace models {
class IModelProvider;
}
namespace promptlog {
struct CallRecord;
}
namespace playground {
class PlaygroundResultModel;
class PlaygroundRun;
struct PlaygroundSession;
} // namespace playground

/// The Playground pane: a prompt (a logged call or a model block) as 1–6 variant columns of
/// editable messages, model and parameters; an inputs table with one column per `${ name }`
/// variable (rows typed in or pasted from a spreadsheet); Run runs every variant over every row
/// `repeat` times through the owner's provider (concurrency limit, progress, Cancel) and fills
/// the results grid; the selected cell's reply is shown with a word diff against the first
/// variant. "Save to Program" asks the owner to write a variant back into its block; "Copy as
/// PDL" puts it on the clipboard as a model block.
///
/// The pane's work is kept as a session (see PlaygroundSessions and setSessionFolder()): opening
/// a call or a block starts a new one, the Sessions menu reopens earlier ones.
///
/// The pane owns no provider: setProviderFactory() gives one per run (the owner wraps it in
/// the prompt log with the `playground` tag). Runs never block the GUI thread. GUI thread.
class PlaygroundPane : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxVariants = 6;

    explicit PlaygroundPane(QWidget* parent = nullptr);
    ~PlaygroundPane() override;

    /// Opens a logged call in a new session: its messages, model and parameters as one variant;
    /// its inputs (when the messages use variables) as the first input row. Save to Program stays
    /// off (a call has no block to write to) unless the call names its program and block.
    void openCall(const promptlog::CallRecord& call);
    /// Opens a model block's prompt (see playground::promptFromSource) from `programPath`, in a
    /// new session.
    void openPrompt(const playground::PlaygroundPrompt& prompt, const QString& programPath,
                    const SourceSpan& span);
    /// Opens the model block at `span` of the program text `sourceText` (the editor's text of
    /// `programPath`; see playground::promptFromSource). False, with the reason shown in the
    /// pane's message bar, when the block cannot be read as a prompt.
    bool openProgramBlock(const QString& sourceText, const QString& programPath,
                          const SourceSpan& span);
    /// The prompt open now came from `name`, a program open in the window but never saved: Save
    /// to Program writes into it (the request names no path). Call after opening the prompt;
    /// opening another prompt forgets it.
    void setUnsavedProgram(const QString& name);
    /// Gives the provider each run uses (called when Run is pressed).
    void setProviderFactory(std::function<std::shared_ptr<models::IModelProvider>()> factory);
    /// The model names every variant's picker offers.
    void setModels(const QStringList& models);

    int variantCount() const;
    VariantEditor* variant(int index) const;
    /// Adds a column copying the last one (up to kMaxVariants); returns it or nullptr.
    VariantEditor* addVariant();
    void removeVariant(int index);
    /// The prompts of the columns, in order.
    QList<playground::PlaygroundPrompt> prompts() const;
    /// The variables of every column, in order of first use.
    QStringList variables() const;
    /// The input rows the table holds (empty rows skipped).
    QList<QJsonObject> inputRows() const;
    /// Pastes tab-separated rows (a spreadsheet's clipboard) at the table's current cell,
    /// adding rows as needed.
    void pasteRows(const QString& text);
    /// Adds an input row filled from `values` (by variable name; other names are ignored).
    void addInputRow(const QJsonObject& values);
    /// The named input sets that Add Input Set offers (the Prompt view's sets of the open
    /// program), asked for each time its menu opens.
    using InputSets = std::function<QList<QPair<QString, QJsonObject>>()>;
    void setInputSetsSource(InputSets source) { m_inputSets = std::move(source); }
    QString programPath() const { return m_programPath; }
    /// Whether Save to Program can write the prompt open now back to its block.
    bool canSaveToProgram() const;
    bool isRunning() const;

    /// Keeps the pane's sessions in `folder` (PlaygroundSessionStore::defaultFolder() in the
    /// window; "" keeps nothing, the default). The last session comes back when the pane is
    /// first shown.
    void setSessionFolder(const QString& folder);
    PlaygroundSessions* sessions() const { return m_sessions; }
    /// True once a prompt is shown (a call, a block, a session or a new empty one).
    bool hasContent() const;
    /// What the pane shows, as a session without identity or name: the variants, the program
    /// and block they came from, the input rows, the repeat count and the results grid.
    playground::PlaygroundSession sessionContent() const;
    /// Shows `session`'s content (any run going is cancelled; nothing runs).
    void showSessionContent(const playground::PlaygroundSession& session);

    QTableWidget* inputsTable() const { return m_inputs; }
    QTableView* resultsView() const { return m_resultsView; }
    playground::PlaygroundResultModel* resultModel() const { return m_results; }
    QTextBrowser* replyView() const { return m_reply; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* addVariantButton() const { return m_addVariant; }
    QToolButton* addInputSetButton() const { return m_addSet; }
    QSpinBox* repeatSpin() const { return m_repeat; }
    QSpinBox* concurrencySpin() const { return m_concurrency; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* emptyLabel() const { return m_empty; }
    MessageBar* messageBar() const { return m_messageBar; }

public Q_SLOTS:
    /// Runs every variant over every input row (does nothing while a run is going).
    void run();
    void cancel();
    /// Asks the owner to save variant `index` (saveToProgramRequested).
    void saveVariant(int index);
    /// Puts variant `index` on the clipboard as a PDL model block.
    void copyVariant(int index);
    /// Starts a new session with one empty variant; the one shown stays saved.
    void newSession();
    /// Edit › Paste with the focus in the inputs table: the clipboard's rows (pasteRows).
    void paste();

Q_SIGNALS:
    /// "Save to Program": write `prompt` into the model block at `span` of `programPath` (see
    /// playground::saveToProgram).
    void saveToProgramRequested(const QString& programPath, const hako::SourceSpan& span,
                                const hako::playground::PlaygroundPrompt& prompt);
    /// A run started / every cell of it is final.
    void runStarted();
    void runFinished();
    /// The variants, the inputs or the repeat count changed (not while a session is shown).
    void contentChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void setVariantPrompts(const QList<playground::PlaygroundPrompt>& prompts);
    void renumber();
    /// The inputs table with its row buttons, and the results grid beside the selected reply
    /// (parts of the constructor).
    QWidget* buildInputs(QWidget* parent);
    QWidget* buildResults(QWidget* parent);
    void updateInputColumns();
    void updateButtons();
    void showSelectedReply();
    QStringList variantLabels() const;
    void connectSessionChanges();
    void noteChange();
    void stopRun();

    std::function<std::shared_ptr<models::IModelProvider>()> m_factory;
    QStringList m_models;
    QString m_programPath;
    QString m_unsavedProgram; ///< setUnsavedProgram()
    SourceSpan m_span;
    QList<VariantEditor*> m_variants;

    MessageBar* m_messageBar;
    PlaygroundSessions* m_sessions;
    bool m_applying = false; // showing a saved session: not a change to save
    QStackedWidget* m_stack;
    QLabel* m_empty;
    QScrollArea* m_variantScroll;
    QHBoxLayout* m_variantLayout;
    QPushButton* m_addVariant;
    QTableWidget* m_inputs;
    QPushButton* m_addRow;
    QPushButton* m_removeRow;
    QSpinBox* m_repeat;
    QSpinBox* m_concurrency;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QHBoxLayout* m_runBar = nullptr;
    QTableView* m_resultsView;
    QTextBrowser* m_reply;
    QToolButton* m_addSet = nullptr;
    InputSets m_inputSets;
    playground::PlaygroundResultModel* m_results;
    playground::PlaygroundRun* m_current = nullptr;
};

} // namespace hako
