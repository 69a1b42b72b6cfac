#include "widgets/common/messagebar.h"

#include "widgets/common/thememanager.h"

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
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
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->setSpacing(8);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    applyColors();
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
    switch (kind) {
    case Kind::Error:
        icon = QStyle::SP_MessageBoxCritical;
        break;
    case Kind::Warning:
        icon = QStyle::SP_MessageBoxWarning;
        break;
    case Kind::Information:
        break;
    }
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    applyColors();
    show();
}

void MessageBar::applyColors()
{
    // Background, bottom border and text, light and dark, by kind; the text keeps 4.5:1 or
    // more on the background in both. Set through the palette rather than a style sheet: a
    // widget with a style sheet is not told when the application's palette changes.
    struct Colours {
        QRgb background;
        QRgb border;
        QRgb text;
    };
    static constexpr Colours kInformation[2] = {{0xeef6ff, 0xb6d4fe, 0x1f2328},
                                                {0x172a45, 0x2f5589, 0xe6edf3}};
    static constexpr Colours kError[2] = {{0xfdecec, 0xf1aeb5, 0x1f2328},
                                          {0x3d1d21, 0x7c2d35, 0xf4e1e3}};
    static constexpr Colours kWarning[2] = {{0xfff8e1, 0xffe08a, 0x1f2328},
                                            {0x3a2f14, 0x75601f, 0xf3ead2}};
    const bool dark = ThemeManager::isDark(QApplication::palette(this));
    m_darkColors = dark;
    const Colours& c = m_kind == Kind::Error     ? kError[dark]
                       : m_kind == Kind::Warning ? kWarning[dark]
                                                 : kInformation[dark];
    m_border = QColor::fromRgb(c.border);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor::fromRgb(c.background));
    p.setColor(QPalette::WindowText, QColor::fromRgb(c.text));
    setPalette(p);
    update();
}

void MessageBar::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    // Only when light turned dark or back: applyColors() changes the palette too.
    if (event->type() == QEvent::PaletteChange &&
        ThemeManager::isDark(QApplication::palette(this)) != m_darkColors)
        applyColors();
}

void MessageBar::paintEvent(QPaintEvent* event)
{
    QFrame::paintEvent(event);
    QPainter painter(this);
    painter.setPen(m_border);
    painter.drawLine(0, height() - 1, width(), height() - 1);
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
