#include "widgets/workbench/mainwindow.h"

#include "core/models/apikeystore.h"
#include "core/models/modelconfig.h"
#include "core/models/modelrouter.h"
#include "core/pdl/code/codetrust.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/util/pluginmanager.h"
#include "core/util/version.h"
#include "core/workbench/examplecatalog.h"
#include "core/workbench/filekind.h"
#include "core/workbench/recentfiles.h"
#include "core/workbench/recoverystore.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/runenvironment.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/aboutplugins.h"
#include "widgets/common/messagebar.h"
#include "widgets/console/consolepane.h"
#include "widgets/docs/documentpane.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/findbar.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/editor/problemsview.h"
#include "widgets/memory/memoryinspector.h"
#include "widgets/settings/modelfailure.h"
#include "widgets/settings/modelsettingsdialog.h"
#include "widgets/trace/boxview.h"
#include "widgets/trace/nodedetailview.h"
#include "widgets/trace/traceloadbar.h"
#include "widgets/trace/tracetimelineview.h"
#include "widgets/trace/tracetreeview.h"
#include "widgets/trace/variablesview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

namespace hako {

namespace {
const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";
const char* const kLastDirKey = "window/lastDirectory";

QString fileFilter()
{
    return MainWindow::tr("PDL programs (*.pdl *.yaml *.yml);;All files (*)");
}

QString openFilter()
{
    return MainWindow::tr("Programs, traces, documents and memory stores (*.pdl *.yaml *.yml "
                          "*.json *.txt *.md *.pdf *.hakomem);;PDL programs (*.pdl *.yaml "
                          "*.yml);;Traces (*.json);;All files (*)");
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_context(new WorkbenchContext(this)),
      m_editorPane(new EditorPane(m_context, this)), m_settings(std::make_unique<QSettings>()),
      m_recent(std::make_unique<RecentFiles>(m_settings.get()))
{
    setObjectName(QStringLiteral("hakoMainWindow"));
    setCentralWidget(m_editorPane);
    setWindowIcon(QApplication::windowIcon());

    m_positionLabel = new QLabel(this);
    m_eolLabel = new QLabel(this);
    auto* encoding = new QLabel(QStringLiteral("UTF-8"), this);
    auto* language = new QLabel(QStringLiteral("PDL"), this);
    for (QLabel* label : {m_positionLabel, m_eolLabel, encoding, language}) {
        label->setContentsMargins(8, 0, 8, 0);
        statusBar()->addPermanentWidget(label);
    }
    m_positionLabel->setToolTip(tr("Line and column"));
    m_eolLabel->setToolTip(tr("Line endings"));
    encoding->setToolTip(tr("Encoding"));

    // The documents pane docks at the bottom; it publishes its document to the context.
    m_documentPane = new DocumentPane(this);
    m_documentPane->setWorkbenchContext(m_context);
    m_docsDock = new QDockWidget(tr("Documents"), this);
    m_docsDock->setObjectName(QStringLiteral("documentsDock"));
    m_docsDock->setWidget(m_documentPane);
    addDockWidget(Qt::BottomDockWidgetArea, m_docsDock);
    // The memory inspector starts hidden; View › Memory shows it.
    m_memoryDock = new QDockWidget(tr("Memory"), this);
    m_memoryDock->setObjectName(QStringLiteral("memoryDock"));
    m_memoryInspector = new MemoryInspector(m_memoryDock);
    m_memoryInspector->setWorkbenchContext(m_context);
    m_memoryDock->setWidget(m_memoryInspector);
    // Its toolbars would otherwise make the window taller and wider than a 1280×720 screen
    // once the dock is open; below this the pane scrolls its columns and squeezes its tabs.
    m_memoryInspector->setMinimumSize(360, 160);
    addDockWidget(Qt::BottomDockWidgetArea, m_memoryDock);
    m_memoryDock->hide();

    createTraceDocks();
    m_run = new RunController(this);
    m_context->setTraceModel(m_run->traceModel(), this);
    m_console = new ConsolePane(m_run, this);
    m_consoleDock = new QDockWidget(tr("Console"), this);
    m_consoleDock->setObjectName(QStringLiteral("consoleDock"));
    m_consoleDock->setWidget(m_console);
    addDockWidget(Qt::BottomDockWidgetArea, m_consoleDock);
    // Bottom: the console with the other wide panes as tabs, among them the editor's Problems
    // list titled with its counts.
    auto* problemsDock = addPaneDock(m_editorPane->problemsView(), tr("Problems"),
                                     QStringLiteral("problemsDock"), Qt::BottomDockWidgetArea);
    connect(m_editorPane, &EditorPane::diagnosticsChanged, problemsDock,
            [problemsDock](int errors, int warnings) {
                problemsDock->setWindowTitle(
                    errors + warnings == 0
                        ? tr("Problems")
                        : tr("Problems (%1 errors, %2 warnings)").arg(errors).arg(warnings));
            });
    tabifyDockWidget(m_consoleDock, problemsDock);
    connect(m_editorPane, &EditorPane::diagnosticsChanged, this, [this](int errors, int) {
        MessageBar* bar = m_editorPane->messageBar();
        if (errors == 0 && !m_runError.isEmpty() && bar->text() == m_runError &&
            m_editorPane->editor()->text() != m_runText) {
            bar->clearMessage();
            m_runError.clear();
        }
    });
    tabifyDockWidget(m_consoleDock, m_treeDock);
    tabifyDockWidget(m_consoleDock, m_timelineDock);
    tabifyDockWidget(m_consoleDock, m_docsDock);
    // Memory opens as a tab of the wide bottom group, not squeezed beside it.
    tabifyDockWidget(m_consoleDock, m_memoryDock);
    m_memoryDock->hide();
    m_consoleDock->raise();
    m_detailDock->raise();

    m_recovery = std::make_unique<RecoveryStore>();
    m_editorPane->setRecoveryStore(m_recovery.get());

    createActions();
    createRunActions();

    connect(m_editorPane, &EditorPane::modificationChanged, this, &MainWindow::updateTitle);
    connect(m_editorPane, &EditorPane::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_editorPane, &EditorPane::cursorPositionChanged, this, &MainWindow::updateStatus);
    updateTitle();
    updateStatus(1, 1);

    if (!restoreGeometry(m_settings->value(QLatin1String(kGeometryKey)).toByteArray())) {
        // First start: most of the screen, not a fixed size that may not fit it.
        const QRect avail = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 720);
        resize(QSize(avail.width() * 9 / 10, avail.height() * 9 / 10)
                   .boundedTo(QSize(1800, 1150))
                   .expandedTo(minimumSizeHint().boundedTo(avail.size())));
    }
    m_defaultLayoutPending =
        !restoreState(m_settings->value(QLatin1String(kStateKey)).toByteArray());
    m_editorPane->setFocus();
    setAcceptDrops(true);

    // The layout is written shortly after it changes, not only at close: a crash or a kill
    // keeps it.
    m_layoutTimer = new QTimer(this);
    m_layoutTimer->setSingleShot(true);
    m_layoutTimer->setInterval(1500);
    connect(m_layoutTimer, &QTimer::timeout, this, &MainWindow::saveLayout);
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        auto later = [this] {
            if (isVisible())
                m_layoutTimer->start();
        };
        connect(dock, &QDockWidget::visibilityChanged, this, later);
        connect(dock, &QDockWidget::dockLocationChanged, this, later);
        connect(dock, &QDockWidget::topLevelChanged, this, later);
    }
}

void MainWindow::saveLayout()
{
    const QByteArray geometry = saveGeometry();
    const QByteArray state = saveState();
    if (m_settings->value(QLatin1String(kGeometryKey)).toByteArray() == geometry &&
        m_settings->value(QLatin1String(kStateKey)).toByteArray() == state)
        return;
    m_settings->setValue(QLatin1String(kGeometryKey), geometry);
    m_settings->setValue(QLatin1String(kStateKey), state);
    m_settings->sync();
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    if (isVisible() && m_layoutTimer)
        m_layoutTimer->start();
}

void MainWindow::moveEvent(QMoveEvent* event)
{
    QMainWindow::moveEvent(event);
    if (isVisible() && m_layoutTimer)
        m_layoutTimer->start();
}

MainWindow::~MainWindow()
{
    // The editor pane (a child widget) outlives m_recovery: let it forget the store first.
    m_editorPane->discardRecovery();
    m_editorPane->setRecoveryStore(nullptr);
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newAction = file->addAction(QIcon::fromTheme(QStringLiteral("document-new")),
                                         tr("&New"), this, &MainWindow::newFile);
    newAction->setShortcut(QKeySequence::New);
    file->addAction(tr("Open &Document…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Document"));
        if (!path.isEmpty())
            m_documentPane->openDocument(path);
    });
    QAction* open = file->addAction(
        QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"), this, [this] {
            const QString dir = m_settings->value(QLatin1String(kLastDirKey)).toString();
            const QString path =
                m_openPathQuestion
                    ? m_openPathQuestion(dir)
                    : QFileDialog::getOpenFileName(this, tr("Open"), dir, openFilter());
            if (!path.isEmpty())
                openPath(path);
        });
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::updateRecentMenu);
    QAction* openTraceAction = file->addAction(tr("Open &Trace…"), this, [this] {
        const QString dir = m_settings->value(QLatin1String(kLastDirKey)).toString();
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Trace"), dir,
                                                          tr("Traces (*.json);;All files (*)"));
        if (!path.isEmpty())
            openTrace(path);
    });
    openTraceAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QMenu* recover = file->addMenu(tr("Recover &Unsaved"));
    connect(recover, &QMenu::aboutToShow, this, [this, recover] { populateRecoveryMenu(recover); });
    file->addSeparator();
    QAction* saveAction = file->addAction(QIcon::fromTheme(QStringLiteral("document-save")),
                                          tr("&Save"), this, &MainWindow::save);
    saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAsAction = file->addAction(QIcon::fromTheme(QStringLiteral("document-save-as")),
                                            tr("Save &As…"), this, &MainWindow::saveAs);
    saveAsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    file->addSeparator();
    QAction* quit = file->addAction(QIcon::fromTheme(QStringLiteral("application-exit")),
                                    tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    PdlEditor* editor = m_editorPane->editor();
    FindBar* findBar = m_editorPane->findBar();
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Undo"), QKeySequence::Undo, editor, &QsciScintilla::undo);
    edit->addAction(tr("&Redo"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), editor,
                    &QsciScintilla::redo);
    edit->addSeparator();
    edit->addAction(tr("Cu&t"), QKeySequence::Cut, editor, &QsciScintilla::cut);
    edit->addAction(tr("&Copy"), QKeySequence::Copy, editor, &QsciScintilla::copy);
    edit->addAction(tr("&Paste"), QKeySequence::Paste, editor, &QsciScintilla::paste);
    edit->addAction(tr("Select &All"), QKeySequence::SelectAll, editor,
                    [editor] { editor->selectAll(true); });
    edit->addSeparator();
    edit->addAction(tr("&Find…"), QKeySequence(Qt::CTRL | Qt::Key_F), findBar, &FindBar::showFind);
    edit->addAction(tr("Find &Next"), QKeySequence(Qt::Key_F3), findBar, [findBar] {
        if (findBar->findText().isEmpty())
            findBar->showFind();
        else
            findBar->findNext();
    });
    edit->addAction(tr("Find Pre&vious"), QKeySequence(Qt::SHIFT | Qt::Key_F3), findBar, [findBar] {
        if (findBar->findText().isEmpty())
            findBar->showFind();
        else
            findBar->findPrevious();
    });
    edit->addAction(tr("R&eplace…"), QKeySequence(Qt::CTRL | Qt::Key_H), findBar,
                    &FindBar::showReplace);
    edit->addSeparator();
    edit->addAction(tr("Toggle &Comment"), QKeySequence(Qt::CTRL | Qt::Key_Slash), editor,
                    &PdlEditor::toggleComment);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock :
         {m_traceDock, m_treeDock, m_timelineDock, m_detailDock, m_variablesDock})
        m_viewMenu->addAction(dock->toggleViewAction());
    if (auto* problems = findChild<QDockWidget*>(QStringLiteral("problemsDock")))
        m_viewMenu->addAction(problems->toggleViewAction());
    m_viewMenu->addAction(m_consoleDock->toggleViewAction());
    m_viewMenu->addAction(m_docsDock->toggleViewAction());
    m_viewMenu->addAction(m_memoryDock->toggleViewAction());

    QMenu* settings = menuBar()->addMenu(tr("&Settings"));
    // The user's own settings, never a file in the open program's folder.
    QAction* modelSettings = settings->addAction(tr("&Model Endpoints…"), this, [this] {
        auto* dialog = new ModelSettingsDialog(models::ModelConfig::userFile(),
                                               models::ApiKeyStore::system(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    modelSettings->setObjectName(QStringLiteral("modelSettingsAction"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QMenu* examples = help->addMenu(tr("&Examples"));
    examples->setToolTipsVisible(true);
    connect(examples, &QMenu::aboutToShow, this,
            [this, examples] { populateExamplesMenu(examples); });
    populateExamplesMenu(examples);
    help->addAction(tr("About &Plugins"), this, [this] {
        auto* dialog = new AboutPlugins(PluginManager::instance().plugins(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    QAction* about = help->addAction(tr("&About Hako"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
}

QDockWidget* MainWindow::addPaneDock(QWidget* pane, const QString& title, const QString& objectName,
                                     Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(pane);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::createTraceDocks()
{
    m_fileTrace = new pdl::TraceModel(this);
    m_traceLoader = new pdl::TraceLoader(m_fileTrace, this);
    m_traceLoader->setAutoReload(true);

    // Trace: the load strip (progress, cancel, messages) above the boxes.
    auto* tracePane = new QWidget(this);
    auto* traceLayout = new QVBoxLayout(tracePane);
    traceLayout->setContentsMargins(0, 0, 0, 0);
    traceLayout->setSpacing(0);
    traceLayout->addWidget(new TraceLoadBar(m_traceLoader, tracePane));
    m_boxView = new BoxView(m_context, tracePane);
    traceLayout->addWidget(m_boxView, 1);
    m_traceDock =
        addPaneDock(tracePane, tr("Trace"), QStringLiteral("traceDock"), Qt::RightDockWidgetArea);
    m_treeDock = addPaneDock(new TraceTreeView(m_context, this), tr("Trace Tree"),
                             QStringLiteral("traceTreeDock"), Qt::BottomDockWidgetArea);
    m_timelineDock = addPaneDock(new TraceTimelineView(m_context, this), tr("Timeline"),
                                 QStringLiteral("timelineDock"), Qt::BottomDockWidgetArea);
    m_detailDock = addPaneDock(new NodeDetailView(m_context, this), tr("Detail"),
                               QStringLiteral("detailDock"), Qt::RightDockWidgetArea);
    m_variablesDock = addPaneDock(new VariablesView(m_context, this), tr("Variables"),
                                  QStringLiteral("variablesDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(m_detailDock, m_variablesDock);
    resizeDocks({m_traceDock}, {600}, Qt::Horizontal);
    connect(m_traceLoader, &pdl::TraceLoader::loaded, this,
            [this](const QString& path, const QString&) {
                statusBar()->showMessage(tr("Opened trace %1").arg(QDir::toNativeSeparators(path)),
                                         4000);
                if (path == m_traceWantingProgram) {
                    m_traceWantingProgram.clear();
                    openProgramOfTrace(path);
                }
            });
}

void MainWindow::showTraceModel(pdl::TraceModel* model)
{
    m_context->setTraceModel(model, this);
    updateTraceTitle();
}

void MainWindow::updateTraceTitle()
{
    // The Trace dock names what it shows, so that a trace is never taken for another
    // program's run.
    const pdl::TraceModel* model = m_context->traceModel();
    QString title = tr("Trace");
    if (model == m_fileTrace && !m_traceLoader->path().isEmpty())
        title = tr("Trace — %1").arg(QFileInfo(m_traceLoader->path()).fileName());
    else if (model && !model->source().isEmpty())
        title = tr("Trace — run of %1").arg(QFileInfo(model->source()).fileName());
    m_traceDock->setWindowTitle(title);
}

void MainWindow::openTrace(const QString& path)
{
    m_traceLoader->load(path);
    showTraceModel(m_fileTrace);
    m_traceDock->show();
    m_traceDock->raise();
}

bool MainWindow::saveTrace(const QString& path)
{
    const pdl::TracePtr trace = m_run->lastTrace();
    if (!trace) {
        m_editorPane->messageBar()->showMessage(tr("There is no run whose trace could be saved."));
        return false;
    }
    QString error;
    if (!pdl::writeTraceFile(*trace, path, &error)) {
        m_editorPane->messageBar()->showMessage(
            tr("Cannot save the trace to %1: %2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    statusBar()->showMessage(tr("Saved trace %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

void MainWindow::populateRecoveryMenu(QMenu* menu)
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

bool MainWindow::restoreEntry(const QString& bufferId)
{
    for (const RecoveryEntry& e : m_recovery->list()) {
        if (e.bufferId != bufferId)
            continue;
        if (!maybeSave())
            return false;
        QString error;
        if (!m_editorPane->restoreRecovery(e, &error)) {
            m_editorPane->messageBar()->showMessage(error);
            return false;
        }
        m_editorPane->messageBar()->showMessage(
            tr("Restored unsaved changes from %1. Save to keep them.")
                .arg(QLocale().toString(e.savedAt, QLocale::ShortFormat)),
            MessageBar::Kind::Information);
        return true;
    }
    return false;
}

int MainWindow::offerRecovery()
{
    const QList<RecoveryEntry> entries = m_recovery->list();
    if (entries.isEmpty())
        return 0;
    QStringList names;
    for (const RecoveryEntry& e : entries)
        names << (e.originalPath.isEmpty() ? tr("an untitled program")
                                           : QDir::toNativeSeparators(e.originalPath));
    bool restore = false;
    if (m_recoveryQuestion) {
        restore = m_recoveryQuestion(names);
    } else {
        restore = QMessageBox::question(
                      this, tr("Restore Unsaved Programs?"),
                      tr("Hako was closed without saving:\n\n%1\n\nRestore the unsaved "
                         "changes? (Others stay under File › Recover Unsaved.)")
                          .arg(names.join(QLatin1Char('\n'))),
                      QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes;
    }
    if (!restore)
        return 0;
    // The newest first: list() is sorted newest first.
    return restoreEntry(entries.front().bufferId) ? 1 : 0;
}

void MainWindow::createRunActions()
{
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    menuBar()->insertMenu(m_viewMenu->menuAction(), runMenu);
    m_runAction = runMenu->addAction(QIcon::fromTheme(QStringLiteral("media-playback-start")),
                                     tr("&Run Program"), this, [this] { runProgram(); });
    m_runAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_runAction->setToolTip(tr("Run the program in the editor (F5)"));
    m_stopAction = runMenu->addAction(QIcon::fromTheme(QStringLiteral("media-playback-stop")),
                                      tr("&Stop"), this, &MainWindow::stopProgram);
    m_stopAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_stopAction->setEnabled(false);
    runMenu->addSeparator();
    QAction* saveTraceAction = runMenu->addAction(tr("Save &Trace As…"), this, [this] {
        QString suggested = m_editorPane->filePath();
        suggested = suggested.isEmpty() ? QStringLiteral("trace.json")
                                        : QFileInfo(suggested).path() + QLatin1Char('/') +
                                              QFileInfo(suggested).completeBaseName() +
                                              QStringLiteral("_trace.json");
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save Trace"), suggested, tr("Traces (*.json)"));
        if (!path.isEmpty())
            saveTrace(path);
    });
    saveTraceAction->setEnabled(false);
    connect(m_run, &RunController::finished, saveTraceAction,
            [this, saveTraceAction] { saveTraceAction->setEnabled(bool(m_run->lastTrace())); });
    runMenu->addSeparator();
    m_sandboxAction = runMenu->addAction(tr("Run Code Blocks in a &Sandbox"));
    m_sandboxAction->setCheckable(true);
    m_sandboxAction->setToolTip(
        tr("Run python and command blocks under bubblewrap: no network, read-only files"));
    m_sandboxAction->setChecked(m_settings->value(QStringLiteral("run/sandbox"), false).toBool());
    connect(m_sandboxAction, &QAction::toggled, this,
            [this](bool on) { m_settings->setValue(QStringLiteral("run/sandbox"), on); });
    runMenu->addAction(tr("&Forget Trusted Folders"), this, [this] {
        pdl::code::CodeTrustStore store(m_settings.get());
        for (const QString& folder : store.trustedFolders())
            store.revokeFolder(folder);
        statusBar()->showMessage(tr("Programs will ask again before running code"), 4000);
    });

    connect(m_run, &RunController::finished, this, &MainWindow::onRunFinished);
    connect(m_context, &WorkbenchContext::runningChanged, this, [this](bool running) {
        m_runAction->setEnabled(!running);
        m_stopAction->setEnabled(running);
    });
}

void MainWindow::populateExamplesMenu(QMenu* menu)
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

bool MainWindow::openExample(const QString& fileName)
{
    if (!maybeSave())
        return false;
    const QString target = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                           QStringLiteral("/examples");
    ExampleCatalog catalog;
    Result<QString> path = catalog.materialize(fileName, target);
    if (!path.ok()) {
        m_editorPane->messageBar()->showMessage(path.error().message);
        return false;
    }
    if (!loadProgram(*path, nullptr))
        return false;
    const QList<ExampleInfo> all = catalog.examples();
    for (const ExampleInfo& e : all) {
        if (e.fileName == fileName && e.needsModel)
            m_editorPane->messageBar()->showMessage(
                tr("This example needs a model. %1").arg(e.description),
                MessageBar::Kind::Information);
    }
    return true;
}

bool MainWindow::runProgram()
{
    if (m_run->isRunning())
        return false;
    const QString path = m_editorPane->filePath();
    const QByteArray text = m_editorPane->editor()->text().toUtf8();
    const QString folder = path.isEmpty() ? QDir::currentPath() : QFileInfo(path).absolutePath();

    // Code from a folder the user has not trusted runs only after asking.
    pdl::ParseResult parsed = pdl::parseProgramText(text, RunController::programFileName(path));
    if (parsed.program) {
        pdl::code::CodeTrustStore trust(m_settings.get());
        const bool trusted = !path.isEmpty() && trust.isTrusted(path);
        auto loader = [](const QString& file) {
            return pdl::parseProgram(file).program;
        };
        if (!trusted && pdl::code::programRunsCode(*parsed.program, loader)) {
            TrustChoice choice = TrustChoice::Cancel;
            if (m_trustQuestion) {
                choice = m_trustQuestion(path, folder);
            } else {
                QMessageBox box(QMessageBox::Warning, tr("Run Code?"),
                                tr("This program runs Python or commands on your computer."),
                                QMessageBox::NoButton, this);
                box.setInformativeText(
                    tr("Run it only if you trust where it comes from. Trusting the folder %1 "
                       "lets every program in it run code without asking.")
                        .arg(QDir::toNativeSeparators(folder)));
                QPushButton* once = box.addButton(tr("Run Once"), QMessageBox::AcceptRole);
                QPushButton* always =
                    box.addButton(tr("Trust Folder and Run"), QMessageBox::AcceptRole);
                box.addButton(QMessageBox::Cancel);
                box.setDefaultButton(QMessageBox::Cancel);
                box.exec();
                choice = box.clickedButton() == once     ? TrustChoice::RunOnce
                         : box.clickedButton() == always ? TrustChoice::TrustFolder
                                                         : TrustChoice::Cancel;
            }
            if (choice == TrustChoice::Cancel)
                return false;
            if (choice == TrustChoice::TrustFolder && !path.isEmpty())
                trust.trustFolder(folder);
        }
    }

    m_editorPane->messageBar()->clearMessage();
    m_runError.clear();
    m_runText = QString::fromUtf8(text);
    // The document and memory store open in their panes are the program's `doc`, `memory` and
    // `thread` (as `hako run --document/--memory`); the provider is made on the run's worker.
    RunEnvironment environment = m_run->environment();
    environment.baseFolder = folder;
    environment.sandbox = m_sandboxAction->isChecked();
    environment.documentSession = m_context->documentSession();
    environment.memoryStore = m_context->memoryStore();
    m_run->setEnvironment(std::move(environment));
    showTraceModel(m_run->traceModel());
    // Shown before starting: a program that cannot be parsed finishes inside start(), and its
    // "Run failed" must not be replaced by a "Running…" that nothing would clear.
    statusBar()->showMessage(tr("Running…"));
    if (!m_run->start(std::move(parsed), path))
        return false;
    m_context->setRunning(m_run->isRunning());
    updateTraceTitle();
    m_consoleDock->show();
    m_consoleDock->raise();
    return true;
}

void MainWindow::stopProgram()
{
    m_run->stop();
}

void MainWindow::onRunFinished(bool ok, const QString&, const Diagnostic& error)
{
    m_context->setRunning(false);
    updateTraceTitle();
    if (ok) {
        statusBar()->showMessage(tr("Run finished"), 4000);
        return;
    }
    if (m_run->wasStopped()) {
        statusBar()->showMessage(tr("Stopped"), 4000);
        return;
    }
    statusBar()->showMessage(tr("Run failed"), 4000);
    QString where;
    if (error.span.isValid())
        where = tr("Line %1, column %2: ").arg(error.span.line).arg(error.span.column);
    const bool inEditor =
        error.span.file == m_editorPane->filePath() || m_editorPane->filePath().isEmpty();
    if (isModelCallFailure(error, inEditor ? m_editorPane->editor()->text() : QString())) {
        m_runError = modelCallFailureText(error);
        m_editorPane->messageBar()->showMessage(
            m_runError, MessageBar::Kind::Error, tr("Configure models…"), [this] {
                if (auto* a = findChild<QAction*>(QStringLiteral("modelSettingsAction")))
                    a->trigger();
            });
    } else {
        m_runError = where + error.message;
        m_editorPane->messageBar()->showMessage(m_runError, MessageBar::Kind::Error);
    }
    // The failing block is shown in the editor (when it is in this file) and in the trace.
    if (error.span.isValid() &&
        (error.span.file == m_editorPane->filePath() || m_editorPane->filePath().isEmpty()))
        m_context->revealSource(error.span, this);
}

void MainWindow::updateTitle()
{
    setWindowTitle(m_editorPane->displayName() + QStringLiteral("[*] — Hako"));
    setWindowModified(m_editorPane->isModified());
    m_eolLabel->setText(m_editorPane->lineEndingName());
}

void MainWindow::updateStatus(int line, int column)
{
    m_positionLabel->setText(tr("Ln %1, Col %2").arg(line).arg(column));
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_recent->files();
    int index = 0;
    for (const QString& path : files) {
        ++index;
        QString label = QDir::toNativeSeparators(path);
        label.replace(QLatin1Char('&'), QLatin1String("&&"));
        if (index < 10)
            label = QStringLiteral("&%1  %2").arg(index).arg(label);
        m_recentMenu->addAction(label, this, [this, path] { openPath(path); });
    }
    if (files.isEmpty())
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
    m_recentMenu->addSeparator();
    QAction* clear = m_recentMenu->addAction(tr("&Clear List"), this, [this] {
        m_recent->clear();
        updateRecentMenu();
    });
    clear->setEnabled(!files.isEmpty());
}

QStringList MainWindow::recentFiles() const
{
    return m_recent->files();
}

bool MainWindow::maybeSave()
{
    if (!m_editorPane->isModified())
        return true;
    SaveChoice choice = SaveChoice::Cancel;
    if (m_saveQuestion) {
        choice = m_saveQuestion(m_editorPane->displayName());
    } else {
        const auto answer = QMessageBox::warning(
            this, tr("Unsaved Changes"),
            tr("Save the changes to “%1” before closing it?").arg(m_editorPane->displayName()),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        choice = answer == QMessageBox::Save      ? SaveChoice::Save
                 : answer == QMessageBox::Discard ? SaveChoice::Discard
                                                  : SaveChoice::Cancel;
    }
    switch (choice) {
    case SaveChoice::Save:
        return save();
    case SaveChoice::Discard:
        m_editorPane->discardRecovery();
        return true;
    case SaveChoice::Cancel:
        break;
    }
    return false;
}

bool MainWindow::newFile()
{
    if (!maybeSave())
        return false;
    m_editorPane->newDocument();
    return true;
}

bool MainWindow::openFile(const QString& path, QString* error)
{
    if (!maybeSave()) {
        if (error)
            *error = tr("cancelled");
        return false;
    }
    return loadProgram(path, error);
}

bool MainWindow::openPath(const QString& path, QString* error)
{
    switch (detectFileKind(path)) {
    case FileKind::Program:
        return openFile(path, error);
    case FileKind::Trace:
        m_traceWantingProgram = path;
        openTrace(path);
        m_recent->add(path);
        return true;
    case FileKind::Document:
        m_documentPane->openDocument(path);
        m_docsDock->show();
        m_docsDock->raise();
        m_recent->add(path);
        return true;
    case FileKind::MemoryStore:
        m_memoryInspector->openStore(path);
        m_memoryDock->show();
        m_memoryDock->raise();
        m_recent->add(path);
        return true;
    }
    return false;
}

void MainWindow::openProgramOfTrace(const QString& tracePath)
{
    const pdl::TraceItem* root = m_fileTrace->root();
    if (!root || root->node.span.file.isEmpty())
        return;
    QString program = root->node.span.file;
    if (QFileInfo(program).isRelative())
        program = QFileInfo(tracePath).absoluteDir().filePath(program);
    if (!QFileInfo(program).isFile() || QFileInfo(program).absoluteFilePath() ==
                                            QFileInfo(m_editorPane->filePath()).absoluteFilePath())
        return;
    if (m_editorPane->isModified()) {
        // Replacing unsaved work was not what the user asked for: say where the program is.
        statusBar()->showMessage(tr("The trace's program %1 was not opened: the editor has "
                                    "unsaved changes")
                                     .arg(QDir::toNativeSeparators(program)),
                                 8000);
        return;
    }
    loadProgram(program, nullptr);
    // Opening a program empties the trace panes; this trace is the program's, so it stays.
    showTraceModel(m_fileTrace);
}

bool MainWindow::loadProgram(const QString& path, QString* error)
{
    if (!m_editorPane->openFile(path, error)) {
        m_recent->remove(path);
        return false;
    }
    // The previous program's trace would describe another program: the panes start empty.
    if (!m_run->isRunning()) {
        m_run->traceModel()->clear();
        showTraceModel(m_run->traceModel());
    }
    m_recent->add(path);
    m_settings->setValue(QLatin1String(kLastDirKey), QFileInfo(path).absolutePath());
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool MainWindow::save()
{
    if (m_editorPane->filePath().isEmpty())
        return saveAs();
    return saveTo(m_editorPane->filePath());
}

bool MainWindow::saveAs()
{
    QString suggested = m_editorPane->filePath();
    if (suggested.isEmpty()) {
        suggested = QDir(m_settings->value(QLatin1String(kLastDirKey), QDir::homePath()).toString())
                        .filePath(m_editorPane->displayName());
    }
    const QString path =
        m_savePathQuestion
            ? m_savePathQuestion(suggested)
            : QFileDialog::getSaveFileName(this, tr("Save Program As"), suggested, fileFilter());
    if (path.isEmpty())
        return false;
    return saveTo(path);
}

bool MainWindow::saveTo(const QString& path)
{
    if (!m_editorPane->saveAs(path))
        return false;
    m_recent->add(path);
    m_settings->setValue(QLatin1String(kLastDirKey), QFileInfo(path).absolutePath());
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_defaultLayoutPending)
        return;
    m_defaultLayoutPending = false;
    // First start (no saved layout): the boxes get most of the right side, the console a strip.
    const int h = height();
    resizeDocks({m_traceDock, m_detailDock}, {h * 3 / 5, h * 2 / 5}, Qt::Vertical);
    resizeDocks({m_consoleDock}, {qMax(160, h / 5)}, Qt::Vertical);
    resizeDocks({m_traceDock}, {width() * 9 / 20}, Qt::Horizontal);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    m_layoutTimer->stop();
    saveLayout();
    event->accept();
}

static QString droppedFile(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls() || mime->urls().isEmpty())
        return {};
    const QUrl url = mime->urls().first();
    return url.isLocalFile() ? url.toLocalFile() : QString();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedFile(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QString path = droppedFile(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    openPath(path);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Hako"),
                       tr("<h3>Hako %1</h3>"
                          "<p>A workbench for prompt programs written in the Prompt Declaration "
                          "Language (PDL).</p>"
                          "<p>Built with Qt %2 and QScintilla.</p>")
                           .arg(versionString(), QString::fromLatin1(qVersion())));
}

} // namespace hako
