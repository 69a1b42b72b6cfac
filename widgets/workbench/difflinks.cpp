#include "widgets/workbench/difflinks.h"

#include "core/otel/otlpfile.h"
#include "core/pdl/trace/tracediff.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/util/whenready.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/trace/tracediffview.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QtConcurrent>

namespace hako {

struct DiffLinks::Outcome {
    std::shared_ptr<const pdl::TraceDiff> diff;
    QString error;
    QString leftName;
    QString rightName;
};

namespace {

Result<pdl::TracePtr> readTrace(const QString& path)
{
    Result<pdl::TraceLoadResult> loaded = pdl::readTraceFile(path);
    if (!loaded)
        return loaded.error();
    if (loaded->partial)
        return loaded->problem;
    return std::move(loaded->root);
}

} // namespace

DiffLinks::DiffLinks(QMainWindow* window, WorkbenchContext* context)
    : QObject(window), m_window(window), m_context(context)
{
    otel::registerOtlpTraceFormat(); // OpenTelemetry files compare too
    m_dock = new QDockWidget(tr("Trace Comparison"), window);
    m_dock->setObjectName(QStringLiteral("traceDiffDock"));
    m_dock->setAccessibleName(tr("Trace Comparison"));
    m_view = new TraceDiffView(m_dock);
    m_dock->setWidget(m_view);
    if (window)
        window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    connect(m_view, &TraceDiffView::compareRequested, this, &DiffLinks::chooseAndCompare);

    m_compare = new QAction(tr("Compa&re Traces…"), this);
    m_compare->setToolTip(tr("Compare two trace files block by block"));
    connect(m_compare, &QAction::triggered, this, &DiffLinks::chooseAndCompare);
    m_compareCurrent = new QAction(tr("Compare Shown Trace &with File…"), this);
    m_compareCurrent->setToolTip(
        tr("Compare the trace the panes show (the last run or an opened file) with a trace file"));
    connect(m_compareCurrent, &QAction::triggered, this, &DiffLinks::chooseAndCompareWithCurrent);
}

DiffLinks::~DiffLinks() = default;

QList<QAction*> DiffLinks::actions() const
{
    return {m_compare, m_compareCurrent};
}

QString DiffLinks::askForTrace(const QString& title)
{
    const QString path = QFileDialog::getOpenFileName(
        m_window, title, m_lastDir, tr("Traces (*.json *.jsonl *.pb *.otlp);;All files (*)"));
    if (!path.isEmpty())
        m_lastDir = QFileInfo(path).absolutePath();
    return path;
}

void DiffLinks::chooseAndCompare()
{
    const QString left = askForTrace(tr("Compare Traces — First (Left) Trace"));
    if (left.isEmpty())
        return;
    const QString right = askForTrace(tr("Compare Traces — Second (Right) Trace"));
    if (right.isEmpty())
        return;
    compareFiles(left, right);
}

void DiffLinks::chooseAndCompareWithCurrent()
{
    const QString right = askForTrace(tr("Compare Shown Trace with…"));
    if (!right.isEmpty())
        compareCurrentWith(right);
}

void DiffLinks::compareFiles(const QString& left, const QString& right)
{
    start(nullptr, left, nullptr, right, QFileInfo(left).fileName(), QFileInfo(right).fileName());
}

void DiffLinks::compareCurrentWith(const QString& right)
{
    pdl::TraceModel* model = m_context ? m_context->traceModel() : nullptr;
    pdl::TracePtr current = model ? pdl::traceFromItems(model->root()) : nullptr;
    if (!current) {
        const QString message = tr("No trace is shown: run a program or open a trace first.");
        m_dock->show();
        m_view->showError(message);
        Q_EMIT statusMessage(message, 5000);
        Q_EMIT failed(message);
        return;
    }
    const QString source = model->source();
    start(std::move(current), {}, nullptr, right,
          source.isEmpty() ? tr("shown trace") : QFileInfo(source).fileName(),
          QFileInfo(right).fileName());
}

void DiffLinks::compareTraces(std::shared_ptr<pdl::TraceNode> left,
                              std::shared_ptr<pdl::TraceNode> right, const QString& leftName,
                              const QString& rightName)
{
    if (!left || !right)
        return;
    start(std::move(left), {}, std::move(right), {}, leftName, rightName);
}

void DiffLinks::start(std::shared_ptr<pdl::TraceNode> leftTrace, const QString& left,
                      std::shared_ptr<pdl::TraceNode> rightTrace, const QString& right,
                      const QString& leftName, const QString& rightName)
{
    const LatestJob::Ticket ticket = m_latest.start();
    m_dock->show();
    m_dock->raise();
    m_view->showBusy(tr("Comparing %1 with %2…").arg(leftName, rightName));
    // Reading, parsing and aligning never run on the GUI thread.
    whenReady(this, QtConcurrent::run([leftTrace, left, rightTrace, right, leftName, rightName]() {
                  auto outcome = std::make_shared<Outcome>();
                  outcome->leftName = leftName;
                  outcome->rightName = rightName;
                  pdl::TracePtr a = leftTrace;
                  if (!a) {
                      Result<pdl::TracePtr> r = readTrace(left);
                      if (!r) {
                          outcome->error = r.error().message;
                          return outcome;
                      }
                      a = *r;
                  }
                  pdl::TracePtr b = rightTrace;
                  if (!b) {
                      Result<pdl::TracePtr> r = readTrace(right);
                      if (!r) {
                          outcome->error = r.error().message;
                          return outcome;
                      }
                      b = *r;
                  }
                  outcome->diff =
                      std::make_shared<const pdl::TraceDiff>(pdl::TraceDiff::compare(a, b));
                  return outcome;
              }),
              [this, ticket](std::shared_ptr<Outcome> outcome) { show(outcome, ticket); });
}

void DiffLinks::show(const std::shared_ptr<Outcome>& outcome, LatestJob::Ticket ticket)
{
    if (!m_latest.isCurrent(ticket)) // a newer comparison was asked for
        return;
    if (!outcome->error.isEmpty()) {
        m_view->showError(outcome->error);
        Q_EMIT statusMessage(outcome->error, 5000);
        Q_EMIT failed(outcome->error);
        return;
    }
    m_view->setDiff(outcome->diff, outcome->leftName, outcome->rightName);
    const pdl::TraceDiff::Counts& c = outcome->diff->counts();
    Q_EMIT statusMessage(outcome->diff->isSame()
                             ? tr("%1 and %2: the runs are the same (timings aside)")
                                   .arg(outcome->leftName, outcome->rightName)
                             : tr("%1 and %2: %3 changed, %4 inserted, %5 deleted")
                                   .arg(outcome->leftName, outcome->rightName)
                                   .arg(c.changed)
                                   .arg(c.inserted)
                                   .arg(c.deleted),
                         5000);
    Q_EMIT compared();
}

} // namespace hako
