#include "widgets/promptview/promptnamefield.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

namespace hako {

PromptNameField::PromptNameField(QWidget* parent) : QWidget(parent), m_edit(new QLineEdit(this))
{
    auto* label = new QLabel(tr("Name:"), this);
    label->setBuddy(m_edit);
    m_edit->setAccessibleName(tr("Prompt name"));
    m_edit->setToolTip(tr("What the prompt log, the library and the experiments call this "
                          "prompt"));
    QFont bigger = m_edit->font();
    bigger.setPointSizeF(bigger.pointSizeF() * 1.2);
    bigger.setBold(true);
    m_edit->setFont(bigger);
    m_edit->setFrame(false);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 2);
    layout->addWidget(label);
    layout->addWidget(m_edit, 1);
    auto commit = [this] {
        m_edit->setModified(false);
        const QString name = m_edit->text().simplified();
        if (name.isEmpty()) {
            m_edit->setText(m_shown); // a prompt keeps a name
            return;
        }
        if (name != m_shown) {
            m_shown = name;
            Q_EMIT renamed(name);
        }
    };
    connect(m_edit, &QLineEdit::editingFinished, this, commit);
}

void PromptNameField::showName(const QString& name, const QString& fallback)
{
    m_edit->setPlaceholderText(fallback.isEmpty() ? tr("Name this prompt") : fallback);
    if (m_edit->isModified())
        return; // the user is typing a name not yet given

    m_shown = name;
    if (m_edit->text() != name)
        m_edit->setText(name);
}

} // namespace hako
