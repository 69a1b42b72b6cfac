#include "widgets/trace/singlenodepane.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/thememanager.h"
#include "widgets/trace/tracecontextlink.h"

#include <QEvent>

namespace hako {

SingleNodePane::SingleNodePane(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_dark(ThemeManager::isDark(palette()))
{}

void SingleNodePane::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // The panes build their texts with the palette's colours baked in: rebuild them when light
    // turns dark or back (another theme chosen).
    if (event->type() == QEvent::PaletteChange && ThemeManager::isDark(palette()) != m_dark) {
        m_dark = !m_dark;
        refresh();
    }
}

void SingleNodePane::followContext()
{
    followTraceContext(
        m_context, this, [this](pdl::TraceModel* model) { setModel(model); },
        [this](const QString& id) { showNode(id); }, false);
    if (!m_context)
        refresh();
}

void SingleNodePane::setModel(pdl::TraceModel* model)
{
    if (m_model == model)
        return;
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (model)
        refreshOnNodeChange(
            model, this, [this] { return m_id; }, [this] { refresh(); });
    refresh();
}

void SingleNodePane::showNode(const QString& id)
{
    m_id = id;
    refresh();
}

} // namespace hako
