#include "widgets/workbench/shapelinks.h"

#include "widgets/shape/flameview.h"
#include "widgets/shape/graphview.h"

#include <QDockWidget>
#include <QMainWindow>

namespace hako {

namespace {

QDockWidget* shapeDock(QMainWindow* window, QWidget* pane, const QString& title,
                       const QString& name, QDockWidget* beside)
{
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(name);
    dock->setWidget(pane);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide(); // until View › Graph / Flame
    if (beside)
        window->tabifyDockWidget(beside, dock);
    return dock;
}

} // namespace

ShapeLinks::ShapeLinks(QMainWindow* window, WorkbenchContext* context, QDockWidget* beside,
                       std::function<void(QDockWidget*)> makeRoom)
    : QObject(window), m_graph(new GraphView(context, window)),
      m_flame(new FlameView(context, window))
{
    m_graphDock = shapeDock(window, m_graph, tr("Graph"), QStringLiteral("graphDock"), beside);
    m_flameDock = shapeDock(window, m_flame, tr("Flame"), QStringLiteral("flameDock"), beside);
    m_graph->setAccessibleName(tr("Graph"));
    m_flame->setAccessibleName(tr("Flame"));
    for (QDockWidget* dock : docks())
        connect(dock, &QDockWidget::visibilityChanged, this, [dock, makeRoom](bool visible) {
            if (visible && makeRoom)
                makeRoom(dock);
        });
}

QList<QDockWidget*> ShapeLinks::docks() const
{
    return {m_graphDock, m_flameDock};
}

} // namespace hako
