#include "widgets/workbench/notebooklinks.h"

#include "core/pdl/trace/tracemodel.h"
#include "widgets/notebook/notebookpane.h"
#include "widgets/workbench/filecontroller.h"
#include "widgets/workbench/runactions.h"
#include "widgets/workbench/tracedocks.h"

#include <QDockWidget>
#include <QMainWindow>

namespace hako {

NotebookLinks::NotebookLinks(QMainWindow* window, std::function<void(QDockWidget*)> makeRoom,
                             FileController* files, RunActions* runs, TraceDocks* traces)
    : QObject(window), m_dock(new QDockWidget(tr("Notebook"), window)),
      m_pane(new NotebookPane(m_dock))
{
    m_dock->setObjectName(QStringLiteral("notebookDock"));
    m_dock->setWidget(m_pane);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide(); // until a notebook is opened (View › Notebook shows it)
    m_pane->setEnvironmentFactory(
        [runs](const QString& path) { return runs->environmentFor(path); });
    m_pane->setTrustQuestion([runs](const QString& path, const RunTrustCheck& check) {
        return runs->askConsent(path, check);
    });
    connect(m_pane, &NotebookPane::traceRequested, traces, &TraceDocks::showTrace);
    connect(m_pane, &NotebookPane::statusMessage, this, &NotebookLinks::statusMessage);
    // An opened notebook comes forward with room for its cells.
    connect(files, &FileController::notebookOpenRequested, this,
            [this, makeRoom](const QString& path) {
                m_pane->openNotebook(path);
                m_dock->show();
                m_dock->raise();
                makeRoom(m_dock);
            });
}

} // namespace hako
