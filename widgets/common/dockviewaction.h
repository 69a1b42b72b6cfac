#pragma once

class QAction;
class QDockWidget;

namespace hako {

/// The View menu's entry for `dock`, named and checked as its toggle-view action is: choosing it
/// brings the pane to the front — shown if it was closed, its tab raised if another pane's tab
/// covered it, the keyboard focus in it — and closes it only when it already was in front.
/// (Qt's own toggle closes a pane that is merely behind another tab, which reads as "nothing
/// happened".) The action is owned by `dock`. GUI thread.
QAction* dockViewAction(QDockWidget* dock);

} // namespace hako
