#include "widgets/workbench/runslinks.h"

#include "core/otel/runsources.h"
#include "core/pdl/interp/tracenode.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/promptlog/callquery.h"
#include "core/promptlog/promptlog.h"
#include "core/util/whenready.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/otel/otelrunlist.h"
#include "widgets/workbench/difflinks.h"
#include "widgets/workbench/tracedocks.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace hako {

RunsLinks::RunsLinks(TraceDocks* traces, DiffLinks* diff, QObject* parent)
    : QObject(parent), m_traces(traces), m_diff(diff), m_logTrace(new pdl::TraceModel(this))
{
    connect(traces->runList(), &OtelRunList::compareRequested, this, &RunsLinks::compare);
    connect(traces->runList(), &OtelRunList::promptLogRequested, this, &RunsLinks::listPromptLog);
    // Ten columns and a thread need room: a Runs dock that comes forward narrow or low (a
    // strip beside the console) is widened to half the window and given a third of its height.
    QDockWidget* dock = traces->runsDock();
    connect(dock, &QDockWidget::visibilityChanged, this, [dock](bool visible) {
        auto* window = qobject_cast<QMainWindow*>(dock->parentWidget());
        if (!visible || !window || dock->isFloating())
            return;
        if (dock->width() < window->width() / 2)
            window->resizeDocks({dock}, {window->width() / 2}, Qt::Horizontal);
        if (dock->height() < window->height() / 3)
            window->resizeDocks({dock}, {window->height() / 3}, Qt::Vertical);
    });
}

QString RunsLinks::runName(const QString& id, const QString& otherId) const
{
    // The run's name; with its trace id's end when both runs have the same name.
    auto nameOf = [this](const QString& traceId) {
        const std::string key = traceId.toStdString();
        for (const otel::RunRow& r : m_traces->runList()->runs())
            if (r.id == key && !r.name.empty())
                return QString::fromStdString(r.name);
        return QString();
    };
    const QString name = nameOf(id);
    if (name.isEmpty())
        return id.right(8);
    return name == nameOf(otherId) ? tr("%1 (%2)").arg(name, id.right(8)) : name;
}

void RunsLinks::compare(const QString& leftId, const QString& rightId)
{
    // A file's runs are read from it again: off the GUI thread (a large file takes seconds).
    if (m_traces->runsAreAFile()) {
        auto read = QtConcurrent::run([build = m_traces->runBuilder(), leftId, rightId] {
            return std::make_pair(build ? build(leftId) : pdl::TracePtr(),
                                  build ? build(rightId) : pdl::TracePtr());
        });
        whenReady(this, read, [this, leftId, rightId](const auto& trees) {
            showComparison(leftId, rightId, trees.first, trees.second);
        });
        return;
    }
    showComparison(leftId, rightId, m_traces->buildRun(leftId), m_traces->buildRun(rightId));
}

void RunsLinks::showComparison(const QString& leftId, const QString& rightId, pdl::TracePtr left,
                               pdl::TracePtr right)
{
    if (!left || !right) {
        Q_EMIT statusMessage(tr("Cannot compare: run %1 is no longer available")
                                 .arg(left ? runName(rightId, leftId) : runName(leftId, rightId)),
                             8000);
        return;
    }
    m_diff->compareTraces(std::move(left), std::move(right), runName(leftId, rightId),
                          runName(rightId, leftId));
    m_diff->dock()->show();
    m_diff->dock()->raise();
}

namespace {

// The calls of one logged run (a call without a run id is a run of its own, named by its uid).
pdl::TracePtr logRunTrace(const std::shared_ptr<promptlog::PromptLog>& log, const QString& id)
{
    promptlog::CallFilter filter;
    filter.runId = id;
    filter.oldestFirst = true;
    Result<QList<promptlog::CallRecord>> calls = log->list(filter, true);
    std::vector<promptlog::CallRecord> found;
    if (calls)
        found.assign(calls->begin(), calls->end());
    if (found.empty())
        if (Result<promptlog::CallRecord> one = log->find(id))
            found.push_back(*one);
    return otel::traceOfCalls(std::move(found));
}

} // namespace

void RunsLinks::listPromptLog()
{
    QString error;
    std::shared_ptr<promptlog::PromptLog> log = m_traces->context()->promptLog(&error);
    if (!log) {
        Q_EMIT statusMessage(tr("Cannot open the prompt log: %1").arg(error), 10000);
        return;
    }
    using Rows = Result<std::vector<otel::RunRow>>;
    auto read = QtConcurrent::run([log]() -> Rows {
        promptlog::CallFilter filter;
        filter.limit = kLogCalls;
        Result<QList<promptlog::CallRecord>> calls = log->list(filter, true);
        if (!calls)
            return calls.error();
        return otel::runsOfCalls(std::vector<promptlog::CallRecord>(calls->begin(), calls->end()));
    });
    whenReady(this, read, [this, log](const Rows& runs) {
        if (!runs) {
            Q_EMIT statusMessage(tr("Cannot read the prompt log: %1").arg(runs.error().message),
                                 10000);
            return;
        }
        const QString heading =
            tr("Prompt log %1: %n run(s); pick one to read its calls", nullptr, int(runs->size()))
                .arg(log->location());
        m_traces->showRuns(
            heading, *runs, {}, [this](const QString& id) { openLogRun(id); },
            [log](const QString& id) { return logRunTrace(log, id); }, true);
        m_traces->runsDock()->raise();
    });
}

void RunsLinks::openLogRun(const QString& id)
{
    std::shared_ptr<promptlog::PromptLog> log = m_traces->context()->promptLog();
    if (!log)
        return;
    auto read = QtConcurrent::run([log, id] { return logRunTrace(log, id); });
    whenReady(this, read, [this, id](const pdl::TracePtr& root) {
        if (!root) {
            Q_EMIT statusMessage(tr("The prompt log no longer holds run %1").arg(id), 8000);
            return;
        }
        m_logTrace->setTrace(
            root, tr("%1 (prompt log)").arg(QString::fromStdString(root->def).replace('/', '_')));
        m_traces->showTrace(m_logTrace);
    });
}

} // namespace hako
