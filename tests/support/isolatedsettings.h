#pragma once

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace hako::testing {

/// Keeps what a GUI test's windows read and write (QSettings, QStandardPaths) out of the user's
/// files: QStandardPaths' test mode, QSettings' user scope in a fresh temporary folder, and
/// `HakoTest`/`application` as the names, starting empty. Create one per test process before the
/// first window (e.g. in initTestCase) and keep it alive while windows exist.
class IsolatedSettings {
public:
    explicit IsolatedSettings(const QString& application)
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
        QCoreApplication::setOrganizationName(QStringLiteral("HakoTest"));
        QCoreApplication::setApplicationName(application);
        QSettings().clear();
    }

    bool isValid() const { return m_dir.isValid(); }

private:
    QTemporaryDir m_dir;
};

} // namespace hako::testing
