// The workbench's settings file is written by QSettings, which replaces the file a symbolic link
// names by a regular file: SettingsFileGuard keeps a link to a FIFO or device (or a folder) as it
// is, and lets a link to a regular file be saved through.
#include "core/util/settingsfileguard.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace hako;

namespace {

mode_t lmode(const QString& path)
{
    struct stat st {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode : 0;
}

} // namespace

class TestSettingsFileGuard : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;
    QString m_config;
    QString m_file;

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        // A fresh configuration folder and QSettings' default paths for every test.
        m_config = m_dir.filePath(QStringLiteral("config%1").arg(++m_n));
        QVERIFY(QDir().mkpath(m_config + QStringLiteral("/HakoGuardTest")));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config));
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_config);
        QCoreApplication::setOrganizationName(QStringLiteral("HakoGuardTest"));
        QCoreApplication::setApplicationName(QStringLiteral("Guard"));
        m_file = m_config + QStringLiteral("/HakoGuardTest/Guard.conf");
    }

    void missingOrRegularFilesAreUsed()
    {
        {
            const SettingsFileGuard guard;
            QVERIFY(!guard.redirected());
            QVERIFY(guard.warning().isEmpty());
            QSettings settings;
            settings.setValue(QStringLiteral("k"), 1);
        }
        QVERIFY(S_ISREG(lmode(m_file)));
        const SettingsFileGuard again;
        QVERIFY(!again.redirected());
        QCOMPARE(QSettings().value(QStringLiteral("k")).toInt(), 1);
    }

    // Saved through the link: the target gets the settings, the link stays a link.
    void linkToARegularFileIsSavedThrough()
    {
        const QString target = m_dir.filePath(QStringLiteral("real%1.conf").arg(m_n));
        {
            QFile f(target);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[General]\nold=1\n");
        }
        QVERIFY(QFile::link(target, m_file));
        const SettingsFileGuard guard;
        QVERIFY(!guard.redirected());
        {
            QSettings settings;
            QCOMPARE(settings.value(QStringLiteral("old")).toInt(), 1);
            settings.setValue(QStringLiteral("new"), 2);
            settings.sync();
            QCOMPARE(settings.status(), QSettings::NoError);
        }
        QVERIFY(S_ISLNK(lmode(m_file)));
        QFile f(target);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("new=2"));
    }

    // A link to a FIFO (as a link to /dev/null would be): neither read (that would wait for a
    // writer) nor replaced; settings live in a temporary folder for the session, with a warning.
    void linkToAFifoIsNeitherReadNorReplaced()
    {
        const QString fifo = m_dir.filePath(QStringLiteral("fifo%1").arg(m_n));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QVERIFY(QFile::link(fifo, m_file));
        const SettingsFileGuard guard;
        // Checked before any QSettings exists: without the guard, reading the FIFO would hang.
        QVERIFY(guard.redirected());
        QVERIFY2(guard.warning().contains(m_file) &&
                     guard.warning().contains(QLatin1String("FIFO")),
                 qPrintable(guard.warning()));
        {
            QSettings settings;
            settings.setValue(QStringLiteral("k"), 3);
            settings.sync();
            QCOMPARE(settings.status(), QSettings::NoError);
            QVERIFY(!settings.fileName().startsWith(m_config));
        }
        QVERIFY(S_ISLNK(lmode(m_file)));
        QVERIFY(S_ISFIFO(lmode(fifo)));
        QCOMPARE(QSettings().value(QStringLiteral("k")).toInt(), 3);
    }

    // The organization's file, which QSettings reads as a fallback, counts too; so does a folder.
    void organizationFileAndFoldersCount()
    {
        QVERIFY(QDir().mkdir(m_config + QStringLiteral("/HakoGuardTest.conf")));
        const SettingsFileGuard guard;
        QVERIFY(guard.redirected());
        QVERIFY2(guard.warning().contains(QLatin1String("folder")), qPrintable(guard.warning()));
        QSettings().setValue(QStringLiteral("k"), 4);
        QVERIFY(QFileInfo(m_config + QStringLiteral("/HakoGuardTest.conf")).isDir());
        QVERIFY(!QFileInfo::exists(m_file));
    }
};

QTEST_GUILESS_MAIN(TestSettingsFileGuard)
#include "tst_settingsfileguard.moc"
