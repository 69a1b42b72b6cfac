#include "widgets/workbench/editmenu.h"

#include "widgets/common/messagebar.h"
#include "widgets/editor/defrename.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/findbar.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/editor/quickfixmenu.h"
#include "widgets/workbench/editrouting.h"
#include "widgets/workbench/programtabs.h"

#include <QAction>
#include <QMenu>

namespace hako {

EditMenu::EditMenu(ProgramTabs* tabs, QWidget* window) : QObject(window), m_tabs(tabs)
{
    // Each program has its own Rename Definition… (Shift+F6 through the menu).
    auto addRename = [this](EditorPane* editor) {
        auto* rename = new DefRename(editor->editor(), editor);
        connect(rename->action(), &QAction::triggered, editor,
                [editor] { editor->setPromptMode(false); });
        connect(rename, &DefRename::message, editor, [editor](const QString& text) {
            editor->messageBar()->showMessage(text, MessageBar::Kind::Warning);
        });
        connect(rename, &DefRename::renamed, this,
                [this](const QString& from, const QString& to, int places) {
                    Q_EMIT statusMessage(
                        places == 1
                            ? tr("Renamed '%1' to '%2' (1 place)").arg(from, to)
                            : tr("Renamed '%1' to '%2' (%3 places)").arg(from, to).arg(places),
                        4000);
                });
    };
    for (EditorPane* editor : m_tabs->editors())
        addRename(editor);
    connect(m_tabs, &ProgramTabs::programAdded, this, addRename);
}

void EditMenu::populate(QMenu* edit)
{
    // Each command acts on the focused pane's widget (see EditRouting), the current program's
    // editor by default.
    auto editor = [this] {
        return m_tabs->currentEditor()->editor();
    };
    auto* routing = new EditRouting([editor]() -> QWidget* { return editor(); }, this);
    auto route = [routing, editor](const char* command, void (PdlEditor::*onEditor)()) {
        return [routing, command, editor, onEditor] {
            routing->run(command, [editor, onEditor] { (editor()->*onEditor)(); });
        };
    };
    edit->addAction(tr("&Undo"), QKeySequence::Undo, this, route("undo", &PdlEditor::undo));
    edit->addAction(tr("&Redo"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), this,
                    route("redo", &PdlEditor::redo));
    edit->addSeparator();
    edit->addAction(tr("Cu&t"), QKeySequence::Cut, this, route("cut", &PdlEditor::cut));
    edit->addAction(tr("&Copy"), QKeySequence::Copy, this, route("copy", &PdlEditor::copy));
    edit->addAction(tr("&Paste"), QKeySequence::Paste, this, route("paste", &PdlEditor::paste));
    edit->addAction(tr("Select &All"), QKeySequence::SelectAll, this, [routing, editor] {
        routing->run("selectAll", [editor] { editor()->selectAll(true); });
    });
    edit->addSeparator();
    // Find searches the YAML: the Prompt view switches to it first.
    auto findBar = [this] {
        return m_tabs->currentEditor()->findBar();
    };
    edit->addAction(tr("&Find…"), QKeySequence(Qt::CTRL | Qt::Key_F), this, [this, findBar] {
        m_tabs->currentEditor()->setPromptMode(false);
        findBar()->showFind();
    });
    edit->addAction(tr("Find &Next"), QKeySequence(Qt::Key_F3), this, [findBar] {
        if (findBar()->findText().isEmpty())
            findBar()->showFind();
        else
            findBar()->findNext();
    });
    edit->addAction(tr("Find Pre&vious"), QKeySequence(Qt::SHIFT | Qt::Key_F3), this, [findBar] {
        if (findBar()->findText().isEmpty())
            findBar()->showFind();
        else
            findBar()->findPrevious();
    });
    edit->addAction(tr("R&eplace…"), QKeySequence(Qt::CTRL | Qt::Key_H), this, [this, findBar] {
        m_tabs->currentEditor()->setPromptMode(false);
        findBar()->showReplace();
    });
    edit->addSeparator();
    edit->addAction(tr("Toggle &Comment"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
                    [editor] { editor()->toggleComment(); });
    edit->addAction(m_tabs->mirror([](EditorPane* e) { return e->quickFix()->action(); }));
    // Names of the program: go to where one is defined (F12), rename it everywhere (Shift+F6).
    edit->addSeparator();
    edit->addAction(tr("Go to &Definition"), QKeySequence(Qt::Key_F12), this, [this, editor] {
        m_tabs->currentEditor()->setPromptMode(false);
        if (!editor()->goToDefinition())
            Q_EMIT statusMessage(tr("No definition in this file for the name at the cursor"), 4000);
    });
    edit->addAction(m_tabs->mirror([](EditorPane* e) -> QAction* {
        auto* rename = e->findChild<DefRename*>();
        return rename ? rename->action() : nullptr;
    }));
}

} // namespace hako
