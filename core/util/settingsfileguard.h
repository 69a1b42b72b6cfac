#pragma once

#include <QString>

#include <memory>

class QTemporaryDir;

namespace hako {

/// Keeps QSettings to the output-file rule (core/util/outputfile.h) for the user's settings
/// file, which QSettings itself writes: through a symbolic link to a device or FIFO, its sync
/// would replace the node by a regular file (as root, /dev/null itself), and reading a FIFO
/// would hang. When the native user-scope settings file of the application or of its
/// organization exists and is not a regular file (following links), this process's settings
/// go to a private temporary folder instead: Hako starts with its defaults, saves nothing and
/// warning() says so. A link to a regular file is fine: QSettings replaces its target.
///
/// Create one after the organization and application names are set and before the first
/// QSettings, and keep it while settings are used. Not thread-safe (QSettings::setPath()).
class SettingsFileGuard {
public:
    SettingsFileGuard();
    ~SettingsFileGuard();
    SettingsFileGuard(const SettingsFileGuard&) = delete;
    SettingsFileGuard& operator=(const SettingsFileGuard&) = delete;

    /// Whether settings were sent to a temporary folder.
    bool redirected() const { return m_folder != nullptr; }
    /// One line for the user when redirected ("the settings file … is a FIFO: …"), else empty.
    QString warning() const { return m_warning; }

private:
    std::unique_ptr<QTemporaryDir> m_folder;
    QString m_warning;
};

} // namespace hako
