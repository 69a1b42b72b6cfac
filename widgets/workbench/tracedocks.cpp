#include "widgets/workbench/tracedocks.h"

#include "core/otel/otlpfile.h"
#include "core/otel/runsources.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/util/whenready.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/otel/otelrunlist.h"
#include "widgets/trace/boxview.h"
#include "widgets/trace/nodedetailview.h"
#include "widgets/trace/traceloadbar.h"
#include "widgets/trace/tracetimelineview.h"
#include "widgets/trace/tracetreeview.h"
#include "widgets/trace/variablesview.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace hako {

namespace {

QDockWidget* addDock(QMainWindow* window, QWidget* pane, const QString& title, const char* name,
                     Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(QLatin1String(name));
    dock->setWidget(pane);
    window->addDockWidget(area, dock);
    return dock;
}

// The program a trace names; empty when it does not exist. A relative path was relative to the
// folder `hako run` ran in, which the trace does not record: the trace's folder (where the run
// writes it by default), then the folders above it (a trace written to out/ or moved there),
// then the program's name beside the trace.
QString programOfTrace(const pdl::TraceModel* model, const QString& tracePath)
{
    const pdl::TraceItem* root = model->root();
    if (!root || root->node.span.file.isEmpty())
        return {};
    const QString program = root->node.span.file;
    if (!QFileInfo(program).isRelative())
        return QFileInfo(program).isFile() ? QFileInfo(program).absoluteFilePath() : QString();
    QDir dir = QFileInfo(tracePath).absoluteDir();
    for (int up = 0; up < 8; ++up) {
        if (const QFileInfo candidate(dir.filePath(program)); candidate.isFile())
            return candidate.absoluteFilePath();
        if (!dir.cdUp())
            break;
    }
    const QFileInfo beside(
        QFileInfo(tracePath).absoluteDir().filePath(QFileInfo(program).fileName()));
    return beside.isFile() ? beside.absoluteFilePath() : QString();
}

} // namespace

TraceDocks::TraceDocks(QMainWindow* window, WorkbenchContext* context, RunController* run)
    : QObject(window), m_context(context), m_run(run), m_fileTrace(new pdl::TraceModel(this)),
      m_loader(new pdl::TraceLoader(m_fileTrace, this))
{
    m_loader->setAutoReload(true);
    // Trace: the load strip (progress, cancel, messages) above the boxes.
    auto* tracePane = new QWidget(window);
    auto* traceLayout = new QVBoxLayout(tracePane);
    traceLayout->setContentsMargins(0, 0, 0, 0);
    traceLayout->setSpacing(0);
    traceLayout->addWidget(new TraceLoadBar(m_loader, tracePane));
    m_boxView = new BoxView(context, tracePane);
    traceLayout->addWidget(m_boxView, 1);
    m_traceDock = addDock(window, tracePane, tr("Trace"), "traceDock", Qt::RightDockWidgetArea);
    m_treeView = new TraceTreeView(context, window);
    m_treeDock =
        addDock(window, m_treeView, tr("Trace Tree"), "traceTreeDock", Qt::BottomDockWidgetArea);
    m_timelineDock = addDock(window, new TraceTimelineView(context, window), tr("Timeline"),
                             "timelineDock", Qt::BottomDockWidgetArea);
    m_detailDock = addDock(window, new NodeDetailView(context, window), tr("Detail"), "detailDock",
                           Qt::RightDockWidgetArea);
    m_variablesDock = addDock(window, new VariablesView(context, window), tr("Variables"),
                              "variablesDock", Qt::RightDockWidgetArea);
    window->tabifyDockWidget(m_detailDock, m_variablesDock);
    m_runList = new OtelRunList(window);
    m_runsDock = addDock(window, m_runList, tr("Runs"), "runsDock", Qt::BottomDockWidgetArea);
    window->tabifyDockWidget(m_treeDock, m_runsDock);
    m_runsDock->hide(); // until a file or the receiver has runs to list
    connect(m_runList, &OtelRunList::runRequested, this, [this](const QString& id) {
        if (m_openRun)
            m_openRun(id);
    });
    context->setTraceModel(run->traceModel(), this);
    connect(m_loader, &pdl::TraceLoader::loaded, this, [this](const QString& path) {
        Q_EMIT statusMessage(tr("Opened trace %1").arg(QDir::toNativeSeparators(path)), 4000);
        const pdl::TraceItem* root = m_fileTrace->root();
        Q_EMIT traceLoaded(path, programOfTrace(m_fileTrace, path),
                           root && !root->node.span.file.isEmpty());
        listFileRuns(path);
    });
}

void TraceDocks::showRuns(const QString& heading, const std::vector<otel::TraceSummary>& runs,
                          const std::string& shown, std::function<void(const QString&)> open)
{
    m_openRun = std::move(open);
    m_buildRun = {};
    m_runsOfFile = false;
    m_slowBuild = false;
    m_runList->setRuns(heading, runs, shown);
    m_runsDock->show();
}

void TraceDocks::showRuns(const QString& heading, const std::vector<otel::RunRow>& runs,
                          const std::string& shown, std::function<void(const QString&)> open,
                          RunBuilder build, bool slowBuild)
{
    m_openRun = std::move(open);
    m_buildRun = std::move(build);
    m_runsOfFile = false;
    m_slowBuild = slowBuild;
    m_runList->setRuns(heading, runs, shown);
    m_runsDock->show();
}

void TraceDocks::listFileRuns(const QString& path)
{
    QFile file(path);
    const bool otlp = file.open(QIODevice::ReadOnly) && otel::looksLikeOtlp(file.read(64 * 1024));
    if (m_runsOfFile) { // another file's runs
        m_runList->clear();
        if (!otlp)
            m_runsDock->hide();
        m_openRun = {};
        m_buildRun = {};
        m_runsOfFile = false;
    }
    if (!otlp && !m_runList->runs().empty())
        return; // the receiver's runs stay listed
    // Read again off the GUI thread for the list of runs (the loader keeps only the one shown):
    // every trace of an OTLP file with tokens, sessions and users; the one run of a trace.
    auto read = QtConcurrent::run([path] {
        auto runs = otel::readRuns(path);
        return runs ? *runs : std::vector<otel::RunRow>();
    });
    whenReady(this, read, [this, path, otlp](const std::vector<otel::RunRow>& runs) {
        if (runs.empty() || m_loader->path() != path)
            return;
        const QString heading = tr("%1: %n run(s); pick one to show it", nullptr, int(runs.size()))
                                    .arg(QFileInfo(path).fileName());
        if (!otlp) { // one run: listed beside the tree, which stays in front
            showRuns(
                heading, runs, runs.front().id, [this](const QString&) { showTrace(m_fileTrace); },
                [path](const QString&) {
                    auto r = pdl::readTraceFile(path);
                    return r && !r->partial ? r->root : pdl::TracePtr();
                });
            m_runsOfFile = true;
            return;
        }
        // The loader shows the trace with the most spans.
        const auto largest =
            std::max_element(runs.begin(), runs.end(),
                             [](const auto& a, const auto& b) { return a.spans < b.spans; });
        showRuns(
            heading, runs, largest->id, [this, path](const QString& id) { openFileRun(path, id); },
            [path](const QString& id) {
                auto r = otel::loadOtlpTrace(path, id.toStdString());
                return r ? r->root : pdl::TracePtr();
            });
        m_runsOfFile = true;
        if (runs.size() > 1) // which run to read is the next question: the list comes forward
            m_runsDock->raise();
    });
}

void TraceDocks::openFileRun(const QString& path, const QString& traceId)
{
    auto load = QtConcurrent::run([path, id = traceId.toStdString()] {
        auto r = otel::loadOtlpTrace(path, id);
        return r ? r->root : pdl::TracePtr();
    });
    whenReady(this, load, [this, path](const pdl::TracePtr& root) {
        if (!root) {
            Q_EMIT statusMessage(tr("Cannot read that run of %1").arg(path), 8000);
            return;
        }
        m_fileTrace->setTrace(root, path);
        showTrace(m_fileTrace);
    });
}

QList<QDockWidget*> TraceDocks::docks() const
{
    return {m_traceDock, m_treeDock, m_timelineDock, m_detailDock, m_variablesDock, m_runsDock};
}

void TraceDocks::openTrace(const QString& path)
{
    m_loader->load(path);
    showTrace(m_fileTrace);
    m_traceDock->show();
    m_traceDock->raise();
}

void TraceDocks::showTrace(pdl::TraceModel* model)
{
    m_context->setTraceModel(model, this);
    updateTitle();
}

void TraceDocks::showRunTrace()
{
    showTrace(m_run->traceModel());
}

void TraceDocks::setRun(RunController* run)
{
    if (run == m_run)
        return;
    m_run = run;
    const bool fileShown = m_context->traceModel() == m_fileTrace;
    if (!fileShown || run->isRunning() || run->lastTrace())
        showRunTrace();
    else
        updateTitle();
}

void TraceDocks::updateTitle()
{
    // Named after what it shows, so that a trace is never taken for another program's run.
    const pdl::TraceModel* model = m_context->traceModel();
    QString title = tr("Trace");
    if (model == m_fileTrace && !m_loader->path().isEmpty())
        title = tr("Trace — %1").arg(QFileInfo(m_loader->path()).fileName());
    else if (model && !model->source().isEmpty())
        title = tr("Trace — run of %1").arg(QFileInfo(model->source()).fileName());
    m_traceDock->setWindowTitle(title);
}

void TraceDocks::programOpened(bool keepFileTrace)
{
    if (keepFileTrace) {
        showTrace(m_fileTrace);
    } else if (!m_run->isRunning()) {
        m_run->traceModel()->clear();
        showRunTrace();
    }
}

} // namespace hako
