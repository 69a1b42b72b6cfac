#include "widgets/promptlog/timechart.h"

#include "core/promptlog/calltablemodel.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>

namespace hako {

TimeChart::TimeChart(const QString& title, QWidget* parent) : QWidget(parent), m_title(title)
{
    setAccessibleName(title);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TimeChart::setValues(const QList<double>& values, const QStringList& bucketLabels,
                          std::function<QString(double)> format)
{
    m_values = values;
    m_labels = bucketLabels;
    m_format = std::move(format);
    double top = 0;
    int peak = -1;
    int present = 0;
    for (int i = 0; i < m_values.size(); ++i) {
        if (std::isnan(m_values[i]))
            continue;
        ++present;
        if (peak < 0 || m_values[i] > top) {
            top = m_values[i];
            peak = i;
        }
    }
    if (present == 0)
        setAccessibleDescription(tr("No calls in this time range"));
    else
        setAccessibleDescription(
            tr("Highest %1 (%2); %3 of %4 periods have calls")
                .arg(m_format ? m_format(top) : QString::number(top), m_labels.value(peak))
                .arg(present)
                .arg(m_values.size()));
    update();
}

QSize TimeChart::sizeHint() const
{
    return {260, 120};
}

QSize TimeChart::minimumSizeHint() const
{
    return {120, 70};
}

QRect TimeChart::plotRect() const
{
    const int line = fontMetrics().height();
    return rect().adjusted(4, line + 6, -4, -line - 6);
}

int TimeChart::bucketAt(const QPoint& pos) const
{
    const QRect plot = plotRect();
    if (m_values.isEmpty() || !plot.contains(pos))
        return -1;
    return std::clamp(int((pos.x() - plot.left()) * m_values.size() / std::max(1, plot.width())), 0,
                      int(m_values.size()) - 1);
}

bool TimeChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int b = bucketAt(help->pos());
        if (b >= 0 && !std::isnan(m_values[b]))
            QToolTip::showText(help->globalPos(),
                               QStringLiteral("%1: %2").arg(
                                   m_labels.value(b),
                                   m_format ? m_format(m_values[b]) : QString::number(m_values[b])),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void TimeChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.base());
    double top = 0;
    bool any = false;
    for (double v : m_values)
        if (!std::isnan(v)) {
            top = std::max(top, v);
            any = true;
        }
    const int line = fontMetrics().height();
    QString heading = m_title;
    if (any)
        heading += QStringLiteral(" — ") +
                   tr("up to %1").arg(m_format ? m_format(top) : QString::number(top));
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(4, 2, width() - 8, line + 2), Qt::AlignLeft | Qt::AlignVCenter,
               fontMetrics().elidedText(heading, Qt::ElideRight, width() - 8));
    const QRect plot = plotRect();
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    // The time axis: where the first bucket starts and where the last one does.
    if (!m_labels.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        const QRect axis(plot.left(), plot.bottom() + 3, plot.width(), line + 2);
        p.drawText(axis, Qt::AlignLeft | Qt::AlignTop, m_labels.first());
        if (m_labels.size() > 1 && fontMetrics().horizontalAdvance(m_labels.first()) +
                                           fontMetrics().horizontalAdvance(m_labels.last()) + 16 <
                                       plot.width())
            p.drawText(axis, Qt::AlignRight | Qt::AlignTop, m_labels.last());
    }
    if (!any) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter, tr("No calls in this time range"));
        return;
    }
    const int n = int(m_values.size());
    const double slot = double(plot.width()) / n;
    const QColor bar = pal.color(QPalette::Highlight);
    for (int i = 0; i < n; ++i) {
        const double v = m_values[i];
        if (std::isnan(v) || v <= 0 || top <= 0)
            continue;
        const int h = std::max(1, int(std::lround(v / top * (plot.height() - 1))));
        const int x0 = plot.left() + int(i * slot) + (slot >= 4 ? 1 : 0);
        const int w = std::max(1, int((i + 1) * slot) - int(i * slot) - (slot >= 4 ? 2 : 0));
        p.fillRect(QRect(x0, plot.bottom() - h, w, h), bar);
    }
}

void SparklineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const
{
    const QVariant data = index.data(promptlog::StatsTableModel::SeriesRole);
    if (!data.canConvert<QList<qint64>>()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QList<qint64> values = data.value<QList<qint64>>();
    // The cell's background and selection as any other cell, without its text.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : nullptr;
    if (style)
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    qint64 top = 0;
    for (qint64 v : values)
        top = std::max(top, v);
    if (values.isEmpty() || top <= 0)
        return;
    const QRect r = option.rect.adjusted(3, 3, -3, -3);
    const double slot = double(r.width()) / values.size();
    const QColor color = (option.state & QStyle::State_Selected)
                             ? option.palette.color(QPalette::HighlightedText)
                             : option.palette.color(QPalette::Highlight);
    painter->save();
    for (int i = 0; i < values.size(); ++i) {
        if (values[i] <= 0)
            continue;
        const int h = std::max(1, int(std::lround(double(values[i]) / top * r.height())));
        const int x0 = r.left() + int(i * slot);
        const int w = std::max(1, int((i + 1) * slot) - int(i * slot) - (slot >= 3 ? 1 : 0));
        painter->fillRect(QRect(x0, r.bottom() - h + 1, w, h), color);
    }
    painter->restore();
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    if (index.data(promptlog::StatsTableModel::SeriesRole).isValid())
        s.setWidth(std::max(s.width(), 120));
    return s;
}

} // namespace hako
