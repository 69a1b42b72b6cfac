#include "widgets/workbench/runslinks.h"

#include "core/pdl/interp/tracenode.h"
#include "core/util/whenready.h"
#include "widgets/otel/otelrunlist.h"
#include "widgets/workbench/difflinks.h"
#include "widgets/workbench/tracedocks.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace hako {

RunsLinks::RunsLinks(TraceDocks* traces, DiffLinks* diff, QObject* parent)
    : QObject(parent), m_traces(traces), m_diff(diff)
{
    connect(traces->runList(), &OtelRunList::compareRequested, this, &RunsLinks::compare);
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

} // namespace hako
