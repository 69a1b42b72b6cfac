#include "widgets/common/thememanager.h"

#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

#include <cmath>

namespace hako {

namespace {

ThemeManager* s_instance = nullptr;

double relativeLuminance(const QColor& c)
{
    auto channel = [](float v) {
        return v <= 0.03928f ? double(v) / 12.92 : std::pow((double(v) + 0.055) / 1.055, 2.4);
    };
    const QColor rgb = c.toRgb();
    return 0.2126 * channel(rgb.redF()) + 0.7152 * channel(rgb.greenF()) +
           0.0722 * channel(rgb.blueF());
}

void setAllGroups(QPalette& p, QPalette::ColorRole role, const QColor& c)
{
    p.setColor(QPalette::Active, role, c);
    p.setColor(QPalette::Inactive, role, c);
    p.setColor(QPalette::Disabled, role, c);
}

} // namespace

ThemeManager::ThemeManager(QObject* parent) : QObject(parent)
{
    if (!s_instance)
        s_instance = this;
    if (qobject_cast<QApplication*>(QCoreApplication::instance()))
        m_systemStyle = QApplication::style()->name();
}

ThemeManager::~ThemeManager()
{
    if (s_instance == this)
        s_instance = nullptr;
}

ThemeManager* ThemeManager::instance()
{
    return s_instance;
}

QString ThemeManager::themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

ThemeManager::Theme ThemeManager::themeFromName(const QString& name, Theme fallback)
{
    const QString n = name.trimmed().toLower();
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark})
        if (n == themeName(t))
            return t;
    return fallback;
}

QString ThemeManager::displayName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return tr("&Light");
    case Theme::Dark:
        return tr("&Dark");
    case Theme::System:
        break;
    }
    return tr("&System");
}

bool ThemeManager::isDark(const QPalette& palette)
{
    const int window = palette.color(QPalette::Window).lightness();
    const int text = palette.color(QPalette::WindowText).lightness();
    if (window != text)
        return window < text;
    // A palette of one colour (tests paint on those): dark when its base is.
    return palette.color(QPalette::Base).lightness() < 128;
}

double ThemeManager::contrastRatio(const QColor& a, const QColor& b)
{
    const double la = relativeLuminance(a);
    const double lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette ThemeManager::darkPalette()
{
    // Neutral greys with a hint of blue, the editor's background (#1e2228) as Base. Every text
    // role is checked against its background in tst_theme (WCAG AA, 4.5:1); disabled text is
    // dimmer than normal text yet still readable.
    const QColor window(0x2b, 0x2e, 0x34);
    const QColor base(0x1e, 0x22, 0x28);
    const QColor text(0xe1, 0xe4, 0xe8);
    const QColor disabledText(0x93, 0x99, 0xa3);
    QPalette p(window);
    setAllGroups(p, QPalette::Window, window);
    setAllGroups(p, QPalette::Base, base);
    setAllGroups(p, QPalette::AlternateBase, QColor(0x25, 0x29, 0x30));
    setAllGroups(p, QPalette::Button, QColor(0x35, 0x39, 0x40));
    // Disabled buttons sink into the window, which keeps their dimmed text readable.
    p.setColor(QPalette::Disabled, QPalette::Button, window);
    setAllGroups(p, QPalette::Light, QColor(0x4b, 0x51, 0x5a));
    setAllGroups(p, QPalette::Midlight, QColor(0x3f, 0x44, 0x4c));
    setAllGroups(p, QPalette::Mid, QColor(0x24, 0x27, 0x2d));
    setAllGroups(p, QPalette::Dark, QColor(0x18, 0x1b, 0x1f));
    setAllGroups(p, QPalette::Shadow, QColor(0x0a, 0x0b, 0x0d));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        p.setColor(QPalette::Active, role, text);
        p.setColor(QPalette::Inactive, role, text);
        p.setColor(QPalette::Disabled, role, disabledText);
    }
    setAllGroups(p, QPalette::BrightText, QColor(0xff, 0x8a, 0x80));
    setAllGroups(p, QPalette::PlaceholderText, QColor(0x9a, 0xa0, 0xaa));
    setAllGroups(p, QPalette::ToolTipBase, QColor(0x3a, 0x3f, 0x47));
    setAllGroups(p, QPalette::ToolTipText, text);
    setAllGroups(p, QPalette::Link, QColor(0x6c, 0xb6, 0xff));
    setAllGroups(p, QPalette::LinkVisited, QColor(0xc8, 0x9b, 0xf5));
    p.setColor(QPalette::Active, QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::Inactive, QPalette::Highlight, QColor(0x2b, 0x4a, 0x7a));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x3f, 0x44, 0x4c));
    p.setColor(QPalette::Active, QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Inactive, QPalette::HighlightedText, text);
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, QColor(0xb4, 0xb9, 0xc1));
    return p;
}

QPalette ThemeManager::lightPalette()
{
    // Fusion's own light palette (QFusionStyle::standardPalette), spelt out: newer Qt versions
    // turn Fusion's standard palette dark when the desktop is dark.
    QPalette p(QColor(0xef, 0xef, 0xef));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0xbe, 0xbe, 0xbe));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0xbe, 0xbe, 0xbe));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0xbe, 0xbe, 0xbe));
    p.setColor(QPalette::Disabled, QPalette::Base, QColor(0xef, 0xef, 0xef));
    setAllGroups(p, QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x91, 0x91, 0x91));
    setAllGroups(p, QPalette::HighlightedText, Qt::white);
    setAllGroups(p, QPalette::ToolTipBase, QColor(0xff, 0xff, 0xdc));
    setAllGroups(p, QPalette::ToolTipText, Qt::black);
    setAllGroups(p, QPalette::Link, QColor(0x00, 0x57, 0xae));
    setAllGroups(p, QPalette::LinkVisited, QColor(0x7a, 0x2d, 0xa8));
    return p;
}

ThemeManager::Theme ThemeManager::preference() const
{
    return themeFromName(QSettings().value(QLatin1String(kSettingsKey)).toString());
}

ThemeManager::Theme ThemeManager::effectiveTheme() const
{
    const QString env = qEnvironmentVariable("HAKO_THEME");
    if (!env.isEmpty())
        return themeFromName(env, preference());
    return preference();
}

bool ThemeManager::isDarkInEffect() const
{
    return isDark(QGuiApplication::palette());
}

void ThemeManager::apply()
{
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return;
    const Theme theme = effectiveTheme();
    const bool first = !m_applied;
    if (theme == Theme::System) {
        // At start the platform's look is already in place: touch nothing. Back from Light or
        // Dark: the platform's style again, and an empty palette, which Qt resolves against
        // the platform theme's.
        if (!first) {
            if (!m_systemStyle.isEmpty() &&
                QApplication::style()->name().compare(m_systemStyle, Qt::CaseInsensitive) != 0)
                QApplication::setStyle(m_systemStyle);
            QApplication::setPalette(QPalette());
        }
    } else {
        if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive))
            QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(theme == Theme::Dark ? darkPalette() : lightPalette());
    }
    m_applied = true;
    const bool dark = isDarkInEffect();
    if (first || dark != m_dark || theme != m_theme) {
        m_dark = dark;
        m_theme = theme;
        Q_EMIT themeChanged(dark);
    }
}

void ThemeManager::setPreference(Theme theme)
{
    QSettings().setValue(QLatin1String(kSettingsKey), themeName(theme));
    apply();
}

QMenu* ThemeManager::addThemeMenu(QMenu* parent)
{
    QMenu* menu = parent->addMenu(tr("&Theme"));
    menu->setObjectName(QStringLiteral("themeMenu"));
    auto* group = new QActionGroup(menu);
    group->setExclusive(true);
    const Theme current = preference();
    for (Theme theme : {Theme::System, Theme::Light, Theme::Dark}) {
        QAction* action = menu->addAction(displayName(theme));
        action->setObjectName(QStringLiteral("theme_%1").arg(themeName(theme)));
        action->setCheckable(true);
        action->setChecked(theme == current);
        action->setData(themeName(theme));
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, theme] { setPreference(theme); });
    }
    return menu;
}

} // namespace hako
