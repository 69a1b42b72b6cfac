#include "widgets/workbench/filecontroller.h"

#include "core/workbench/examplecatalog.h"
#include "core/workbench/filekind.h"
#include "core/workbench/recentfiles.h"
#include "core/workbench/recoverystore.h"
#include "core/workbench/templatecatalog.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/templates/templatedialog.h"
#include "widgets/workbench/programtabs.h"

#include <QAction>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>

namespace hako {

namespace {

const char* const kLastDirKey = "window/lastDirectory";

QString droppedFile(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls() || mime->urls().isEmpty())
        return {};
    const QUrl url = mime->urls().first();
    return url.isLocalFile() ? url.toLocalFile() : QString();
}

} // namespace

FileController::FileController(ProgramTabs* tabs, QSettings* settings, QWidget* window)
    : QObject(window), m_tabs(tabs), m_settings(settings), m_window(window),
      m_recent(std::make_unique<RecentFiles>(settings)),
      m_recovery(std::make_unique<RecoveryStore>())
{
    for (EditorPane* e : m_tabs->editors())
        e->setRecoveryStore(m_recovery.get());
    connect(m_tabs, &ProgramTabs::programAdded, this,
            [this](EditorPane* e) { e->setRecoveryStore(m_recovery.get()); });
    // A closed program keeps no recovery copy: closing it was the user's decision.
    connect(m_tabs, &ProgramTabs::programRemoved, this, [](EditorPane* e) {
        e->discardRecovery();
        e->setRecoveryStore(nullptr);
    });
    window->setAcceptDrops(true);
    window->installEventFilter(this);
}

FileController::~FileController() = default;

EditorPane* FileController::editor() const
{
    return m_tabs->currentEditor();
}

void FileController::detachRecovery()
{
    for (EditorPane* e : m_tabs->editors()) {
        e->discardRecovery();
        e->setRecoveryStore(nullptr);
    }
}

EditorPane* FileController::blankProgram()
{
    EditorPane* current = editor();
    return ProgramTabs::isBlank(current) ? current : m_tabs->addProgram();
}

void FileController::dropIfUnused(EditorPane* made, EditorPane* previous)
{
    if (made != previous && ProgramTabs::isBlank(made)) {
        m_tabs->removeProgram(made);
        m_tabs->setCurrentEditor(previous);
    }
}

bool FileController::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::DragEnter) {
        auto* drag = static_cast<QDragEnterEvent*>(event);
        if (droppedFile(drag->mimeData()).isEmpty())
            return false;
        drag->acceptProposedAction();
        return true;
    }
    if (watched == m_window && event->type() == QEvent::Drop) {
        auto* drop = static_cast<QDropEvent*>(event);
        const QString path = droppedFile(drop->mimeData());
        if (path.isEmpty())
            return false;
        drop->acceptProposedAction();
        openPath(path);
        return true;
    }
    return QObject::eventFilter(watched, event);
}

QString FileController::lastDirectory() const
{
    return m_settings->value(QLatin1String(kLastDirKey)).toString();
}

FileController::OpenPrograms FileController::openPrograms() const
{
    OpenPrograms open;
    for (EditorPane* e : m_tabs->editors()) {
        if (e == editor())
            open.current = int(open.programs.size());
        OpenPrograms::Program p{e->filePath(), e->editor()->text(), e->isModified(),
                                e->isPromptMode()};
        e->editor()->getCursorPosition(&p.line, &p.index);
        p.side = m_tabs->sideOf(e);
        open.programs.append(p);
    }
    return open;
}

void FileController::reopen(const OpenPrograms& open)
{
    QList<EditorPane*> made;
    for (const OpenPrograms::Program& p : open.programs) {
        if (p.path.isEmpty() || !openFile(p.path))
            newFile();
        EditorPane* e = editor();
        if (p.modified || p.path.isEmpty())
            e->editor()->setText(p.text); // the unsaved text, marked as changed
        e->editor()->setCursorPosition(p.line, p.index);
        e->setPromptMode(p.prompt);
        made.append(e);
    }
    for (int i = 0; i < made.size(); ++i) {
        if (open.programs.at(i).side == 1) {
            m_tabs->setCurrentEditor(made.at(i));
            m_tabs->moveToOtherSide();
        }
    }
    if (open.current < made.size())
        m_tabs->setCurrentEditor(made.at(open.current));
}

QStringList FileController::recentFiles() const
{
    return m_recent->files();
}

bool FileController::maybeSaveAll()
{
    for (EditorPane* e : m_tabs->editors())
        if (!maybeSave(e))
            return false;
    return true;
}

bool FileController::closeProgram(EditorPane* which)
{
    EditorPane* e = which ? which : editor();
    if (!maybeSave(e))
        return false;
    m_tabs->removeProgram(e);
    return true;
}

bool FileController::maybeSave(EditorPane* which)
{
    EditorPane* e = which ? which : editor();
    if (!e->isModified())
        return true;
    m_tabs->setCurrentEditor(e); // the question is about the program in view
    SaveChoice choice = SaveChoice::Cancel;
    if (m_saveQuestion) {
        choice = m_saveQuestion(e->displayName());
    } else {
        const auto answer = QMessageBox::warning(
            m_window, tr("Unsaved Changes"),
            tr("Save the changes to “%1” before closing it?").arg(e->displayName()),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        choice = answer == QMessageBox::Save      ? SaveChoice::Save
                 : answer == QMessageBox::Discard ? SaveChoice::Discard
                                                  : SaveChoice::Cancel;
    }
    switch (choice) {
    case SaveChoice::Save:
        return saveProgram(e);
    case SaveChoice::Discard:
        e->discardRecovery();
        return true;
    case SaveChoice::Cancel:
        break;
    }
    return false;
}

bool FileController::newFile()
{
    EditorPane* e = blankProgram();
    e->setPromptMode(false);
    e->setFocus();
    return true;
}

QString FileController::templateLanguage() const
{
    return TemplateCatalog::interfaceLanguage(
        m_settings->value(QStringLiteral("ui/language")).toString());
}

void FileController::newFromTemplateDialog()
{
    auto* dialog = new TemplateDialog(TemplateCatalog(), templateLanguage(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(
        dialog, &QDialog::accepted, this, [this, dialog] { newFromTemplate(dialog->selectedId()); },
        Qt::SingleShotConnection);
    dialog->open();
}

bool FileController::newFromTemplate(const QString& id)
{
    TemplateCatalog catalog;
    const QString language = templateLanguage();
    const Result<QString> text = catalog.programText(id, language);
    if (!text) {
        editor()->messageBar()->showMessage(text.error().message);
        return false;
    }
    EditorPane* target = blankProgram();
    // One undoable edit over the empty program: the buffer is modified, so closing it asks
    // whether to save, and autosave keeps a recovery copy.
    PdlEditor* editor = target->editor();
    editor->beginUndoAction();
    editor->selectAll(true);
    editor->replaceSelectedText(*text);
    editor->endUndoAction();
    editor->setCursorPosition(0, 0);
    // A template is there to be filled in, not read as YAML: its inputs and prompts show as
    // the Prompt view's fields.
    target->setPromptMode(true);
    target->setFocus();
    QString title = id;
    bool needsMemory = false;
    if (const auto list = catalog.templates(language)) {
        for (const TemplateInfo& t : *list) {
            if (t.id == id) {
                title = t.title;
                needsMemory = t.needsMemory;
            }
        }
    }
    QString message = tr("New program from the template “%1”: change the inputs at the top to "
                         "your own text, then press Run. Save to keep it.")
                          .arg(title);
    if (needsMemory)
        message += QLatin1Char(' ') + tr("It needs a memory store (Memory pane).");
    target->messageBar()->showMessage(message, MessageBar::Kind::Information);
    return true;
}

bool FileController::openFile(const QString& path, QString* error)
{
    return loadProgram(path, error);
}

bool FileController::openPath(const QString& path, QString* error)
{
    switch (detectFileKind(path)) {
    case FileKind::Program:
        return openFile(path, error);
    case FileKind::Trace:
        m_traceWantingProgram = path;
        Q_EMIT traceOpenRequested(path);
        break;
    case FileKind::Document:
        Q_EMIT documentOpenRequested(path);
        break;
    case FileKind::MemoryStore:
        Q_EMIT memoryStoreOpenRequested(path);
        break;
    case FileKind::Notebook:
        Q_EMIT notebookOpenRequested(path);
        break;
    }
    m_recent->add(path);
    return true;
}

QString FileController::askOpenPath(const QString& caption, const QString& filter) const
{
    if (m_openPathQuestion)
        return m_openPathQuestion(lastDirectory());
    return QFileDialog::getOpenFileName(m_window, caption, lastDirectory(), filter);
}

void FileController::openWithDialog()
{
    const QString path =
        askOpenPath(tr("Open"), tr("Programs, traces, documents, memory stores and notebooks "
                                   "(*.pdl *.yaml *.yml *.json *.txt *.md *.pdf *.hakomem "
                                   "*.ipynb);;PDL programs (*.pdl *.yaml *.yml);;Traces "
                                   "(*.json);;Notebooks (*.ipynb);;All files (*)"));
    if (!path.isEmpty())
        openPath(path);
}

void FileController::openProgramOfTrace(const QString& tracePath, const QString& program,
                                        bool namesProgram)
{
    if (tracePath != m_traceWantingProgram)
        return; // opened as a trace only (Open Trace…), or reloaded
    m_traceWantingProgram.clear();
    if (program.isEmpty()) {
        if (!namesProgram)
            return;
        Q_EMIT statusMessage(tr("The program of trace %1 was not found; the editor shows "
                                "another program")
                                 .arg(QFileInfo(tracePath).fileName()),
                             8000);
        return;
    }
    loadProgram(program, nullptr, true);
}

bool FileController::loadProgram(const QString& path, QString* error, bool isTracesProgram)
{
    // An open program comes forward as it is (its unsaved changes stay).
    if (EditorPane* open = m_tabs->editorOf(path)) {
        m_tabs->setCurrentEditor(open);
        open->setFocus();
        // Unchanged, it is read again (the file may have changed on disk).
        if (!open->isModified() && !open->openFile(path, error))
            return false;
        m_recent->add(path);
        if (isTracesProgram) // the trace stays on show (its run's trace is not cleared)
            Q_EMIT programOpened(path, true);
        return true;
    }
    EditorPane* previous = editor();
    EditorPane* target = blankProgram();
    if (!target->openFile(path, error)) {
        // The error is said where the user was.
        const QString message = target->messageBar()->text();
        dropIfUnused(target, previous);
        if (target != previous && !message.isEmpty())
            previous->messageBar()->showMessage(message);
        m_recent->remove(path);
        return false;
    }
    m_recent->add(path);
    m_settings->setValue(QLatin1String(kLastDirKey), QFileInfo(path).absolutePath());
    Q_EMIT programOpened(path, isTracesProgram);
    Q_EMIT statusMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool FileController::save()
{
    return saveProgram(editor());
}

bool FileController::saveAs()
{
    return saveProgramAs(editor());
}

bool FileController::saveProgram(EditorPane* e)
{
    if (e->filePath().isEmpty())
        return saveProgramAs(e);
    m_tabs->setCurrentEditor(e);
    return saveTo(e->filePath());
}

bool FileController::saveProgramAs(EditorPane* e)
{
    m_tabs->setCurrentEditor(e);
    QString suggested = e->filePath();
    if (suggested.isEmpty())
        suggested = QDir(m_settings->value(QLatin1String(kLastDirKey), QDir::homePath()).toString())
                        .filePath(e->displayName());
    const QString path =
        m_savePathQuestion
            ? m_savePathQuestion(suggested)
            : QFileDialog::getSaveFileName(m_window, tr("Save Program As"), suggested,
                                           tr("PDL programs (*.pdl *.yaml *.yml);;All files (*)"));
    return !path.isEmpty() && saveTo(path);
}

bool FileController::saveTo(const QString& path)
{
    if (!editor()->saveAs(path))
        return false;
    m_recent->add(path);
    m_settings->setValue(QLatin1String(kLastDirKey), QFileInfo(path).absolutePath());
    Q_EMIT statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool FileController::openExample(const QString& fileName)
{
    const QString target = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                           QStringLiteral("/examples");
    ExampleCatalog catalog;
    Result<QString> path = catalog.materialize(fileName, target);
    if (!path.ok()) {
        editor()->messageBar()->showMessage(path.error().message);
        return false;
    }
    if (!loadProgram(*path, nullptr))
        return false;
    for (const ExampleInfo& e : catalog.examples()) {
        if (e.fileName == fileName && e.needsModel)
            editor()->messageBar()->showMessage(
                tr("This example needs a model. %1").arg(e.description),
                MessageBar::Kind::Information);
    }
    return true;
}

void FileController::populateFileMenu(QMenu* file)
{
    file->addAction(QIcon::fromTheme(QStringLiteral("document-new")), tr("&New"), QKeySequence::New,
                    this, &FileController::newFile);
    file->addAction(tr("New from &Template…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), this,
                    &FileController::newFromTemplateDialog);
    file->addAction(tr("Open &Document…"), this, [this] {
        const QString path = askOpenPath(tr("Open Document"), tr("All files (*)"));
        if (!path.isEmpty())
            Q_EMIT documentOpenRequested(path);
    });
    file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"),
                    QKeySequence::Open, this, &FileController::openWithDialog);
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { populateRecentMenu(recent); });
    file->addAction(
        tr("Open &Trace…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] {
            const QString path =
                askOpenPath(tr("Open Trace"), tr("Traces (*.json *.jsonl *.pb);;All files (*)"));
            if (path.isEmpty())
                return;
            // Its program comes too: a program left in the editor from before
            // would be taken for the trace's.
            m_traceWantingProgram = path;
            Q_EMIT traceOpenRequested(path);
        });
    QMenu* recover = file->addMenu(tr("Recover &Unsaved"));
    connect(recover, &QMenu::aboutToShow, this, [this, recover] { populateRecoveryMenu(recover); });
    file->addSeparator();
    file->addAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save"),
                    QKeySequence::Save, this, &FileController::save);
    file->addAction(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("Save &As…"),
                    QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this, &FileController::saveAs);
    file->addAction(m_tabs->closeAction());
}

void FileController::populateRecentMenu(QMenu* menu)
{
    menu->clear();
    const QStringList files = m_recent->files();
    int index = 0;
    for (const QString& path : files) {
        ++index;
        QString label = QDir::toNativeSeparators(path);
        label.replace(QLatin1Char('&'), QLatin1String("&&"));
        if (index < 10)
            label = QStringLiteral("&%1  %2").arg(index).arg(label);
        menu->addAction(label, this, [this, path] { openPath(path); });
    }
    if (files.isEmpty())
        menu->addAction(tr("No recent files"))->setEnabled(false);
    menu->addSeparator();
    QAction* clear = menu->addAction(tr("&Clear List"), this, [this, menu] {
        m_recent->clear();
        populateRecentMenu(menu);
    });
    clear->setEnabled(!files.isEmpty());
}

void FileController::populateExamplesMenu(QMenu* menu)
{
    menu->clear();
    const QList<ExampleInfo> examples = ExampleCatalog().examples();
    bool modelSection = false;
    menu->addSection(tr("Run without a model"));
    for (const ExampleInfo& e : examples) {
        if (e.needsModel && !modelSection) {
            menu->addSection(tr("Need a model"));
            modelSection = true;
        }
        QAction* a = menu->addAction(e.title, this, [this, f = e.fileName] { openExample(f); });
        a->setToolTip(e.description);
        a->setStatusTip(e.description);
    }
    if (examples.isEmpty())
        menu->addAction(tr("No examples installed"))->setEnabled(false);
}

void FileController::populateRecoveryMenu(QMenu* menu)
{
    menu->clear();
    const QList<RecoveryEntry> entries = m_recovery->list();
    for (const RecoveryEntry& e : entries) {
        const QString name = e.originalPath.isEmpty() ? tr("Untitled program")
                                                      : QFileInfo(e.originalPath).fileName();
        menu->addAction(
            tr("%1 (%2)").arg(name, QLocale().toString(e.savedAt, QLocale::ShortFormat)), this,
            [this, id = e.bufferId] { restoreEntry(id); });
    }
    if (entries.isEmpty())
        menu->addAction(tr("Nothing to recover"))->setEnabled(false);
}

bool FileController::restoreEntry(const QString& bufferId)
{
    for (const RecoveryEntry& e : m_recovery->list()) {
        if (e.bufferId != bufferId)
            continue;
        EditorPane* previous = editor();
        EditorPane* target = blankProgram();
        QString error;
        if (!target->restoreRecovery(e, &error)) {
            dropIfUnused(target, previous);
            previous->messageBar()->showMessage(error);
            return false;
        }
        target->messageBar()->showMessage(
            tr("Restored unsaved changes from %1. Save to keep them.")
                .arg(QLocale().toString(e.savedAt, QLocale::ShortFormat)),
            MessageBar::Kind::Information);
        return true;
    }
    return false;
}

int FileController::offerRecovery()
{
    QStringList damaged;
    const QList<RecoveryEntry> entries = m_recovery->list(false, &damaged);
    // A copy that cannot be read is said, not silently kept from the user: it stays in the
    // folder for them to look at.
    auto reportDamaged = [this, &damaged] {
        if (!damaged.isEmpty())
            editor()->messageBar()->showMessage(
                tr("%n recovery copies could not be read and were skipped: %1", nullptr,
                   int(damaged.size()))
                    .arg(damaged.join(QStringLiteral("; "))),
                MessageBar::Kind::Warning);
    };
    if (entries.isEmpty()) {
        reportDamaged();
        return 0;
    }
    QStringList names;
    for (const RecoveryEntry& e : entries)
        names << (e.originalPath.isEmpty() ? tr("an untitled program")
                                           : QDir::toNativeSeparators(e.originalPath));
    const bool restore =
        m_recoveryQuestion
            ? m_recoveryQuestion(names)
            : QMessageBox::question(m_window, tr("Restore Unsaved Programs?"),
                                    tr("Hako was closed without saving:\n\n%1\n\nRestore the "
                                       "unsaved changes? Each opens in its own tab. (If not, "
                                       "they stay under File › Recover Unsaved.)")
                                        .arg(names.join(QLatin1Char('\n'))),
                                    QMessageBox::Yes | QMessageBox::No,
                                    QMessageBox::Yes) == QMessageBox::Yes;
    if (!restore)
        return 0;
    // Each copy stands alone: one that fails to restore does not keep the others back.
    int restored = 0;
    for (auto it = entries.rbegin(); it != entries.rend(); ++it)
        restored += restoreEntry(it->bufferId) ? 1 : 0;
    reportDamaged();
    return restored;
}

} // namespace hako
