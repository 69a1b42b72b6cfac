#pragma once

#include <QList>
#include <QObject>

#include <functional>

class QDockWidget;
class QMainWindow;

namespace hako {

class FlameView;
class GraphView;
class WorkbenchContext;

/// The agent's shape in the window (issue 28 §2): the Graph and Flame panes, each in its dock
/// tabbed with `beside` (the console and the other wide panes) and hidden until View › Graph /
/// Flame; both follow the WorkbenchContext like the other trace panes. A pane coming forward gets
/// room to be read
/// (`makeRoom`). GUI thread; wiring only.
class ShapeLinks : public QObject {
    Q_OBJECT
public:
    ShapeLinks(QMainWindow* window, WorkbenchContext* context, QDockWidget* beside,
               std::function<void(QDockWidget*)> makeRoom);

    /// The Graph and Flame docks, in View menu order.
    QList<QDockWidget*> docks() const;
    GraphView* graphView() const { return m_graph; }
    FlameView* flameView() const { return m_flame; }

private:
    GraphView* m_graph;
    FlameView* m_flame;
    QDockWidget* m_graphDock;
    QDockWidget* m_flameDock;
};

} // namespace hako
