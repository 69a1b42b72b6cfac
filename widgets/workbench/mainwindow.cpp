#include "widgets/workbench/mainwindow.h"

#include "core/models/apikeystore.h"
#include "core/models/modelcatalog.h"
#include "core/models/modelconfig.h"
#include "core/util/pluginmanager.h"
#include "core/util/version.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/aboutplugins.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/common/dockviewaction.h"
#include "widgets/common/languagemanager.h"
#include "widgets/common/messagebar.h"
#include "widgets/common/thememanager.h"
#include "widgets/console/consolepane.h"
#include "widgets/debug/debugpane.h"
#include "widgets/docs/documentpane.h"
#include "widgets/editor/defrename.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/findbar.h"
#include "widgets/editor/outlineview.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/editor/problemplaces.h"
#include "widgets/editor/problemsview.h"
#include "widgets/editor/quickfixmenu.h"
#include "widgets/eval/datasetpane.h"
#include "widgets/eval/evalresultspane.h"
#include "widgets/help/guidewindow.h"
#include "widgets/memory/memoryinspector.h"
#include "widgets/playground/playgroundpane.h"
#include "widgets/promptlog/promptlogpane.h"
#include "widgets/settings/modelsettingsdialog.h"
#include "widgets/start/startpage.h"
#include "widgets/trace/boxview.h"
#include "widgets/trace/tracetreeview.h"
#include "widgets/workbench/annotationlinks.h"
#include "widgets/workbench/debuglinks.h"
#include "widgets/workbench/difflinks.h"
#include "widgets/workbench/docklayout.h"
#include "widgets/workbench/editmenu.h"
#include "widgets/workbench/evallinks.h"
#include "widgets/workbench/librarylinks.h"
#include "widgets/workbench/loglinks.h"
#include "widgets/workbench/notebooklinks.h"
#include "widgets/workbench/otelreceive.h"
#include "widgets/workbench/playgroundlinks.h"
#include "widgets/workbench/programstack.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/runslinks.h"
#include "widgets/workbench/shapelinks.h"
#include "widgets/workbench/tracedocks.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMetaMethod>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTreeView>

namespace hako {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_context(new WorkbenchContext(this)),
      m_tabs(new ProgramTabs(m_context, this)), m_settings(std::make_unique<QSettings>()),
      m_files(new FileController(m_tabs, m_settings.get(), this))
{
    setObjectName(QStringLiteral("hakoMainWindow"));
    // The centre: the programs' tabs, or the start page until a program is there.
    m_central = new QStackedWidget(this);
    m_central->addWidget(m_tabs);
    setCentralWidget(m_central);
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

    createDocks();
    m_runActions = new RunActions(m_context, m_tabs, m_traces, m_settings.get(), this);
    m_playgroundLinks = new PlaygroundLinks(m_context, m_tabs, m_runActions, m_files,
                                            m_playgroundPane, m_playgroundDock, this);
    // The debugger: breakpoints in the editor's margin, F6 to debug, the Debug pane.
    m_debugLinks = new DebugLinks(m_tabs, m_runActions, this);
    m_debugLinks->setWorkbenchContext(m_context);
    connect(m_traces->boxView(), &BoxView::rerunRequested, m_runActions, &RunActions::rerunFrom);
    // The Trace Tree's context menu offers Re-run from Here for its selected row.
    if (QTreeView* tree = m_traces->treeView()->treeView()) {
        tree->setContextMenuPolicy(Qt::ActionsContextMenu);
        tree->addAction(m_runActions->rerunSelectedAction());
    }
    m_debugDock = addPaneDock(m_debugLinks->pane(), tr("Debug"), QStringLiteral("debugDock"));
    addToolBar(Qt::TopToolBarArea, m_debugLinks->toolBar());
    tabifyDockWidget(m_consoleDock, m_debugDock);
    m_debugDock->hide();
    m_consoleDock->raise();
    createMenus();

    auto showStatus = [this](const QString& text, int timeout) {
        statusBar()->showMessage(text, timeout);
    };
    connect(m_files, &FileController::statusMessage, this, showStatus);
    connect(m_traces, &TraceDocks::statusMessage, this, showStatus);
    connect(m_runActions, &RunActions::statusMessage, this, showStatus);
    // Files by kind go to the pane that shows them, which comes forward.
    connect(m_files, &FileController::traceOpenRequested, m_traces, &TraceDocks::openTrace);
    connect(m_files, &FileController::documentOpenRequested, this, [this](const QString& path) {
        m_documentPane->openDocument(path);
        m_docsDock->show();
        m_docsDock->raise();
        m_layout->makeRoom(m_docsDock);
    });
    connect(m_files, &FileController::memoryStoreOpenRequested, this, [this](const QString& path) {
        m_memoryInspector->openStore(path);
        m_memoryDock->show();
        m_memoryDock->raise();
        m_layout->makeRoom(m_memoryDock);
    });
    connect(
        m_files, &FileController::programOpened, m_traces,
        [this](const QString&, bool isTracesProgram) { m_traces->programOpened(isTracesProgram); });
    connect(m_traces, &TraceDocks::traceLoaded, m_files, &FileController::openProgramOfTrace);
    connect(m_runActions, &RunActions::runStarted, this, [this] {
        m_consoleDock->show();
        m_consoleDock->raise();
    });
    // A finished run's calls are in the log: the pane lists them (when shown).
    auto refreshLog = [this](EditorPane*, RunController* run) {
        connect(run, &RunController::finished, m_promptLogPane, &PromptLogPane::refresh);
    };
    for (EditorPane* editor : m_tabs->editors())
        refreshLog(editor, m_tabs->runOf(editor));
    connect(m_tabs, &ProgramTabs::programAdded, this, refreshLog);
    connect(m_tabs, &ProgramTabs::closeRequested, m_files,
            [this](EditorPane* editor) { m_files->closeProgram(editor); });
    auto* links = new LogLinks(m_context, m_tabs, m_traces, m_files, this);
    connect(links, &LogLinks::statusMessage, this, showStatus);
    connect(m_promptLogPane, &PromptLogPane::showInTraceRequested, links, &LogLinks::showInTrace);
    connect(m_promptLogPane, &PromptLogPane::showSourceRequested, links, &LogLinks::showSource);
    connect(m_playgroundLinks, &PlaygroundLinks::statusMessage, this, showStatus);
    connect(m_promptLogPane, &PromptLogPane::openInPlaygroundRequested, m_playgroundLinks,
            &PlaygroundLinks::openCall);
    m_evalLinks = new EvalLinks(m_datasetPane, m_datasetsDock, m_evalPane, m_evalDock, m_traces,
                                m_runActions, m_tabs, this);
    connect(m_evalLinks, &EvalLinks::statusMessage, this, showStatus);
    m_library->connectEvaluations(m_evalLinks);
    // Annotations: Annotate… on a trace block, markers, filter words, Add to Dataset.
    auto* annotations = new AnnotationLinks(m_context, m_traces, this);
    connect(annotations, &AnnotationLinks::statusMessage, this, showStatus);
    connect(annotations, &AnnotationLinks::addToDatasetRequested, m_evalLinks,
            &EvalLinks::addToDataset);
    connect(m_debugLinks, &DebugLinks::statusMessage, this, showStatus);
    connect(m_promptLogPane, &PromptLogPane::statusMessage, this, showStatus);
    connect(m_promptLogPane, &PromptLogPane::addToDatasetRequested, m_evalLinks,
            &EvalLinks::addToDataset);
    connect(m_context, &WorkbenchContext::promptLogProblem, this, [this](const QString& message) {
        editorPane()->messageBar()->showMessage(tr("The prompt log: %1").arg(message),
                                                MessageBar::Kind::Warning);
    });
    connect(m_runActions, &RunActions::configureModelsRequested, this,
            &MainWindow::showModelSettings);
    followCurrentProgram();
    updateTitle();
    m_positionLabel->setText(tr("Ln %1, Col %2").arg(1).arg(1));
    m_layout = new DockLayout(this, m_settings.get());
    m_layout->restore({m_traces->traceDock(), m_traces->detailDock(), m_consoleDock});
    editorPane()->setFocus();
    // Qt's parts inside every pane get names (panes built later name their own).
    AccessibleParts::name(this);
}

void MainWindow::followCurrentProgram()
{
    // The title, the cursor position and the Problems tab follow the program shown.
    connect(m_tabs, &ProgramTabs::currentModificationChanged, this, &MainWindow::updateTitle);
    connect(m_tabs, &ProgramTabs::currentFilePathChanged, this, &MainWindow::updateTitle);
    connect(m_tabs, &ProgramTabs::currentCursorPositionChanged, this, [this](int line, int column) {
        m_positionLabel->setText(tr("Ln %1, Col %2").arg(line).arg(column));
    });
    connect(m_tabs, &ProgramTabs::currentDiagnosticsChanged, this,
            [this](int errors, int warnings) {
                m_problemsDock->setWindowTitle(
                    errors + warnings == 0
                        ? tr("Problems")
                        : tr("Problems (%1)").arg(ProblemsView::countText(errors, warnings)));
            });
}

MainWindow::~MainWindow()
{
    // The editor pane (a child widget) outlives the recovery store: it forgets the store first.
    m_files->detachRecovery();
}

QDockWidget* MainWindow::addPaneDock(QWidget* pane, const QString& title, const QString& objectName)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(pane);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    return dock;
}

void MainWindow::createDocks()
{
    // Right: the boxes above the detail and variables; bottom: the console with the other wide
    // panes as tabs.
    m_traces = new TraceDocks(this, m_context, m_tabs->currentRun());
    // The console, Problems list and outline show the current program's: a page per program.
    m_console = new ProgramStack(
        m_tabs, [](EditorPane*, RunController* run) { return new ConsolePane(run); }, this);
    m_consoleDock = addPaneDock(m_console, tr("Console"), QStringLiteral("consoleDock"));
    // While a program's Prompt view is shown, its problems name the card and field.
    auto* problems = new ProgramStack(
        m_tabs,
        [](EditorPane* editor, RunController*) {
            showPromptPlaces(editor);
            return editor->problemsView();
        },
        this);
    m_problemsDock = addPaneDock(problems, tr("Problems"), QStringLiteral("problemsDock"));
    // The documents pane publishes its document to the context: runs get it as `doc`.
    m_documentPane = new DocumentPane(this);
    m_documentPane->setWorkbenchContext(m_context);
    m_docsDock = addPaneDock(m_documentPane, tr("Documents"), QStringLiteral("documentsDock"));
    // The outline of the program, beside the editor (hidden until View › Outline).
    auto* outline = new ProgramStack(
        m_tabs,
        [](EditorPane* editor, RunController*) {
            auto* view = new OutlineView(editor->editor());
            view->setAnalysis(editor->analysis());
            connect(view, &OutlineView::blockActivated, editor,
                    [editor] { editor->setPromptMode(false); });
            return view;
        },
        this);
    m_outlineDock = new QDockWidget(tr("Outline"), this);
    m_outlineDock->setObjectName(QStringLiteral("outlineDock"));
    m_outlineDock->setWidget(outline);
    addDockWidget(Qt::LeftDockWidgetArea, m_outlineDock);
    m_memoryDock = new QDockWidget(tr("Memory"), this);
    m_memoryInspector = new MemoryInspector(m_memoryDock);
    m_memoryInspector->setWorkbenchContext(m_context);
    // Its toolbars would otherwise make the window taller and wider than a 1280×720 screen
    // once the dock is open; below this the pane scrolls its columns and squeezes its tabs.
    m_memoryInspector->setMinimumSize(360, 160);
    m_memoryDock->setObjectName(QStringLiteral("memoryDock"));
    m_memoryDock->setWidget(m_memoryInspector);
    addDockWidget(Qt::BottomDockWidgetArea, m_memoryDock);
    m_promptLogPane = new PromptLogPane(this);
    m_promptLogPane->setWorkbenchContext(m_context);
    m_promptLogDock =
        addPaneDock(m_promptLogPane, tr("Prompt Log"), QStringLiteral("promptLogDock"));
    // The playground is dense: in a short dock it scrolls instead of making the window taller.
    m_playgroundPane = new PlaygroundPane(this);
    auto* playgroundScroll = new QScrollArea(this);
    playgroundScroll->setWidget(m_playgroundPane);
    playgroundScroll->setWidgetResizable(true);
    playgroundScroll->setFrameShape(QFrame::NoFrame);
    playgroundScroll->setAccessibleName(tr("Playground"));
    m_playgroundDock =
        addPaneDock(playgroundScroll, tr("Playground"), QStringLiteral("playgroundDock"));
    m_datasetPane = new DatasetPane(this);
    m_datasetsDock = addPaneDock(m_datasetPane, tr("Datasets"), QStringLiteral("datasetsDock"));
    m_evalPane = new EvalResultsPane(this);
    m_evalDock = addPaneDock(m_evalPane, tr("Evaluations"), QStringLiteral("evaluationsDock"));
    // Memory opens as a tab of the wide bottom group, not squeezed beside it.
    for (QDockWidget* dock :
         {m_problemsDock, m_traces->treeDock(), m_traces->timelineDock(), m_docsDock, m_memoryDock,
          m_promptLogDock, m_playgroundDock, m_datasetsDock, m_evalDock})
        tabifyDockWidget(m_consoleDock, dock);
    m_memoryDock->hide();
    m_outlineDock->hide();
    m_promptLogDock->hide();
    m_playgroundDock->hide();
    m_datasetsDock->hide();
    m_evalDock->hide();
    // The prompt library: a wide dock with the others below and File › Save Version….
    m_library = new LibraryLinks(this, m_tabs, m_files);
    tabifyDockWidget(m_consoleDock, m_library->dock());
    connect(m_library, &LibraryLinks::statusMessage, this,
            [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout); });
    m_consoleDock->raise();
    m_traces->detailDock()->raise();
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_files->populateFileMenu(file);
    file->addAction(m_library->saveVersionAction());
    file->addSeparator();
    QAction* quit =
        file->addAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"),
                        QKeySequence(Qt::CTRL | Qt::Key_Q), this, &QWidget::close);
    quit->setMenuRole(QAction::QuitRole);

    // The Edit menu acts on the focused pane, else the current program (EditMenu).
    auto* editMenu = new EditMenu(m_tabs, this);
    connect(editMenu, &EditMenu::statusMessage, this,
            [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout); });
    editMenu->populate(menuBar()->addMenu(tr("&Edit")));

    m_otelReceive = new OtelReceive(m_context, m_traces, this);
    connect(m_otelReceive, &OtelReceive::statusMessage, this,
            [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout); });
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    m_runActions->populateMenu(runMenu);
    runMenu->addSeparator();
    m_debugLinks->populateMenu(runMenu);
    runMenu->addSeparator();
    runMenu->addAction(tr("Open Model Block in &Playground"),
                       QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), m_playgroundLinks,
                       &PlaygroundLinks::openBlockAtCursor);

    QMenu* traces = menuBar()->addMenu(tr("&Traces"));
    traces->addAction(m_otelReceive->action());
    traces->addAction(m_otelReceive->evaluateAction());
    auto* diffLinks = new DiffLinks(this, m_context);
    traces->addActions(diffLinks->actions());
    connect(diffLinks, &DiffLinks::statusMessage, this,
            [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout); });
    connect(m_runActions, &RunActions::compareRunsRequested, diffLinks, &DiffLinks::compareTraces);
    auto* runsLinks = new RunsLinks(m_traces, diffLinks, this);
    connect(runsLinks, &RunsLinks::statusMessage, this,
            [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout); });
    // A comparison needs the width: a tab of the wide bottom group, not squeezed beside it.
    tabifyDockWidget(m_consoleDock, diffLinks->dock());
    auto* notebooks = new NotebookLinks(
        this, [this](QDockWidget* dock) { m_layout->makeRoom(dock); }, m_files, m_runActions,
        m_traces);
    connect(notebooks, &NotebookLinks::statusMessage, this,
            [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout); });
    tabifyDockWidget(m_consoleDock, notebooks->dock());
    // The agent's shape: Graph and Flame, tabbed with the console, beside the trace panes in View.
    m_shapeLinks = new ShapeLinks(this, m_context, m_consoleDock, [this](QDockWidget* dock) {
        if (m_layout)
            m_layout->makeRoom(dock);
    });
    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Each entry brings its pane to the front (a pane behind another tab included).
    for (QDockWidget* dock : m_traces->docks())
        view->addAction(dockViewAction(dock));
    for (QDockWidget* dock : m_shapeLinks->docks())
        view->addAction(dockViewAction(dock));
    for (QDockWidget* dock : {m_problemsDock, m_consoleDock, m_docsDock, m_memoryDock,
                              m_promptLogDock, m_playgroundDock, m_datasetsDock, m_evalDock,
                              m_debugDock, m_outlineDock, m_library->dock(), notebooks->dock()})
        view->addAction(dockViewAction(dock));
    view->addSeparator();
    view->addAction(m_tabs->mirror([](EditorPane* e) { return e->wordWrapAction(); }));
    // Ctrl+Shift+Y switches the program between its Prompt view and its YAML from anywhere.
    view->addAction(m_tabs->mirror([](EditorPane* e) { return e->promptModeAction(); }));
    // Several programs: tabs, and two of them side by side.
    view->addSeparator();
    for (QAction* a : {m_tabs->nextAction(), m_tabs->previousAction(), m_tabs->splitAction(),
                       m_tabs->moveAction()})
        view->addAction(a);

    QMenu* settings = menuBar()->addMenu(tr("&Settings"));
    settings->addAction(tr("&Model Endpoints…"), this, &MainWindow::showModelSettings)
        ->setObjectName(QStringLiteral("modelSettingsAction"));
    LanguageManager* language = LanguageManager::instance();
    if (!language)
        language = new LanguageManager(qApp);
    language->addLanguageMenu(settings);
    ThemeManager* theme = ThemeManager::instance();
    if (!theme)
        theme = new ThemeManager(qApp);
    theme->addThemeMenu(settings);
    connect(language, &LanguageManager::languageChanged, this, [this] {
        // Texts are built with the window: it is rebuilt in the new language by its owner
        // (app/main.cpp), unless a run would be cut short.
        if (!m_tabs->anyRunning() &&
            isSignalConnected(QMetaMethod::fromSignal(&MainWindow::rebuildRequested))) {
            Q_EMIT rebuildRequested();
            return;
        }
        // The message is already in the chosen language.
        editorPane()->messageBar()->showMessage(
            tr("The language changes fully the next time Hako starts."),
            MessageBar::Kind::Information);
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QMenu* examples = help->addMenu(tr("&Examples"));
    examples->setToolTipsVisible(true);
    connect(examples, &QMenu::aboutToShow, m_files,
            [this, examples] { m_files->populateExamplesMenu(examples); });
    m_files->populateExamplesMenu(examples);
    help->addAction(tr("&User Guide"), QKeySequence::HelpContents, this, [this] {
        auto* guide = new GuideWindow(QString(), this);
        guide->show();
    });
    help->addAction(tr("&Getting Started"), this, &MainWindow::showStartPage);
    help->addAction(tr("About &Plugins"), this, [this] {
        auto* dialog = new AboutPlugins(PluginManager::instance().plugins(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    QAction* about = help->addAction(tr("&About Hako"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    about->setObjectName(QStringLiteral("aboutAction"));
}

void MainWindow::showStartPage()
{
    if (!m_start) {
        m_start = new StartPage(m_central);
        m_central->addWidget(m_start);
        connect(m_start, &StartPage::closeRequested, this, &MainWindow::showEditor);
        connect(m_start, &StartPage::writePromptRequested, m_files,
                &FileController::newFromTemplateDialog);
        connect(m_start, &StartPage::debugRunRequested, this, [this] {
            // A program with a loop and model calls: its run shows nested boxes to click.
            if (m_files->openExample(QStringLiteral("paper_model_chaining.pdl"))) {
                showEditor();
                runProgram();
            }
        });
        connect(m_start, &StartPage::exploreDocumentRequested, this, [this] {
            const QString path = m_files->askOpenPath(tr("Open Document"), tr("All files (*)"));
            if (!path.isEmpty())
                Q_EMIT m_files->documentOpenRequested(path);
        });
        connect(m_start, &StartPage::modelSettingsRequested, this, &MainWindow::showModelSettings);
        connect(m_start, &StartPage::openRecentRequested, this, [this](const QString& path) {
            if (m_files->openPath(path))
                showEditor();
        });
        connect(m_start, &StartPage::modelsChanged, models::ModelCatalog::instance(),
                &models::ModelCatalog::invalidate);
        // A program in the editor (opened, made from a template, recovered) takes the centre.
        connect(m_tabs, &ProgramTabs::currentFilePathChanged, this, &MainWindow::showEditor);
        connect(m_tabs, &ProgramTabs::currentTextChanged, this, &MainWindow::showEditor);
    }
    m_central->setCurrentWidget(m_start);
    m_start->setFocus();
}

void MainWindow::showEditor()
{
    if (m_central->currentWidget() != m_tabs) {
        m_central->setCurrentWidget(m_tabs);
        editorPane()->editor()->setFocus();
    }
}

bool MainWindow::showStartPageIfIdle()
{
    if (!StartPage::showAtStart() || m_tabs->count() > 1 || !ProgramTabs::isBlank(editorPane()))
        return false;
    showStartPage();
    return true;
}

void MainWindow::showModelSettings()
{
    // The user's own settings, never a file in the open program's folder.
    auto* dialog = new ModelSettingsDialog(models::ModelConfig::userFile(),
                                           models::ApiKeyStore::system(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::updateTitle()
{
    setWindowTitle(editorPane()->displayName() + QStringLiteral("[*] — Hako"));
    setWindowModified(editorPane()->isModified());
    m_eolLabel->setText(editorPane()->lineEndingName());
}

MainWindow* MainWindow::rebuild(MainWindow* old)
{
    old->saveLayout();
    const FileController::OpenPrograms programs = old->m_files->openPrograms();
    const bool startPage = old->m_start && old->m_central->currentWidget() == old->m_start;
    const QRect geometry = old->geometry();

    auto* next = new MainWindow;
    next->m_files->reopen(programs);
    next->setGeometry(geometry);
    if (startPage)
        next->showStartPage();
    next->show();
    old->m_closingForRebuild = true;
    old->close();
    old->deleteLater();
    return next;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_closingForRebuild) { // the rebuilt window holds the unsaved text
        event->accept();
        return;
    }
    if (!m_files->maybeSaveAll()) {
        event->ignore();
        return;
    }
    m_layout->save();
    event->accept();
}

void MainWindow::showAbout()
{
    auto* box = new QMessageBox(QMessageBox::NoIcon, tr("About Hako"),
                                tr("<h3>Hako %1</h3>"
                                   "<p>A workbench for prompt programs written in the Prompt "
                                   "Declaration Language (PDL).</p>"
                                   "<p>Built with Qt %2 and QScintilla.</p>")
                                    .arg(versionString(), QString::fromLatin1(qVersion())),
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("aboutDialog"));
    box->setIconPixmap(QApplication::windowIcon().pixmap(64, 64));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

// The window's own API, kept for its callers (app, tests): each is one of its parts' operations.
EditorPane* MainWindow::editorPane() const
{
    return m_tabs->currentEditor();
}
RunController* MainWindow::runController() const
{
    return m_tabs->currentRun();
}
ConsolePane* MainWindow::consolePane() const
{
    return qobject_cast<ConsolePane*>(m_console->currentWidget());
}
BoxView* MainWindow::boxView() const
{
    return m_traces->boxView();
}
pdl::TraceModel* MainWindow::fileTraceModel() const
{
    return m_traces->fileTraceModel();
}
pdl::TraceLoader* MainWindow::traceLoader() const
{
    return m_traces->traceLoader();
}
void MainWindow::setSaveQuestion(SaveQuestion q)
{
    m_files->setSaveQuestion(std::move(q));
}
void MainWindow::setTrustQuestion(TrustQuestion q)
{
    m_runActions->setTrustQuestion(std::move(q));
}
void MainWindow::setSavePathQuestion(SavePathQuestion q)
{
    m_files->setSavePathQuestion(std::move(q));
}
void MainWindow::setOpenPathQuestion(SavePathQuestion q)
{
    m_files->setOpenPathQuestion(std::move(q));
}
void MainWindow::setRecoveryQuestion(RecoveryQuestion q)
{
    m_files->setRecoveryQuestion(std::move(q));
}
void MainWindow::saveLayout()
{
    m_layout->save();
}
bool MainWindow::openFile(const QString& path, QString* error)
{
    return m_files->openFile(path, error);
}
bool MainWindow::openPath(const QString& path, QString* error)
{
    return m_files->openPath(path, error);
}
bool MainWindow::newFile()
{
    return m_files->newFile();
}
bool MainWindow::save()
{
    return m_files->save();
}
bool MainWindow::saveAs()
{
    return m_files->saveAs();
}
bool MainWindow::saveTo(const QString& path)
{
    return m_files->saveTo(path);
}
bool MainWindow::maybeSave()
{
    return m_files->maybeSave();
}
QStringList MainWindow::recentFiles() const
{
    return m_files->recentFiles();
}
int MainWindow::offerRecovery()
{
    return m_files->offerRecovery();
}
bool MainWindow::openExample(const QString& fileName)
{
    return m_files->openExample(fileName);
}
void MainWindow::openTrace(const QString& path)
{
    m_traces->openTrace(path);
}
bool MainWindow::runProgram()
{
    return m_runActions->runProgram();
}
void MainWindow::stopProgram()
{
    m_runActions->stopProgram();
}
bool MainWindow::saveTrace(const QString& path)
{
    return m_runActions->saveTrace(path);
}

} // namespace hako
