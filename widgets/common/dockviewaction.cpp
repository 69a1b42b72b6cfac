#include "widgets/common/dockviewaction.h"

#include <QAction>
#include <QDockWidget>

namespace hako {

QAction* dockViewAction(QDockWidget* dock)
{
    QAction* toggle = dock->toggleViewAction();
    auto* action = new QAction(toggle->text(), dock);
    action->setCheckable(true);
    action->setChecked(toggle->isChecked());
    action->setObjectName(dock->objectName() + QStringLiteral("ViewAction"));
    QObject::connect(toggle, &QAction::changed, action, [action, toggle] {
        action->setText(toggle->text());
        action->setChecked(toggle->isChecked());
    });
    QObject::connect(action, &QAction::triggered, dock, [dock, action] {
        // A pane behind another tab is neither hidden nor invisible to Qt: it is moved out of
        // sight. What the person sees of it is its visible region.
        const bool inFront = dock->isVisible() && !dock->visibleRegion().isEmpty();
        if (inFront) {
            dock->close();
        } else {
            dock->show();
            dock->raise();
            if (QWidget* w = dock->widget())
                w->setFocus(Qt::OtherFocusReason);
        }
        action->setChecked(!dock->isHidden());
    });
    return action;
}

} // namespace hako
