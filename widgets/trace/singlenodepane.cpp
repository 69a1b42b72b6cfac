#include "widgets/trace/singlenodepane.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/trace/tracecontextlink.h"

namespace hako {

SingleNodePane::SingleNodePane(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), m_context(context)
{}

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
