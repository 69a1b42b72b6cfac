#pragma once

#include <QObject>

class QMenu;
class QWidget;

namespace hako {

class ProgramTabs;

/// The Edit menu of the window: Undo, Redo, Cut, Copy, Paste and Select All on the focused pane
/// (EditRouting), else on the current program's editor; Find, Find Next/Previous and Replace
/// (in the YAML), Toggle Comment, Quick Fix (Ctrl+.), Go to Definition (F12) and Rename
/// Definition (Shift+F6) on the current program of `tabs` — each program has its own rename.
/// GUI thread; wiring only.
class EditMenu : public QObject {
    Q_OBJECT
public:
    EditMenu(ProgramTabs* tabs, QWidget* window);
    /// Adds the commands to `menu`.
    void populate(QMenu* menu);

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);

private:
    ProgramTabs* m_tabs;
};

} // namespace hako
