#include "core/util/settingsfileguard.h"

#include "core/util/outputfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <sys/stat.h>

namespace hako {

namespace {

QString describe(const QString& path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return QStringLiteral("not a regular file");
    if (S_ISFIFO(st.st_mode))
        return QStringLiteral("a FIFO");
    if (S_ISCHR(st.st_mode))
        return QStringLiteral("a character device");
    QString reason;
    outputKind(path, &reason);
    return reason.startsWith(QLatin1String("it is ")) ? reason.mid(6) : reason;
}

} // namespace

SettingsFileGuard::SettingsFileGuard()
{
    const QString organization = QCoreApplication::organizationName();
    const QString application = QCoreApplication::applicationName();
    if (organization.isEmpty())
        return;
    // Where QSettings keeps the user scope on Unix (QSETTINGS_USE_QSTANDARDPATHS): the
    // application's file, then the organization's, which it reads as a fallback.
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    QStringList files;
    if (!application.isEmpty())
        files << QStringLiteral("%1/%2/%3.conf").arg(folder, organization, application);
    files << QStringLiteral("%1/%2.conf").arg(folder, organization);
    for (const QString& file : std::as_const(files)) {
        // Missing, a regular file, or a link to one (or to nothing yet): QSettings' QSaveFile
        // creates or replaces the target, as the rule does.
        if (!QFileInfo::exists(file) || QFileInfo(file).isFile())
            continue;
        m_folder = std::make_unique<QTemporaryDir>();
        // Without a temporary folder, a folder below /dev/null: nothing can be created there.
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_folder->isValid() ? m_folder->path()
                                               : QStringLiteral("/dev/null/hako-settings"));
        m_warning = QStringLiteral("the settings file %1 is %2: Hako neither reads nor saves "
                                   "settings there; this session starts with the defaults and "
                                   "its settings are not kept")
                        .arg(file, describe(file));
        return;
    }
}

SettingsFileGuard::~SettingsFileGuard() = default;

} // namespace hako
