#include "widgets/shape/flameview.h"

#include "core/promptlog/calltablemodel.h"
#include "widgets/shape/shapesource.h"
#include "widgets/trace/tracepanestyle.h"

#include <QAccessible>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace hako {

namespace {
constexpr double kRow = 22;
constexpr double kMaxZoom = 1e6;
} // namespace

FlameCanvas::FlameCanvas(ShapeSource* source, QWidget* parent)
    : ShapeCanvas(parent), m_source(source)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(120, 40);
    setAccessibleName(tr("Flame chart"));
    connect(source, &ShapeSource::shapeChanged, this, &FlameCanvas::rebuild);
    connect(source, &ShapeSource::currentChanged, this, &FlameCanvas::followCurrent);
    rebuild();
}

void FlameCanvas::rebuild()
{
    if (m_source->isEmpty()) {
        m_zoom = 1;
        m_start = 0;
        m_scrollY = 0;
    }
    m_flame = pdl::layoutFlame(m_source->shape(), m_metric);
    m_matches = pdl::searchFlame(m_source->shape(), m_flame, m_query, m_marks);
    m_current = m_source->currentSpan();
    clampView();
    updateDescription();
    update();
}

void FlameCanvas::setMetric(pdl::FlameMetric metric)
{
    m_metric = metric;
    rebuild();
}

int FlameCanvas::setSearch(const QString& query)
{
    m_query = query;
    m_matches = pdl::searchFlame(m_source->shape(), m_flame, m_query, m_marks);
    updateDescription();
    update();
    return m_matches;
}

bool FlameCanvas::selectNextMatch()
{
    const int n = int(m_marks.size());
    for (int step = 1; step <= n; ++step) {
        const int bar = ((m_current < 0 ? -1 : m_current) + step) % n;
        if (m_marks[size_t(bar)]) {
            selectBar(bar);
            return true;
        }
    }
    return false;
}

void FlameCanvas::followCurrent(int span)
{
    m_current = pdl::barOfSpan(m_flame, span);
    ensureVisible(m_current);
    updateDescription();
    update();
}

void FlameCanvas::selectBar(int bar)
{
    if (bar < 0 || size_t(bar) >= m_flame.bars.size())
        return;
    m_current = bar;
    m_source->select(m_flame.bars[size_t(bar)].span);
    ensureVisible(bar);
    updateDescription();
    update();
}

void FlameCanvas::updateDescription()
{
    QString text = tr("%n bar(s)", nullptr, int(m_flame.bars.size()));
    if (!m_query.trimmed().isEmpty())
        text += QStringLiteral(", ") + tr("%n match(es) the search", nullptr, m_matches);
    if (m_current >= 0) {
        const pdl::ShapeSpan& s =
            m_source->shape().spans[size_t(m_flame.bars[size_t(m_current)].span)];
        text += QStringLiteral(". ") + tr("Selected: %1").arg(QString::fromStdString(s.name));
    }
    setAccessibleDescription(text);
    if (QAccessible::isActive()) {
        QAccessibleEvent changed(this, QAccessible::DescriptionChanged);
        QAccessible::updateAccessibility(&changed);
    }
}

QRectF FlameCanvas::barRect(int bar) const
{
    const pdl::FlameBar& b = m_flame.bars[size_t(bar)];
    const double w = width() * m_zoom;
    return QRectF((b.x - m_start) * w, b.depth * kRow - m_scrollY, b.width * w, kRow - 2);
}

int FlameCanvas::barAt(QPointF pos) const
{
    const int depth = int(std::floor((pos.y() + m_scrollY) / kRow));
    for (size_t i = 0; i < m_flame.bars.size(); ++i)
        if (m_flame.bars[i].depth == depth && m_flame.bars[i].width > 0 &&
            barRect(int(i)).contains(pos))
            return int(i);
    return -1;
}

void FlameCanvas::setZoom(double zoom, double anchorX)
{
    zoom = std::clamp(zoom, 1.0, kMaxZoom);
    if (anchorX < 0)
        anchorX = m_current >= 0 ? barRect(m_current).center().x() : width() / 2.0;
    anchorX = std::clamp(anchorX, 0.0, double(width()));
    const double fraction = m_start + anchorX / (width() * m_zoom);
    m_zoom = zoom;
    m_start = fraction - anchorX / (width() * m_zoom);
    clampView();
    update();
}

void FlameCanvas::clampView()
{
    m_start = std::clamp(m_start, 0.0, std::max(0.0, 1 - 1 / m_zoom));
    const double content = (m_flame.maxDepth + 1) * kRow;
    m_scrollY = std::clamp(m_scrollY, 0.0, std::max(0.0, content - height()));
}

void FlameCanvas::ensureVisible(int bar)
{
    if (bar < 0 || size_t(bar) >= m_flame.bars.size() || width() <= 0)
        return;
    const pdl::FlameBar& b = m_flame.bars[size_t(bar)];
    const double visible = 1 / m_zoom;
    if (b.x < m_start || b.x + b.width > m_start + visible)
        m_start = b.width > visible ? b.x : b.x + b.width / 2 - visible / 2;
    const QRectF r = barRect(bar);
    if (r.top() < 0 || r.bottom() > height())
        m_scrollY = b.depth * kRow - height() / 2.0;
    clampView();
}

QString FlameCanvas::valueText(double value) const
{
    switch (m_metric) {
    case pdl::FlameMetric::Duration:
        return formatDuration(qint64(value));
    case pdl::FlameMetric::Tokens:
        return tr("%1 tokens").arg(promptlog::formatCount(int64_t(value)));
    case pdl::FlameMetric::Cost:
        return tr("cost %1").arg(promptlog::formatCost(value));
    }
    return {};
}

void FlameCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_flame.bars.empty() || m_flame.total <= 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        QString text = ShapeSource::emptyText();
        if (!m_flame.bars.empty() && m_metric == pdl::FlameMetric::Tokens)
            text = tr("This run recorded no token counts: size the bars by duration.");
        else if (!m_flame.bars.empty() && m_metric == pdl::FlameMetric::Cost)
            text = tr("This run recorded no cost: size the bars by duration or tokens.");
        else if (!m_flame.bars.empty())
            text = tr("This run recorded no timing.");
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, text);
        return;
    }
    const int firstDepth = int(m_scrollY / kRow);
    const int lastDepth = int((m_scrollY + height()) / kRow);
    for (size_t i = 0; i < m_flame.bars.size(); ++i) {
        const pdl::FlameBar& b = m_flame.bars[i];
        if (b.depth < firstDepth || b.depth > lastDepth || b.width <= 0)
            continue;
        const QRectF r = barRect(int(i));
        if (r.width() < 0.5 || r.right() < 0 || r.left() > width())
            continue;
        paintBar(p, int(i), r);
    }
}

void FlameCanvas::paintBar(QPainter& p, int index, const QRectF& r) const
{
    const pdl::ShapeSpan& s = m_source->shape().spans[size_t(m_flame.bars[size_t(index)].span)];
    QColor fill = kindColor(s.kind, palette());
    const bool searching = !m_query.trimmed().isEmpty();
    const bool marked = searching && m_marks[size_t(index)];
    if (searching && !marked)
        fill.setAlphaF(0.25);
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawRect(r.adjusted(0, 0, -1, 0));
    if (marked) {
        p.setPen(QPen(palette().color(QPalette::Text), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(1, 1, -2, -1));
    }
    if (s.failed) {
        p.fillRect(QRectF(r.x(), r.bottom() - 3, r.width() - 1, 3), QColor(200, 40, 40));
    }
    if (index == m_current) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(1.5, 1.5, -2.5, -1.5));
    }
    const QRectF visible = r.intersected(QRectF(rect())).adjusted(4, 0, -4, 0);
    if (visible.width() < 24)
        return;
    p.setPen(searching && !marked ? palette().color(QPalette::PlaceholderText)
                                  : QColor(20, 20, 20));
    const QString label = QString::fromStdString(s.name);
    p.drawText(visible, Qt::AlignLeft | Qt::AlignVCenter,
               fontMetrics().elidedText(label, Qt::ElideRight, int(visible.width())));
}

QString FlameCanvas::tooltipFor(int index) const
{
    const pdl::FlameBar& b = m_flame.bars[size_t(index)];
    const pdl::ShapeSpan& s = m_source->shape().spans[size_t(b.span)];
    QString tip =
        QStringLiteral("<b>%1</b> (%2)<br>%3")
            .arg(QString::fromStdString(s.name).toHtmlEscaped(),
                 QString::fromLatin1(pdl::blockKindName(s.kind)), ShapeSource::roleName(s.role));
    tip +=
        QStringLiteral("<br>") +
        tr("%1 (%2% of the run)").arg(valueText(b.value), QString::number(b.width * 100, 'f', 1));
    if (const QString own = ShapeSource::measuresText(s.own); !own.isEmpty())
        tip += QStringLiteral("<br>") + tr("Own: %1").arg(own.toHtmlEscaped());
    if (s.failed)
        tip += QStringLiteral("<br>") + tr("Failed");
    return tip;
}

int FlameCanvas::itemAt(QPointF pos) const
{
    return barAt(pos);
}

QRectF FlameCanvas::itemRect(int item) const
{
    return barRect(item);
}

QString FlameCanvas::itemTooltip(int item) const
{
    return tooltipFor(item);
}

void FlameCanvas::clickItem(int item)
{
    selectBar(item);
}

void FlameCanvas::activateItem(int item)
{
    m_source->activate(m_flame.bars[size_t(item)].span);
}

void FlameCanvas::panBy(QPoint delta)
{
    m_start -= delta.x() / (width() * m_zoom);
    m_scrollY -= delta.y();
    clampView();
    update();
}

void FlameCanvas::wheelEvent(QWheelEvent* event)
{
    const QPointF delta = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        setZoom(m_zoom * std::pow(1.0015, delta.y()), event->position().x());
    } else {
        m_start -= delta.x() / 2 / (width() * m_zoom);
        m_scrollY -= delta.y() / 2;
        clampView();
        update();
    }
    event->accept();
}

void FlameCanvas::moveSelection(int key)
{
    if (m_flame.bars.empty())
        return;
    if (m_current < 0) {
        selectBar(0);
        return;
    }
    const pdl::FlameBar& cur = m_flame.bars[size_t(m_current)];
    int target = -1;
    const int n = int(m_flame.bars.size());
    if (key == Qt::Key_Up) {
        target = cur.parent;
    } else if (key == Qt::Key_Down) {
        for (int i = m_current + 1; i < n && target < 0; ++i)
            if (m_flame.bars[size_t(i)].parent == m_current && m_flame.bars[size_t(i)].width > 0)
                target = i;
    } else if (key == Qt::Key_Right) {
        for (int i = m_current + 1; i < n && target < 0; ++i)
            if (m_flame.bars[size_t(i)].parent == cur.parent && m_flame.bars[size_t(i)].width > 0)
                target = i;
    } else {
        for (int i = m_current - 1; i >= 0 && target < 0 && cur.parent >= 0; --i)
            if (m_flame.bars[size_t(i)].parent == cur.parent && m_flame.bars[size_t(i)].width > 0)
                target = i;
    }
    if (target >= 0)
        selectBar(target);
}

void FlameCanvas::keyPressEvent(QKeyEvent* event)
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
        setZoom(m_zoom * 1.5);
        return;
    case Qt::Key_Minus:
        setZoom(m_zoom / 1.5);
        return;
    case Qt::Key_0:
        setZoom(1);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_current >= 0)
            m_source->activate(m_flame.bars[size_t(m_current)].span);
        return;
    default:
        ShapeCanvas::keyPressEvent(event);
    }
}

FlameView::FlameView(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), m_source(new ShapeSource(context, this))
{
    setObjectName(QStringLiteral("flameView"));
    m_totals = new QLabel(this);
    m_totals->setObjectName(QStringLiteral("flameTotals"));
    m_totals->setAccessibleDescription(tr("Run totals"));
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_totals->setWordWrap(true);
    m_metric = new QComboBox(this);
    m_metric->setObjectName(QStringLiteral("flameMetric"));
    m_metric->addItem(tr("Duration"), int(pdl::FlameMetric::Duration));
    m_metric->addItem(tr("Tokens"), int(pdl::FlameMetric::Tokens));
    m_metric->addItem(tr("Cost"), int(pdl::FlameMetric::Cost));
    m_metric->setAccessibleName(tr("Size bars by"));
    m_metric->setToolTip(tr("What a bar's width shows: the block's duration, its tokens or its "
                            "cost (with everything it called)"));
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("flameSearch"));
    m_search->setPlaceholderText(tr("Search bars…"));
    m_search->setAccessibleName(tr("Search the flame chart"));
    m_search->setToolTip(tr("Lights the bars whose name or kind contains this text; Enter "
                            "selects the next one"));
    m_search->setClearButtonEnabled(true);
    m_matchLabel = new QLabel(this);
    m_matchLabel->setObjectName(QStringLiteral("flameMatches"));
    m_matchLabel->setAccessibleName(tr("Search matches"));
    m_canvas = new FlameCanvas(m_source, this);
    m_canvas->setObjectName(QStringLiteral("flameCanvas"));

    auto* bar = new QHBoxLayout;
    auto* sizeLabel = new QLabel(tr("Size by:"), this);
    sizeLabel->setBuddy(m_metric);
    bar->addWidget(sizeLabel);
    bar->addWidget(m_metric);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_matchLabel);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_totals);
    layout->addLayout(bar);
    layout->addWidget(m_canvas, 1);

    connect(m_metric, &QComboBox::currentIndexChanged, this,
            [this] { m_canvas->setMetric(pdl::FlameMetric(m_metric->currentData().toInt())); });
    connect(m_search, &QLineEdit::textChanged, this, &FlameView::search);
    connect(m_search, &QLineEdit::returnPressed, m_canvas, &FlameCanvas::selectNextMatch);
    auto update = [this] {
        m_totals->setVisible(!m_source->isEmpty());
        m_totals->setText(ShapeSource::totalsText(m_source->totals()));
        search();
    };
    connect(m_source, &ShapeSource::shapeChanged, this, update);
    update();
}

void FlameView::search()
{
    const int matches = m_canvas->setSearch(m_search->text());
    m_matchLabel->setText(
        m_search->text().trimmed().isEmpty() ? QString() : tr("%n match(es)", nullptr, matches));
}

void FlameView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_source->refresh();
}

} // namespace hako
