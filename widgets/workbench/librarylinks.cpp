#include "widgets/workbench/librarylinks.h"

#include "core/workbench/experimentjob.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/library/librarypane.h"
#include "widgets/library/promptexperiments.h"
#include "widgets/workbench/evallinks.h"
#include "widgets/workbench/filecontroller.h"
#include "widgets/workbench/programtabs.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>

namespace hako {

LibraryLinks::LibraryLinks(QMainWindow* window, ProgramTabs* tabs, FileController* files)
    : QObject(window), m_tabs(tabs), m_files(files), m_pane(new LibraryPane(window))
{
    m_dock = new QDockWidget(tr("Library"), window);
    m_dock->setObjectName(QStringLiteral("libraryDock"));
    m_dock->setWidget(m_pane);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();

    m_saveVersion = new QAction(tr("Save &Version…"), this);
    m_saveVersion->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    m_saveVersion->setToolTip(tr("Save the program and record it as a version in the prompt "
                                 "library"));
    connect(m_saveVersion, &QAction::triggered, this, [this] {
        m_dock->show();
        m_dock->raise();
        m_pane->focusMessage();
    });
    connect(m_pane, &LibraryPane::saveVersionRequested, this, &LibraryLinks::saveVersion);
    connect(m_pane, &LibraryPane::statusMessage, this, &LibraryLinks::statusMessage);
    connect(m_pane, &LibraryPane::openRequested, m_files,
            [this](const QString& path) { m_files->openFile(path); });
    connect(m_pane, &LibraryPane::restoreRequested, this, &LibraryLinks::restore);
}

void LibraryLinks::connectEvaluations(EvalLinks* evaluations)
{
    PromptExperiments* list = m_pane->experiments();
    list->setStoreSource([evaluations] { return evaluations->store(); });
    connect(m_pane, &LibraryPane::versionsRunRequested, evaluations, &EvalLinks::runVersions);
    connect(list, &PromptExperiments::experimentOpenRequested, evaluations,
            &EvalLinks::showExperiment);
    connect(evaluations->job(), &ExperimentJob::finished, list, &PromptExperiments::reload);
}

void LibraryLinks::saveVersion(const QString& message)
{
    EditorPane* editor = m_tabs->currentEditor();
    if (!editor)
        return;
    // An untitled program is named first (File › Save As).
    if (!m_files->save())
        return;
    m_pane->saveVersion(editor->filePath(), message);
}

void LibraryLinks::restore(const QString& path, const QByteArray& text)
{
    if (!m_files->openFile(path))
        return;
    EditorPane* editor = m_tabs->currentEditor();
    if (!editor)
        return;
    // One undoable edit: Ctrl+Z brings the newer text back.
    PdlEditor* e = editor->editor();
    e->beginUndoAction();
    e->selectAll();
    e->replaceSelectedText(QString::fromUtf8(text));
    e->endUndoAction();
    editor->messageBar()->showMessage(
        tr("The older version is in the editor. Save it as a new version to keep it, or undo "
           "(Ctrl+Z) to go back."),
        MessageBar::Kind::Information);
}

} // namespace hako
