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

void refreshOnNodeChange(pdl::TraceModel* model, QObject* pane, std::function<QString()> currentId,
                         std::function<void()> refresh)
{
    QObject::connect(model, &QAbstractItemModel::modelReset, pane, refresh);
    // A run's root row appearing turns "no trace" into "select a block".
    QObject::connect(model, &QAbstractItemModel::rowsInserted, pane,
                     [refresh](const QModelIndex& parent) {
                         if (!parent.isValid())
                             refresh();
                     });
    QObject::connect(model, &QAbstractItemModel::dataChanged, pane,
                     [model, currentId, refresh](const QModelIndex& index) {
                         const pdl::TraceItem* item = model->itemAt(index);
                         if (item && QString::fromStdString(item->node.id) == currentId())
                             refresh();
                     });
}

} // namespace hako
