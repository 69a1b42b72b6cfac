#pragma once

#include <QPoint>
#include <QRectF>
#include <QString>
#include <QWidget>

namespace hako {

/// What the Graph and Flame charts share with the mouse: the item under it has a tooltip, a
/// click selects it, a double click goes to its source, and a drag (past a few pixels, so a
/// shaky click still selects) pans the chart. The charts say what their items are. GUI thread.
class ShapeCanvas : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

protected:
    /// The item at `pos` (widget coordinates), or -1.
    virtual int itemAt(QPointF pos) const = 0;
    /// The item's rectangle in widget coordinates (where its tooltip belongs).
    virtual QRectF itemRect(int item) const = 0;
    virtual QString itemTooltip(int item) const = 0;
    /// A click on `item` (-1: on nothing).
    virtual void clickItem(int item) = 0;
    /// A double click on `item` (never -1).
    virtual void activateItem(int item) = 0;
    /// The mouse dragged the chart by `delta` pixels.
    virtual void panBy(QPoint delta) = 0;

    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    QPoint m_lastDrag;
    bool m_dragging = false;
};

} // namespace hako
