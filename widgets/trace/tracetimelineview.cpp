#include "widgets/trace/tracetimelineview.h"

#include "widgets/trace/tracecontextlink.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/trace/timelinecanvas.h"
#include "widgets/trace/tracepanestyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace hako {

TraceTimelineView::TraceTimelineView(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_canvas(new TimelineCanvas(this)),
      m_rowMode(new QComboBox(this)), m_extent(new QLabel(this))
{
    m_rowMode->addItem(tr("Rows: tree order"));
    m_rowMode->addItem(tr("Rows: depth"));
    m_rowMode->setToolTip(tr("One block per row in tree order, or one row per nesting level"));
    m_rowMode->setAccessibleName(tr("Timeline rows"));
    m_canvas->setAccessibleName(tr("Timeline of blocks"));
    connect(m_rowMode, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_canvas->setRowMode(i == 1 ? TimelineCanvas::RowMode::Depth
                                    : TimelineCanvas::RowMode::TreeOrder);
    });
    auto button = [this](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAccessibleName(tip.section(QLatin1String(" ("), 0, 0));
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->setSpacing(2);
    bar->addWidget(m_rowMode);
    bar->addWidget(button(QStringLiteral("−"), tr("Zoom out (−, Ctrl+wheel)"),
                          [this] { m_canvas->zoomBy(1 / 1.5); }));
    bar->addWidget(button(QStringLiteral("+"), tr("Zoom in (+, Ctrl+wheel)"),
                          [this] { m_canvas->zoomBy(1.5); }));
    bar->addWidget(button(tr("Fit"), tr("Show the whole run (0)"), [this] { m_canvas->fit(); }));
    bar->addStretch(1);
    m_extent->setForegroundRole(QPalette::PlaceholderText);
    bar->addWidget(m_extent);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_canvas, 1);

    connect(m_canvas, &TimelineCanvas::extentChanged, this, [this](qint64 nanos, int bars) {
        m_extent->setText(bars ? tr("%n block(s), %1", nullptr, bars).arg(formatDuration(nanos))
                               : QString());
    });
    connect(m_canvas, &TimelineCanvas::itemClicked, this, [this](const pdl::TraceItem* item) {
        if (m_context && item)
            m_context->setCurrentNode(QString::fromStdString(item->node.id), this);
    });
    followTraceContext(
        m_context, this, [this](pdl::TraceModel* model) { setModel(model); },
        [this](const QString& id) { followCurrentNode(id); }, true);
}

void TraceTimelineView::setModel(pdl::TraceModel* model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_canvas->setModel(model);
    if (model) {
        // After a reload the same node (by id) is selected again.
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            if (m_context)
                followCurrentNode(m_context->currentNode());
        });
    }
}

void TraceTimelineView::followCurrentNode(const QString& id)
{
    const pdl::TraceItem* item = m_model && !id.isEmpty() ? m_model->findById(id) : nullptr;
    m_canvas->setSelectedItem(item, true);
}

} // namespace hako
