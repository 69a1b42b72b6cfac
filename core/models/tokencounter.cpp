#include "core/models/tokencounter.h"

#include "core/util/ipaddress.h"

#include "core/models/apikeystore.h"
#include "core/models/modelcatalog.h"
#include "core/models/modelconfig.h"
#include "core/models/openaiprovider.h"
#include "core/util/whenready.h"

#include <QCoreApplication>
#include <QCryptographicHash>
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

TokenCounter::TokenCounter(QObject* parent) : QObject(parent) {}

TokenCounter::~TokenCounter()
{
    m_cancel.cancel();
}

TokenCounter* TokenCounter::instance()
{
    static QPointer<TokenCounter> counter;
    if (!counter) {
        counter = new TokenCounter(QCoreApplication::instance());
        connect(ModelCatalog::instance(), &ModelCatalog::invalidated, counter,
                &TokenCounter::invalidate);
    }
    return counter;
}

QString TokenCounter::key(const QString& workspaceDir, const QString& model)
{
    return ModelCatalog::folderKey(workspaceDir) + QLatin1Char('\n') + model;
}

Result<ResolvedModel> TokenCounter::resolveLocal(const QString& workspaceDir, const QString& model)
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
    if (!isLoopbackAddress(host))
        return makeError(QStringLiteral("tokens are counted by local servers only"));
    return resolved;
}

std::optional<int> TokenCounter::count(const QString& workspaceDir, const QString& model,
                                       const QString& text)
{
    if (model.isEmpty())
        return std::nullopt;
    Model& m = m_models[key(workspaceDir, model)];
    if (const auto it = m.counts.constFind(textHash(text)); it != m.counts.constEnd())
        return *it;
    if (m.unsupportedSince.isValid()) {
        // elapsed() < retry, not !hasExpired(retry): a retry after 0 ms asks at once, even
        // within the millisecond the server said no.
        if (m.unsupportedSince.elapsed() < m_retryAfterMs)
            return std::nullopt;
        m.unsupportedSince.invalidate(); // perhaps started since: ask again
    }
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
    m_answers.invalidate(); // answers still on their way are dropped
}

void TokenCounter::ask(const QString& workspaceDir, const QString& model, const QString& text)
{
    Model& m = m_models[key(workspaceDir, model)];
    m.busy = true;
    auto work = [workspaceDir, model, text, cancel = m_cancel, provider = m.provider,
                 serverModel = m.serverModel] {
        Answer a{makeError(QString()), provider, serverModel};
        if (!a.provider) { // the first count: where the model goes, once
            Result<ResolvedModel> resolved = resolveLocal(workspaceDir, model);
            if (!resolved) {
                a.count = resolved.error();
                return a;
            }
            a.provider = std::make_shared<OpenAiProvider>(resolved->endpoint);
            a.serverModel = resolved->model;
        }
        a.count = a.provider->countTokens(a.serverModel, text, cancel);
        return a;
    };
    whenReady(this, QtConcurrent::run(std::move(work)),
              [this, workspaceDir, model, text, t = m_answers.current()](const Answer& a) {
                  if (m_answers.isCurrent(t))
                      take(workspaceDir, model, text, a);
              });
}

void TokenCounter::take(const QString& workspaceDir, const QString& model, const QString& text,
                        const Answer& a)
{
    Model& m = m_models[key(workspaceDir, model)];
    m.busy = false;
    m.provider = a.provider;
    m.serverModel = a.serverModel;
    if (a.count) {
        if (m.counts.size() >= kMaxCountsPerModel)
            m.counts.clear();
        m.counts.insert(textHash(text), *a.count);
        m.supported = true;
    } else if (!m.supported) {
        // Never answered: no tokenizer there (or no server); characters only for a while.
        m.unsupportedSince.start();
        m.waiting.reset();
    }
    if (m.waiting) {
        const QString next = *std::exchange(m.waiting, std::nullopt);
        if (!m.counts.contains(textHash(next)))
            ask(workspaceDir, model, next);
    }
    Q_EMIT counted(workspaceDir, model);
}

} // namespace hako::models
