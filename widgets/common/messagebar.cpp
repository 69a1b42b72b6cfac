#include "widgets/common/messagebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace hako {

MessageBar::MessageBar(QWidget* parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)),
      m_detail(new QLabel(this)), m_details(new QToolButton(this)), m_close(new QToolButton(this)),
      m_action(new QPushButton(this))
{
    setObjectName(QStringLiteral("messageBar"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->setSpacing(8);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAccessibleName(tr("Dismiss message"));
    m_action->setObjectName(QStringLiteral("messageBarAction"));
    m_action->setAccessibleName(tr("Message action"));
    m_action->hide();
    // A label's accessible name is its text, so a screen reader reads the message itself;
    // the role is told by the description.
    m_text->setAccessibleDescription(tr("Message"));
    m_detail->setWordWrap(true);
    m_detail->setTextFormat(Qt::PlainText);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setAccessibleDescription(tr("Message details"));
    m_detail->hide();
    m_details->setText(tr("Details"));
    m_details->setCheckable(true);
    m_details->setAccessibleName(tr("Show details"));
    m_details->setToolTip(tr("Show the technical wording of this message"));
    m_details->hide();
    auto* texts = new QVBoxLayout;
    texts->setContentsMargins(0, 0, 0, 0);
    texts->setSpacing(4);
    texts->addWidget(m_text);
    texts->addWidget(m_detail);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addLayout(texts, 1);
    layout->addWidget(m_details, 0, Qt::AlignTop);
    layout->addWidget(m_action, 0, Qt::AlignTop);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, &MessageBar::clearMessage);
    connect(m_details, &QToolButton::toggled, m_detail, &QLabel::setVisible);
    connect(m_action, &QPushButton::clicked, this, [this] {
        // The action may replace or clear this very message: call a copy.
        if (const std::function<void()> action = m_onAction)
            action();
    });
    hide();
}

void MessageBar::showMessage(const QString& text, Kind kind, const QString& actionText,
                             std::function<void()> action)
{
    m_kind = kind;
    m_text->setText(text);
    setDetail(QString());
    m_onAction = std::move(action);
    m_action->setText(actionText);
    m_action->setAccessibleName(actionText.isEmpty() ? tr("Message action") : actionText);
    m_action->setVisible(!actionText.isEmpty());
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxInformation;
    QString colours = QStringLiteral("background:#eef6ff; border-bottom:1px solid #b6d4fe;");
    switch (kind) {
    case Kind::Error:
        icon = QStyle::SP_MessageBoxCritical;
        colours = QStringLiteral("background:#fdecec; border-bottom:1px solid #f1aeb5;");
        break;
    case Kind::Warning:
        icon = QStyle::SP_MessageBoxWarning;
        colours = QStringLiteral("background:#fff8e1; border-bottom:1px solid #ffe08a;");
        break;
    case Kind::Information:
        break;
    }
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    setStyleSheet(QStringLiteral("QFrame#messageBar { %1 } QLabel { background: transparent; "
                                 "border: none; color: #1f2328; }")
                      .arg(colours));
    show();
}

void MessageBar::setDetail(const QString& detail)
{
    m_detail->setText(detail);
    m_details->setChecked(false);
    m_details->setVisible(!detail.isEmpty());
    m_detail->hide();
}

QString MessageBar::detail() const
{
    return m_detail->text();
}

bool MessageBar::isDetailShown() const
{
    return m_detail->isVisible();
}

void MessageBar::clearMessage()
{
    m_text->clear();
    setDetail(QString());
    m_action->hide();
    m_action->setText(QString());
    m_onAction = nullptr;
    hide();
}

QString MessageBar::actionText() const
{
    return m_action->text();
}

QString MessageBar::text() const
{
    return m_text->text();
}

} // namespace hako
