#pragma once

#include "core/eval/evaluator.h"
#include "core/promptlog/callrecord.h"
#include "core/util/diagnostic.h"

#include <QList>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace hako::promptlog {
class PromptLog;
}

namespace hako::eval {

/// Online evaluation: evaluators run on a sampled, filtered share of the model calls as they
/// arrive (`hako serve --otlp --evaluate FILE`, the window's OTLP receiver). The file is a
/// suite's evaluators and judge settings, with keys of its own:
///
/// ```yaml
/// sample: 0.25          # share of the calls evaluated, 0–1 (default 1); which ones is decided
///                       # by the call's id, so the same call is always in or out
/// filter: {model: "gpt-4o*", prompt: answer, tag: "env:prod"}   # all optional; `*` matches
/// queue: 1000           # calls waiting for the evaluators at most (more are skipped, counted)
/// judge_model: openai/gpt-4o-mini
/// language: ja
/// evaluators:
///   - {type: length_chars, max: 400}
///   - {type: criteria, criteria: conciseness}
/// ```
struct OnlineEvalConfig {
    QString path;
    double sample = 1.0;
    QString model;  ///< filter: the call's model (`*` wildcards)
    QString prompt; ///< filter: the call's prompt name (`*` wildcards)
    QString tag;    ///< filter: a tag the call carries
    int queueLimit = 1000;
    QString judgeModel;
    QString embeddingModel;
    QString language = QStringLiteral("en");
    QList<EvaluatorSpec> evaluators;

    /// Whether `call` passes the filter and is in the sample.
    bool selects(const promptlog::CallRecord& call) const;
    /// Errors carry the file, line and column (`online.yaml:3:9: …`).
    static Result<OnlineEvalConfig> parse(const QByteArray& yaml, const QString& path = {});
    static Result<OnlineEvalConfig> load(const QString& path);
};

/// Where a call falls in [0, 1): a hash of its uid (FNV-1a, 64 bits, through MurmurHash3's
/// finaliser), the same on every
/// machine and run, so that `sample: 0.1` always takes the same tenth. A call is sampled when
/// this is below the rate.
double samplePoint(const QString& callUid);

/// Runs a config's evaluators on the calls offered to it, on its own worker thread, and keeps
/// each verdict with its call in the prompt log (score source `online`; the evaluator's
/// reasoning as the note). offer() never blocks and never waits for a model: calls beyond the
/// queue's limit are skipped and counted.
class OnlineEvaluator {
public:
    /// `context` gives the model-graded evaluators their provider (none: they report that
    /// they cannot judge). `log` must outlive this object.
    static Result<std::unique_ptr<OnlineEvaluator>>
    create(OnlineEvalConfig config, promptlog::PromptLog* log, EvaluatorContext context = {});
    /// Stops the worker after the call it is judging; calls still queued are left.
    ~OnlineEvaluator();

    /// Queues the selected calls (OnlineEvalConfig::selects()). Thread-safe, never blocks.
    void offer(const std::vector<promptlog::CallRecord>& calls);
    /// Waits until the queue is empty and the worker idle; false after `timeoutMs`.
    bool waitIdle(int timeoutMs);

    struct Counters {
        std::atomic<int64_t> offered{0};   ///< calls offered
        std::atomic<int64_t> selected{0};  ///< passed the filter and the sample
        std::atomic<int64_t> skipped{0};   ///< selected, but the queue was full
        std::atomic<int64_t> evaluated{0}; ///< judged by every evaluator
        std::atomic<int64_t> scores{0};    ///< scores written to the log
        std::atomic<int64_t> errors{0};    ///< evaluators that could not judge, failed writes
    };
    const Counters& counters() const { return m_counters; }
    const OnlineEvalConfig& config() const { return m_config; }
    QStringList evaluatorNames() const;

private:
    OnlineEvaluator(OnlineEvalConfig config, promptlog::PromptLog* log,
                    std::vector<std::shared_ptr<const Evaluator>> evaluators);
    void work();
    void judge(const promptlog::CallRecord& call);

    OnlineEvalConfig m_config;
    promptlog::PromptLog* m_log;
    std::vector<std::shared_ptr<const Evaluator>> m_evaluators;
    Counters m_counters;
    CancelToken m_cancel;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_idle;
    std::deque<promptlog::CallRecord> m_queue;
    bool m_busy = false;
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace hako::eval
