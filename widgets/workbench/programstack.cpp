#include "widgets/workbench/programstack.h"

#include "widgets/editor/editorpane.h"
#include "widgets/workbench/programtabs.h"

namespace hako {

ProgramStack::ProgramStack(ProgramTabs* tabs, Maker make, QWidget* parent)
    : QStackedWidget(parent), m_make(std::move(make))
{
    for (EditorPane* editor : tabs->editors())
        add(editor, tabs->runOf(editor));
    if (QWidget* page = m_pages.value(tabs->currentEditor()))
        setCurrentWidget(page);
    connect(tabs, &ProgramTabs::programAdded, this, &ProgramStack::add);
    connect(tabs, &ProgramTabs::programRemoved, this, [this](EditorPane* editor) {
        // The page goes with its program (which may still be ending its run).
        if (QWidget* page = m_pages.take(editor)) {
            removeWidget(page);
            page->hide();
            page->setParent(editor);
        }
    });
    connect(tabs, &ProgramTabs::currentChanged, this, [this](EditorPane* editor) {
        if (QWidget* page = m_pages.value(editor))
            setCurrentWidget(page);
    });
}

void ProgramStack::add(EditorPane* editor, RunController* run)
{
    QWidget* page = m_make(editor, run);
    m_pages.insert(editor, page);
    addWidget(page);
}

} // namespace hako
