#pragma once

#include "core/util/diagnostic.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace hako {

/// One unsaved buffer kept in the recovery folder.
struct RecoveryEntry {
    QString bufferId;      ///< stable id of the editor buffer
    QString originalPath;  ///< the file the buffer belongs to; empty for an unnamed buffer
    QDateTime savedAt;     ///< when the recovery copy was written
    qint64 pid = 0;        ///< the process that wrote it
    qint64 startTicks = 0; ///< that process's start time (/proc), to tell a reused pid
    QString recoveryFile;  ///< the copy on disk
};

/// Autosave copies of unsaved editor buffers, so that after a crash or a kill the next start
/// can offer to restore them. Each buffer is one JSON file (`<bufferId>.json`: path, time,
/// writer pid and text) written atomically with QSaveFile under
/// `QStandardPaths::AppDataLocation/recovery` (or a given folder). The editor saves every few
/// seconds after a change and removes the copy on save and on close. Methods touch only the
/// disk; an instance may be used from one thread at a time, several instances may share a
/// folder.
class RecoveryStore {
public:
    /// A store over `directory` (created on first save); empty: defaultDirectory().
    explicit RecoveryStore(const QString& directory = QString());

    /// `<AppDataLocation>/recovery`.
    static QString defaultDirectory();
    QString directory() const { return m_dir; }

    /// A new unique buffer id.
    static QString newBufferId();

    /// Writes (replaces) the copy of `bufferId` atomically.
    Result<bool> save(const QString& bufferId, const QString& originalPath, const QString& text);
    /// Removes the copy of `bufferId` (no error when there is none).
    void remove(const QString& bufferId);

    /// The recoverable buffers, newest first. Copies written by a process that is still running
    /// (another window open now) are left out unless `includeLive`. Each copy stands alone: one
    /// that cannot be read or restored (not JSON, no text, a bad id, too large) is left out and,
    /// when `damaged` is given, reported there ("file: why"); the others are listed.
    QList<RecoveryEntry> list(bool includeLive = false, QStringList* damaged = nullptr) const;
    /// The text of a listed buffer.
    Result<QString> text(const RecoveryEntry& entry) const;

private:
    QString fileFor(const QString& bufferId) const;

    QString m_dir;
};

} // namespace hako
