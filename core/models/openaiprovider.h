#pragma once

#include "core/pdl/model/modelprovider.h"

#include <QCache>
#include <QString>

#include <functional>

#include <memory>
#include <mutex>

namespace hako::models {

class HttpTransport;

/// Where an OpenAI-compatible server is and how to talk to it.
struct EndpointConfig {
    /// A short name for messages (`openai`, `ollama`, `litellm`, a hako-models.yaml entry).
    QString name = QStringLiteral("openai");
    /// The API root, e.g. `http://localhost:11434/v1`; `/chat/completions` is appended.
    QString baseUrl;
    /// Sent as `Authorization: Bearer …` (`api-key` for Azure); never logged or shown.
    QString apiKey;
    /// Azure OpenAI: deployments URL scheme, `api-key` header and `api-version` query.
    bool azure = false;
    QString apiVersion;
    /// How the user configures this endpoint; appended to connection and authentication errors.
    QString configHint;

    int connectTimeoutMs = 10000;
    int idleTimeoutMs = 120000;
    /// The whole call, retries included (`deadline:` in hako-models.yaml, seconds).
    int deadlineMs = 600000;
    /// The largest reply body accepted, streamed or not (`max_reply_mb:`).
    qint64 maxReplyBytes = 64LL * 1024 * 1024;
    /// Retries of 429 and 5xx replies (exponential backoff with jitter, Retry-After honoured).
    int maxRetries = 3;
    int retryBaseDelayMs = 500;
    int retryMaxDelayMs = 30000;
    /// Told before each retry: the attempt that failed (0 = the first), the HTTP status and the
    /// wait chosen (Retry-After or backoff), e.g. for "rate limited, retrying in 2 s". Called
    /// on the calling thread.
    std::function<void(int attempt, int status, int delayMs)> onRetry;
    /// Texts per `/embeddings` request.
    int embedBatchSize = 64;
    /// Embedding vectors kept in the (model, text hash) cache.
    int embedCacheEntries = 20000;
};

/// IModelProvider for one OpenAI-compatible endpoint (OpenAI, Azure OpenAI, Ollama, vLLM,
/// llama.cpp's server, LM Studio, a LiteLLM proxy): Chat Completions (plain and SSE streamed),
/// Embeddings and the model list.
///
/// Threading: calls block their (worker) thread while the request runs on the provider's own
/// network thread; any number of threads may call at once. `parameters.base_url`/`api_key`
/// override the endpoint per call and are never sent; the configured key belongs to the
/// configured address, so a call to another `base_url` carries only its own `api_key`. The API
/// key is removed from every error message, reply and streamed delta handed back (also when it
/// arrives split across events or network reads). A POST is sent once per attempt; only
/// 429/5xx replies are retried.
class OpenAiProvider : public IModelProvider {
public:
    explicit OpenAiProvider(EndpointConfig config);
    ~OpenAiProvider() override;

    QString id() const override { return QStringLiteral("openai"); }
    const EndpointConfig& config() const { return m_config; }

    Result<ChatResponse> chat(const ChatRequest& request, const DeltaCallback& onDelta,
                              const CancelToken& cancel) override;
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& texts,
                                                  const CancelToken& cancel) override;
    Result<QStringList> listModels(const CancelToken& cancel) override;

    /// How many tokens `text` is for `model`, asked of the server's own tokenizer: `POST
    /// /tokenize` at the server's root (llama.cpp's server answers `{"tokens": […]}`, vLLM's
    /// `{"count": n, …}`), without special tokens. Servers without one (OpenAI, Ollama) answer
    /// 404: an error, as is any other reply. Not retried; a few seconds at most.
    Result<int> countTokens(const std::string& model, const QString& text,
                            const CancelToken& cancel);

    /// How many embedding vectors were served from the cache (for tests and statistics).
    int embedCacheHits() const;

private:
    struct Call;
    Result<QByteArray> send(Call& call, const CancelToken& cancel);

    EndpointConfig m_config;
    std::unique_ptr<HttpTransport> m_transport;
    mutable std::mutex m_cacheMutex;
    QCache<QByteArray, std::vector<float>> m_embedCache;
    int m_cacheHits = 0;
};

} // namespace hako::models
