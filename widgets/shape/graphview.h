#pragma once

#include "core/pdl/trace/rungraph.h"
#include "widgets/shape/shapecanvas.h"

#include <QPointF>
#include <QWidget>

class QLabel;

namespace hako {

class ShapeSource;
class WorkbenchContext;

/// The agent's graph, painted: agents, tools and model calls as boxes coloured by kind, calls as
/// arrows (hand-offs dashed, loops one arrow with "×N"), laid out in layers left to right.
/// Clicking a node selects its first execution in every pane (the next one on another click);
/// the context's current node lights its graph node. Double click or Enter shows the source.
/// Wheel pans (Ctrl+wheel zooms), dragging pans; +/- zoom, 0 fits; arrows move the selection
/// (Left: caller, Right: callee, Up/Down: within the layer). GUI thread.
class GraphCanvas : public ShapeCanvas {
    Q_OBJECT
public:
    GraphCanvas(ShapeSource* source, QWidget* parent = nullptr);

    const pdl::RunGraph& graph() const { return m_graph; }
    /// The selected graph node, or -1.
    int currentNode() const { return m_current; }
    /// Selects node `node` (its first execution, or the next after the current one).
    void selectNode(int node);
    double zoom() const { return m_zoom; }
    void setZoom(double zoom, QPointF anchor = QPointF(-1, -1));
    void fitToView();
    /// The node's rectangle in widget coordinates.
    QRectF nodeRect(int node) const;
    /// The node at `pos` (widget coordinates), or -1.
    int nodeAt(QPointF pos) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    int itemAt(QPointF pos) const override;
    QRectF itemRect(int item) const override;
    QString itemTooltip(int item) const override;
    void clickItem(int item) override;
    void activateItem(int item) override;
    void panBy(QPoint delta) override;

private:
    void rebuild();
    void followCurrent(int span);
    void moveSelection(int key);
    void ensureVisible(int node);
    void updateDescription();
    void paintEdges(QPainter& p) const;
    void paintNode(QPainter& p, int node) const;
    QString tooltipFor(int node) const;

    ShapeSource* m_source;
    pdl::RunGraph m_graph;
    int m_current = -1;
    double m_zoom = 1;
    QPointF m_pan;            ///< graph point at the widget's top left, in graph units
    bool m_fitPending = true; ///< fit the graph to the pane (until the user zooms or pans)
};

/// The Graph pane: the run's totals above the graph (GraphCanvas).
class GraphView : public QWidget {
    Q_OBJECT
public:
    explicit GraphView(WorkbenchContext* context, QWidget* parent = nullptr);
    GraphCanvas* canvas() const { return m_canvas; }
    QLabel* totalsLabel() const { return m_totals; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    ShapeSource* m_source;
    GraphCanvas* m_canvas;
    QLabel* m_totals;
};

} // namespace hako
