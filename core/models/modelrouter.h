#pragma once

#include "core/models/modelconfig.h"
#include "core/pdl/model/modelprovider.h"

#include <QMap>

#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace hako {
class PluginManager;
}

namespace hako::models {

/// Makes the provider for a resolved endpoint of a kind other than the built-in `openai` and
/// `replay` (a plugin's provider).
using ProviderFactory =
    std::function<Result<std::shared_ptr<IModelProvider>>(const ResolvedModel& where)>;

/// The IModelProvider the interpreter and the command line hold: resolves each model name with
/// a ModelConfig, hands the call to the provider for that endpoint (created on first use and
/// kept), and rewrites the model name to the one the server knows. `mock_response` is answered
/// without resolving anything.
///
/// Threading: every IModelProvider call may come from any thread at once.
class ModelRouter : public IModelProvider {
public:
    explicit ModelRouter(ModelConfig config);

    /// Adds a provider kind (`provider: KIND` in hako-models.yaml). Call before use.
    void addFactory(const QString& kind, ProviderFactory factory);

    QString id() const override { return QStringLiteral("router"); }
    Result<ChatResponse> chat(const ChatRequest& request, const DeltaCallback& onDelta,
                              const CancelToken& cancel) override;
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& texts,
                                                  const CancelToken& cancel) override;
    /// Every model the listed endpoints serve, each with the prefix that routes back to it;
    /// endpoints that cannot be reached are left out (see listEndpoints()).
    Result<QStringList> listModels(const CancelToken& cancel) override;

    struct EndpointModels {
        QString name;
        QString baseUrl;
        QString prefix;
        Result<QStringList> models = QStringList();
    };
    /// Each listed endpoint with its models or the error asking it gave.
    std::vector<EndpointModels> listEndpoints(const CancelToken& cancel);

    const ModelConfig& config() const { return m_config; }

private:
    Result<std::shared_ptr<IModelProvider>> providerFor(const ResolvedModel& where);

    ModelConfig m_config;
    std::mutex m_mutex;
    std::map<QString, std::shared_ptr<IModelProvider>> m_providers;
    QMap<QString, ProviderFactory> m_factories;
};

/// Offers the kind of every model-provider plugin `plugins` loaded to `router` (the built-in
/// kinds `openai` and `replay` stay built in).
void registerPluginProviders(ModelRouter& router, const PluginManager& plugins);

/// The provider the interpreter and the command line use: a ModelRouter over the environment, the
/// user's hako-models.yaml (ModelConfig::userFile()) and `<workspaceDir>/hako-models.yaml` (whose endpoints get the user's keys as `workspaceKeys`
/// says), with the provider plugins the plugin manager found. A broken configuration file gives
/// an error.
Result<std::shared_ptr<IModelProvider>>
createDefaultProvider(const QString& workspaceDir,
                      WorkspaceKeys workspaceKeys = WorkspaceKeys::FromTrustStore);

} // namespace hako::models
