#include "widgets/common/accessibleparts.h"

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QToolButton>

namespace hako {

namespace {

// What a person reads next to `w`: the text of a label whose buddy it is.
QString labelOf(QWidget* w)
{
    QWidget* window = w->window();
    for (QLabel* label : window->findChildren<QLabel*>()) {
        if (label->buddy() == w) {
            QString text = label->text().remove(QLatin1Char('&')).trimmed();
            if (text.endsWith(QLatin1Char(':')))
                text.chop(1);
            return text;
        }
    }
    return {};
}

QString partName(QWidget* w)
{
    QWidget* parent = w->parentWidget();
    if (!parent)
        return {};
    if (auto* lineEdit = qobject_cast<QLineEdit*>(parent);
        lineEdit && qobject_cast<QToolButton*>(w)) {
        // A line edit's icon button stands for one of its actions (Qt's clear action has no
        // text of its own).
        const QAction* action = static_cast<QToolButton*>(w)->defaultAction();
        if (action && !action->text().isEmpty())
            return action->text();
        return AccessibleParts::tr("Clear");
    }
    if (qobject_cast<QTableView*>(parent) && qobject_cast<QAbstractButton*>(w) &&
        qstrcmp(w->metaObject()->className(), "QTableCornerButton") == 0)
        return AccessibleParts::tr("Select All");
    if (auto* combo = qobject_cast<QComboBox*>(parent); combo && qobject_cast<QLineEdit*>(w)) {
        QString name = combo->accessibleName();
        if (name.isEmpty())
            name = labelOf(combo);
        if (name.isEmpty())
            name = combo->toolTip();
        return name;
    }
    if (w->objectName() == QLatin1String("qt_menubar_ext_button"))
        return AccessibleParts::tr("More Menus");
    if (w->objectName() == QLatin1String("qt_toolbar_ext_button"))
        return AccessibleParts::tr("More Tools");
    return {};
}

} // namespace

void AccessibleParts::name(QWidget* root)
{
    if (!root)
        return;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->accessibleName().isEmpty())
            continue;
        const QString name = partName(w);
        if (!name.isEmpty())
            w->setAccessibleName(name);
    }
}

} // namespace hako
