#pragma once

#include <QString>

#include <functional>

class QObject;

namespace hako {

class WorkbenchContext;
namespace pdl {
class TraceModel;
}

/// What every trace pane does with the WorkbenchContext: show the context's trace (now and
/// whenever it changes) and follow the current node (every change, or only other panes'
/// changes when `skipOwnEcho`). The connections live as long as `pane`. A null context does
/// nothing. GUI thread only.
void followTraceContext(WorkbenchContext* context, QObject* pane,
                        std::function<void(pdl::TraceModel*)> setModel,
                        std::function<void(const QString& id)> showNode, bool skipOwnEcho);

} // namespace hako
