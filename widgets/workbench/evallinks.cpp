#include "widgets/workbench/evallinks.h"

#include "core/eval/evalstore.h"
#include "core/promptlog/callrecord.h"
#include "widgets/common/messagebar.h"
#include "widgets/eval/datasetpane.h"
#include "widgets/eval/evalresultspane.h"
#include "widgets/workbench/tracedocks.h"

#include <QDockWidget>

namespace hako {

EvalLinks::EvalLinks(DatasetPane* datasets, QDockWidget* datasetsDock, EvalResultsPane* results,
                     QDockWidget* resultsDock, TraceDocks* traces, QObject* parent)
    : QObject(parent), m_datasets(datasets), m_datasetsDock(datasetsDock), m_results(results),
      m_resultsDock(resultsDock)
{
    // The store opens when a pane first shows (a start-up without them touches no file).
    for (QDockWidget* dock : {m_datasetsDock, m_resultsDock})
        connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
            if (visible)
                ensureStore();
        });
    connect(m_results, &EvalResultsPane::traceRequested, traces, &TraceDocks::openTrace);
}

EvalLinks::~EvalLinks() = default;

void EvalLinks::setStore(std::shared_ptr<eval::EvalStore> store)
{
    m_store = std::move(store);
    m_tried = true;
    m_datasets->setStore(m_store);
    m_results->setStore(m_store);
}

bool EvalLinks::ensureStore()
{
    if (m_store || m_tried)
        return bool(m_store);
    m_tried = true;
    Result<std::unique_ptr<eval::EvalStore>> opened =
        eval::EvalStore::open(eval::EvalStore::defaultPath());
    if (!opened) {
        m_datasets->messageBar()->showMessage(
            tr("The evaluation store cannot be opened: %1").arg(opened.error().message));
        return false;
    }
    setStore(std::shared_ptr<eval::EvalStore>(std::move(opened).value()));
    return true;
}

void EvalLinks::addToDataset(const QList<promptlog::CallRecord>& calls)
{
    m_datasetsDock->show();
    m_datasetsDock->raise();
    ensureStore();
    // The pane says which calls did not fit, and why, in its message bar.
    const int added = m_datasets->addCalls(calls, true);
    Q_EMIT statusMessage(tr("Added %1 of %n call(s) to the dataset (Save Version keeps them)",
                            nullptr, int(calls.size()))
                             .arg(added),
                         6000);
}

} // namespace hako
