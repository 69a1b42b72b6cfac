#include "widgets/shape/graphview.h"

#include "widgets/shape/shapesource.h"
#include "widgets/trace/tracepanestyle.h"

#include <QAccessible>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace hako {

namespace {
constexpr double kMargin = 16;
constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 4;
} // namespace

GraphCanvas::GraphCanvas(ShapeSource* source, QWidget* parent)
    : ShapeCanvas(parent), m_source(source)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(120, 40);
    setAccessibleName(tr("Agent graph"));
    setToolTip(QString()); // tooltips per node (event())
    connect(source, &ShapeSource::shapeChanged, this, &GraphCanvas::rebuild);
    connect(source, &ShapeSource::currentChanged, this, &GraphCanvas::followCurrent);
    rebuild();
}

void GraphCanvas::rebuild()
{
    const bool hadNodes = !m_graph.nodes.empty();
    m_graph = pdl::buildRunGraph(m_source->shape());
    pdl::layoutGraph(m_graph);
    if (!hadNodes || m_fitPending)
        fitToView();
    const int span = m_source->currentSpan();
    m_current = span >= 0 && size_t(span) < m_graph.nodeOfSpan.size()
                    ? m_graph.nodeOfSpan[size_t(span)]
                    : -1;
    updateDescription();
    update();
}

void GraphCanvas::followCurrent(int span)
{
    m_current = span >= 0 && size_t(span) < m_graph.nodeOfSpan.size()
                    ? m_graph.nodeOfSpan[size_t(span)]
                    : -1;
    ensureVisible(m_current);
    updateDescription();
    update();
}

void GraphCanvas::selectNode(int node)
{
    if (node < 0 || size_t(node) >= m_graph.nodes.size())
        return;
    const std::vector<int>& spans = m_graph.nodes[size_t(node)].spans;
    int span = spans.front();
    // Clicking the selected node again steps through its executions.
    const int current = m_source->currentSpan();
    if (node == m_current && current >= 0) {
        const auto it = std::find(spans.begin(), spans.end(), current);
        if (it != spans.end() && it + 1 != spans.end())
            span = *(it + 1);
    }
    m_current = node;
    m_source->select(span);
    ensureVisible(node);
    updateDescription();
    update();
}

void GraphCanvas::updateDescription()
{
    QString text = tr("%n node(s)", nullptr, int(m_graph.nodes.size())) + QStringLiteral(", ") +
                   tr("%n edge(s)", nullptr, int(m_graph.edges.size()));
    if (m_current >= 0)
        text +=
            QStringLiteral(". ") +
            tr("Selected: %1").arg(QString::fromStdString(m_graph.nodes[size_t(m_current)].name));
    setAccessibleDescription(text);
    if (hasFocus() && QAccessible::isActive()) {
        QAccessibleEvent changed(this, QAccessible::DescriptionChanged);
        QAccessible::updateAccessibility(&changed);
    }
}

QRectF GraphCanvas::nodeRect(int node) const
{
    const pdl::GraphNode& n = m_graph.nodes[size_t(node)];
    return QRectF((n.x - m_pan.x()) * m_zoom, (n.y - m_pan.y()) * m_zoom, n.width * m_zoom,
                  n.height * m_zoom);
}

int GraphCanvas::nodeAt(QPointF pos) const
{
    for (size_t i = 0; i < m_graph.nodes.size(); ++i)
        if (nodeRect(int(i)).contains(pos))
            return int(i);
    return -1;
}

void GraphCanvas::setZoom(double zoom, QPointF anchor)
{
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    if (anchor.x() < 0)
        anchor = QPointF(width() / 2.0, height() / 2.0);
    const QPointF graphPoint = m_pan + anchor / m_zoom;
    m_zoom = zoom;
    m_pan = graphPoint - anchor / m_zoom;
    m_fitPending = false;
    update();
}

void GraphCanvas::fitToView()
{
    m_fitPending = true; // keeps fitting as the pane resizes until the user zooms or pans
    if (m_graph.nodes.empty()) {
        m_zoom = 1;
        m_pan = QPointF(-kMargin, -kMargin);
        update();
        return;
    }
    const double w = std::max(1.0, width() - 2 * kMargin);
    const double h = std::max(1.0, height() - 2 * kMargin);
    m_zoom = std::clamp(std::min({1.0, w / m_graph.width, h / m_graph.height}), kMinZoom, 1.0);
    // Centred in the widget.
    m_pan =
        QPointF((m_graph.width - width() / m_zoom) / 2, (m_graph.height - height() / m_zoom) / 2);
    update();
}

void GraphCanvas::ensureVisible(int node)
{
    if (node < 0 || size_t(node) >= m_graph.nodes.size())
        return;
    const QRectF r = nodeRect(node);
    const QRectF view = QRectF(rect()).adjusted(kMargin, kMargin, -kMargin, -kMargin);
    if (view.contains(r))
        return;
    const pdl::GraphNode& n = m_graph.nodes[size_t(node)];
    m_pan = QPointF(n.x + n.width / 2 - width() / 2.0 / m_zoom,
                    n.y + n.height / 2 - height() / 2.0 / m_zoom);
}

void GraphCanvas::resizeEvent(QResizeEvent* event)
{
    ShapeCanvas::resizeEvent(event);
    if (m_fitPending)
        fitToView();
}

void GraphCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_graph.nodes.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                   ShapeSource::emptyText());
        return;
    }
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(m_zoom, m_zoom);
    p.translate(-m_pan);
    paintEdges(p);
    const QRectF visible(m_pan, QSizeF(width() / m_zoom, height() / m_zoom));
    for (size_t i = 0; i < m_graph.nodes.size(); ++i) {
        const pdl::GraphNode& n = m_graph.nodes[i];
        if (visible.intersects(QRectF(n.x, n.y, n.width, n.height)))
            paintNode(p, int(i));
    }
}

void GraphCanvas::paintEdges(QPainter& p) const
{
    const QRectF visible(m_pan, QSizeF(width() / m_zoom, height() / m_zoom));
    const QColor normal = palette().color(QPalette::Mid);
    const QColor lit = palette().color(QPalette::Highlight);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    for (const pdl::GraphEdge& e : m_graph.edges) {
        const pdl::GraphNode& a = m_graph.nodes[size_t(e.from)];
        const pdl::GraphNode& b = m_graph.nodes[size_t(e.to)];
        QPointF from(a.x + a.width, a.y + a.height / 2), to(b.x, b.y + b.height / 2);
        QPainterPath path(from);
        if (e.back || b.x <= a.x) { // back to an earlier layer: a loop below the nodes
            from = QPointF(a.x + a.width / 2, a.y + a.height);
            to = QPointF(b.x + b.width / 2 + (e.from == e.to ? 20 : 0), b.y + b.height);
            path = QPainterPath(from);
            path.cubicTo(from + QPointF(0, 50), to + QPointF(0, 50), to);
        } else {
            // Through the lanes the layout kept for it in the layers it crosses.
            QPointF at = from;
            for (const auto& [x, y] : e.waypoints) {
                const QPointF entry(x, y), exit(x + a.width, y);
                const double dx = (entry.x() - at.x()) / 2;
                path.cubicTo(at + QPointF(dx, 0), entry - QPointF(dx, 0), entry);
                path.lineTo(exit);
                at = exit;
            }
            const double dx = (to.x() - at.x()) / 2;
            path.cubicTo(at + QPointF(dx, 0), to - QPointF(dx, 0), to);
        }
        if (!visible.intersects(path.boundingRect().adjusted(-4, -4, 4, 4)))
            continue;
        const bool selected = m_current >= 0 && (e.from == m_current || e.to == m_current);
        QPen pen(selected ? lit : normal, selected ? 2.2 : 1.4);
        if (e.kind == pdl::GraphEdge::Kind::Handoff)
            pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        // The arrow head along the curve's last direction.
        const QPointF dir = to - path.pointAtPercent(0.95);
        const double len = std::max(0.001, std::hypot(dir.x(), dir.y()));
        const QPointF u = dir / len, nrm(-u.y(), u.x());
        p.setBrush(pen.color());
        p.setPen(Qt::NoPen);
        p.drawPolygon(QPolygonF({to, to - u * 8 + nrm * 4, to - u * 8 - nrm * 4}));
        if (e.count > 1 && m_zoom > 0.3) {
            p.setPen(selected ? lit : palette().color(QPalette::Text));
            p.drawText(path.pointAtPercent(0.5) + QPointF(2, -3),
                       QStringLiteral("×%1").arg(e.count));
        }
    }
}

void GraphCanvas::paintNode(QPainter& p, int index) const
{
    const pdl::GraphNode& n = m_graph.nodes[size_t(index)];
    const pdl::ShapeSpan& first = m_source->shape().spans[size_t(n.spans.front())];
    const QRectF r(n.x, n.y, n.width, n.height);
    const QColor kind = kindColor(first.kind, palette());
    QColor fill = palette().color(QPalette::Base);
    fill = QColor::fromRgbF(fill.redF() * 0.75 + kind.redF() * 0.25,
                            fill.greenF() * 0.75 + kind.greenF() * 0.25,
                            fill.blueF() * 0.75 + kind.blueF() * 0.25);
    const bool selected = index == m_current;
    QPen border(n.failures ? QColor(200, 40, 40) : kind, selected ? 3.5 : 1.5);
    if (selected)
        border.setColor(palette().color(QPalette::Highlight));
    p.setPen(border);
    p.setBrush(fill);
    p.drawRoundedRect(r, 7, 7);
    p.setBrush(kind);
    p.setPen(Qt::NoPen);
    p.drawRoundedRect(QRectF(r.x() + 1, r.y() + 1, 6, r.height() - 2), 3, 3);
    if (m_zoom < 0.35)
        return; // unreadable: the shapes only
    const QRectF text = r.adjusted(12, 4, -6, -4);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::Text));
    const QString name = QString::fromStdString(n.name);
    p.drawText(QRectF(text.x(), text.y(), text.width(), text.height() / 2),
               Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(bold).elidedText(name, Qt::ElideMiddle, text.width()));
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    p.setPen(palette().color(QPalette::PlaceholderText));
    QString line = ShapeSource::roleName(n.role);
    if (n.spans.size() > 1)
        line += QStringLiteral(" ×%1").arg(n.spans.size());
    if (const QString m = ShapeSource::measuresText(n.total); !m.isEmpty())
        line += QStringLiteral(" · ") + m;
    p.drawText(QRectF(text.x(), text.center().y(), text.width(), text.height() / 2),
               Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(small).elidedText(line, Qt::ElideRight, text.width()));
}

QString GraphCanvas::tooltipFor(int index) const
{
    const pdl::GraphNode& n = m_graph.nodes[size_t(index)];
    QString tip =
        QStringLiteral("<b>%1</b><br>%2")
            .arg(QString::fromStdString(n.name).toHtmlEscaped(), ShapeSource::roleName(n.role));
    tip += QStringLiteral("<br>") + tr("Ran %n time(s)", nullptr, int(n.spans.size()));
    if (const QString m = ShapeSource::measuresText(n.total); !m.isEmpty())
        tip += QStringLiteral("<br>") + m.toHtmlEscaped();
    if (n.failures)
        tip += QStringLiteral("<br>") + tr("%n failed", nullptr, n.failures);
    tip += QStringLiteral("<br><i>%1</i>")
               .arg(tr("Click to select, click again for the next run, double-click for the "
                       "source"));
    return tip;
}

int GraphCanvas::itemAt(QPointF pos) const
{
    return nodeAt(pos);
}

QRectF GraphCanvas::itemRect(int item) const
{
    return nodeRect(item);
}

QString GraphCanvas::itemTooltip(int item) const
{
    return tooltipFor(item);
}

void GraphCanvas::clickItem(int item)
{
    selectNode(item);
}

void GraphCanvas::activateItem(int item)
{
    // The execution on show when it is this node's, else its first.
    const int span = m_source->currentSpan();
    m_source->activate(span >= 0 && m_graph.nodeOfSpan[size_t(span)] == item
                           ? span
                           : m_graph.nodes[size_t(item)].spans.front());
}

void GraphCanvas::panBy(QPoint delta)
{
    m_pan -= QPointF(delta) / m_zoom;
    m_fitPending = false;
    update();
}

void GraphCanvas::wheelEvent(QWheelEvent* event)
{
    const QPointF delta = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        setZoom(m_zoom * std::pow(1.0015, delta.y()), event->position());
    } else {
        m_pan -= QPointF(delta.x(), delta.y()) / 2 / m_zoom;
        m_fitPending = false;
        update();
    }
    event->accept();
}

void GraphCanvas::moveSelection(int key)
{
    if (m_graph.nodes.empty())
        return;
    if (m_current < 0) {
        selectNode(0);
        return;
    }
    const pdl::GraphNode& cur = m_graph.nodes[size_t(m_current)];
    int target = -1;
    if (key == Qt::Key_Left || key == Qt::Key_Right) {
        for (const pdl::GraphEdge& e : m_graph.edges) {
            if (e.back || e.from == e.to)
                continue;
            if (key == Qt::Key_Left && e.to == m_current && target < 0)
                target = e.from;
            if (key == Qt::Key_Right && e.from == m_current && target < 0)
                target = e.to;
        }
    } else {
        // The nearest node above or below in the same layer.
        const bool up = key == Qt::Key_Up;
        for (size_t i = 0; i < m_graph.nodes.size(); ++i) {
            const pdl::GraphNode& n = m_graph.nodes[i];
            if (n.layer != cur.layer || (up ? n.order >= cur.order : n.order <= cur.order))
                continue;
            if (target < 0 || (up ? n.order > m_graph.nodes[size_t(target)].order
                                  : n.order < m_graph.nodes[size_t(target)].order))
                target = int(i);
        }
    }
    if (target >= 0)
        selectNode(target);
}

void GraphCanvas::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
        moveSelection(event->key());
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        setZoom(m_zoom * 1.25);
        return;
    case Qt::Key_Minus:
        setZoom(m_zoom / 1.25);
        return;
    case Qt::Key_0:
        fitToView();
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_source->currentSpan() >= 0)
            m_source->activate(m_source->currentSpan());
        return;
    default:
        ShapeCanvas::keyPressEvent(event);
    }
}

GraphView::GraphView(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), m_source(new ShapeSource(context, this))
{
    setObjectName(QStringLiteral("graphView"));
    m_totals = new QLabel(this);
    m_totals->setObjectName(QStringLiteral("graphTotals"));
    m_totals->setAccessibleDescription(tr("Run totals"));
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_totals->setWordWrap(true);
    m_canvas = new GraphCanvas(m_source, this);
    m_canvas->setObjectName(QStringLiteral("graphCanvas"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_totals);
    layout->addWidget(m_canvas, 1);
    auto update = [this] {
        m_totals->setVisible(!m_source->isEmpty());
        m_totals->setText(ShapeSource::totalsText(m_source->totals()));
    };
    connect(m_source, &ShapeSource::shapeChanged, this, update);
    update();
}

void GraphView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_source->refresh();
}

} // namespace hako
