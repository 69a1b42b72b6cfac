#include "widgets/workbench/editrouting.h"

#include <QApplication>
#include <QMetaMethod>
#include <QWidget>

#include <functional>

namespace hako {

EditRouting::EditRouting(std::function<QWidget*()> editor, QObject* parent)
    : QObject(parent), m_editor(std::move(editor))
{}

void EditRouting::run(const char* command, const std::function<void()>& editorCommand) const
{
    QWidget* focus = QApplication::focusWidget();
    QWidget* editor = m_editor();
    if (!focus || focus == editor || editor->isAncestorOf(focus)) {
        editorCommand();
        return;
    }
    // A widget inside a view (a cell editor's viewport…) hands the command to its nearest
    // ancestor that has it.
    const QByteArray signature = QByteArray(command) + "()";
    for (QWidget* w = focus; w; w = w->parentWidget()) {
        const QMetaObject* meta = w->metaObject();
        const int index = meta->indexOfMethod(signature.constData());
        if (index >= 0 && meta->method(index).methodType() == QMetaMethod::Slot) {
            meta->method(index).invoke(w, Qt::DirectConnection);
            return;
        }
        if (w->isWindow())
            break;
    }
}

} // namespace hako
