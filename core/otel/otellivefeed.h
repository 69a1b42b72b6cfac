#pragma once

#include "core/otel/span.h"
#include "core/otel/traceassembler.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <mutex>
#include <string>
#include <vector>

namespace hako::pdl {
class TraceModel;
}

namespace hako::otel {

/// Carries spans from an OtlpReceiver (any thread: push()) to a TraceModel on the GUI thread.
/// Spans are queued and applied in batches (every `intervalMs`, default 200 ms) to a
/// TraceAssembler; the followed trace (the one set with follow(), else the newest) is rebuilt
/// and shown with TraceModel::setTrace, so spans appear as they arrive, under placeholders
/// until their parents come, ordered by start time.
///
/// Lives on the GUI thread; the model is not owned and may be deleted first.
class OtelLiveFeed : public QObject {
    Q_OBJECT
public:
    explicit OtelLiveFeed(pdl::TraceModel* model, QObject* parent = nullptr);

    /// Queues spans; thread-safe (the receiver's sink calls it on its thread).
    void push(std::vector<Span>&& spans);
    /// Shows this trace from now on (empty: follow the newest trace).
    void follow(const std::string& traceId);
    /// Applies what is queued now (GUI thread).
    void flush();
    void setInterval(int ms) { m_timer.setInterval(ms); }

    const TraceAssembler& assembler() const { return m_assembler; }
    std::string shownTrace() const { return m_shown; }

Q_SIGNALS:
    /// The list of traces changed (a trace was added or grew).
    void tracesChanged();

private:
    QPointer<pdl::TraceModel> m_model;
    TraceAssembler m_assembler;
    std::mutex m_mutex;
    std::vector<Span> m_queue;
    std::string m_follow;
    std::string m_shown;
    QTimer m_timer;
};

} // namespace hako::otel
