#include "core/models/modelrouter.h"

#include "core/models/apikeystore.h"
#include "core/models/openaiprotocol.h"
#include "core/models/openaiprovider.h"
#include "core/models/providerplugin.h"
#include "core/models/replayprovider.h"
#include "core/util/pluginmanager.h"

namespace hako::models {

ModelRouter::ModelRouter(ModelConfig config) : m_config(std::move(config)) {}

void ModelRouter::addFactory(const QString& kind, ProviderFactory factory)
{
    std::lock_guard lock(m_mutex);
    m_factories.insert(kind, std::move(factory));
}

Result<std::shared_ptr<IModelProvider>> ModelRouter::providerFor(const ResolvedModel& where)
{
    const EndpointConfig& e = where.endpoint;
    const QString key = where.provider + QLatin1Char('\n') + e.baseUrl + QLatin1Char('\n') +
                        e.apiKey + QLatin1Char('\n') + (e.azure ? e.apiVersion : QString()) +
                        QLatin1Char('\n') + where.cassette;
    std::lock_guard lock(m_mutex);
    if (auto it = m_providers.find(key); it != m_providers.end())
        return it->second;
    std::shared_ptr<IModelProvider> provider;
    if (where.provider == QLatin1String("openai")) {
        provider = std::make_shared<OpenAiProvider>(e);
    } else if (where.provider == QLatin1String("replay")) {
        Result<std::shared_ptr<ReplayProvider>> replay = ReplayProvider::load(where.cassette);
        if (!replay)
            return replay.error();
        provider = *replay;
    } else if (m_factories.contains(where.provider)) {
        Result<std::shared_ptr<IModelProvider>> made = m_factories.value(where.provider)(where);
        if (!made)
            return made.error();
        provider = *made;
    } else {
        return makeError(QStringLiteral("endpoint '%1' uses provider '%2', which is neither "
                                        "built in (openai, replay) nor offered by a plugin")
                             .arg(e.name, where.provider));
    }
    m_providers[key] = provider;
    return provider;
}

Result<ChatResponse> ModelRouter::chat(const ChatRequest& request, const DeltaCallback& onDelta,
                                       const CancelToken& cancel)
{
    if (std::optional<ChatResponse> mock = openai::mockReply(request, onDelta))
        return std::move(*mock);
    Result<ResolvedModel> where = m_config.resolve(request.model);
    if (!where)
        return where.error();
    Result<std::shared_ptr<IModelProvider>> provider = providerFor(*where);
    if (!provider)
        return provider.error();
    if (where->provider == QLatin1String("replay"))
        return (*provider)->chat(request, onDelta, cancel);
    ChatRequest routed = request;
    routed.model = where->model;
    Result<ChatResponse> response = (*provider)->chat(routed, onDelta, cancel);
    if (response)
        response.value().resolvedModel = where->model;
    if (!response && where->model != request.model)
        return makeError(QStringLiteral("%1 (model '%2' in the program)")
                             .arg(response.error().message, QString::fromStdString(request.model)));
    return response;
}

Result<std::vector<std::vector<float>>> ModelRouter::embed(const std::string& model,
                                                           const std::vector<std::string>& texts,
                                                           const CancelToken& cancel)
{
    Result<ResolvedModel> where = m_config.resolve(model);
    if (!where)
        return where.error();
    Result<std::shared_ptr<IModelProvider>> provider = providerFor(*where);
    if (!provider)
        return provider.error();
    return (*provider)->embed(where->model, texts, cancel);
}

std::vector<ModelRouter::EndpointModels> ModelRouter::listEndpoints(const CancelToken& cancel)
{
    std::vector<EndpointModels> out;
    for (const ModelConfig::Listed& listed : m_config.listedEndpoints()) {
        ResolvedModel where;
        where.endpoint = listed.endpoint;
        EndpointModels entry{listed.endpoint.name, listed.endpoint.baseUrl, listed.prefix};
        Result<std::shared_ptr<IModelProvider>> provider = providerFor(where);
        entry.models =
            provider ? (*provider)->listModels(cancel) : Result<QStringList>(provider.error());
        out.push_back(std::move(entry));
    }
    return out;
}

Result<QStringList> ModelRouter::listModels(const CancelToken& cancel)
{
    QStringList names;
    for (const EndpointModels& e : listEndpoints(cancel)) {
        if (!e.models)
            continue;
        for (const QString& m : *e.models)
            names.append(e.prefix + m);
    }
    return names;
}

void registerPluginProviders(ModelRouter& router, const PluginManager& plugins)
{
    for (QObject* root : plugins.instances(QString::fromLatin1(kModelProviderPluginIid))) {
        auto* plugin = qobject_cast<IModelProviderPlugin*>(root);
        if (!plugin)
            continue;
        const QString kind = plugin->providerKind();
        // Built-in kinds stay built in: a plugin cannot take over where keys are sent.
        if (kind == QLatin1String("openai") || kind == QLatin1String("replay"))
            continue;
        router.addFactory(kind,
                          [plugin](const ResolvedModel& where) { return plugin->create(where); });
    }
}

Result<std::shared_ptr<IModelProvider>> createDefaultProvider(const QString& workspaceDir,
                                                              WorkspaceKeys workspaceKeys)
{
    Result<ModelConfig> config =
        ModelConfig::load(workspaceDir, QProcessEnvironment::systemEnvironment(),
                          ApiKeyStore::system(), ModelConfig::userFile(), workspaceKeys);
    if (!config)
        return config.error();
    auto router = std::make_shared<ModelRouter>(std::move(config.value()));
    registerPluginProviders(*router, PluginManager::instance());
    return std::shared_ptr<IModelProvider>(router);
}

} // namespace hako::models
