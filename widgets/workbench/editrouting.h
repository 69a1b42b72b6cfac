#pragma once

#include <QObject>

#include <functional>

class QWidget;

namespace hako {

/// The Edit menu's commands (Undo, Redo, Cut, Copy, Paste, Select All) act on the widget that
/// has the keyboard focus: the program editor when it has it, else a line edit, text box or
/// table of any pane (Ctrl+A in the Prompt Log selects its calls, Ctrl+C in the Console copies
/// its text), and nothing when the focused widget has no such command. Their window-wide
/// shortcuts would otherwise always reach the editor.
class EditRouting : public QObject {
    Q_OBJECT
public:
    /// `editor` gives the widget (the current program's editor) whose own command runs
    /// `editorCommand` (QScintilla's selectAll(true)…).
    explicit EditRouting(std::function<QWidget*()> editor, QObject* parent = nullptr);

    /// Runs the slot `command` ("undo", "redo", "cut", "copy", "paste", "selectAll") on the
    /// focused widget; `editorCommand` when the focus is in the editor (or nowhere).
    void run(const char* command, const std::function<void()>& editorCommand) const;

private:
    std::function<QWidget*()> m_editor;
};

} // namespace hako
