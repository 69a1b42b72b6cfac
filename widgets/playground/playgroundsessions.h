#pragma once

#include "core/playground/playgroundsession.h"
#include "core/playground/playgroundsessionstore.h"
#include "core/util/latestjob.h"

#include <QDateTime>
#include <QThreadPool>
#include <QWidget>

#include <optional>

class QLineEdit;
class QMenu;
class QTimer;
class QToolButton;

namespace hako {

class PlaygroundPane;

/// The Playground pane's sessions: the bar above it ("Sessions" menu, "Session name" field) and
/// what keeps the pane's session on disk. The session shown is saved 1 s after the last change,
/// as soon as a run finishes, when another session is opened or started, and when the pane or
/// the application closes; the Sessions menu lists the saved ones (newest first) to reopen,
/// starts a new one (the shown one stays saved) and deletes the shown one after a confirmation.
/// The last session shown comes back the first time the pane is shown (QSettings
/// `playground/lastSession`), never at construction.
///
/// Disk work runs in order on one background thread of its own (so a save is never overtaken
/// by a later load of the same session); results come back on the GUI thread, where a newer
/// request wins over an older one. Inactive (and hidden) until setFolder(). GUI thread.
class PlaygroundSessions : public QWidget {
    Q_OBJECT
public:
    /// The QSettings key that remembers the session shown last.
    static constexpr const char* kLastSessionKey = "playground/lastSession";

    explicit PlaygroundSessions(PlaygroundPane* pane);
    /// Waits for saves still being written.
    ~PlaygroundSessions() override;

    /// Keeps sessions in `folder` (see PlaygroundSessionStore::defaultFolder()); "" turns
    /// keeping off.
    void setFolder(const QString& folder);
    bool isActive() const { return m_store.has_value(); }
    const playground::PlaygroundSessionStore* store() const
    {
        return m_store ? &*m_store : nullptr;
    }

    QString currentId() const { return m_id; }
    QString currentName() const { return m_name; }
    /// The session shown now, as it would be saved.
    playground::PlaygroundSession current() const;
    /// The saved sessions, newest first (waits for saves still being written).
    playground::PlaygroundSessionList savedSessions();

    /// Gives the shown content a new identity (saving the previous one first). The pane calls
    /// it before it shows a new prompt.
    void startNew();
    /// Opens saved session `id` (after saving the shown one); sessionOpened() follows, or an
    /// error in the pane's message bar.
    void open(const QString& id);
    /// Opens the session shown last, once, if the pane shows nothing yet.
    void restoreLast();
    /// Deletes saved session `id` without asking; when it is the one shown, the newest other
    /// session (or a new empty one) is shown instead.
    void remove(const QString& id);
    /// Renames the shown session and saves it.
    void rename(const QString& name);
    /// Notes a change of the shown session: it is saved 1 s after the last one.
    void markChanged();
    /// Saves the shown session now if it changed; with `wait`, returns once it is written.
    void saveNow(bool wait = false);

    QToolButton* sessionsButton() const { return m_button; }
    QMenu* sessionsMenu() const { return m_menu; }
    QLineEdit* nameEdit() const { return m_nameEdit; }

Q_SIGNALS:
    /// A saved session is shown.
    void sessionOpened(const QString& id);
    /// A save finished (`ok` false: the error is in the pane's message bar).
    void saved(const QString& id, bool ok);

private:
    void fillMenu();
    void confirmRemove();
    void setIdentity(const QString& id, const QString& name, const QDateTime& created);
    QString defaultName(const playground::PlaygroundSession& session) const;

    PlaygroundPane* m_pane;
    std::optional<playground::PlaygroundSessionStore> m_store;
    QString m_id;
    QString m_name;
    QDateTime m_created;
    bool m_dirty = false;
    bool m_restoreTried = false;
    LatestJob m_latest; // every open/new starts anew: an older load then shows nothing
    QTimer* m_autosave;
    QToolButton* m_button;
    QMenu* m_menu;
    QLineEdit* m_nameEdit;
    QThreadPool m_disk; // one thread: saves, loads and deletes in the order asked
};

} // namespace hako
