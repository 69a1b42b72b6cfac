#include "widgets/shape/shapecanvas.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>

namespace hako {

bool ShapeCanvas::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int item = itemAt(help->pos());
        if (item >= 0)
            QToolTip::showText(help->globalPos(), itemTooltip(item), this,
                               itemRect(item).toAlignedRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void ShapeCanvas::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    m_lastDrag = event->position().toPoint();
    m_dragging = false;
}

void ShapeCanvas::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint pos = event->position().toPoint();
    if (!m_dragging && (pos - m_lastDrag).manhattanLength() < 4)
        return;
    m_dragging = true;
    setCursor(Qt::ClosedHandCursor);
    panBy(pos - m_lastDrag);
    m_lastDrag = pos;
}

void ShapeCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    unsetCursor();
    if (!m_dragging && event->button() == Qt::LeftButton)
        clickItem(itemAt(event->position()));
    m_dragging = false;
}

void ShapeCanvas::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (const int item = itemAt(event->position()); item >= 0)
        activateItem(item);
}

} // namespace hako
