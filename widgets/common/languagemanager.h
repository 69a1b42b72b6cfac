#pragma once

#include <QObject>
#include <QStringList>

class QMenu;
class QSettings;
class QTranslator;

namespace hako {

/// Chooses the language of the interface and installs the translators: Hako's own
/// (`:/i18n/hako_<lang>.qm`, compiled from resources/translations) and Qt's
/// (`qtbase_<lang>.qm` from Qt's translations folder, so standard dialogs and buttons match).
///
/// The choice is the setting `ui/language`: "system" (the default: QLocale::system()), "en" or
/// "ja". The environment variable HAKO_LANGUAGE overrides it (tests and journeys). GUI thread
/// only; one instance per application (it owns the installed translators).
class LanguageManager : public QObject {
    Q_OBJECT
public:
    static constexpr const char* kSettingsKey = "ui/language";

    explicit LanguageManager(QObject* parent = nullptr);
    ~LanguageManager() override;

    /// The instance created by the application (nullptr when none).
    static LanguageManager* instance();

    /// The languages Hako ships a translation for, besides English ("ja").
    static QStringList availableLanguages();
    /// The language's own name for itself ("English", "日本語"); "System" for "system".
    static QString displayName(const QString& code);

    /// The choice in the settings ("system", "en", "ja").
    QString preference() const;
    /// The language in effect: HAKO_LANGUAGE, else the preference resolved against the system
    /// locale ("en" when no translation matches).
    QString effectiveLanguage() const;

    /// Installs the translators for effectiveLanguage() (removing earlier ones). Returns false
    /// when Hako's translation for a non-English language could not be loaded.
    bool apply();
    /// Stores `code` ("system", "en", "ja") in the settings and applies it at once.
    void setPreference(const QString& code);

    /// Adds Settings › Language (System / English / 日本語, checkable, remembered) to `menu`.
    /// Choosing one applies it and emits languageChanged().
    QMenu* addLanguageMenu(QMenu* menu);

    /// Resolves a preference: "system" becomes the system locale's language when a translation
    /// exists for it, else "en". Pure; for tests.
    static QString resolve(const QString& preference, const QLocale& system);

Q_SIGNALS:
    /// The language in effect changed (after setPreference). Texts built before keep their
    /// language until rebuilt; the menu says so.
    void languageChanged(const QString& language);

private:
    void removeTranslators();

    QTranslator* m_hako = nullptr;
    QTranslator* m_qt = nullptr;
    QString m_applied;
};

} // namespace hako
