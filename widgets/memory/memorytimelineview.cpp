#include "widgets/memory/memorytimelineview.h"

#include <QPainter>
#include <QPainterPath>

namespace hako {

using memory::TimelineEvent;

MemoryTimelineView::MemoryTimelineView(QWidget* parent) : QWidget(parent)
{
    setMinimumHeight(160);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void MemoryTimelineView::setEvents(std::vector<TimelineEvent> events, int64_t threshold)
{
    m_events = std::move(events);
    m_threshold = threshold > 0 ? threshold : 150;
    update();
}

void MemoryTimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const QRect plot = rect().adjusted(fm.horizontalAdvance(QStringLiteral("0000")) + 8, 8, -12,
                                       -(4 * fm.height() + 8));
    if (m_events.empty() || plot.width() < 20 || plot.height() < 20) {
        p.drawText(rect(), Qt::AlignCenter, tr("No memories yet."));
        return;
    }
    const double t0 = double(m_events.front().at);
    const double t1 = std::max(t0 + 1.0, double(m_events.back().at));
    int64_t top = m_threshold;
    for (const TimelineEvent& e : m_events)
        top = std::max(top, e.accumulated);
    top = top + top / 10 + 1;
    auto xOf = [&](double t) {
        return plot.left() + (t - t0) / (t1 - t0) * plot.width();
    };
    auto yOf = [&](double v) {
        return plot.bottom() - v / double(top) * plot.height();
    };

    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(plot);
    // Threshold.
    QPen dashed(QColor(0xc0, 0x39, 0x2b), 1.5, Qt::DashLine);
    p.setPen(dashed);
    p.drawLine(QPointF(plot.left(), yOf(double(m_threshold))),
               QPointF(plot.right(), yOf(double(m_threshold))));
    p.drawText(QPointF(plot.left() + 4, yOf(double(m_threshold)) - 3),
               tr("reflection threshold %1").arg(m_threshold));
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(0, plot.top() - fm.height() / 2.0, plot.left() - 4, fm.height()),
               Qt::AlignRight, QString::number(top));
    p.drawText(QRectF(0, plot.bottom() - fm.height() / 2.0, plot.left() - 4, fm.height()),
               Qt::AlignRight, QStringLiteral("0"));

    // Accumulator as a step line.
    QPainterPath path;
    path.moveTo(xOf(t0), yOf(0));
    double last = 0;
    for (const TimelineEvent& e : m_events) {
        const double x = xOf(double(e.at));
        path.lineTo(x, yOf(last));
        path.lineTo(x, yOf(double(e.accumulated)));
        last = double(e.accumulated);
    }
    path.lineTo(plot.right(), yOf(last));
    p.setPen(QPen(QColor(0x4e, 0x79, 0xa7), 2));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);

    // Markers in three lanes under the plot.
    const double laneCreate = plot.bottom() + fm.height() * 0.8;
    const double laneAccess = laneCreate + fm.height() * 0.9;
    const double laneReflect = laneAccess + fm.height() * 0.9;
    p.setPen(Qt::NoPen);
    for (const TimelineEvent& e : m_events) {
        const double x = xOf(double(e.at));
        switch (e.type) {
        case TimelineEvent::Type::Creation:
            p.setBrush(QColor(0x59, 0xa1, 0x4f));
            p.drawEllipse(QPointF(x, laneCreate), 2.5, 2.5);
            break;
        case TimelineEvent::Type::Access:
            p.setPen(QPen(QColor(0xf2, 0x8e, 0x2b), 1.5));
            p.drawLine(QPointF(x, laneAccess - 4), QPointF(x, laneAccess + 4));
            p.setPen(Qt::NoPen);
            break;
        case TimelineEvent::Type::Reflection: {
            p.setBrush(QColor(0xc0, 0x39, 0x2b));
            const QPointF tri[3] = {
                {x, laneReflect - 5}, {x - 4, laneReflect + 3}, {x + 4, laneReflect + 3}};
            p.drawPolygon(tri, 3);
            p.setPen(QPen(QColor(0xc0, 0x39, 0x2b, 90), 1, Qt::DotLine));
            p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
            p.setPen(Qt::NoPen);
            break;
        }
        }
    }
    p.setPen(palette().color(QPalette::Text));
    const QString from = memory::formatTime(m_events.front().at);
    const QString to = memory::formatTime(m_events.back().at);
    p.drawText(QPointF(plot.left(), height() - 2),
               from + tr("   ● created   | accessed   ▲ reflection"));
    p.drawText(QRectF(plot.left(), height() - fm.height() - 2, plot.width(), fm.height() + 2),
               Qt::AlignRight, to);
}

} // namespace hako
