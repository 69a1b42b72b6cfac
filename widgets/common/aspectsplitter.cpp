#include "widgets/common/aspectsplitter.h"

#include <QResizeEvent>

#include <algorithm>

namespace hako {

AspectSplitter::AspectSplitter(QWidget* parent, double ratio, int minWidth)
    : QSplitter(Qt::Vertical, parent), m_ratio(ratio), m_minWidth(minWidth)
{}

void AspectSplitter::resizeEvent(QResizeEvent* event)
{
    const QSize size = event->size();
    const Qt::Orientation wanted =
        size.height() > 0 && size.width() >= m_minWidth && size.width() >= m_ratio * size.height()
            ? Qt::Horizontal
            : Qt::Vertical;
    if (wanted != orientation() && count() > 0) {
        m_sizes[orientation() == Qt::Horizontal] = sizes();
        setOrientation(wanted);
        QList<int> kept = m_sizes[wanted == Qt::Horizontal];
        if (kept.isEmpty()) {
            // First time this way: shared by the parts' stretch factors (setStretchFactor).
            const int total = wanted == Qt::Horizontal ? size.width() : size.height();
            int stretches = 0;
            for (int i = 0; i < count(); ++i)
                stretches += std::max(1, widget(i)->sizePolicy().horizontalStretch());
            for (int i = 0; i < count(); ++i)
                kept.append(total * std::max(1, widget(i)->sizePolicy().horizontalStretch()) /
                            stretches);
        }
        setSizes(kept);
    }
    QSplitter::resizeEvent(event);
}

} // namespace hako
