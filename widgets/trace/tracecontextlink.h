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

/// For panes that show one node: `refresh` runs when `model` resets and when the node that
/// `currentId()` names changes (a live block finishing brings its result and scope). The
/// connections live as long as `pane` and `model`; disconnect `model` from `pane` to drop them.
void refreshOnNodeChange(pdl::TraceModel* model, QObject* pane, std::function<QString()> currentId,
                         std::function<void()> refresh);

} // namespace hako
