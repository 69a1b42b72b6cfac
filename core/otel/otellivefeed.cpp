#include "core/otel/otellivefeed.h"

#include "core/pdl/trace/tracemodel.h"

namespace hako::otel {

OtelLiveFeed::OtelLiveFeed(pdl::TraceModel* model, QObject* parent)
    : QObject(parent), m_model(model)
{
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
    bool changedShown = false;
    std::string newest;
    int64_t newestStart = INT64_MIN;
    for (const Span& s : batch) {
        if (s.startNanos >= newestStart) {
            newestStart = s.startNanos;
            newest = s.traceId;
        }
    }
    m_assembler.add(batch);
    std::string target = m_follow;
    if (target.empty())
        target = !newest.empty() ? newest : m_shown;
    for (const Span& s : batch)
        if (s.traceId == target) {
            changedShown = true;
            break;
        }
    if (target != m_shown)
        changedShown = true;
    if (m_model && changedShown && m_assembler.contains(target)) {
        m_model->setTrace(
            m_assembler.build(target),
            QStringLiteral("OpenTelemetry trace %1").arg(QString::fromStdString(target)));
        m_shown = target;
    }
    if (!batch.empty())
        Q_EMIT tracesChanged();
}

} // namespace hako::otel
