#include "widgets/workbench/runslinks.h"

#include "core/pdl/interp/tracenode.h"
#include "widgets/otel/otelrunlist.h"
#include "widgets/workbench/difflinks.h"
#include "widgets/workbench/tracedocks.h"

#include <QDockWidget>

namespace hako {

RunsLinks::RunsLinks(TraceDocks* traces, DiffLinks* diff, QObject* parent)
    : QObject(parent), m_traces(traces), m_diff(diff)
{
    connect(traces->runList(), &OtelRunList::compareRequested, this, &RunsLinks::compare);
}

QString RunsLinks::runName(const QString& id) const
{
    const std::string key = id.toStdString();
    for (const otel::RunRow& r : m_traces->runList()->runs())
        if (r.id == key && !r.name.empty())
            return tr("%1 (%2)").arg(QString::fromStdString(r.name), id.left(8));
    return id.left(8);
}

void RunsLinks::compare(const QString& leftId, const QString& rightId)
{
    pdl::TracePtr left = m_traces->buildRun(leftId);
    pdl::TracePtr right = m_traces->buildRun(rightId);
    if (!left || !right) {
        Q_EMIT statusMessage(tr("Cannot compare: run %1 is no longer available")
                                 .arg(runName(left ? rightId : leftId)),
                             8000);
        return;
    }
    m_diff->compareTraces(std::move(left), std::move(right), runName(leftId), runName(rightId));
    m_diff->dock()->show();
    m_diff->dock()->raise();
}

} // namespace hako
