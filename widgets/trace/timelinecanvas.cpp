#include "widgets/trace/timelinecanvas.h"

#include "core/pdl/trace/tracemodel.h"
#include "widgets/common/blockkindcolor.h"
#include "widgets/common/thememanager.h"
#include "widgets/trace/tracepanestyle.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hako {

namespace {
constexpr int kMargin = 8;
// Content wider than this would overflow the scroll bar's int range.
constexpr double kMaxContentPx = 1e9;

qint64 nowNanos()
{
    return QDateTime::currentMSecsSinceEpoch() * 1000000;
}
} // namespace

// The time axis above the bars, in the scroll area's top margin.
class TimelineCanvas::Axis : public QWidget {
public:
    explicit Axis(TimelineCanvas* canvas) : QWidget(canvas), m_canvas(canvas) {}

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        m_canvas->paintAxis(p, rect());
    }

private:
    TimelineCanvas* m_canvas;
};

TimelineCanvas::TimelineCanvas(QWidget* parent)
    : QAbstractScrollArea(parent), m_axis(new Axis(this)), m_rebuildTimer(new QTimer(this)),
      m_liveTimer(new QTimer(this))
{
    setViewportMargins(0, kAxisHeight, 0, 0);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    m_rebuildTimer->setSingleShot(true);
    m_rebuildTimer->setInterval(40); // coalesce a streaming run's updates
    connect(m_rebuildTimer, &QTimer::timeout, this, [this] {
        rebuild();
        viewport()->update();
        update();
    });
    // While blocks run their bars grow with the clock.
    m_liveTimer->setInterval(250);
    connect(m_liveTimer, &QTimer::timeout, this, [this] {
        if (!m_anyRunning) {
            m_liveTimer->stop();
            return;
        }
        m_t1 = std::max(m_t1, nowNanos());
        if (!m_fitted)
            fit();
        updateScrollBars();
        viewport()->update();
    });
    horizontalScrollBar()->setSingleStep(20);
    verticalScrollBar()->setSingleStep(kRowHeight);
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, m_axis,
            qOverload<>(&QWidget::update));
}

void TimelineCanvas::setModel(pdl::TraceModel* model)
{
    if (m_model == model)
        return;
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_selected = nullptr;
    if (model) {
        auto forget = [this] {
            // Items die with the reset (or the rows removed): forget every pointer now.
            m_selected = nullptr;
            m_bars.clear();
            clearRows();
            m_dirty = true;
        };
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this, forget);
        connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, this, forget);
        connect(model, &QAbstractItemModel::rowsRemoved, this, &TimelineCanvas::scheduleRebuild);
        connect(model, &QAbstractItemModel::rowsMoved, this, &TimelineCanvas::scheduleRebuild);
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            m_fitted = false;
            scheduleRebuild();
        });
        connect(model, &QAbstractItemModel::rowsInserted, this, &TimelineCanvas::scheduleRebuild);
        connect(model, &QAbstractItemModel::dataChanged, this, &TimelineCanvas::scheduleRebuild);
    }
    m_fitted = false;
    m_bars.clear();
    clearRows();
    scheduleRebuild();
}

void TimelineCanvas::setRowMode(RowMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    rebuild();
    setSelectedItem(m_selected, true);
    viewport()->update();
}

void TimelineCanvas::scheduleRebuild()
{
    m_dirty = true;
    if (!m_rebuildTimer->isActive())
        m_rebuildTimer->start();
}

void TimelineCanvas::ensureBuilt()
{
    if (m_dirty)
        rebuild();
}

int TimelineCanvas::barCount()
{
    ensureBuilt();
    return int(m_bars.size());
}

void TimelineCanvas::clearRows()
{
    m_rowStart.clear();
    m_rowBars.clear();
    m_rowMaxEnd.clear();
}

void TimelineCanvas::rebuild()
{
    QElapsedTimer cost;
    cost.start();
    m_dirty = false;
    m_rebuildTimer->stop();
    m_bars.clear();
    clearRows();
    m_anyRunning = false;
    m_t0 = 0;
    m_t1 = 0;
    const pdl::TraceItem* root = m_model ? m_model->root() : nullptr;
    if (root) {
        m_bars.reserve(size_t(m_model->itemCount()));
        // Pre-order walk; depth tracked with the stack.
        std::vector<std::pair<const pdl::TraceItem*, int>> stack{{root, 0}};
        qint64 t0 = std::numeric_limits<qint64>::max();
        qint64 t1 = 0;
        while (!stack.empty()) {
            auto [item, depth] = stack.back();
            stack.pop_back();
            const pdl::TraceNode& n = item->node;
            if (n.startNanos > 0) {
                const int row = m_mode == RowMode::TreeOrder ? int(m_bars.size()) : depth;
                m_bars.push_back({item, n.startNanos, item->running ? 0 : n.endNanos, row});
                t0 = std::min<qint64>(t0, n.startNanos);
                t1 = std::max<qint64>(t1, std::max(n.startNanos, n.endNanos));
                m_anyRunning = m_anyRunning || item->running;
            }
            for (auto c = item->children.rbegin(); c != item->children.rend(); ++c)
                stack.emplace_back(c->get(), depth + 1);
        }
        if (!m_bars.empty()) {
            m_t0 = t0;
            m_t1 = m_anyRunning ? std::max(t1, nowNanos()) : std::max(t1, t0 + 1);
        }
    }
    int rows = 0;
    for (const Bar& b : m_bars)
        rows = std::max(rows, b.row + 1);
    // Each row's bars counted, then placed, then ordered by start.
    m_rowStart.assign(size_t(rows) + 1, 0);
    for (const Bar& b : m_bars)
        ++m_rowStart[size_t(b.row) + 1];
    std::partial_sum(m_rowStart.begin(), m_rowStart.end(), m_rowStart.begin());
    m_rowBars.resize(m_bars.size());
    {
        std::vector<int> next(m_rowStart.begin(), m_rowStart.end() - 1);
        for (int i = 0; i < int(m_bars.size()); ++i)
            m_rowBars[size_t(next[size_t(m_bars[size_t(i)].row)]++)] = i;
    }
    m_rowMaxEnd.resize(m_bars.size());
    const auto byStart = [this](int a, int b) {
        return m_bars[size_t(a)].start < m_bars[size_t(b)].start;
    };
    for (int r = 0; r < rows; ++r) {
        const auto first = m_rowBars.begin() + m_rowStart[size_t(r)];
        const auto last = m_rowBars.begin() + m_rowStart[size_t(r) + 1];
        if (!std::is_sorted(first, last, byStart)) // most rows come in time order
            std::stable_sort(first, last, byStart);
        qint64 running = 0;
        for (int k = m_rowStart[size_t(r)]; k < m_rowStart[size_t(r) + 1]; ++k) {
            running = std::max(running, barEnd(m_bars[size_t(m_rowBars[size_t(k)])]));
            m_rowMaxEnd[size_t(k)] = running;
        }
    }
    if (m_anyRunning && !m_liveTimer->isActive())
        m_liveTimer->start();
    if (!m_fitted && !m_bars.empty())
        fit();
    updateScrollBars();
    // A streaming run of 100,000 blocks must not spend the GUI thread rebuilding: wait in
    // proportion to what a rebuild costs.
    m_rebuildTimer->setInterval(std::clamp(int(cost.elapsed()) * 5, 40, 1000));
    Q_EMIT extentChanged(m_t1 - m_t0, int(m_bars.size()));
}

qint64 TimelineCanvas::barEnd(const Bar& bar) const
{
    if (bar.end >= bar.start)
        return bar.end;
    return std::max(m_t1, bar.start); // running: up to now
}

double TimelineCanvas::xOf(qint64 nanos) const
{
    return kMargin + double(nanos - m_t0) / m_nsPerPx - horizontalScrollBar()->value();
}

void TimelineCanvas::fit()
{
    const int width = std::max(50, viewport()->width() - 2 * kMargin);
    const qint64 span = std::max<qint64>(1, m_t1 - m_t0);
    m_nsPerPx = double(span) / width;
    m_fitted = true;
    updateScrollBars();
    horizontalScrollBar()->setValue(0);
    viewport()->update();
    update();
}

void TimelineCanvas::zoomBy(double factor, int anchorX)
{
    if (anchorX < 0)
        anchorX = viewport()->width() / 2;
    const qint64 span = std::max<qint64>(1, m_t1 - m_t0);
    const double anchorNs = (anchorX - kMargin + horizontalScrollBar()->value()) * m_nsPerPx;
    const double fitScale = double(span) / std::max(50, viewport()->width() - 2 * kMargin);
    double scale = m_nsPerPx / factor;
    scale = std::clamp(scale, std::max(0.05, double(span) / kMaxContentPx), fitScale * 2);
    m_nsPerPx = scale;
    m_fitted = false;
    updateScrollBars();
    horizontalScrollBar()->setValue(int(std::lround(anchorNs / m_nsPerPx - anchorX + kMargin)));
    viewport()->update();
    update();
}

void TimelineCanvas::updateScrollBars()
{
    const double contentW = double(std::max<qint64>(0, m_t1 - m_t0)) / m_nsPerPx + 2 * kMargin;
    const int w = viewport()->width();
    horizontalScrollBar()->setPageStep(w);
    horizontalScrollBar()->setRange(0, std::max(0, int(std::min(contentW, kMaxContentPx)) - w));
    const int rows = rowCount();
    const int h = viewport()->height();
    verticalScrollBar()->setPageStep(h);
    verticalScrollBar()->setRange(0, std::max(0, rows * kRowHeight + 4 - h));
}

void TimelineCanvas::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    const QRect vp = viewport()->geometry();
    m_axis->setGeometry(vp.left(), vp.top() - kAxisHeight, vp.width(), kAxisHeight);
    if (m_fitted)
        fit();
    else
        updateScrollBars();
}

const TimelineCanvas::Bar* TimelineCanvas::barOf(const pdl::TraceItem* item)
{
    ensureBuilt();
    if (!item)
        return nullptr;
    for (const Bar& b : m_bars)
        if (b.item == item)
            return &b;
    return nullptr;
}

QRect TimelineCanvas::barRect(const pdl::TraceItem* item)
{
    const Bar* b = barOf(item);
    if (!b)
        return {};
    const double x0 = xOf(b->start);
    const double x1 = std::max(x0 + 2, xOf(barEnd(*b)));
    const int y = b->row * kRowHeight - verticalScrollBar()->value() + 2;
    return QRect(int(x0), y, int(std::ceil(x1 - x0)), kRowHeight - 4);
}

const pdl::TraceItem* TimelineCanvas::itemAt(const QPoint& pos)
{
    ensureBuilt();
    const int row = (pos.y() + verticalScrollBar()->value()) / kRowHeight;
    if (pos.y() < 0 || row < 0 || row >= rowCount())
        return nullptr;
    const std::span<const int> idx = rowBars(row);
    // The innermost hit wins in depth mode: pick the latest-starting bar containing the time,
    // with a few pixels of slack for thin bars.
    const double slack = 3 * m_nsPerPx;
    const double t = m_t0 + (pos.x() - kMargin + horizontalScrollBar()->value()) * m_nsPerPx;
    const pdl::TraceItem* best = nullptr;
    auto it = std::upper_bound(idx.begin(), idx.end(), t + slack, [this](double time, int i) {
        return time < double(m_bars[size_t(i)].start);
    });
    while (it != idx.begin()) {
        --it;
        const Bar& b = m_bars[size_t(*it)];
        if (double(barEnd(b)) + slack >= t) {
            best = b.item;
            break;
        }
        const size_t k = size_t(it - idx.begin());
        if (double(rowMaxEnd(row)[k]) + slack < t)
            break;
    }
    return best;
}

void TimelineCanvas::setSelectedItem(const pdl::TraceItem* item, bool scrollTo)
{
    m_selected = item;
    if (item && scrollTo) {
        const QRect r = barRect(item);
        if (!r.isNull()) {
            if (r.top() < 0 || r.bottom() > viewport()->height())
                verticalScrollBar()->setValue(verticalScrollBar()->value() + r.top() -
                                              viewport()->height() / 3);
            if (r.right() < 0 || r.left() > viewport()->width())
                horizontalScrollBar()->setValue(horizontalScrollBar()->value() + r.left() -
                                                viewport()->width() / 4);
        }
    }
    viewport()->update();
}

void TimelineCanvas::paintAxis(QPainter& p, const QRect& area)
{
    const QPalette& pal = palette();
    p.fillRect(area, pal.color(QPalette::Button));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(area.bottomLeft(), area.bottomRight());
    if (m_bars.empty())
        return;
    // A "nice" step (1, 2, 5 × 10^k ns) about every 110 px.
    const double target = 110 * m_nsPerPx;
    double step = std::pow(10.0, std::floor(std::log10(std::max(1.0, target))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (step * m >= target) {
            step *= m;
            break;
        }
    const double firstNs = (horizontalScrollBar()->value() - kMargin) * m_nsPerPx;
    const double lastNs = firstNs + (area.width() + kMargin) * m_nsPerPx;
    p.setPen(pal.color(QPalette::ButtonText));
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);
    for (double t = std::max(0.0, std::floor(firstNs / step) * step); t <= lastNs; t += step) {
        const int x = area.left() + int(std::lround(xOf(m_t0 + qint64(t))));
        p.drawLine(x, area.bottom() - 5, x, area.bottom());
        p.drawText(QRect(x + 3, area.top(), 100, area.height() - 4),
                   Qt::AlignLeft | Qt::AlignVCenter, formatDuration(qint64(t)));
    }
}

void TimelineCanvas::paintEvent(QPaintEvent*)
{
    ensureBuilt();
    QPainter p(viewport());
    const QPalette& pal = palette();
    const QRect area = viewport()->rect();
    p.fillRect(area, pal.color(QPalette::Base));
    m_lastPainted = 0;
    if (m_bars.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(area, Qt::AlignCenter,
                   m_model && m_model->root() ? tr("This trace has no timing (pdl__timing).")
                                              : tr("No trace."));
        return;
    }
    const int vscroll = verticalScrollBar()->value();
    const int firstRow = std::max(0, vscroll / kRowHeight);
    const int lastRow = std::min(rowCount() - 1, (vscroll + area.height()) / kRowHeight);
    const qint64 viewStart = m_t0 + qint64((horizontalScrollBar()->value() - kMargin) * m_nsPerPx);
    const qint64 viewEnd = viewStart + qint64((area.width() + kMargin) * m_nsPerPx);
    const QFontMetrics fm(font());
    const QColor text = pal.color(QPalette::Text);
    const QColor highlight = pal.color(QPalette::Highlight);
    const bool dark = ThemeManager::isDark(pal);

    for (int row = firstRow; row <= lastRow; ++row) {
        const int y = row * kRowHeight - vscroll;
        if (row % 2)
            p.fillRect(QRect(0, y, area.width(), kRowHeight), pal.color(QPalette::AlternateBase));
        const std::span<const int> idx = rowBars(row);
        const std::span<const qint64> maxEnd = rowMaxEnd(row);
        // First bar that may reach into view: the running max of ends is sorted.
        auto from = std::lower_bound(maxEnd.begin(), maxEnd.end(), viewStart);
        double lastPx = -1e9;
        for (size_t k = size_t(from - maxEnd.begin()); k < idx.size(); ++k) {
            const Bar& b = m_bars[size_t(idx[k])];
            if (b.start > viewEnd)
                break;
            const qint64 end = barEnd(b);
            if (end < viewStart)
                continue;
            const double x0 = std::max(-2.0, xOf(b.start));
            const double x1 = std::min(double(area.width() + 2), xOf(end));
            // Many bars inside one pixel column: draw that column once.
            if (x1 < lastPx + 1 && b.item != m_selected)
                continue;
            lastPx = std::max(lastPx, x1);
            ++m_lastPainted;
            QRectF r(x0, y + 2, std::max(1.5, x1 - x0), kRowHeight - 4);
            const pdl::TraceItem* item = b.item;
            QColor fill = kindColor(item->node.kind, pal);
            if (item->node.contributesNothing())
                fill.setAlphaF(0.45);
            QColor border = fill.darker(dark ? 70 : 140);
            if (item->failed())
                border = failureColor(dark);
            if (r.width() >= 4) {
                p.setPen(QPen(border, 1));
                p.setBrush(fill);
                p.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
            } else {
                p.fillRect(r, fill.darker(dark ? 90 : 115));
            }
            if (item->running) {
                p.setPen(QPen(border, 1, Qt::DashLine));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r);
            }
            if (item == m_selected) {
                p.setPen(QPen(highlight, 2));
                p.setBrush(Qt::NoBrush);
                p.drawRoundedRect(r.adjusted(-1, -1, 1, 1), 3, 3);
            }
            // The label inside when it fits, else (one bar per row) to its right.
            const QString label = itemLabel(item);
            const int room = int(r.width()) - 8;
            p.setPen(text);
            if (room >= 30) {
                p.drawText(r.adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
                           fm.elidedText(label, Qt::ElideRight, room));
            } else if (m_mode == RowMode::TreeOrder) {
                p.setPen(pal.color(QPalette::PlaceholderText));
                p.drawText(QRectF(r.right() + 4, r.top(), 300, r.height()),
                           Qt::AlignLeft | Qt::AlignVCenter, label);
            }
        }
    }
}

bool TimelineCanvas::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const pdl::TraceItem* item = itemAt(help->pos())) {
            const pdl::TraceNode& n = item->node;
            QString tip = QStringLiteral("<b>%1</b> (%2)<br>%3")
                              .arg(itemLabel(item).toHtmlEscaped(),
                                   QString::fromLatin1(pdl::blockKindName(n.kind)),
                                   QString::fromStdString(n.id).toHtmlEscaped());
            if (!item->running && n.endNanos >= n.startNanos)
                tip += QStringLiteral("<br>") + tr("%1, starts at +%2")
                                                    .arg(formatDuration(n.endNanos - n.startNanos),
                                                         formatDuration(n.startNanos - m_t0));
            QToolTip::showText(help->globalPos(), tip, viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    if (event->type() == QEvent::Paint)
        m_axis->update(); // the axis follows zoom and scroll with the bars
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineCanvas::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        zoomBy(std::pow(1.25, steps), int(event->position().x()));
        event->accept();
        return;
    }
    if (event->modifiers() & Qt::ShiftModifier) {
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - event->angleDelta().y());
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void TimelineCanvas::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_pressPos = event->position().toPoint();
    m_pressH = horizontalScrollBar()->value();
    m_pressV = verticalScrollBar()->value();
    m_dragging = false;
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint d = event->position().toPoint() - m_pressPos;
    if (!m_dragging && d.manhattanLength() < 5)
        return;
    m_dragging = true;
    viewport()->setCursor(Qt::ClosedHandCursor);
    horizontalScrollBar()->setValue(m_pressH - d.x());
    verticalScrollBar()->setValue(m_pressV - d.y());
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    viewport()->unsetCursor();
    if (m_dragging) {
        m_dragging = false;
        return;
    }
    if (const pdl::TraceItem* item = itemAt(event->position().toPoint())) {
        setSelectedItem(item, false);
        Q_EMIT itemClicked(item);
    }
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event)
{
    // Zoom to the block under the pointer.
    const pdl::TraceItem* item = itemAt(event->position().toPoint());
    const Bar* b = barOf(item);
    if (!b)
        return;
    const qint64 span = std::max<qint64>(1, barEnd(*b) - b->start);
    const int width = std::max(50, viewport()->width() - 2 * kMargin);
    const qint64 total = std::max<qint64>(1, m_t1 - m_t0);
    m_nsPerPx = std::max(std::max(0.05, double(total) / kMaxContentPx), double(span) * 1.1 / width);
    m_fitted = false;
    updateScrollBars();
    horizontalScrollBar()->setValue(int((b->start - m_t0) / m_nsPerPx) - width / 20);
    viewport()->update();
    update();
}

void TimelineCanvas::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.5);
        return;
    case Qt::Key_Minus:
        zoomBy(1 / 1.5);
        return;
    case Qt::Key_0:
        fit();
        return;
    default:
        QAbstractScrollArea::keyPressEvent(event);
    }
}

} // namespace hako
