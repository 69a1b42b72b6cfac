#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <optional>

class QAction;

namespace hako {

class PdlEditor;

/// Edit › Rename Definition… (Shift+F6): renames the variable under the editor's cursor — its
/// `def`, `defs` key, parameter, loop variable… and every use that reads it — as one undo step.
/// The current text is analysed off the GUI thread, then the new name is asked for (a
/// QInputDialog prefilled with the old name, or the asker given to setNameAsker) and the edits
/// of pdl::planRename are applied with PdlEditor::applyTextEdits. Why a rename cannot be done
/// goes to message() in plain language; nothing is shown modally but the question. The action
/// is added to the editor (shortcut active while it has the focus); a menu may hold it too.
/// GUI thread only.
class DefRename : public QObject {
    Q_OBJECT
public:
    /// Asks for the new name given the current one; nullopt when the user cancels.
    using NameAsker = std::function<std::optional<QString>(const QString& currentName)>;

    /// `editor` is not owned; the object is parented to it unless `parent` is given.
    explicit DefRename(PdlEditor* editor, QObject* parent = nullptr);

    QAction* action() const { return m_action; }
    /// Replaces the QInputDialog (tests, or a different UI). Null restores the dialog.
    void setNameAsker(NameAsker asker) { m_asker = std::move(asker); }
    /// The file name given to the analysis (spans and includes resolve against it). Empty: the
    /// program file of the editor's current report, if any.
    void setFileName(const QString& fileName) { m_fileName = fileName; }

    /// Starts renaming the variable at the cursor, asking for the new name; returns at once
    /// (finished() tells the outcome).
    void renameAtCursor();
    /// As renameAtCursor(), to `newName` without asking.
    void renameAtCursorTo(const QString& newName);
    /// Whether a rename is being prepared (a second request is ignored meanwhile).
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    /// Why a rename was not done, in plain language (for a message bar or status bar).
    void message(const QString& text);
    /// The rename was applied: `places` names were replaced.
    void renamed(const QString& oldName, const QString& newName, int places);
    /// A request ended: true when the text was changed.
    void finished(bool renamed);

private:
    void start(std::optional<QString> newName);
    void fail(const QString& text);

    QPointer<PdlEditor> m_editor;
    QAction* m_action;
    NameAsker m_asker;
    QString m_fileName;
    bool m_busy = false;
};

} // namespace hako
