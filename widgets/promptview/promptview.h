#pragma once

#include "core/playground/promptdoc.h"
#include "core/util/latestjob.h"

#include <QHash>
#include <QJsonObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <optional>

class QLabel;
class QScrollArea;
class QVBoxLayout;
class QFormLayout;
class QGroupBox;

namespace hako {

class InputsForm;

class PdlEditor;
class PromptMessageEdit;
class PromptNameField;
class PromptCard;
class PromptValueEdit;

/// What the latest run said for one model call, shown under its card.
struct PromptReply {
    QString text;
    qint64 tokens = -1; ///< total tokens; -1 when unknown
    qint64 ms = -1;     ///< latency; -1 when unknown
    QString error;      ///< a plain-language error; the card shows it instead of a reply
};

/// The Prompt view: a program shown as a document for people who do not read YAML — its inputs
/// as a form at the top, each model call as a card (heading, model picker, temperature, max
/// tokens, stop, its messages as wrapping editable text with `${ name }` chips, the latest
/// reply), literal texts as paragraphs, `defs` strings as editable values, and loops,
/// conditions, functions and code as collapsible sections with one sentence each.
///
/// The YAML in the editor stays the one source of truth: every change made here becomes a
/// minimal text edit (PromptDoc's replaceScalar/editParameter) applied through the editor
/// (PdlEditor::applyTextEdits), so one undo history spans both views; a change of the YAML
/// refreshes the view (debounced, parsed off the GUI thread; cards are updated in place while
/// the structure is the same, so typing in a card keeps its focus and cursor). When the YAML
/// does not parse the last good document stays, greyed, under a plain message naming the line.
/// Ctrl+= / Ctrl+- zoom. GUI thread only.
class PromptView : public QWidget {
    Q_OBJECT
public:
    explicit PromptView(QWidget* parent = nullptr);
    ~PromptView() override;

    /// The editor whose text the view shows and edits (not owned; must outlive the view or be
    /// reset with nullptr).
    void setEditor(PdlEditor* editor);
    /// The program's path: input values are remembered per path (QSettings
    /// `promptView/inputs/<path>`); "" for an unsaved program (not remembered).
    void setFilePath(const QString& path);
    /// Names offered by the model pickers (the current model is always offered too).
    void setModelNames(const QStringList& names);
    /// Names bound from outside the program (not asked for as inputs).
    void setExternalNames(const QStringList& names);

    /// The values typed into the inputs form, by input name: text as strings; a text that is a
    /// JSON array or object is passed as that value. Before the view has read the program
    /// (never shown since it changed), every value remembered for the file.
    QJsonObject inputValues() const;
    /// The program's inputs (variables used and never defined), in order of first use.
    QStringList inputNames() const;

    /// Replies from the latest run, by PromptDoc::blockId() of the model block's span.
    void setReplies(const QHash<QString, PromptReply>& replies);
    void clearReplies() { setReplies({}); }

    /// The document shown (the last good one when the YAML has an error).
    const playground::PromptDoc& document() const { return m_doc; }
    /// True while the YAML has an error (the view is greyed).
    bool hasYamlError() const { return m_yamlError; }
    /// Parses the editor's text now, on this thread, and updates the view (also done when the
    /// view is shown after the text changed while hidden).
    void refreshNow();

    /// Writes to the YAML now what is still waiting for a pause in typing (call before saving
    /// or running).
    void commitPendingEdits();

    /// Asks for a prompt's new name given its current one (nullopt: cancelled). The default
    /// asks with a dialog; tests give their own.
    using NameAsker = std::function<std::optional<QString>(const QString& current)>;
    void setNameAsker(NameAsker asker) { m_askName = std::move(asker); }
    /// Asks a yes/no question (removing a prompt); the default asks with a message box.
    using Confirmer = std::function<bool(const QString& question)>;
    void setConfirmer(Confirmer confirm) { m_confirm = std::move(confirm); }

    /// "Add Prompt": a new model call at the end of the program's steps, with a placeholder
    /// instruction that reads the previous prompt's result; one undoable edit. The new card
    /// gets the keyboard focus.
    void addPrompt();
    /// The cards shown, in document order.
    const QList<PromptCard*>& cards() const { return m_cards; }

    /// View zoom in points relative to the default (Ctrl+= / Ctrl+-).
    int zoom() const { return m_zoom; }
    void setZoom(int steps);

Q_SIGNALS:
    /// An input value was typed.
    void inputValuesChanged();
    /// The document was rebuilt or updated from the YAML.
    void documentChanged();
    /// A change could not be written to the YAML (the message says why, in plain words).
    void editFailed(const QString& message);
    /// A card's "Try in Playground": open the model block at `span` in the playground, with
    /// the inputs form's values (inputValues()).
    void tryInPlaygroundRequested(const hako::SourceSpan& span);

protected:
    void showEvent(QShowEvent* e) override;
    bool event(QEvent* e) override;

private:
    struct TextBinding;

    void scheduleRefresh();
    void startBuild();
    void apply(const Result<playground::PromptDoc>& doc, const QString& text);
    void rebuild();
    void updateInPlace();
    QWidget* makeItem(const playground::PromptDocItem& item, QWidget* parent, int depth);
    PromptCard* makeCard(const playground::PromptDocItem& item, QWidget* parent);
    QWidget* makeText(const playground::PromptDocItem& item, QWidget* parent, const QString& owner);
    QWidget* makeSection(const playground::PromptDocItem& item, QWidget* parent, int depth);
    void rebuildInputs();
    void saveInputs();
    void commitText(TextBinding& b);
    void updateLength(TextBinding& b);
    void commitModel(PromptCard* card, const QString& model);
    void commitParameter(PromptCard* card, const QString& name, const QJsonValue& value);
    /// Applies `edits` to the editor as one undoable step; false (the reason shown) when they
    /// are an error.
    bool applyEdits(const Result<QList<playground::TextEdit>>& edits);
    QWidget* makeValue(const playground::PromptDocItem& item, QWidget* parent);
    void commitValue(PromptValueEdit* edit, const QJsonValue& value);
    void movePrompt(PromptCard* card, int delta);
    void renamePrompt(PromptCard* card);
    void removePrompt(PromptCard* card);
    /// After a rebuild: scrolls to the card called `heading` (else the card at `index`) and
    /// gives it the keyboard focus (its Up/Down button after a move).
    void focusCard(const QString& heading, int index, int delta);
    bool ensureCurrent();
    void showReplies();
    void showBreakpoints();
    void applyZoom();
    static QString shape(const playground::PromptDoc& doc);

    QPointer<PdlEditor> m_editor;
    QString m_filePath;
    QStringList m_modelNames;
    QStringList m_externalNames;
    playground::PromptDoc m_doc;
    QString m_docText;  ///< the text m_doc was built from
    QString m_docShape; ///< shape() of the document the widgets show
    bool m_yamlError = false;
    bool m_dirty = true;
    bool m_applying = false;
    LatestJob m_latest;
    int m_zoom = 0;
    bool m_dark = false;         ///< built with the dark look
    int* m_buildIndex = nullptr; ///< pre-order counter while rebuild() makes the widgets
    QTimer m_refresh;
    QHash<QString, PromptReply> m_replies;
    QJsonObject m_inputValues;

    QLabel* m_error;
    PromptNameField* m_name = nullptr;
    QScrollArea* m_scroll;
    QWidget* m_content = nullptr;
    InputsForm* m_inputsBox = nullptr;
    QList<QLabel*> m_headings;
    QList<std::shared_ptr<TextBinding>> m_texts;
    QList<PromptCard*> m_cards; ///< owned by the content widget
    QList<PromptValueEdit*> m_values;
    NameAsker m_askName;
    Confirmer m_confirm;
};

} // namespace hako
