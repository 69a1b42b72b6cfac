#pragma once

#include <QStringList>

class QSettings;

namespace hako {

/// The "Open Recent" list, persisted in QSettings under `recentFiles`. Most recent first, at
/// most `maximum()` entries, files that no longer exist are dropped when the list is read.
/// Not thread-safe; use from the GUI thread.
class RecentFiles {
public:
    /// Uses `settings` (not owned, must outlive this object).
    explicit RecentFiles(QSettings* settings);

    static constexpr int maximum() { return 10; }

    /// The existing files, most recent first (also prunes missing ones from the settings).
    QStringList files() const;
    /// Moves `path` (made absolute) to the front.
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

private:
    void store(const QStringList& files) const;

    QSettings* m_settings;
};

} // namespace hako
