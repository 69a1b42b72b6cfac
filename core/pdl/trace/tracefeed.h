#pragma once

#include "core/pdl/interp/interpreter.h"
#include "core/pdl/trace/tracemodel.h"

#include <QObject>
#include <QPointer>

#include <mutex>
#include <vector>

namespace hako::pdl {

/// Carries a running interpreter's events to a TraceModel on the GUI thread. The interpreter
/// calls the IRunObserver methods on its worker thread(s); they copy a snapshot of the node and
/// queue it. The model receives the queue in batches: one queued call drains everything that
/// arrived meanwhile, so a fast loop costs a few hundred GUI updates, not one per block.
///
/// Create on the GUI thread with the model; pass as RunOptions::observer; it must outlive the
/// run. If the model is deleted first, events are dropped.
class TraceFeed : public QObject, public IRunObserver {
    Q_OBJECT
public:
    explicit TraceFeed(TraceModel* model, QObject* parent = nullptr);

    void blockStarted(const TraceNode& node) override;
    void blockFinished(const TraceNode& node) override;
    void modelDelta(const TraceNode& node, std::string_view delta) override;

    /// Delivers whatever is queued now (GUI thread); called by the posted drain and at the end
    /// of a run so that the model is complete before endLiveRun.
    void flush();

private:
    void push(TraceModel::Event event);

    QPointer<TraceModel> m_model;
    std::mutex m_mutex;
    std::vector<TraceModel::Event> m_queue;
    bool m_posted = false;
};

} // namespace hako::pdl
