#pragma once

#include <QObject>
#include <QPalette>
#include <QString>

class QMenu;

namespace hako {

/// Chooses the look of the interface: the platform's own style and palette ("system", the
/// default), or Qt's Fusion style with a light or a dark palette. Panes that draw their own
/// colours (the editor, the trace panes, the Prompt view, the message bar) follow the palette
/// they are given and repaint when it changes, so a theme applies at once, without a restart.
///
/// The choice is the setting `ui/theme` ("system", "light" or "dark"). The environment
/// variable HAKO_THEME overrides it (tests and journeys). GUI thread only; one instance per
/// application, created (and apply()'d) before the first window.
class ThemeManager : public QObject {
    Q_OBJECT
public:
    enum class Theme { System, Light, Dark };
    Q_ENUM(Theme)

    static constexpr const char* kSettingsKey = "ui/theme";

    explicit ThemeManager(QObject* parent = nullptr);
    ~ThemeManager() override;

    /// The instance created by the application (nullptr when none).
    static ThemeManager* instance();

    /// "system", "light", "dark".
    static QString themeName(Theme theme);
    /// The theme a name stands for (case-insensitive); `fallback` for anything else.
    static Theme themeFromName(const QString& name, Theme fallback = Theme::System);
    /// The menu text of a theme ("&System", "&Light", "&Dark"), translated.
    static QString displayName(Theme theme);

    /// Whether `palette` is a dark one: its window darker than the window's text (when both
    /// are alike, its base darker than mid-grey). The one test every pane uses to pick its
    /// light or dark colours.
    static bool isDark(const QPalette& palette);
    /// The palette of the Dark theme (tuned for WCAG AA contrast: text, links, highlighted,
    /// disabled and placeholder text, tooltips all at 4.5:1 or more).
    static QPalette darkPalette();
    /// The palette of the Light theme (Fusion's light palette).
    static QPalette lightPalette();
    /// The WCAG 2 contrast ratio of two colours (1 to 21), for tests and tuning.
    static double contrastRatio(const QColor& a, const QColor& b);

    /// The choice in the settings.
    Theme preference() const;
    /// The theme in effect: HAKO_THEME when set to a theme's name, else the preference.
    Theme effectiveTheme() const;
    /// Whether the application palette is dark now (isDark(QApplication::palette())).
    bool isDarkInEffect() const;

    /// Applies effectiveTheme() to the application: style and palette. Emits themeChanged()
    /// when the theme in effect changed.
    void apply();
    /// Stores `theme` in the settings and applies it at once.
    void setPreference(Theme theme);

    /// Adds Settings › Theme (System / Light / Dark, checkable, remembered) to `menu`.
    QMenu* addThemeMenu(QMenu* menu);

Q_SIGNALS:
    /// A theme was applied (at start, or another one chosen); `dark`: the application palette
    /// is now a dark one. Widgets need not listen: they receive QEvent::PaletteChange.
    void themeChanged(bool dark);

private:
    QString m_systemStyle;
    bool m_applied = false;
    bool m_dark = false;
    Theme m_theme = Theme::System;
};

} // namespace hako
