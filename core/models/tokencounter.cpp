#include "core/models/tokencounter.h"

#include "core/models/apikeystore.h"
#include "core/models/modelcatalog.h"
#include "core/models/modelconfig.h"
#include "core/models/openaiprovider.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QHostAddress>
#include <QPointer>
#include <QUrl>
#include <QtConcurrent>

namespace hako::models {

namespace {

// Counts kept per model: a person typing produces a text per pause, and only the latest
// matter; past this the cache starts again.
constexpr int kMaxCountsPerModel = 2000;

QByteArray textHash(const QString& text)
{
    return QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha1);
}

} // namespace

TokenCounter::TokenCounter(QObject* parent) : QObject(parent), m_counter(&countConfigured) {}

TokenCounter::~TokenCounter()
{
    m_cancel.cancel();
}

TokenCounter* TokenCounter::instance()
{
    static QPointer<TokenCounter> counter;
    if (!counter)
        counter = new TokenCounter(QCoreApplication::instance());
    return counter;
}

QString TokenCounter::key(const QString& workspaceDir, const QString& model)
{
    return ModelCatalog::folderKey(workspaceDir) + QLatin1Char('\n') + model;
}

Result<int> TokenCounter::countConfigured(const QString& workspaceDir, const QString& model,
                                          const QString& text, const CancelToken& cancel)
{
    Result<ModelConfig> config =
        ModelConfig::load(workspaceDir, QProcessEnvironment::systemEnvironment(),
                          ApiKeyStore::system(), ModelConfig::userFile());
    if (!config)
        return config.error();
    Result<ResolvedModel> resolved = config->resolve(model.toStdString());
    if (!resolved)
        return resolved.error();
    if (resolved->provider != QLatin1String("openai"))
        return makeError(QStringLiteral("the model '%1' has no tokenizer").arg(model));
    // The draft prompt goes only to a server on this machine (llama.cpp, vLLM): text is sent to
    // a remote service when the person runs the program, not while they type it.
    const QString host = QUrl(resolved->endpoint.baseUrl).host();
    if (host != QLatin1String("localhost") && !QHostAddress(host).isLoopback())
        return makeError(QStringLiteral("tokens are counted by local servers only"));
    OpenAiProvider provider(resolved->endpoint);
    return provider.countTokens(resolved->model, text, cancel);
}

std::optional<int> TokenCounter::count(const QString& workspaceDir, const QString& model,
                                       const QString& text)
{
    if (model.isEmpty())
        return std::nullopt;
    Model& m = m_models[key(workspaceDir, model)];
    if (const auto it = m.counts.constFind(textHash(text)); it != m.counts.constEnd())
        return *it;
    if (m.unsupported)
        return std::nullopt;
    if (m.busy)
        m.waiting = text;
    else
        ask(workspaceDir, model, text);
    return std::nullopt;
}

bool TokenCounter::knowsTokens(const QString& workspaceDir, const QString& model) const
{
    const auto it = m_models.constFind(key(workspaceDir, model));
    return it != m_models.constEnd() && it->supported;
}

void TokenCounter::invalidate()
{
    m_models.clear();
    ++m_generation; // answers still on their way are dropped
}

void TokenCounter::ask(const QString& workspaceDir, const QString& model, const QString& text)
{
    const QString k = key(workspaceDir, model);
    m_models[k].busy = true;
    const Counter counter = m_counter;
    const CancelToken cancel = m_cancel;
    const int generation = m_generation;
    QtConcurrent::run([counter, workspaceDir, model, text, cancel] {
        return counter(workspaceDir, model, text, cancel);
    }).then(this, [this, k, workspaceDir, model, text, generation](const Result<int>& n) {
        if (generation != m_generation)
            return;
        Model& m = m_models[k];
        m.busy = false;
        if (n) {
            if (m.counts.size() >= kMaxCountsPerModel)
                m.counts.clear();
            m.counts.insert(textHash(text), *n);
            m.supported = true;
        } else if (!m.supported) {
            // Never answered: no tokenizer there (or no server); characters only from now on.
            m.unsupported = true;
            m.waiting.reset();
        }
        if (m.waiting) {
            const QString next = *std::exchange(m.waiting, std::nullopt);
            if (!m.counts.contains(textHash(next)))
                ask(workspaceDir, model, next);
        }
        Q_EMIT counted(workspaceDir, model);
    });
}

} // namespace hako::models
