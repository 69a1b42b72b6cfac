#pragma once

#include "core/playground/playgroundsession.h"
#include "core/util/diagnostic.h"

#include <QList>
#include <QString>

namespace hako::playground {

/// A session file the list could not read, and why ("it is not valid JSON …").
struct SkippedSessionFile {
    QString path;
    QString reason;
};

/// What PlaygroundSessionStore::list() found: the readable sessions, newest first, and the
/// files it skipped.
struct PlaygroundSessionList {
    QList<PlaygroundSessionHeader> sessions;
    QList<SkippedSessionFile> skipped;
};

/// The playground's saved sessions: one `<id>.json` file each in one folder (by default
/// `playground-sessions/` beside the prompt log's database). Files are written atomically and
/// private (0600, the folder 0700): a session holds inputs and replies that may come from the
/// prompt log. Damaged files (not JSON, not UTF-8, cut short, too large, a newer format) are
/// skipped by list() with a reason and refused by load() with an error; nothing throws or
/// aborts. The store keeps no state but its folder and size limit: every method is thread-safe,
/// and two saves of one session at once leave one of them whole.
class PlaygroundSessionStore {
public:
    /// The largest session file load() reads and save() writes (50 MiB).
    static constexpr qint64 kDefaultMaxBytes = qint64(50) << 20;

    explicit PlaygroundSessionStore(QString folder = defaultFolder());

    /// `playground-sessions` in the folder of PromptLog::defaultPath() (the user's data folder).
    static QString defaultFolder();

    QString folder() const { return m_folder; }
    /// The file of session `id` (whether or not it exists).
    QString pathOf(const QString& id) const;
    void setMaxBytes(qint64 maxBytes) { m_maxBytes = maxBytes; }
    qint64 maxBytes() const { return m_maxBytes; }

    /// Every session in the folder, newest update first, reading only each file's first line
    /// (and its last bytes, to notice a file cut short). A missing folder lists nothing.
    PlaygroundSessionList list() const;
    /// Reads session `id`; the error says why it cannot be opened.
    Result<PlaygroundSession> load(const QString& id) const;
    /// Writes `session` (creating the folder when missing), replacing its file only once the
    /// new content is complete: on any failure the previous file stays as it was. A session
    /// larger than maxBytes() is refused, since it could not be opened again.
    Result<bool> save(const PlaygroundSession& session) const;
    /// Gives session `id` a new name (and updates its time).
    Result<bool> rename(const QString& id, const QString& name) const;
    /// Deletes session `id`'s file.
    Result<bool> remove(const QString& id) const;

private:
    QString m_folder;
    qint64 m_maxBytes = kDefaultMaxBytes;
};

} // namespace hako::playground
