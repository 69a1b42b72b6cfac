#pragma once

#include "core/otel/span.h"
#include "core/otel/traceassembler.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace hako::pdl {
class TraceModel;
}

namespace hako::otel {

/// Carries spans from an OtlpReceiver (any thread: push()) to a TraceModel on the GUI thread.
/// Spans are queued and applied in batches (every `intervalMs`, default 200 ms) to a
/// TraceAssembler; the followed trace (the one set with follow(), else the newest) reaches the
/// model through the same incremental path as a PDL run's events (TraceModel::applyEvents):
/// new spans are inserted, a placeholder (`waiting for span …`) is replaced in place when its
/// span comes, spans move under their parents and into start-time order — never a reset while
/// one trace is shown, so expansion, selection and scroll survive.
///
/// Bounded: it keeps at most maxSpans() spans (queued and assembled together). Past that, the
/// traces that arrived first are dropped whole (never the followed one), and when the newest
/// trace alone is that large its further spans are not shown; the shown trace's title and
/// notice() say so.
///
/// Lives on the GUI thread; the model is not owned and may be deleted first.
class OtelLiveFeed : public QObject {
    Q_OBJECT
public:
    /// The default bound: about 150 MB of trace trees for typical agent spans.
    static constexpr size_t kDefaultMaxSpans = 100000;

    explicit OtelLiveFeed(pdl::TraceModel* model, QObject* parent = nullptr);

    /// Queues spans; thread-safe (the receiver's sink calls it on its thread).
    void push(std::vector<Span>&& spans);
    /// Shows this trace from now on (empty: follow the newest trace).
    void follow(const std::string& traceId);
    /// Applies what is queued now (GUI thread).
    void flush();
    void setInterval(int ms) { m_timer.setInterval(ms); }
    /// The bound (GUI thread; applies from the next batch).
    void setMaxSpans(size_t spans);
    size_t maxSpans() const { return m_maxSpans; }
    /// Spans received and not kept (their traces dropped, or over the bound).
    size_t droppedSpans() const { return m_droppedSpans; }
    /// What the view is missing and why, or empty when it misses nothing.
    QString notice() const;

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
    std::atomic<size_t> m_maxSpans{kDefaultMaxSpans};
    size_t m_droppedSpans = 0;
    std::atomic<size_t> m_droppedQueued{0}; ///< dropped by push() while the queue was full
    std::deque<std::string> m_arrival;      ///< traces kept, first arrived first

    // The shown trace's items: span id (or placeholder/synthetic key) → the model's serial.
    std::unordered_map<std::string, uint64_t> m_serials;
    std::unordered_set<uint64_t> m_placed; ///< serials in the model after the last batch
    uint64_t m_nextSerial = 0;

    void addBounded(std::vector<Span>& batch);
    std::string pickTarget(const std::vector<Span>& batch) const;
    void showTrace(const std::string& traceId, const std::unordered_set<std::string>& fresh);
    QString title(const std::string& traceId) const;
    bool evictOldestBut(const std::string& keep, const std::string& alsoKeep);
    QTimer m_timer;
};

} // namespace hako::otel
