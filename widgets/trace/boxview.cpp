#include "widgets/trace/boxview.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/util/whenready.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/trace/boxpainter.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QSettings>
#include <QToolTip>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <span>

namespace hako {

using pdl::BoxLayout;
using pdl::TraceItem;
using pdl::TraceModel;

namespace {

constexpr double kMinZoom = 0.01;
constexpr double kMaxZoom = 8.0;
constexpr double kZoomStep = 1.25;

QFont textFontFor(const QFont& uiFont)
{
    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (uiFont.pointSizeF() > 0)
        f.setPointSizeF(uiFont.pointSizeF() * 0.95);
    return f;
}

QFont labelFontFor(const QFont& uiFont)
{
    QFont f = uiFont;
    f.setWeight(QFont::DemiBold);
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 0.9);
    return f;
}

} // namespace

BoxView::BoxView(WorkbenchContext* context, QWidget* parent)
    : QAbstractScrollArea(parent), m_context(context)
{
    setObjectName(QStringLiteral("boxView"));
    setAccessibleName(tr("Trace boxes"));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    horizontalScrollBar()->setSingleStep(20);
    verticalScrollBar()->setSingleStep(20);
    m_relayoutTimer.setSingleShot(true);
    connect(&m_relayoutTimer, &QTimer::timeout, this, &BoxView::startRelayout);
    // The legend sits in a strip below the viewport (its margin), painted by eventFilter.
    m_legendStrip = new QWidget(this);
    m_legendStrip->setObjectName(QStringLiteral("boxLegend"));
    m_legendStrip->setAccessibleName(tr("Legend of block kinds"));
    m_legendStrip->installEventFilter(this);
    m_legendVisible = QSettings().value(QStringLiteral("trace/legendVisible"), true).toBool();
    updateParams();
    if (m_context) {
        connect(m_context, &WorkbenchContext::traceModelChanged, this,
                [this](pdl::TraceModel* model, QObject*) { setModel(model); });
        connect(m_context, &WorkbenchContext::currentNodeChanged, this,
                &BoxView::onCurrentNodeChanged);
        connect(m_context, &WorkbenchContext::sourceCursorChanged, this,
                &BoxView::onSourceCursorChanged);
        connect(m_context, &WorkbenchContext::pausedNodeChanged, viewport(),
                qOverload<>(&QWidget::update));
        setModel(m_context->traceModel());
    }
}

BoxView::~BoxView() = default;

void BoxView::setModel(TraceModel* model)
{
    if (model == m_model && model)
        return;
    for (const auto& c : m_modelConnections)
        disconnect(c);
    m_modelConnections.clear();
    modelAboutToReset();
    m_model = model;
    if (model) {
        auto changed = [this] {
            scheduleRelayout();
        };
        m_modelConnections = {
            connect(model, &TraceModel::modelAboutToBeReset, this, &BoxView::modelAboutToReset),
            connect(model, &TraceModel::modelReset, this,
                    [this] {
                        m_fitPending = true;
                        scheduleRelayout(0);
                    }),
            connect(model, &TraceModel::rowsInserted, this, changed),
            connect(model, &TraceModel::rowsRemoved, this, changed),
            connect(model, &TraceModel::rowsAboutToBeRemoved, this, &BoxView::rowsAboutToGo),
            connect(model, &TraceModel::rowsMoved, this, changed),
            connect(model, &TraceModel::dataChanged, this, changed),
            connect(model, &TraceModel::layoutChanged, this, changed),
            connect(model, &TraceModel::itemStreamed, this, changed),
            connect(model, &TraceModel::liveRunEnded, this, changed),
            connect(model, &QObject::destroyed, this, [this] { modelAboutToReset(); }),
        };
    }
    m_fitPending = true;
    scheduleRelayout(0);
}

void BoxView::modelAboutToReset()
{
    // Items die with the reset: forget every pointer into the old tree and any layout in flight.
    m_latest.invalidate();
    m_layout.reset();
    m_kinds.clear();
    updateLegendStrip();
    m_params.expandedBlocks.clear();
    m_params.revealed.clear();
    m_params.childrenShown.clear();
    m_params.toggled.clear();
    m_current = nullptr;
    m_currentBox = -1;
    m_scrollTarget = nullptr;
    m_highlighted.clear();
    m_highlightFlags.clear();
    m_hoveredBox = -1;
    updateScrollBars();
    viewport()->update();
}

void BoxView::rowsAboutToGo(const QModelIndex& parent, int first, int last)
{
    // The boxes point into the tree: drop them (and what points into the rows going) until
    // the next layout.
    auto going = [&](const TraceItem* item) {
        for (const TraceItem* a = item; a; a = a->parent) {
            const QModelIndex index = m_model ? m_model->indexOf(a) : QModelIndex();
            if (index.isValid() && index.parent() == parent && index.row() >= first &&
                index.row() <= last)
                return true;
        }
        return false;
    };
    m_latest.invalidate();
    m_layout.reset();
    m_currentBox = -1;
    m_hoveredBox = -1;
    if (going(m_current))
        m_current = nullptr;
    if (going(m_scrollTarget))
        m_scrollTarget = nullptr;
    std::erase_if(m_highlighted, going);
    m_params.revealed.removeIf(going);
    m_params.childrenShown.removeIf([&](auto it) { return going(it.key()); });
    m_params.expandedBlocks.removeIf(going);
    m_params.toggled.removeIf(going);
    m_highlightFlags.clear();
    viewport()->update();
}

bool BoxView::isLayoutPending() const
{
    return m_relayoutTimer.isActive() || m_inFlight;
}

void BoxView::scheduleRelayout(int delayMs)
{
    // Coalesce: a running timer already covers this change.
    if (!m_relayoutTimer.isActive() || delayMs == 0)
        m_relayoutTimer.start(delayMs);
}

void BoxView::startRelayout()
{
    if (m_inFlight) {
        m_dirty = true; // one more pass when the running one lands
        return;
    }
    const TraceItem* root = m_model ? m_model->root() : nullptr;
    if (!root) {
        applyLayout(nullptr);
        return;
    }
    // The tree may change under a live run: copy what is shown here, on the GUI thread (with
    // long loops collapsed that is a few hundred nodes), and place boxes on a worker.
    pdl::BoxLayoutInput input = pdl::collectBoxInput(root, m_params);
    m_inFlight = true;
    const LatestJob::Ticket ticket = m_latest.current();
    whenReady(this, QtConcurrent::run([input = std::move(input), params = m_params]() mutable {
                  return std::make_shared<const BoxLayout>(
                      pdl::layoutBoxes(std::move(input), params));
              }),
              [this, ticket](std::shared_ptr<const BoxLayout> layout) {
                  m_inFlight = false;
                  if (m_latest.isCurrent(ticket))
                      applyLayout(std::move(layout));
                  if (m_dirty) {
                      m_dirty = false;
                      startRelayout();
                  }
              });
}

void BoxView::describeLayout()
{
    // What a screen reader says of the canvas: how much of the trace is drawn.
    const auto [drawn, hidden] = m_layout ? m_layout->drawnAndHidden() : std::pair(0, 0);
    const QLocale locale;
    setAccessibleDescription(
        hidden == 0 ? tr("%n block(s) drawn", nullptr, drawn)
                    : tr("%1 blocks drawn, %2 behind “more” boxes; click one to show them")
                          .arg(locale.toString(drawn), locale.toString(hidden)));
}

void BoxView::applyLayout(std::shared_ptr<const BoxLayout> layout)
{
    m_layout = std::move(layout);
    m_kinds.clear();
    m_currentBox = -1;
    m_hoveredBox = -1;
    if (m_layout) {
        std::vector<char> seen(int(pdl::BlockKind::Error) + 1, 0);
        for (const pdl::Box& b : m_layout->boxes)
            seen[int(b.kind)] = 1;
        for (int k = 0; k < int(seen.size()); ++k)
            if (seen[k])
                m_kinds.push_back(pdl::BlockKind(k));
        m_currentBox = m_current ? m_layout->indexOf(m_current) : -1;
    }
    describeLayout();
    updateLegendStrip();
    updateHighlightFlags();
    // While a run streams, a view scrolled to the end stays there, so new boxes come into view.
    QScrollBar* v = verticalScrollBar();
    const bool follow = m_model && m_model->isLive() && v->value() >= v->maximum() - 4;
    // Only a shown view knows its size; a hidden one fits on its first layout once shown.
    if (m_fitPending && m_layout && isVisible()) {
        m_fitPending = false;
        // A fresh trace starts at 100% (or smaller when it is narrow enough to fit), at the top.
        const double fitWidth = (viewport()->width() - 2 * m_margin) / m_layout->size.width();
        m_zoom = std::clamp(std::min(1.0, fitWidth), kMinZoom, kMaxZoom);
    }
    updateScrollBars();
    if (follow)
        v->setValue(v->maximum());
    if (m_scrollTarget && m_layout) {
        const int box = m_layout->indexOf(m_scrollTarget);
        if (box >= 0) {
            scrollToBox(box);
            m_scrollTarget = nullptr;
        }
    }
    viewport()->update();
    Q_EMIT layoutUpdated();
}

void BoxView::updateParams()
{
    const QFontMetricsF text(textFontFor(font()));
    const QFontMetricsF label(labelFontFor(font()));
    m_params.charWidth = text.horizontalAdvance(QLatin1Char('x'));
    m_params.lineHeight = std::ceil(text.lineSpacing());
    m_params.headerHeight = std::ceil(label.height() + 3);
    m_params.padding = std::ceil(label.height() * 0.4);
    m_params.spacing = std::ceil(label.height() * 0.3);
    m_params.width = std::max(360.0, viewport()->width() - 2 * m_margin);
}

void BoxView::updateScrollBars()
{
    const QSize vp = viewport()->size();
    const QSizeF content = m_layout ? m_layout->size * m_zoom : QSizeF();
    const int w = int(std::ceil(content.width() + 2 * m_margin));
    const int h = int(std::ceil(content.height() + 2 * m_margin));
    horizontalScrollBar()->setRange(0, std::max(0, w - vp.width()));
    horizontalScrollBar()->setPageStep(vp.width());
    verticalScrollBar()->setRange(0, std::max(0, h - vp.height()));
    verticalScrollBar()->setPageStep(vp.height());
}

void BoxView::updateHighlightFlags()
{
    m_highlightFlags.clear();
    if (!m_layout || m_highlighted.empty())
        return;
    m_highlightFlags.assign(m_layout->boxes.size(), 0);
    for (const TraceItem* item : m_highlighted) {
        const int box = m_layout->indexOf(item);
        if (box >= 0)
            m_highlightFlags[box] = 1;
    }
}

QPointF BoxView::scrollOffset() const
{
    return QPointF(horizontalScrollBar()->value(), verticalScrollBar()->value());
}

QPointF BoxView::toLayout(QPointF viewportPos) const
{
    return (viewportPos + scrollOffset() - QPointF(m_margin, m_margin)) / m_zoom;
}

int BoxView::boxIndexAt(const QPoint& pos) const
{
    return m_layout ? m_layout->boxAt(toLayout(pos)) : -1;
}

const TraceItem* BoxView::itemAt(const QPoint& pos) const
{
    const int box = boxIndexAt(pos);
    return box >= 0 ? m_layout->boxes[box].item : nullptr;
}

QRect BoxView::viewportRectOf(const TraceItem* item) const
{
    const int box = m_layout ? m_layout->indexOf(item) : -1;
    if (box < 0)
        return {};
    const QRectF r = m_layout->boxes[box].rect;
    const QPointF topLeft = r.topLeft() * m_zoom + QPointF(m_margin, m_margin) - scrollOffset();
    return QRectF(topLeft, r.size() * m_zoom).toAlignedRect();
}

void BoxView::setZoom(double zoom, QPointF anchor)
{
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    if (anchor.x() < 0)
        anchor = QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0);
    const QPointF under = toLayout(anchor);
    m_zoom = zoom;
    updateScrollBars();
    const QPointF scroll = under * m_zoom + QPointF(m_margin, m_margin) - anchor;
    horizontalScrollBar()->setValue(int(std::lround(scroll.x())));
    verticalScrollBar()->setValue(int(std::lround(scroll.y())));
    viewport()->update();
}

void BoxView::zoomIn()
{
    setZoom(m_zoom * kZoomStep);
}

void BoxView::zoomOut()
{
    setZoom(m_zoom / kZoomStep);
}

void BoxView::fitToView()
{
    if (!m_layout || m_layout->isEmpty())
        return;
    const QSizeF avail(viewport()->width() - 2 * m_margin, viewport()->height() - 2 * m_margin);
    const double z = std::min(
        {1.0, avail.width() / m_layout->size.width(), avail.height() / m_layout->size.height()});
    m_zoom = std::clamp(z, kMinZoom, kMaxZoom);
    updateScrollBars();
    horizontalScrollBar()->setValue(0);
    verticalScrollBar()->setValue(0);
    viewport()->update();
}

void BoxView::expandBlock(const TraceItem* item)
{
    if (!item || m_params.expandedBlocks.contains(item))
        return;
    m_params.expandedBlocks.insert(item);
    scheduleRelayout(0);
}

void BoxView::openExpander(int index)
{
    const pdl::Box& box = m_layout->boxes[index];
    if (box.has(pdl::Box::Children))
        showMoreChildren(box.item, firstHiddenChild(index));
    else
        expandBlock(box.item);
}

int BoxView::firstHiddenChild(int expander) const
{
    // The children an expander stands for start after the child drawn before it.
    const std::span<const int> siblings = m_layout->children(m_layout->boxes[expander].parent);
    const auto at = std::find(siblings.begin(), siblings.end(), expander);
    if (at == siblings.begin() || at == siblings.end())
        return 0;
    const TraceItem* before = m_layout->boxes[*(at - 1)].item;
    return before ? before->row + 1 : 0;
}

void BoxView::showMoreChildren(const TraceItem* block, int from)
{
    if (!block)
        return;
    const int head = m_params.childrenShown.value(block, m_params.childrenHead);
    if (from <= head) { // the first "more" box: the head grows
        m_params.childrenShown[block] = head + kMoreChildren;
    } else { // one after a picked child: the next ones after it
        const int end = std::min(from + kMoreChildren, int(block->children.size()));
        for (int i = from; i < end; ++i)
            m_params.revealed.insert(block->children[size_t(i)].get());
    }
    scheduleRelayout(0);
}

void BoxView::reveal(const TraceItem* item, const TraceItem* block)
{
    while (item && item->parent != block)
        item = item->parent;
    if (!item || m_params.revealed.contains(item))
        return;
    m_params.revealed.insert(item);
    scheduleRelayout(0);
}

void BoxView::toggleItem(const TraceItem* item)
{
    if (!item)
        return;
    if (!m_params.toggled.remove(item))
        m_params.toggled.insert(item);
    scheduleRelayout(0);
}

void BoxView::setLegendVisible(bool visible)
{
    m_legendVisible = visible;
    QSettings().setValue(QStringLiteral("trace/legendVisible"), visible);
    updateLegendStrip();
}

void BoxView::updateLegendStrip()
{
    const bool show = m_legendVisible && !m_kinds.empty();
    int h = 0;
    if (show) {
        const BoxPainter boxPainter(palette(), labelFontFor(font()), textFontFor(font()), m_params);
        h = int(std::ceil(boxPainter.legendRowsHeight(viewport()->width(), m_kinds)));
    }
    if (viewportMargins().bottom() != h)
        setViewportMargins(0, 0, 0, h);
    const QRect vp = viewport()->geometry();
    m_legendStrip->setGeometry(vp.x(), vp.bottom() + 1, vp.width(), h);
    m_legendStrip->setVisible(show);
    m_legendStrip->update();
}

bool BoxView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_legendStrip && event->type() == QEvent::Paint) {
        QPainter painter(m_legendStrip);
        const BoxPainter boxPainter(palette(), labelFontFor(font()), textFontFor(font()), m_params);
        boxPainter.paintLegendRows(painter, m_legendStrip->rect(), m_kinds);
        return true;
    }
    return QAbstractScrollArea::eventFilter(watched, event);
}

void BoxView::scrollToBox(int box)
{
    if (!m_layout || box < 0)
        return;
    const QRectF r = m_layout->boxes[box].rect;
    const QRectF d(r.topLeft() * m_zoom + QPointF(m_margin, m_margin), r.size() * m_zoom);
    const QSize vp = viewport()->size();
    QScrollBar* h = horizontalScrollBar();
    QScrollBar* v = verticalScrollBar();
    // Bring the box's top-left into view, and as much of it as fits.
    if (d.top() < v->value() || d.top() > v->value() + vp.height() - 24)
        v->setValue(int(d.top() - std::min(vp.height() / 4.0, 40.0)));
    if (d.left() < h->value() || d.left() > h->value() + vp.width() - 24)
        h->setValue(int(d.left() - m_margin));
}

void BoxView::selectItem(const TraceItem* item, bool notify)
{
    m_current = item;
    m_currentBox = (m_layout && item) ? m_layout->indexOf(item) : -1;
    if (item && m_currentBox < 0 && m_layout) {
        // Hidden behind a collapsed loop: open it and scroll once laid out. Among a block's
        // thousands of children, only the path to the one picked is drawn.
        const int expander = m_layout->expanderHiding(item);
        if (expander >= 0 && m_layout->boxes[expander].has(pdl::Box::Children))
            reveal(item, m_layout->boxes[expander].item);
        else if (expander >= 0)
            expandBlock(m_layout->boxes[expander].item);
        m_scrollTarget = item;
    }
    scrollToBox(m_currentBox);
    viewport()->update();
    if (notify && item && m_context) {
        m_context->setCurrentNode(QString::fromStdString(item->node.id), this);
        revealCurrentSource();
    }
}

void BoxView::revealCurrentSource()
{
    if (m_current && m_context && m_current->node.span.isValid())
        m_context->revealSource(m_current->node.span, this);
}

void BoxView::onCurrentNodeChanged(const QString& id, QObject* origin)
{
    if (origin == this)
        return;
    const TraceItem* item = (m_model && !id.isEmpty()) ? m_model->findById(id) : nullptr;
    selectItem(item, false);
}

void BoxView::onSourceCursorChanged(const SourceSpan& position, QObject* origin)
{
    if (origin == this || !m_model)
        return;
    m_highlighted = m_model->itemsAtSource(position.file, position.line, position.column);
    updateHighlightFlags();
    // Bring the first lit box into view unless one is visible already.
    if (m_layout && !m_highlighted.empty()) {
        const QRect vp = viewport()->rect();
        bool anyVisible = false;
        int first = -1;
        for (const TraceItem* item : m_highlighted) {
            const int box = m_layout->indexOf(item);
            if (box < 0)
                continue;
            if (first < 0)
                first = box;
            if (viewportRectOf(item).intersects(vp)) {
                anyVisible = true;
                break;
            }
        }
        if (!anyVisible)
            scrollToBox(first);
    }
    viewport()->update();
}

void BoxView::render(QPainter& painter, const QRect& target) const
{
    if (!m_legendVisible || m_kinds.empty()) {
        renderBoxes(painter, target);
        return;
    }
    const BoxPainter boxPainter(palette(), labelFontFor(font()), textFontFor(font()), m_params);
    const int h = int(std::ceil(boxPainter.legendRowsHeight(target.width(), m_kinds)));
    renderBoxes(painter, target.adjusted(0, 0, 0, -h));
    boxPainter.paintLegendRows(
        painter, QRectF(target.x(), target.bottom() + 1 - h, target.width(), h), m_kinds);
}

void BoxView::renderBoxes(QPainter& painter, const QRect& target) const
{
    const QPalette pal = palette();
    painter.fillRect(target, pal.color(QPalette::Window));
    if (!m_layout) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(target, Qt::AlignCenter,
                         m_model && m_model->root() ? tr("Laying out…")
                                                    : tr("No trace yet: run a program or open "
                                                         "a trace file."));
        return;
    }
    const BoxPainter boxPainter(pal, labelFontFor(font()), textFontFor(font()), m_params);
    BoxViewport view;
    view.zoom = m_zoom;
    view.scroll = scrollOffset() - QPointF(target.topLeft());
    view.margin = m_margin;
    view.current = m_currentBox;
    view.highlighted = m_highlightFlags;
    view.hovered = m_hoveredBox;
    if (m_context)
        view.paused = m_context->pausedNode();
    boxPainter.paint(painter, *m_layout, view, target);
}

void BoxView::paintEvent(QPaintEvent*)
{
    QPainter painter(viewport());
    renderBoxes(painter, viewport()->rect());
}

void BoxView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    const double before = m_params.width;
    updateParams();
    updateScrollBars();
    // Reflow only when the width changed noticeably; zoom never reflows.
    if (std::abs(m_params.width - before) > 8 && m_model && m_model->root())
        scheduleRelayout(120);
}

void BoxView::changeEvent(QEvent* event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        updateParams();
        scheduleRelayout(0);
    } else if (event->type() == QEvent::PaletteChange) {
        viewport()->update();
    }
}

void BoxView::scrollContentsBy(int, int)
{
    viewport()->update();
}

void BoxView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_pressed = true;
        m_panning = false;
        m_pressPos = m_lastDragPos = event->position().toPoint();
        setFocus(Qt::MouseFocusReason);
        event->accept();
        return;
    }
    QAbstractScrollArea::mousePressEvent(event);
}

void BoxView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_pressed && (event->buttons() & Qt::LeftButton)) {
        if (!m_panning &&
            (pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
            m_panning = true;
            viewport()->setCursor(Qt::ClosedHandCursor);
        }
        if (m_panning) {
            const QPoint delta = pos - m_lastDragPos;
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
            verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
            m_lastDragPos = pos;
        }
        return;
    }
    const int hovered = boxIndexAt(pos);
    if (hovered != m_hoveredBox) {
        m_hoveredBox = hovered;
        const bool expander = hovered >= 0 && m_layout->boxes[hovered].has(pdl::Box::Expander);
        viewport()->setCursor(expander ? Qt::PointingHandCursor : Qt::ArrowCursor);
        viewport()->update();
    }
}

void BoxView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_pressed)
        return QAbstractScrollArea::mouseReleaseEvent(event);
    m_pressed = false;
    if (m_panning) {
        m_panning = false;
        viewport()->setCursor(Qt::ArrowCursor);
        return;
    }
    const int box = boxIndexAt(event->position().toPoint());
    if (box < 0)
        return;
    const pdl::Box& b = m_layout->boxes[box];
    if (b.has(pdl::Box::Expander))
        openExpander(box);
    else
        selectItem(b.item, true);
}

void BoxView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const int box = boxIndexAt(event->position().toPoint());
    if (box >= 0 && !m_layout->boxes[box].has(pdl::Box::Expander))
        toggleItem(m_layout->boxes[box].item);
}

void BoxView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        setZoom(m_zoom * std::pow(kZoomStep, steps), event->position());
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void BoxView::moveSelection(int key)
{
    if (!m_layout || m_layout->isEmpty())
        return;
    int box = m_currentBox;
    if (box < 0) {
        box = 0;
    } else {
        const pdl::Box& b = m_layout->boxes[box];
        const auto siblings = m_layout->children(b.parent);
        const auto self = std::find(siblings.begin(), siblings.end(), box);
        switch (key) {
        case Qt::Key_Left:
            box = b.parent >= 0 ? b.parent : box;
            break;
        case Qt::Key_Right:
            if (!m_layout->children(box).empty())
                box = m_layout->children(box).front();
            break;
        case Qt::Key_Up:
            if (self != siblings.end() && self != siblings.begin())
                box = *(self - 1);
            break;
        case Qt::Key_Down:
            if (self != siblings.end() && self + 1 != siblings.end())
                box = *(self + 1);
            break;
        default:
            break;
        }
    }
    const pdl::Box& target = m_layout->boxes[box];
    if (target.has(pdl::Box::Expander)) {
        // Keyboard users reach the hidden iterations or blocks through the expander.
        m_currentBox = box;
        scrollToBox(box);
        viewport()->update();
        return;
    }
    selectItem(target.item, true);
}

void BoxView::keyPressEvent(QKeyEvent* event)
{
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        if (ctrl) {
            zoomIn();
            return;
        }
        break;
    case Qt::Key_Minus:
        if (ctrl) {
            zoomOut();
            return;
        }
        break;
    case Qt::Key_0:
        if (ctrl) {
            fitToView();
            return;
        }
        break;
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
        if (!ctrl) {
            moveSelection(event->key());
            return;
        }
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_layout && m_currentBox >= 0 &&
            m_layout->boxes[m_currentBox].has(pdl::Box::Expander)) {
            openExpander(m_currentBox);
            return;
        }
        revealCurrentSource();
        return;
    case Qt::Key_Space:
        if (m_current) {
            toggleItem(m_current);
            return;
        }
        break;
    default:
        break;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void BoxView::contextMenuEvent(QContextMenuEvent* event)
{
    const int box = boxIndexAt(event->pos());
    QMenu menu(this);
    if (box >= 0) {
        const pdl::Box& b = m_layout->boxes[box];
        const TraceItem* item = b.item;
        if (b.has(pdl::Box::Expander)) {
            if (b.has(pdl::Box::Children))
                menu.addAction(
                    tr("Show %1 More Blocks").arg(QLocale().toString(kMoreChildren)), this,
                    [this, item, from = firstHiddenChild(box)] { showMoreChildren(item, from); });
            menu.addAction(b.has(pdl::Box::Children) ? tr("Show All Blocks")
                                                     : tr("Show All Iterations"),
                           this, [this, item] { expandBlock(item); });
        } else {
            if (item->node.span.isValid())
                menu.addAction(tr("Show Source"), this, [this, item] { selectItem(item, true); });
            if (b.has(pdl::Box::HasChildren))
                menu.addAction(b.has(pdl::Box::Rendered) ? tr("Show Structure") : tr("Show Output"),
                               this, [this, item] { toggleItem(item); });
            menu.addAction(tr("Copy Full Text"), this,
                           [item] { QApplication::clipboard()->setText(item->resultText()); });
            if (!item->node.id.empty()) {
                menu.addSeparator();
                const QString id = QString::fromStdString(item->node.id);
                QAction* rerun = menu.addAction(tr("Re-run from Here"), this,
                                                [this, id] { Q_EMIT rerunRequested(id); });
                rerun->setToolTip(tr("Run the program again: what came before this block is "
                                     "replayed from this run, this block and the rest run live"));
            }
        }
        menu.addSeparator();
    }
    menu.addAction(tr("Zoom In"), QKeySequence::ZoomIn, this, &BoxView::zoomIn);
    menu.addAction(tr("Zoom Out"), QKeySequence::ZoomOut, this, &BoxView::zoomOut);
    menu.addAction(tr("Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), this, &BoxView::fitToView);
    QAction* legend = menu.addAction(tr("Legend"));
    legend->setCheckable(true);
    legend->setChecked(m_legendVisible);
    connect(legend, &QAction::toggled, this, &BoxView::setLegendVisible);
    menu.exec(event->globalPos());
}

bool BoxView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::Resize)
        updateLegendStrip(); // follows the viewport's width and position

    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int box = boxIndexAt(help->pos());
        if (box < 0) {
            QToolTip::hideText();
            return true;
        }
        const pdl::Box& b = m_layout->boxes[box];
        QString tip;
        if (b.has(pdl::Box::Expander) && b.has(pdl::Box::Children)) {
            tip = tr("%1 more blocks are not drawn; click to draw the next %2 (the menu: all)")
                      .arg(QLocale().toString(b.hidden),
                           QLocale().toString(std::min(b.hidden, kMoreChildren)));
        } else if (b.has(pdl::Box::Expander)) {
            tip = b.hidden == 1 ? tr("1 hidden iteration; click to show it")
                                : tr("%1 hidden iterations; click to show them all").arg(b.hidden);
        } else {
            const TraceItem* item = b.item;
            tip = QStringLiteral("<b>%1</b> · %2")
                      .arg(b.label.toHtmlEscaped(), QLatin1String(blockKindName(b.kind)));
            if (!item->node.id.empty())
                tip += QStringLiteral("<br><code>%1</code>")
                           .arg(QString::fromStdString(item->node.id).toHtmlEscaped());
            if (item->node.span.isValid())
                tip +=
                    QStringLiteral("<br>") +
                    tr("line %1, column %2").arg(item->node.span.line).arg(item->node.span.column);
            if (b.has(pdl::Box::Dimmed))
                tip += QStringLiteral("<br><i>%1</i>").arg(tr("contributes nothing"));
            // The full text on demand, bounded so a 10 MB result cannot stall the tooltip.
            QString text = item->resultText();
            const bool cut = text.size() > 1200;
            text.truncate(1200);
            if (!text.isEmpty())
                tip += QStringLiteral("<hr><pre style='white-space:pre-wrap'>%1%2</pre>")
                           .arg(text.toHtmlEscaped(), cut ? QStringLiteral("…") : QString());
        }
        QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    if (event->type() == QEvent::Leave && m_hoveredBox >= 0) {
        m_hoveredBox = -1;
        viewport()->update();
    }
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace hako
