#pragma once

#include "core/models/modelconfig.h"
#include "core/util/cancel.h"
#include "core/util/diagnostic.h"
#include "core/util/latestjob.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

#include <memory>
#include <optional>

namespace hako::models {

class OpenAiProvider;

/// Token counts of prompt texts, for the length counters: the model's own server, when it runs
/// on this machine (a draft is not sent to a remote service before the person runs it), is asked
/// (OpenAiProvider::countTokens, `POST /tokenize` — llama.cpp's server and vLLM have one) in
/// the background, and the answers are cached by model and text. The model is resolved once
/// and its provider kept (one connection, kept alive between counts). A model whose server has
/// no tokenizer (OpenAI, Ollama), cannot be reached or is not configured is asked again only
/// after retryAfterMs() (a server started later is found), and the counters show characters
/// only meanwhile. Everything is forgotten when the model settings change
/// (ModelCatalog::invalidated()) or on invalidate().
///
/// Threading: use from the GUI thread; the servers are asked on the global thread pool, one
/// request per model at a time (a newer text for the same model waits for it and replaces any
/// text waiting before it), and answers arrive as counted() on this object's thread.
class TokenCounter : public QObject {
    Q_OBJECT
public:
    explicit TokenCounter(QObject* parent = nullptr);
    ~TokenCounter() override;

    /// The application's counter (created on first use, owned by the application object); it
    /// forgets what it knows when the application's ModelCatalog is invalidated.
    static TokenCounter* instance();

    /// The count of `text` for `model` when known; otherwise nothing now, and the server is
    /// asked (unless it was found without a tokenizer lately): counted() says when to ask again.
    std::optional<int> count(const QString& workspaceDir, const QString& model,
                             const QString& text);
    /// Whether `model`'s server is known to count tokens (it answered at least once).
    bool knowsTokens(const QString& workspaceDir, const QString& model) const;
    /// Forgets every count, provider and server without a tokenizer (after the settings changed).
    void invalidate();
    /// How long a server without a tokenizer is left alone (default five minutes).
    int retryAfterMs() const { return m_retryAfterMs; }
    void setRetryAfterMs(int ms) { m_retryAfterMs = ms; }

    /// Where `model` goes under `workspaceDir`'s model configuration (ModelConfig::load with
    /// the environment, keyring and user file): an error unless it is an OpenAI-compatible
    /// endpoint on this machine. Blocking (configuration files, keyring); worker threads.
    static Result<ResolvedModel> resolveLocal(const QString& workspaceDir, const QString& model);

Q_SIGNALS:
    /// A count for `model` arrived (or its server turned out to have no tokenizer).
    void counted(const QString& workspaceDir, const QString& model);

private:
    struct Model {
        QHash<QByteArray, int> counts; ///< by the text's hash
        bool busy = false;
        bool supported = false;
        QElapsedTimer unsupportedSince;           ///< valid while the server is left alone
        std::optional<QString> waiting;           ///< the newest text asked while busy
        std::shared_ptr<OpenAiProvider> provider; ///< once resolved
        std::string serverModel;                  ///< the name the server knows
    };
    /// What a worker found for one text: the count (or why not) and the provider it used.
    struct Answer {
        Result<int> count = makeError(QString());
        std::shared_ptr<OpenAiProvider> provider;
        std::string serverModel;
    };
    static QString key(const QString& workspaceDir, const QString& model);
    void ask(const QString& workspaceDir, const QString& model, const QString& text);
    /// On the owner's thread: keeps the answer for `text` and asks for the text that waited.
    void take(const QString& workspaceDir, const QString& model, const QString& text,
              const Answer& a);

    QHash<QString, Model> m_models;
    CancelToken m_cancel;
    LatestJob m_answers; ///< invalidate() drops every answer on its way
    int m_retryAfterMs = 5 * 60 * 1000;
};

} // namespace hako::models
