#include "core/pdl/trace/tracefeed.h"

#include <QMetaObject>

namespace hako::pdl {

TraceFeed::TraceFeed(TraceModel* model, QObject* parent) : QObject(parent), m_model(model) {}

void TraceFeed::push(TraceModel::Event event)
{
    bool post = false;
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(event));
        if (!m_posted) {
            m_posted = true;
            post = true;
        }
    }
    if (post)
        QMetaObject::invokeMethod(this, &TraceFeed::flush, Qt::QueuedConnection);
}

void TraceFeed::blockStarted(const TraceNode& node)
{
    TraceModel::Event e;
    e.type = TraceModel::Event::Type::Started;
    e.node = traceSnapshot(node);
    push(std::move(e));
}

void TraceFeed::blockFinished(const TraceNode& node)
{
    TraceModel::Event e;
    e.type = TraceModel::Event::Type::Finished;
    e.node = traceSnapshot(node);
    push(std::move(e));
}

void TraceFeed::modelDelta(const TraceNode& node, std::string_view delta)
{
    TraceModel::Event e;
    e.type = TraceModel::Event::Type::Delta;
    e.serial = node.serial;
    e.delta = std::string(delta);
    push(std::move(e));
}

void TraceFeed::flush()
{
    std::vector<TraceModel::Event> batch;
    {
        std::lock_guard lock(m_mutex);
        batch.swap(m_queue);
        m_posted = false;
    }
    if (m_model && !batch.empty())
        m_model->applyEvents(std::move(batch));
}

} // namespace hako::pdl
