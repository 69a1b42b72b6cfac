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
    m_shown.clear();
    flush();
}

void OtelLiveFeed::flush()
{
    std::vector<Span> batch;
    {
        std::lock_guard lock(m_mutex);
        batch.swap(m_queue);
    }
    m_droppedSpans += m_droppedQueued.exchange(0);
    bool changedShown = false;
    std::string newest;
    int64_t newestStart = INT64_MIN;
    for (const Span& s : batch) {
        if (s.startNanos >= newestStart) {
            newestStart = s.startNanos;
            newest = s.traceId;
        }
    }
    std::string target = m_follow;
    if (target.empty())
        target = !newest.empty() ? newest : m_shown;
    addBounded(batch);
    for (const Span& s : batch)
        if (s.traceId == target) {
            changedShown = true;
            break;
        }
    if (target != m_shown)
        changedShown = true;
    if (m_model && changedShown && m_assembler.contains(target)) {
        QString title =
            QStringLiteral("OpenTelemetry trace %1").arg(QString::fromStdString(target));
        if (m_droppedSpans > 0)
            title += QStringLiteral(" — ") + notice();
        m_model->setTrace(m_assembler.build(target), title);
        m_shown = target;
    }
    if (!batch.empty())
        Q_EMIT tracesChanged();
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
