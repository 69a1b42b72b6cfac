#include "core/otel/otellivefeed.h"

#include "core/pdl/trace/tracemodel.h"

namespace hako::otel {

OtelLiveFeed::OtelLiveFeed(pdl::TraceModel* model, QObject* parent)
    : QObject(parent), m_model(model)
{
    m_assembler.setLive(true);
    m_timer.setInterval(200);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &OtelLiveFeed::flush);
}

void OtelLiveFeed::push(std::vector<Span>&& spans)
{
    bool wasEmpty;
    {
        std::lock_guard lock(m_mutex);
        wasEmpty = m_queue.empty();
        for (Span& s : spans)
            m_queue.push_back(std::move(s));
        // The queue is bounded too (a GUI thread kept busy must not let it grow): its oldest
        // spans go first.
        const size_t cap = m_maxSpans;
        if (m_queue.size() > cap) {
            const size_t excess = m_queue.size() - cap;
            m_queue.erase(m_queue.begin(), m_queue.begin() + qsizetype(excess));
            m_droppedQueued += excess;
        }
    }
    // One posted start per batch window, however many requests arrive meanwhile.
    if (wasEmpty)
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (!m_timer.isActive())
                    m_timer.start();
            },
            Qt::QueuedConnection);
}

void OtelLiveFeed::follow(const std::string& traceId)
{
    m_follow = traceId;
    flush();
}

// Following nothing, the view moves to a trace only when a new one starts arriving, so that
// two agents exporting at once do not make it jump back and forth.
std::string OtelLiveFeed::pickTarget(const std::vector<Span>& batch) const
{
    if (!m_follow.empty())
        return m_follow;
    std::string newest;
    int64_t newestStart = INT64_MIN;
    for (const Span& s : batch) {
        if (s.traceId == m_shown || m_assembler.contains(s.traceId))
            continue;
        if (s.startNanos >= newestStart) {
            newestStart = s.startNanos;
            newest = s.traceId;
        }
    }
    if (!newest.empty())
        return newest;
    if (!m_shown.empty())
        return m_shown;
    for (auto it = batch.rbegin(); it != batch.rend(); ++it)
        return it->traceId;
    return {};
}

void OtelLiveFeed::flush()
{
    std::vector<Span> batch;
    {
        std::lock_guard lock(m_mutex);
        batch.swap(m_queue);
    }
    m_droppedSpans += m_droppedQueued.exchange(0);
    const std::string target = pickTarget(batch);
    const size_t droppedBefore = m_droppedSpans;
    addBounded(batch);
    std::unordered_set<std::string> fresh;
    for (const Span& s : batch)
        if (s.traceId == target)
            fresh.insert(s.spanId);
    if (m_model && m_assembler.contains(target) &&
        (target != m_shown || !fresh.empty() || m_droppedSpans != droppedBefore))
        showTrace(target, fresh);
    if (!batch.empty())
        Q_EMIT tracesChanged();
}

QString OtelLiveFeed::title(const std::string& traceId) const
{
    QString text = QStringLiteral("OpenTelemetry trace %1").arg(QString::fromStdString(traceId));
    if (m_droppedSpans > 0)
        text += QStringLiteral(" — ") + notice();
    return text;
}

// Turns the trace as it is now into placement events for the model: every node in tree order
// (parents first, siblings by row, children as TraceModel lays out a tree: defs, then every
// field's children), data only for what is new or changed (spans of this batch, placeholders,
// the synthetic root), then the removal of what no longer exists (a synthetic root once the
// trace has one root again).
void OtelLiveFeed::showTrace(const std::string& traceId,
                             const std::unordered_set<std::string>& fresh)
{
    if (traceId != m_shown) {
        m_model->beginLiveRun(title(traceId));
        m_serials.clear();
        m_placed.clear();
        m_shown = traceId;
    } else {
        m_model->setSource(title(traceId));
    }
    TraceAssembler::NodeKeys keys;
    const pdl::TracePtr root = m_assembler.build(traceId, &keys);
    std::vector<pdl::TraceModel::Event> events;
    std::unordered_set<uint64_t> placed;
    struct Step {
        pdl::TracePtr node;
        uint64_t parent;
        int row;
        std::string field;
    };
    std::vector<Step> stack;
    if (root)
        stack.push_back({root, 0, 0, {}});
    while (!stack.empty()) {
        Step step = std::move(stack.back());
        stack.pop_back();
        const TraceAssembler::NodeKey& key = keys[step.node.get()];
        auto [it, isNew] = m_serials.try_emplace(key.key, 0);
        if (isNew)
            it->second = ++m_nextSerial;
        const uint64_t serial = it->second;
        placed.insert(serial);
        std::vector<Step> children;
        for (const auto& def : step.node->defs)
            if (def.second)
                children.push_back({def.second, serial, int(children.size()), "defs"});
        for (const pdl::TraceNode::Children& group : step.node->children)
            for (const pdl::TracePtr& c : group.nodes)
                if (c)
                    children.push_back({c, serial, int(children.size()), group.field});
        pdl::TraceModel::Event e;
        e.type = pdl::TraceModel::Event::Type::Placed;
        e.serial = serial;
        e.parent = step.parent;
        e.row = step.row;
        e.field = step.field;
        e.withNode = isNew || !key.span || fresh.count(key.key) != 0;
        if (e.withNode) {
            e.node = std::move(*step.node);
            e.node.children.clear();
            e.node.defs.clear();
        }
        events.push_back(std::move(e));
        for (auto c = children.rbegin(); c != children.rend(); ++c)
            stack.push_back(std::move(*c));
    }
    for (uint64_t gone : m_placed)
        if (!placed.count(gone)) {
            pdl::TraceModel::Event e;
            e.type = pdl::TraceModel::Event::Type::Removed;
            e.serial = gone;
            events.push_back(std::move(e));
        }
    m_placed = std::move(placed);
    m_model->applyEvents(std::move(events));
}

} // namespace hako::otel

namespace hako::otel {

void OtelLiveFeed::setMaxSpans(size_t spans)
{
    m_maxSpans = std::max<size_t>(1, spans);
}

QString OtelLiveFeed::notice() const
{
    if (m_droppedSpans == 0)
        return {};
    return tr("the live view keeps the newest %1 spans: %2 span(s) received are not shown")
        .arg(m_maxSpans.load())
        .arg(m_droppedSpans);
}

// Adds spans while keeping at most maxSpans(): room is made by dropping the trace that arrived
// first (never the span's own trace nor the followed one); when there is none to drop, the
// span is not kept.
void OtelLiveFeed::addBounded(std::vector<Span>& batch)
{
    const size_t cap = m_maxSpans;
    for (const Span& s : batch) {
        while (m_assembler.spanCount() >= cap && evictOldestBut(s.traceId, m_follow)) {
        }
        if (m_assembler.spanCount() >= cap) {
            ++m_droppedSpans;
            continue;
        }
        if (!m_assembler.contains(s.traceId))
            m_arrival.push_back(s.traceId);
        m_assembler.add(s);
    }
}

bool OtelLiveFeed::evictOldestBut(const std::string& keep, const std::string& alsoKeep)
{
    for (auto it = m_arrival.begin(); it != m_arrival.end(); ++it) {
        if (*it == keep || *it == alsoKeep)
            continue;
        m_droppedSpans += m_assembler.spanCount(*it);
        m_assembler.remove(*it);
        if (*it == m_shown)
            m_shown.clear();
        m_arrival.erase(it);
        Q_EMIT tracesChanged();
        return true;
    }
    return false;
}

} // namespace hako::otel
