#pragma once

#include "core/pdl/analysis/quickfix.h"

#include <QList>
#include <QObject>

class QAction;
class QMenu;

namespace hako {

class PdlEditor;

/// Quick fixes in the editor: the "Quick Fix…" action (Ctrl+.) opens a menu at the cursor with
/// the fixes for the diagnostics on the cursor's line (misspelt names, a field to indent under
/// its block, an undefined variable to define as an input; see pdl::quickFixes), or a disabled
/// "No quick fixes here". The chosen fix is applied as one undo step. The fixes are computed
/// from the editor's current text when asked (one program check, a few milliseconds: call it on
/// a user's action, not on every keystroke), for the diagnostics the editor shows (its
/// report()), so names bound from outside are not offered as inputs. GUI thread only.
class QuickFixMenu : public QObject {
    Q_OBJECT
public:
    /// `editor` is not owned; the action is added to it (shortcut active while it has focus).
    explicit QuickFixMenu(PdlEditor* editor, QObject* parent = nullptr);

    /// "Quick Fix…", Ctrl+.: shows the menu at the cursor.
    QAction* action() const { return m_action; }

    /// The fixes offered at 1-based `line` (diagnostics covering `column` first), best first.
    QList<pdl::QuickFix> fixesAt(int line, int column) const;
    /// Applies `fix`, one that fixesAt() offered for the text as it still is, as one undo step.
    /// Returns false, changing nothing, when the text changed since (its offsets would land
    /// elsewhere) or the fix was not offered.
    bool apply(const pdl::QuickFix& fix);
    /// Adds one action per fix at (line, column) to `menu` (for a context menu); returns how
    /// many were added.
    int addFixActions(QMenu* menu, int line, int column);

    /// Shows the menu at the cursor (what the action does).
    void showMenu();
    /// The menu last shown (null before the first), for tests.
    QMenu* menu() const { return m_menu; }

private:
    PdlEditor* m_editor;
    QAction* m_action;
    QMenu* m_menu = nullptr;
    /// The text fixesAt() last computed for, and every fix it offered for that text.
    mutable QString m_offeredText;
    mutable QList<pdl::QuickFix> m_offered; ///< owned by the editor, refilled each time
};

} // namespace hako
