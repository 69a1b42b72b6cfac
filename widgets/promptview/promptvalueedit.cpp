#include "widgets/promptview/promptvalueedit.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFontMetrics>
#include <QJsonArray>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace hako {

using playground::PromptDocItem;

PromptValueEdit::PromptValueEdit(const PromptDocItem& item, QWidget* parent)
    : QWidget(parent), m_item(item)
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(3);
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(600);
    connect(m_timer, &QTimer::timeout, this, [this] { Q_EMIT changed(current()); });
    if (item.valueType == PromptDocItem::ValueType::Bool) {
        m_bool = new QCheckBox(item.heading, this);
        m_bool->setAccessibleName(tr("Value %1").arg(item.heading));
        m_bool->setToolTip(tr("Yes when checked"));
        v->addWidget(m_bool);
        connect(m_bool, &QCheckBox::toggled, this, [this] { Q_EMIT changed(current()); });
        show(item);
        return;
    }
    auto* label = new QLabel(item.heading, this);
    label->setObjectName(QStringLiteral("promptRole"));
    v->addWidget(label);
    const bool fields = item.valueType == PromptDocItem::ValueType::Fields;
    if (item.valueType == PromptDocItem::ValueType::List || fields) {
        m_list = new QPlainTextEdit(this);
        m_list->setAccessibleName(tr("Value %1").arg(item.heading));
        m_list->setAccessibleDescription(fields ? tr("One field per line, as name: type")
                                                : tr("A list: one item per line"));
        m_list->setToolTip(fields ? tr("One field per line, as “name: type” (types: string, "
                                       "integer, number, boolean)")
                                  : tr("One item per line; empty lines are left out"));
        m_list->setTabChangesFocus(true);
        m_list->setLineWrapMode(QPlainTextEdit::NoWrap);
        const int lines = std::clamp(int(item.list.size()) + 1, 3, 12);
        m_list->setFixedHeight(QFontMetrics(m_list->font()).lineSpacing() * lines + 12);
        m_list->installEventFilter(this);
        label->setBuddy(m_list);
        v->addWidget(m_list);
        auto* hint = new QLabel(fields ? tr("One field per line: name: type (string, integer, "
                                            "number, boolean)")
                                       : tr("One item per line"),
                                this);
        hint->setObjectName(QStringLiteral("promptLength"));
        hint->setAlignment(Qt::AlignRight);
        v->addWidget(hint);
        connect(m_list, &QPlainTextEdit::textChanged, m_timer, qOverload<>(&QTimer::start));
    } else {
        m_number = new QDoubleSpinBox(this);
        m_number->setAccessibleName(tr("Value %1").arg(item.heading));
        m_number->setRange(-1e9, 1e9);
        const double d = item.fixed.toDouble();
        const bool whole = std::floor(d) == d;
        m_number->setDecimals(whole ? 0 : 3);
        m_number->setSingleStep(whole ? 1.0 : 0.1);
        m_number->setMaximumWidth(160);
        label->setBuddy(m_number);
        v->addWidget(m_number);
        connect(m_number, &QDoubleSpinBox::valueChanged, m_timer, qOverload<>(&QTimer::start));
        m_number->installEventFilter(this);
    }
    show(item);
}

QWidget* PromptValueEdit::field() const
{
    if (m_list)
        return m_list;
    if (m_number)
        return m_number;
    return m_bool;
}

bool PromptValueEdit::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::FocusOut && m_timer->isActive())
        commitPending();
    return QWidget::eventFilter(watched, event);
}

QJsonValue PromptValueEdit::current() const
{
    if (m_bool)
        return m_bool->isChecked();
    if (m_number) {
        const double d = m_number->value();
        return m_number->decimals() == 0 ? QJsonValue(qint64(std::llround(d))) : QJsonValue(d);
    }
    QJsonArray out;
    for (const QString& line : m_list->toPlainText().split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            out << line.trimmed();
    }
    return out;
}

void PromptValueEdit::show(const PromptDocItem& item)
{
    if (m_bool) {
        QSignalBlocker block(m_bool);
        m_bool->setChecked(item.fixed.toBool());
    } else if (m_number) {
        QSignalBlocker block(m_number);
        m_number->setValue(item.fixed.toDouble());
    } else {
        // The lines as typed stay (and the cursor with them) when they say the same list.
        if (current() == QJsonArray::fromStringList(item.list))
            return;
        QSignalBlocker block(m_list);
        m_list->setPlainText(item.list.join(QLatin1Char('\n')));
    }
}

void PromptValueEdit::setItem(const PromptDocItem& item)
{
    m_item = item;
    if (!m_timer->isActive())
        show(item);
}

void PromptValueEdit::commitPending()
{
    if (!m_timer->isActive())
        return;
    m_timer->stop();
    Q_EMIT changed(current());
}

} // namespace hako
