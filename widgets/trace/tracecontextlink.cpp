#include "widgets/trace/tracecontextlink.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"

namespace hako {

void followTraceContext(WorkbenchContext* context, QObject* pane,
                        std::function<void(pdl::TraceModel*)> setModel,
                        std::function<void(const QString& id)> showNode, bool skipOwnEcho)
{
    if (!context)
        return;
    QObject::connect(context, &WorkbenchContext::traceModelChanged, pane,
                     [setModel](pdl::TraceModel* model) { setModel(model); });
    QObject::connect(context, &WorkbenchContext::currentNodeChanged, pane,
                     [pane, showNode, skipOwnEcho](const QString& id, QObject* origin) {
                         if (!skipOwnEcho || origin != pane)
                             showNode(id);
                     });
    setModel(context->traceModel());
    showNode(context->currentNode());
}

} // namespace hako
