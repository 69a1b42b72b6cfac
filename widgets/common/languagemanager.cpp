#include "widgets/common/languagemanager.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QTranslator>

namespace hako {

namespace {

LanguageManager* s_instance = nullptr;

QString normalise(const QString& code)
{
    const QString c = code.trimmed().toLower();
    if (c.isEmpty())
        return QStringLiteral("system");
    // "ja_JP.UTF-8" and "ja-JP" mean Japanese as well.
    return c.section(QLatin1Char('.'), 0, 0)
        .section(QLatin1Char('_'), 0, 0)
        .section(QLatin1Char('-'), 0, 0);
}

} // namespace

LanguageManager::LanguageManager(QObject* parent) : QObject(parent)
{
    if (!s_instance)
        s_instance = this;
}

LanguageManager::~LanguageManager()
{
    removeTranslators();
    if (s_instance == this)
        s_instance = nullptr;
}

LanguageManager* LanguageManager::instance()
{
    return s_instance;
}

QStringList LanguageManager::availableLanguages()
{
    return {QStringLiteral("ja")};
}

QString LanguageManager::displayName(const QString& code)
{
    if (code == QLatin1String("system"))
        return tr("&System Language");
    if (code == QLatin1String("en"))
        return QStringLiteral("&English");
    if (code == QLatin1String("ja"))
        return QStringLiteral("日本語 (&J)");
    return code;
}

QString LanguageManager::preference() const
{
    const QString value = QSettings().value(QLatin1String(kSettingsKey)).toString();
    const QString code = normalise(value);
    if (code == QLatin1String("en") || availableLanguages().contains(code))
        return code;
    return QStringLiteral("system");
}

QString LanguageManager::resolve(const QString& preference, const QLocale& system)
{
    const QString code = normalise(preference);
    if (code == QLatin1String("en") || availableLanguages().contains(code))
        return code;
    for (const QString& ui : system.uiLanguages()) {
        const QString lang = normalise(ui);
        if (lang == QLatin1String("en"))
            return lang;
        if (availableLanguages().contains(lang))
            return lang;
    }
    return QStringLiteral("en");
}

QString LanguageManager::effectiveLanguage() const
{
    const QString env = qEnvironmentVariable("HAKO_LANGUAGE");
    if (!env.isEmpty())
        return resolve(env, QLocale::system());
    return resolve(preference(), QLocale::system());
}

void LanguageManager::removeTranslators()
{
    for (QTranslator** t : {&m_hako, &m_qt}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
}

bool LanguageManager::apply()
{
    const QString lang = effectiveLanguage();
    removeTranslators();
    m_applied = lang;
    if (lang == QLatin1String("en")) {
        // Numbers and dates keep following the system (a German user reading English keeps
        // decimal commas). The texts are the sources, except the plural forms of `%n` texts
        // ("1 plugin", "2 plugins"): hako_en.qm holds only those.
        QLocale::setDefault(QLocale::system());
        auto* plurals = new QTranslator(this);
        if (plurals->load(QStringLiteral(":/i18n/hako_en.qm"))) {
            QCoreApplication::installTranslator(plurals);
            m_hako = plurals;
        } else {
            delete plurals;
        }
        return true;
    }
    QLocale::setDefault(QLocale(lang));
    auto* hako = new QTranslator(this);
    if (!hako->load(QStringLiteral(":/i18n/hako_%1.qm").arg(lang))) {
        delete hako;
        return false;
    }
    QCoreApplication::installTranslator(hako);
    m_hako = hako;
    // Qt's own strings (standard buttons, file dialogs, the editing context menu); absent when
    // Qt's translations are not installed, which only leaves those in English.
    auto* qt = new QTranslator(this);
    if (qt->load(QStringLiteral("qtbase_%1").arg(lang),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        m_qt = qt;
    } else {
        delete qt;
    }
    return true;
}

void LanguageManager::setPreference(const QString& code)
{
    QSettings().setValue(QLatin1String(kSettingsKey), normalise(code));
    const QString before = m_applied;
    apply();
    if (m_applied != before)
        Q_EMIT languageChanged(m_applied);
}

QMenu* LanguageManager::addLanguageMenu(QMenu* parent)
{
    QMenu* menu = parent->addMenu(tr("&Language"));
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto* group = new QActionGroup(menu);
    group->setExclusive(true);
    const QString current = preference();
    QStringList codes{QStringLiteral("system"), QStringLiteral("en")};
    codes += availableLanguages();
    for (const QString& code : codes) {
        QAction* action = menu->addAction(displayName(code));
        action->setObjectName(QStringLiteral("language_%1").arg(code));
        action->setCheckable(true);
        action->setChecked(code == current);
        action->setData(code);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] { setPreference(code); });
    }
    return menu;
}

} // namespace hako
