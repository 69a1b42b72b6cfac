#pragma once

#include "core/playground/playgroundprompt.h"
#include "core/util/cancel.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

#include <memory>
#include <optional>
#include <vector>

class QThreadPool;

namespace hako::models {
class IModelProvider;
}

namespace hako::playground {

/// Where one call of a playground run sits: input row × variant × repeat (all 0-based).
struct CellKey {
    int row = 0;
    int variant = 0;
    int repeat = 0;

    bool operator==(const CellKey&) const = default;
};

/// One call's outcome. A plain value.
struct CellResult {
    enum class State { Pending, Running, Done, Failed, Cancelled };
    State state = State::Pending;
    QString reply; ///< the reply so far while running, the whole reply when done
    std::optional<qint64> promptTokens;
    std::optional<qint64> completionTokens;
    bool tokensEstimated = false;
    std::optional<double> latencyMs; ///< from sending to the whole reply (or the error)
    QString error;                   ///< the failure (a template error, the server's error)

    bool isFinal() const { return state >= State::Done; }
};

/// Runs every variant over every input row, `repeat` times each, through one model provider:
/// each call on a worker thread of the run's own pool (at most concurrency() at once), replies
/// streamed back as deltas. Results and signals are delivered on the thread the run lives on
/// (the GUI thread), always through queued calls: start() and cancel() never block, and no
/// event loop is spun. One run per object: start() again only after finished().
class PlaygroundRun : public QObject {
    Q_OBJECT
public:
    explicit PlaygroundRun(std::shared_ptr<models::IModelProvider> provider,
                           QObject* parent = nullptr);
    /// Cancels what is still running and waits for the workers to return (cancelled provider
    /// calls return promptly).
    ~PlaygroundRun() override;

    /// 1–6 prompts run side by side (more are ignored).
    void setVariants(const QList<PlaygroundPrompt>& variants);
    /// The input rows (variable name → value); none means one row without inputs.
    void setInputs(const QList<QJsonObject>& rows);
    void setRepeat(int repeat);           ///< ≥ 1
    void setConcurrency(int concurrency); ///< ≥ 1; default 4

    const QList<PlaygroundPrompt>& variants() const { return m_variants; }
    /// The rows the run uses (at least one, possibly empty).
    QList<QJsonObject> inputs() const;
    int repeat() const { return m_repeat; }
    int concurrency() const { return m_concurrency; }
    int rowCount() const;
    int variantCount() const { return int(m_variants.size()); }
    /// Calls in the run: rows × variants × repeat.
    int total() const;
    int done() const { return m_done; }
    bool isRunning() const { return m_running; }

    /// The cell's result as far as known on this thread.
    const CellResult& result(const CellKey& key) const;

    /// Queues every call; signals follow. Does nothing while running or without variants.
    void start();
    /// Calls not yet started end Cancelled without being sent; running ones are cancelled.
    /// finished() follows once every cell is final.
    void cancel();

    /// The largest number of calls that were in the provider at once (for tests).
    int peakConcurrency() const;

Q_SIGNALS:
    void cellStarted(hako::playground::CellKey key);
    void cellDelta(hako::playground::CellKey key, const QString& delta);
    void cellFinished(hako::playground::CellKey key, const hako::playground::CellResult& result);
    void progress(int done, int total);
    /// Every cell is final (done, failed or cancelled).
    void finished();

private:
    int indexOf(const CellKey& key) const;
    void onStarted(CellKey key);
    void onDelta(CellKey key, const QString& delta);
    void onFinished(CellKey key, CellResult result);

    std::shared_ptr<models::IModelProvider> m_provider;
    QList<PlaygroundPrompt> m_variants;
    QList<QJsonObject> m_inputs;
    int m_repeat = 1;
    int m_concurrency = 4;
    std::vector<CellResult> m_results;
    int m_done = 0;
    bool m_running = false;
    CancelToken m_cancel;
    QThreadPool* m_pool;
    struct Shared;
    std::shared_ptr<Shared> m_shared;
};

} // namespace hako::playground

Q_DECLARE_METATYPE(hako::playground::CellKey)
Q_DECLARE_METATYPE(hako::playground::CellResult)
