#include "core/playground/playgroundrun.h"

#include "core/pdl/model/modelprovider.h"

#include <QElapsedTimer>
#include <QThreadPool>

#include <algorithm>
#include <atomic>

namespace hako::playground {

namespace {
constexpr int kMaxVariants = 6;
}

struct PlaygroundRun::Shared {
    std::atomic<int> inFlight{0};
    std::atomic<int> peak{0};
};

PlaygroundRun::PlaygroundRun(std::shared_ptr<models::IModelProvider> provider, QObject* parent)
    : QObject(parent), m_provider(std::move(provider)), m_pool(new QThreadPool(this)),
      m_shared(std::make_shared<Shared>())
{
    qRegisterMetaType<CellKey>();
    qRegisterMetaType<CellResult>();
    m_pool->setMaxThreadCount(m_concurrency);
}

PlaygroundRun::~PlaygroundRun()
{
    m_cancel.cancel();
    m_pool->waitForDone();
}

void PlaygroundRun::setVariants(const QList<PlaygroundPrompt>& variants)
{
    m_variants = variants.mid(0, kMaxVariants);
}

void PlaygroundRun::setInputs(const QList<QJsonObject>& rows)
{
    m_inputs = rows;
}

void PlaygroundRun::setRepeat(int repeat)
{
    m_repeat = std::max(1, repeat);
}

void PlaygroundRun::setConcurrency(int concurrency)
{
    m_concurrency = std::max(1, concurrency);
}

QList<QJsonObject> PlaygroundRun::inputs() const
{
    return m_inputs.isEmpty() ? QList<QJsonObject>{QJsonObject()} : m_inputs;
}

int PlaygroundRun::rowCount() const
{
    return std::max<int>(1, int(m_inputs.size()));
}

int PlaygroundRun::total() const
{
    return rowCount() * variantCount() * m_repeat;
}

int PlaygroundRun::indexOf(const CellKey& key) const
{
    return (key.row * variantCount() + key.variant) * m_repeat + key.repeat;
}

const CellResult& PlaygroundRun::result(const CellKey& key) const
{
    static const CellResult none;
    const int i = indexOf(key);
    return i >= 0 && size_t(i) < m_results.size() ? m_results[size_t(i)] : none;
}

int PlaygroundRun::peakConcurrency() const
{
    return m_shared->peak.load();
}

void PlaygroundRun::start()
{
    if (m_running || m_variants.isEmpty() || !m_provider)
        return;
    m_cancel = CancelToken();
    m_results.assign(size_t(total()), CellResult());
    m_done = 0;
    m_running = true;
    m_pool->setMaxThreadCount(m_concurrency);
    const QList<QJsonObject> rows = inputs();
    // Row by row, variants side by side, so the columns fill in together.
    for (int row = 0; row < rows.size(); ++row) {
        for (int repeat = 0; repeat < m_repeat; ++repeat) {
            for (int variant = 0; variant < variantCount(); ++variant) {
                const CellKey key{row, variant, repeat};
                m_pool->start([this, key, prompt = m_variants.at(variant), input = rows.at(row),
                               provider = m_provider, cancel = m_cancel, shared = m_shared] {
                    CellResult result;
                    auto post = [this](auto fn) {
                        QMetaObject::invokeMethod(this, std::move(fn), Qt::QueuedConnection);
                    };
                    if (cancel.isCancelled()) {
                        result.state = CellResult::State::Cancelled;
                        result.error = tr("Cancelled before it was sent");
                        post([this, key, result] { onFinished(key, result); });
                        return;
                    }
                    Result<QList<PromptMessage>> messages = prompt.render(input);
                    if (!messages) {
                        result.state = CellResult::State::Failed;
                        result.error = messages.error().message;
                        post([this, key, result] { onFinished(key, result); });
                        return;
                    }
                    post([this, key] { onStarted(key); });
                    const models::ChatRequest request = prompt.toChatRequest(*messages, true);
                    const int now = ++shared->inFlight;
                    int peak = shared->peak.load();
                    while (now > peak && !shared->peak.compare_exchange_weak(peak, now)) {
                    }
                    QElapsedTimer clock;
                    clock.start();
                    Result<models::ChatResponse> response = provider->chat(
                        request,
                        [&post, this, key](std::string_view delta) {
                            post([this, key,
                                  text = QString::fromUtf8(delta.data(), qsizetype(delta.size()))] {
                                onDelta(key, text);
                            });
                        },
                        cancel);
                    --shared->inFlight;
                    result.latencyMs = double(clock.nsecsElapsed()) / 1e6;
                    if (response) {
                        result.state = CellResult::State::Done;
                        result.reply = QString::fromStdString(response->content);
                        result.promptTokens = response->usage.promptTokens;
                        result.completionTokens = response->usage.completionTokens;
                        result.tokensEstimated = response->usage.estimated;
                    } else {
                        result.state = cancel.isCancelled() ? CellResult::State::Cancelled
                                                            : CellResult::State::Failed;
                        result.error = response.error().message;
                    }
                    post([this, key, result] { onFinished(key, result); });
                });
            }
        }
    }
    Q_EMIT progress(0, total());
}

void PlaygroundRun::cancel()
{
    m_cancel.cancel();
}

void PlaygroundRun::onStarted(CellKey key)
{
    CellResult& r = m_results[size_t(indexOf(key))];
    r.state = CellResult::State::Running;
    Q_EMIT cellStarted(key);
}

void PlaygroundRun::onDelta(CellKey key, const QString& delta)
{
    CellResult& r = m_results[size_t(indexOf(key))];
    if (r.isFinal())
        return;
    r.reply += delta;
    Q_EMIT cellDelta(key, delta);
}

void PlaygroundRun::onFinished(CellKey key, CellResult result)
{
    m_results[size_t(indexOf(key))] = result;
    ++m_done;
    Q_EMIT cellFinished(key, result);
    Q_EMIT progress(m_done, total());
    if (m_done == total()) {
        m_running = false;
        Q_EMIT finished();
    }
}

} // namespace hako::playground
