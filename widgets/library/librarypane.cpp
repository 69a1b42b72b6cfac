#include "widgets/library/librarypane.h"

#include "widgets/common/diffhtml.h"

#include "core/library/librarysync.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/common/messagebar.h"
#include "widgets/library/promptexperiments.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace hako {

namespace {

struct Listing {
    QList<library::LibraryPrompt> prompts;
    QList<QMap<QString, QString>> labels;
    QList<int> versions;
    QString error;
};

struct History {
    QList<library::PromptVersion> versions;
    QMap<QString, QString> labels;
    QList<library::LabelEvent> moves;
    QString error;
};

} // namespace

template <typename T>
void LibraryPane::background(std::function<T()> work, std::function<void(const T&)> done,
                             bool newestWins)
{
    // Work that is not "newest wins" (a save) always reports back.
    const std::optional<LatestJob::Ticket> ticket =
        newestWins ? std::optional(m_latest.start()) : std::nullopt;
    auto* watcher = new QFutureWatcher<T>(this);
    connect(watcher, &QFutureWatcher<T>::finished, this, [this, watcher, ticket, done] {
        watcher->deleteLater();
        if (!ticket || m_latest.isCurrent(*ticket))
            done(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(std::move(work)));
}

LibraryPane::LibraryPane(QWidget* parent) : QWidget(parent)
{
    setAccessibleName(tr("Prompt Library"));
    m_bar = new MessageBar(this);
    m_location = new QLabel(tr("No library is open."), this);
    m_location->setAccessibleName(tr("Library folder"));
    m_location->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_open = new QPushButton(tr("Open Library…"), this);
    m_open->setAccessibleName(tr("Open Library"));
    connect(m_open, &QPushButton::clicked, this, &LibraryPane::chooseLibrary);
    m_sync = new QPushButton(tr("Sync with Team"), this);
    m_sync->setAccessibleName(tr("Sync with the team's library"));
    m_sync->setToolTip(tr("Bring the versions your team saved and send yours, through the "
                          "team's shared library (a git server)"));
    m_sync->setEnabled(false);
    connect(m_sync, &QPushButton::clicked, this, &LibraryPane::syncWithTeam);

    m_promptList = new QTreeWidget(this);
    m_promptList->setAccessibleName(tr("Prompts"));
    m_promptList->setHeaderLabels({tr("Prompt"), tr("Versions"), tr("Labels"), tr("File")});
    m_promptList->setRootIsDecorated(false);
    connect(m_promptList, &QTreeWidget::currentItemChanged, this, &LibraryPane::showHistory);
    connect(m_promptList, &QTreeWidget::itemActivated, this, [this] {
        if (std::optional<library::LibraryPrompt> p = selectedPrompt())
            Q_EMIT openRequested(QDir(m_folder).filePath(p->path));
    });

    m_history = new QTreeWidget(this);
    m_history->setAccessibleName(tr("Versions"));
    m_history->setHeaderLabels({tr("Version"), tr("Saved"), tr("By"), tr("Message"), tr("Labels")});
    m_history->setRootIsDecorated(false);
    m_history->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_detail = new QTextBrowser(this);
    m_detail->setAccessibleName(tr("Version details"));

    m_label = new QPushButton(tr("Set Label…"), this);
    m_label->setAccessibleName(tr("Set Label"));
    m_label->setToolTip(tr("Mark the selected version as production, staging or any name"));
    connect(m_label, &QPushButton::clicked, this, &LibraryPane::setLabel);
    m_compare = new QPushButton(tr("Compare"), this);
    m_compare->setAccessibleName(tr("Compare versions"));
    m_compare->setToolTip(tr("Compare the selected version with the newest, or two selected "
                             "versions with each other"));
    connect(m_compare, &QPushButton::clicked, this, &LibraryPane::compareVersions);
    m_restore = new QPushButton(tr("Restore"), this);
    m_restore->setAccessibleName(tr("Restore version"));
    m_restore->setToolTip(tr("Put the selected version's text into the program (you can undo "
                             "it, and save it as a new version)"));
    connect(m_restore, &QPushButton::clicked, this, &LibraryPane::restoreVersion);
    m_runOnDataset = new QPushButton(tr("Run on Dataset"), this);
    m_runOnDataset->setAccessibleName(tr("Run versions on the dataset"));
    m_runOnDataset->setToolTip(tr("Run the selected version and the newest (or two selected "
                                  "versions) over the Datasets pane's dataset with the checks of "
                                  "the Evaluations pane, and compare their results"));
    connect(m_runOnDataset, &QPushButton::clicked, this, &LibraryPane::runVersions);
    m_experiments = new PromptExperiments(this);

    m_message = new QLineEdit(this);
    m_message->setAccessibleName(tr("Version message"));
    m_message->setPlaceholderText(tr("What changed in this version?"));
    m_save = new QPushButton(tr("Save Version"), this);
    m_save->setAccessibleName(tr("Save Version"));
    m_save->setToolTip(tr("Save the current program and record it as a new version"));
    connect(m_save, &QPushButton::clicked, this,
            [this] { Q_EMIT saveVersionRequested(m_message->text()); });
    connect(m_message, &QLineEdit::returnPressed, m_save, &QPushButton::click);

    auto* top = new QHBoxLayout;
    top->addWidget(m_location, 1);
    top->addWidget(m_sync);
    top->addWidget(m_open);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_label);
    buttons->addWidget(m_compare);
    buttons->addWidget(m_restore);
    buttons->addWidget(m_runOnDataset);
    buttons->addStretch(1);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* versionSplit = new QSplitter(Qt::Vertical, right);
    versionSplit->addWidget(m_history);
    versionSplit->addWidget(m_detail);
    versionSplit->addWidget(m_experiments);
    // Three lists in one column: each may shrink to a few lines, so the window still fits a
    // small screen with every dock open.
    for (QWidget* w : {static_cast<QWidget*>(m_history), static_cast<QWidget*>(m_detail),
                       static_cast<QWidget*>(m_experiments)})
        w->setMinimumHeight(fontMetrics().height() * 3);
    rightLayout->addWidget(versionSplit, 1);
    rightLayout->addLayout(buttons);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_promptList);
    split->addWidget(right);
    split->setStretchFactor(1, 2);
    auto* save = new QHBoxLayout;
    save->addWidget(m_message, 1);
    save->addWidget(m_save);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_bar);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    layout->addLayout(save);
    for (QPushButton* b : {m_label, m_compare, m_restore, m_runOnDataset, m_save})
        b->setEnabled(false);

    // HAKO_LIBRARY, else the library opened last; nothing is said when there is none. (Not the
    // folder Hako started in: a checkout of code is a git repository too.)
    const QString folder = library::PromptLibrary::defaultFolder(false);
    if (!folder.isEmpty() && QFileInfo(folder).isDir() && library::PromptLibrary::open(folder).ok())
        openLibrary(folder);
    // The parts Qt adds inside these controls get names for screen readers too.
    AccessibleParts::name(this);
}

void LibraryPane::chooseLibrary()
{
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Open Prompt Library"), m_folder.isEmpty() ? QDir::homePath() : m_folder);
    if (folder.isEmpty())
        return;
    Result<library::PromptLibrary> lib = library::PromptLibrary::open(folder);
    if (!lib) {
        const auto answer = QMessageBox::question(
            this, tr("Prompt Library"),
            tr("%1 is not a prompt library yet. Make it one? Its programs can then be saved as "
               "versions.")
                .arg(QDir::toNativeSeparators(folder)));
        if (answer != QMessageBox::Yes)
            return;
        lib = library::PromptLibrary::create(folder);
        if (!lib) {
            m_bar->showMessage(lib.error().message);
            return;
        }
    }
    openLibrary(lib->root());
}

void LibraryPane::openLibrary(const QString& folder)
{
    Result<library::PromptLibrary> lib = library::PromptLibrary::open(folder);
    if (!lib) {
        m_bar->showMessage(tr("The prompt library %1 cannot be opened: %2")
                               .arg(QDir::toNativeSeparators(folder), lib.error().message));
        return;
    }
    m_library = *lib;
    m_folder = lib->root();
    QSettings().setValue(QStringLiteral("library/last"), m_folder);
    m_location->setText(QDir::toNativeSeparators(m_folder));
    m_save->setEnabled(true);
    m_sync->setEnabled(true);
    m_bar->clearMessage();
    refresh();
}

void LibraryPane::refresh()
{
    if (!m_library)
        return;
    const library::PromptLibrary lib = *m_library;
    background<Listing>(
        [lib] {
            Listing l;
            Result<QList<library::LibraryPrompt>> prompts = lib.prompts();
            if (!prompts) {
                l.error = prompts.error().message;
                return l;
            }
            l.prompts = *prompts;
            for (const library::LibraryPrompt& p : l.prompts) {
                l.labels << lib.labels(p);
                Result<QList<library::PromptVersion>> h = lib.history(p);
                l.versions << (h ? int(h->size()) : 0);
            }
            return l;
        },
        [this](const Listing& l) {
            if (!l.error.isEmpty())
                m_bar->showMessage(l.error);
            showPrompts(l.prompts, l.labels, l.versions);
        });
}

void LibraryPane::showPrompts(const QList<library::LibraryPrompt>& prompts,
                              const QList<QMap<QString, QString>>& labels,
                              const QList<int>& versionCounts)
{
    const QString selected = selectedPrompt() ? selectedPrompt()->key() : QString();
    m_prompts = prompts;
    m_promptList->clear();
    for (qsizetype i = 0; i < prompts.size(); ++i) {
        auto* item = new QTreeWidgetItem(
            m_promptList, {prompts[i].name, QString::number(versionCounts.value(i)),
                           labels.value(i).keys().join(QStringLiteral(", ")), prompts[i].path});
        item->setData(0, Qt::UserRole, int(i));
        if (prompts[i].key() == selected)
            m_promptList->setCurrentItem(item);
    }
    if (prompts.isEmpty())
        m_detail->setPlainText(tr("No prompt has been saved here yet. Open or save a program in "
                                  "this folder, then use Save Version."));
    if (!m_promptList->currentItem() && m_promptList->topLevelItemCount() > 0)
        m_promptList->setCurrentItem(m_promptList->topLevelItem(0));
    m_promptList->resizeColumnToContents(0);
}

std::optional<library::LibraryPrompt> LibraryPane::selectedPrompt() const
{
    const QTreeWidgetItem* item = m_promptList->currentItem();
    if (!item)
        return std::nullopt;
    const int index = item->data(0, Qt::UserRole).toInt();
    if (index < 0 || index >= m_prompts.size())
        return std::nullopt;
    return m_prompts[index];
}

QString LibraryPane::selectedCommit() const
{
    const QTreeWidgetItem* item = m_history->currentItem();
    return item ? item->data(0, Qt::UserRole).toString() : QString();
}

void LibraryPane::showHistory()
{
    m_history->clear();
    m_versions.clear();
    for (QPushButton* b : {m_label, m_compare, m_restore, m_runOnDataset})
        b->setEnabled(false);
    const std::optional<library::LibraryPrompt> prompt = selectedPrompt();
    m_experiments->showPrompt(prompt ? prompt->key() : QString());
    if (!prompt || !m_library)
        return;
    const library::PromptLibrary lib = *m_library;
    const library::LibraryPrompt p = *prompt;
    background<History>(
        [lib, p] {
            History h;
            Result<QList<library::PromptVersion>> versions = lib.history(p);
            if (!versions)
                h.error = versions.error().message;
            else
                h.versions = *versions;
            h.labels = lib.labels(p);
            h.moves = lib.labelHistory(p);
            return h;
        },
        [this](const History& h) {
            if (!h.error.isEmpty())
                m_bar->showMessage(h.error);
            m_versions = h.versions;
            auto numberOf = [&h](const QString& commit) {
                for (const library::PromptVersion& v : h.versions)
                    if (v.commit == commit)
                        return v.number;
                return 0;
            };
            for (const library::PromptVersion& v : h.versions) {
                QStringList here;
                for (auto it = h.labels.begin(); it != h.labels.end(); ++it)
                    if (it.value() == v.commit)
                        here << it.key();
                auto* item = new QTreeWidgetItem(
                    m_history, {tr("v%1").arg(v.number),
                                QLocale().toString(QDateTime::fromSecsSinceEpoch(v.time),
                                                   QLocale::ShortFormat),
                                v.author, v.message, here.join(QStringLiteral(", "))});
                item->setData(0, Qt::UserRole, v.commit);
            }
            QStringList moves;
            for (const library::LabelEvent& e : h.moves)
                moves << tr("%1 → v%2 (%3, %4)")
                             .arg(e.label)
                             .arg(numberOf(e.commit))
                             .arg(e.by, QLocale().toString(QDateTime::fromSecsSinceEpoch(e.time),
                                                           QLocale::ShortFormat));
            m_detail->setPlainText(
                moves.isEmpty() ? tr("No labels yet. Select a version and use Set Label "
                                     "to mark it, for example as production.")
                                : tr("Label history:\n%1").arg(moves.join(QLatin1Char('\n'))));
            if (m_history->topLevelItemCount() > 0)
                m_history->setCurrentItem(m_history->topLevelItem(0));
            for (QPushButton* b : {m_label, m_compare, m_restore, m_runOnDataset})
                b->setEnabled(!h.versions.isEmpty());
            for (int c = 0; c < m_history->columnCount(); ++c)
                m_history->resizeColumnToContents(c);
        });
}

void LibraryPane::setLabel()
{
    const std::optional<library::LibraryPrompt> prompt = selectedPrompt();
    const QString commit = selectedCommit();
    if (!prompt || commit.isEmpty() || !m_library)
        return;
    bool ok = false;
    const QString label = QInputDialog::getItem(
        this, tr("Set Label"),
        tr("Label for version %1 of %2:").arg(m_history->currentItem()->text(0), prompt->name),
        {QStringLiteral("production"), QStringLiteral("staging")}, 0, true, &ok);
    if (!ok || label.trimmed().isEmpty())
        return;
    library::PromptLibrary lib = *m_library;
    const library::LibraryPrompt p = *prompt;
    const QString name = label.trimmed();
    background<QStringList>(
        [lib, p, name, commit]() mutable {
            Result<library::PromptVersion> v = lib.setLabel(p, name, commit);
            return v ? QStringList{QString(), QString::number(v->number)}
                     : QStringList{v.error().message, QString()};
        },
        [this, p, name](const QStringList& outcome) {
            if (!outcome[0].isEmpty()) {
                m_bar->showMessage(outcome[0]);
                return;
            }
            Q_EMIT statusMessage(tr("%1: %2 is now version %3").arg(p.name, name, outcome[1]),
                                 5000);
            refresh();
        },
        false);
}

QStringList LibraryPane::chosenVersions() const
{
    const QList<QTreeWidgetItem*> chosen = m_history->selectedItems();
    if (chosen.isEmpty() || m_versions.isEmpty())
        return {};
    // Items are in history order (newest first) whatever order they were clicked in.
    QList<int> rows;
    for (QTreeWidgetItem* item : chosen)
        rows << m_history->indexOfTopLevelItem(item);
    std::sort(rows.begin(), rows.end());
    const QString older = m_history->topLevelItem(rows.last())->data(0, Qt::UserRole).toString();
    const QString newer =
        rows.size() > 1 ? m_history->topLevelItem(rows.first())->data(0, Qt::UserRole).toString()
                        : m_versions.first().commit;
    return {older, newer};
}

void LibraryPane::compareVersions()
{
    const std::optional<library::LibraryPrompt> prompt = selectedPrompt();
    const QStringList versions = chosenVersions();
    if (!prompt || versions.isEmpty() || !m_library)
        return;
    const library::PromptLibrary lib = *m_library;
    const QString key = prompt->key();
    background<QString>(
        [lib, key, versions]() -> QString {
            Result<library::ResolvedPrompt> a = lib.get(key + QLatin1Char('@') + versions[0]);
            Result<library::ResolvedPrompt> b = lib.get(key + QLatin1Char('@') + versions[1]);
            if (!a || !b)
                return QString();
            return tr("<p><b>v%1 → v%2</b></p>").arg(a->version.number).arg(b->version.number) +
                   QStringLiteral("<pre style=\"white-space: pre-wrap\">") +
                   diffHtml(QString::fromUtf8(a->text), QString::fromUtf8(b->text)) +
                   QStringLiteral("</pre>");
        },
        [this](const QString& html) { m_detail->setHtml(html); });
}

void LibraryPane::runVersions()
{
    const std::optional<library::LibraryPrompt> prompt = selectedPrompt();
    QStringList versions = chosenVersions();
    if (!prompt || versions.isEmpty() || !m_library)
        return;
    versions.removeDuplicates(); // the newest alone: one experiment
    const library::PromptLibrary lib = *m_library;
    const QString key = prompt->key();
    // Each version as a file to run: a copy of the library at that version when needed.
    background<QStringList>(
        [lib, key, versions] {
            QStringList files;
            for (const QString& v : versions) {
                Result<library::ResolvedPrompt> r = lib.get(key + QLatin1Char('@') + v);
                Result<QString> file = r ? lib.materialize(*r) : Result<QString>(r.error());
                if (!file)
                    return QStringList{QString(), file.error().message};
                files << *file;
            }
            return files;
        },
        [this](const QStringList& files) {
            if (files.value(0).isEmpty()) {
                m_bar->showMessage(files.value(1));
                return;
            }
            Q_EMIT versionsRunRequested(files);
        },
        false);
}

void LibraryPane::syncWithTeam()
{
    if (!m_library)
        return;
    QString remote = library::LibrarySync(*m_library).remote();
    if (remote.isEmpty()) {
        bool ok = false;
        remote = QInputDialog::getText(this, tr("Sync with Team"),
                                       tr("Address of the team's shared library (a git "
                                          "repository, for example https://git.example.com/team/"
                                          "prompts.git):"),
                                       QLineEdit::Normal, QString(), &ok)
                     .trimmed();
        if (!ok || remote.isEmpty())
            return;
    }
    runSync(remote, int(library::ConflictChoice::Stop));
}

void LibraryPane::runSync(const QString& remote, int choice)
{
    const library::PromptLibrary lib = *m_library;
    m_sync->setEnabled(false);
    Q_EMIT statusMessage(tr("Syncing with the team's library…"), 0);
    background<QVariantList>(
        [lib, remote, choice] {
            const library::LibrarySync sync(lib);
            if (sync.remote() != remote)
                if (Result<bool> set = sync.setRemote(remote); !set)
                    return QVariantList{set.error().message};
            Result<library::SyncOutcome> r = sync.sync(library::ConflictChoice(choice));
            if (!r)
                return QVariantList{r.error().message};
            return QVariantList{QString(), r->received, r->sent, r->conflicts, r->stopped()};
        },
        [this, remote](const QVariantList& r) {
            m_sync->setEnabled(true);
            if (!r.value(0).toString().isEmpty()) {
                Q_EMIT statusMessage(QString(), 1);
                m_bar->showMessage(tr("The sync did not happen: %1").arg(r.value(0).toString()),
                                   MessageBar::Kind::Warning);
                return;
            }
            if (r.value(4).toBool()) {
                Q_EMIT statusMessage(QString(), 1);
                QMessageBox ask(QMessageBox::Question, tr("Sync with Team"),
                                tr("These prompts were changed both here and in the team's "
                                   "library since the last sync:\n%1\n\nNothing has been "
                                   "changed yet. Which text should the library keep? The other "
                                   "stays in each prompt's history.")
                                    .arg(r.value(3).toStringList().join(QLatin1Char('\n'))),
                                QMessageBox::Cancel, this);
                QPushButton* mine = ask.addButton(tr("Keep Mine"), QMessageBox::AcceptRole);
                QPushButton* theirs = ask.addButton(tr("Take Theirs"), QMessageBox::AcceptRole);
                ask.exec();
                if (ask.clickedButton() == mine || ask.clickedButton() == theirs)
                    runSync(remote,
                            int(ask.clickedButton() == mine ? library::ConflictChoice::KeepMine
                                                            : library::ConflictChoice::TakeTheirs));
                return;
            }
            m_bar->clearMessage();
            Q_EMIT statusMessage(tr("Synced with the team: received %1 version(s), sent %2.")
                                     .arg(r.value(1).toInt())
                                     .arg(r.value(2).toInt()),
                                 6000);
            refresh();
        },
        false);
}

void LibraryPane::restoreVersion()
{
    const std::optional<library::LibraryPrompt> prompt = selectedPrompt();
    const QString commit = selectedCommit();
    if (!prompt || commit.isEmpty() || !m_library)
        return;
    Result<library::ResolvedPrompt> r = m_library->get(prompt->key() + QLatin1Char('@') + commit);
    if (!r) {
        m_bar->showMessage(r.error().message);
        return;
    }
    Q_EMIT restoreRequested(QDir(m_folder).filePath(prompt->path), r->text);
}

void LibraryPane::saveVersion(const QString& file, const QString& message)
{
    if (!m_library) {
        m_bar->showMessage(tr("Open a prompt library first (Open Library…)."));
        return;
    }
    const QString text = message.isEmpty() ? m_message->text() : message;
    library::PromptLibrary lib = *m_library;
    m_save->setEnabled(false);
    background<QStringList>(
        [lib, file, text]() mutable {
            Result<QString> commit = lib.saveVersion(file, text);
            return commit ? QStringList{QString(), *commit}
                          : QStringList{commit.error().message, QString()};
        },
        [this, file](const QStringList& outcome) {
            m_save->setEnabled(true);
            if (!outcome[0].isEmpty()) {
                m_bar->showMessage(outcome[0], MessageBar::Kind::Warning);
                return;
            }
            m_message->clear();
            m_bar->clearMessage();
            Q_EMIT statusMessage(tr("Saved %1 as a new version.").arg(QFileInfo(file).fileName()),
                                 5000);
            refresh();
        },
        false);
}

void LibraryPane::focusMessage()
{
    m_message->setFocus();
}

} // namespace hako
