#pragma once

#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

#include <functional>
#include <optional>

namespace hako::models {

/// Token counts of prompt texts, for the length counters: the model's own server, when it runs
/// on this machine (a draft is not sent to a remote service before the person runs it), is asked
/// (OpenAiProvider::countTokens, `POST /tokenize` — llama.cpp's server and vLLM have one) in
/// the background, and the answers are cached by model and text. A model whose server has no
/// tokenizer (OpenAI, Ollama), cannot be reached or is not configured is remembered as such
/// until invalidate(): it is asked once, and the counters show characters only.
///
/// Threading: use from the GUI thread; the servers are asked on the global thread pool, one
/// request per model at a time (a newer text for the same model waits for it and replaces any
/// text waiting before it), and answers arrive as counted() on this object's thread.
class TokenCounter : public QObject {
    Q_OBJECT
public:
    /// Counts `text` for `model` under `workspaceDir`'s model configuration (blocking; called
    /// on a worker thread). Replaceable for tests.
    using Counter = std::function<Result<int>(const QString& workspaceDir, const QString& model,
                                              const QString& text, const CancelToken&)>;

    explicit TokenCounter(QObject* parent = nullptr);
    ~TokenCounter() override;

    /// The application's counter (created on first use, owned by the application object).
    static TokenCounter* instance();

    /// The count of `text` for `model` when known; otherwise nothing now, and the server is
    /// asked (unless it is known to have no tokenizer): counted() says when to ask again.
    std::optional<int> count(const QString& workspaceDir, const QString& model,
                             const QString& text);
    /// Whether `model`'s server is known to count tokens (it answered at least once).
    bool knowsTokens(const QString& workspaceDir, const QString& model) const;
    /// Forgets every count and every server without a tokenizer (after the settings changed).
    void invalidate();
    void setCounter(Counter counter) { m_counter = std::move(counter); }

    /// The default counter: resolves `model` with ModelConfig::load(dir, environment, keyring,
    /// user file) and asks its OpenAI-compatible endpoint.
    static Result<int> countConfigured(const QString& workspaceDir, const QString& model,
                                       const QString& text, const CancelToken& cancel);

Q_SIGNALS:
    /// A count for `model` arrived (or its server turned out to have no tokenizer).
    void counted(const QString& workspaceDir, const QString& model);

private:
    struct Model {
        QHash<QByteArray, int> counts; ///< by the text's hash
        bool busy = false;
        bool unsupported = false;
        bool supported = false;
        std::optional<QString> waiting; ///< the newest text asked while busy
    };
    static QString key(const QString& workspaceDir, const QString& model);
    void ask(const QString& workspaceDir, const QString& model, const QString& text);

    QHash<QString, Model> m_models;
    Counter m_counter;
    CancelToken m_cancel;
    int m_generation = 0;
};

} // namespace hako::models
