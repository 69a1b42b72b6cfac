#include "widgets/playground/playgroundsessions.h"

#include "core/util/whenready.h"
#include "widgets/common/messagebar.h"
#include "widgets/playground/playgroundpane.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

namespace hako {

using namespace playground;

namespace {

constexpr int kAutosaveDelayMs = 1000;
constexpr int kMenuSessions = 30; // more are reachable by deleting; a long menu helps nobody

QString shortTime(const QDateTime& t)
{
    return QLocale().toString(t.toLocalTime(), QLocale::ShortFormat);
}

} // namespace

PlaygroundSessions::PlaygroundSessions(PlaygroundPane* pane)
    : QWidget(pane), m_pane(pane), m_autosave(new QTimer(this))
{
    m_disk.setMaxThreadCount(1);
    m_autosave->setSingleShot(true);
    m_autosave->setInterval(kAutosaveDelayMs);
    connect(m_autosave, &QTimer::timeout, this, [this] { saveNow(); });

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 0);
    m_button = new QToolButton(this);
    m_button->setText(tr("Sessions"));
    m_button->setAccessibleName(tr("Sessions"));
    m_button->setToolTip(tr("Reopen a saved playground session, start a new one or delete this "
                            "one; sessions are saved as you work"));
    m_button->setPopupMode(QToolButton::InstantPopup);
    m_button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_button->setMinimumWidth(m_button->sizeHint().width() +
                              m_button->style()->pixelMetric(QStyle::PM_MenuButtonIndicator));
    m_menu = new QMenu(m_button);
    m_menu->setAccessibleName(tr("Saved sessions"));
    m_menu->setToolTipsVisible(true);
    m_button->setMenu(m_menu);
    connect(m_menu, &QMenu::aboutToShow, this, &PlaygroundSessions::fillMenu);
    layout->addWidget(m_button);

    auto* nameLabel = new QLabel(tr("Session name"), this);
    m_nameEdit = new QLineEdit(this);
    m_nameEdit->setAccessibleName(tr("Session name"));
    m_nameEdit->setPlaceholderText(tr("Named after its prompt when first saved"));
    m_nameEdit->setMaxLength(200);
    nameLabel->setBuddy(m_nameEdit);
    connect(m_nameEdit, &QLineEdit::editingFinished, this, [this] { rename(m_nameEdit->text()); });
    layout->addWidget(nameLabel);
    layout->addWidget(m_nameEdit, 1);

    connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this,
            [this] { saveNow(true); });
    setVisible(false);
    setIdentity(PlaygroundSession::create().id, {}, QDateTime::currentDateTimeUtc());
}

PlaygroundSessions::~PlaygroundSessions()
{
    m_disk.waitForDone();
}

void PlaygroundSessions::setFolder(const QString& folder)
{
    m_disk.waitForDone();
    if (folder.isEmpty())
        m_store.reset();
    else
        m_store.emplace(folder);
    setVisible(m_store.has_value());
}

void PlaygroundSessions::setIdentity(const QString& id, const QString& name,
                                     const QDateTime& created)
{
    m_id = id;
    m_name = name;
    m_created = created;
    m_nameEdit->setText(name);
}

PlaygroundSession PlaygroundSessions::current() const
{
    PlaygroundSession s = m_pane->sessionContent();
    s.id = m_id;
    s.name = m_name;
    s.created = m_created;
    s.updated = QDateTime::currentDateTimeUtc();
    return s;
}

QString PlaygroundSessions::defaultName(const PlaygroundSession& session) const
{
    const PlaygroundPrompt first = session.variants.value(0);
    const QString what = !first.name.isEmpty()    ? first.name
                         : !first.model.isEmpty() ? first.model
                                                  : tr("Playground");
    return tr("%1 · %2").arg(what, shortTime(session.created));
}

void PlaygroundSessions::markChanged()
{
    if (!m_store)
        return;
    m_dirty = true;
    m_autosave->start();
}

void PlaygroundSessions::saveNow(bool wait)
{
    m_autosave->stop();
    if (m_store && m_dirty) {
        PlaygroundSession session = current();
        // An empty pane is no session worth keeping.
        if (!session.variants.isEmpty()) {
            if (session.name.trimmed().isEmpty()) {
                session.name = defaultName(session);
                m_name = session.name;
                if (!m_nameEdit->hasFocus())
                    m_nameEdit->setText(m_name);
            }
            m_dirty = false;
            QSettings().setValue(QLatin1String(kLastSessionKey), session.id);
            const PlaygroundSessionStore store = *m_store;
            whenReady(this,
                      QtConcurrent::run(&m_disk, [store, session] { return store.save(session); }),
                      [this, id = session.id](const Result<bool>& result) {
                          if (!result)
                              m_pane->messageBar()->showMessage(result.error().message);
                          Q_EMIT saved(id, result.ok());
                      });
        }
    }
    if (wait)
        m_disk.waitForDone();
}

PlaygroundSessionList PlaygroundSessions::savedSessions()
{
    if (!m_store)
        return {};
    // A save just queued belongs in the list; it takes milliseconds.
    m_disk.waitForDone();
    return m_store->list();
}

void PlaygroundSessions::startNew()
{
    saveNow();
    m_latest.invalidate();
    setIdentity(PlaygroundSession::create().id, {}, QDateTime::currentDateTimeUtc());
    m_dirty = false;
}

void PlaygroundSessions::open(const QString& id)
{
    if (!m_store)
        return;
    saveNow();
    const LatestJob::Ticket ticket = m_latest.start();
    const PlaygroundSessionStore store = *m_store;
    whenReady(this, QtConcurrent::run(&m_disk, [store, id] { return store.load(id); }),
              [this, ticket](const Result<PlaygroundSession>& session) {
                  if (!m_latest.isCurrent(ticket))
                      return;
                  if (!session) {
                      m_pane->messageBar()->showMessage(session.error().message);
                      return;
                  }
                  setIdentity(session->id, session->name, session->created);
                  m_pane->showSessionContent(*session);
                  m_autosave->stop();
                  m_dirty = false;
                  QSettings().setValue(QLatin1String(kLastSessionKey), session->id);
                  Q_EMIT sessionOpened(session->id);
              });
}

void PlaygroundSessions::restoreLast()
{
    if (!m_store || m_restoreTried)
        return;
    m_restoreTried = true;
    const QString id = QSettings().value(QLatin1String(kLastSessionKey)).toString();
    // The pane may already show something the user opened: that one wins.
    if (id.isEmpty() || m_pane->hasContent())
        return;
    open(id);
}

void PlaygroundSessions::remove(const QString& id)
{
    if (!m_store)
        return;
    m_disk.waitForDone();
    const Result<bool> removed = m_store->remove(id);
    if (!removed) {
        m_pane->messageBar()->showMessage(removed.error().message);
        return;
    }
    QSettings settings;
    if (settings.value(QLatin1String(kLastSessionKey)).toString() == id)
        settings.remove(QLatin1String(kLastSessionKey));
    if (id != m_id)
        return;
    // The deleted session is not saved again by a pending autosave.
    m_dirty = false;
    m_autosave->stop();
    const PlaygroundSessionList left = m_store->list();
    if (!left.sessions.isEmpty())
        open(left.sessions.front().id);
    else
        m_pane->newSession();
}

void PlaygroundSessions::rename(const QString& name)
{
    const QString trimmed = name.trimmed();
    if (trimmed == m_name || trimmed.isEmpty()) {
        m_nameEdit->setText(m_name);
        return;
    }
    m_name = trimmed;
    m_nameEdit->setText(trimmed);
    m_dirty = true;
    saveNow();
}

void PlaygroundSessions::confirmRemove()
{
    const QString name = m_name.isEmpty() ? tr("this session") : m_name;
    const auto answer = QMessageBox::question(
        this, tr("Delete Session"),
        tr("Delete the playground session “%1”? Its variants, inputs and results are removed "
           "from disk.")
            .arg(name),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes)
        return;
    // A session never saved has no file: it only leaves the pane.
    m_disk.waitForDone();
    if (m_store && QFileInfo::exists(m_store->pathOf(m_id)))
        remove(m_id);
    else
        m_pane->newSession();
}

void PlaygroundSessions::fillMenu()
{
    m_menu->clear();
    saveNow();
    const PlaygroundSessionList list = savedSessions();
    if (list.sessions.isEmpty()) {
        m_menu->addAction(tr("No saved sessions yet"))->setEnabled(false);
    }
    for (qsizetype i = 0; i < list.sessions.size() && i < kMenuSessions; ++i) {
        const PlaygroundSessionHeader& h = list.sessions.at(i);
        const QString name = h.name.isEmpty() ? h.id.left(8) : h.name;
        QAction* action = m_menu->addAction(tr("%1 (%2)").arg(name, shortTime(h.updated)), this,
                                            [this, id = h.id] { open(id); });
        action->setCheckable(true);
        action->setChecked(h.id == m_id);
        action->setToolTip(tr("%n variant(s), %1", nullptr, h.variants)
                               .arg(tr("%n input row(s)", nullptr, h.inputRows)));
    }
    if (!list.skipped.isEmpty()) {
        QStringList reasons;
        for (const SkippedSessionFile& s : list.skipped)
            reasons << tr("%1: %2").arg(QFileInfo(s.path).fileName(), s.reason);
        QAction* skipped = m_menu->addAction(
            tr("%n session file(s) could not be read", nullptr, int(list.skipped.size())));
        skipped->setEnabled(false);
        skipped->setToolTip(reasons.join(QLatin1Char('\n')));
    }
    m_menu->addSeparator();
    m_menu->addAction(tr("New Session"), m_pane, &PlaygroundPane::newSession);
    QAction* del =
        m_menu->addAction(tr("Delete Session…"), this, &PlaygroundSessions::confirmRemove);
    del->setEnabled(m_pane->hasContent());
}

} // namespace hako
