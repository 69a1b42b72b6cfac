#pragma once

#include "core/models/modelconfig.h"
#include "core/pdl/model/modelprovider.h"
#include "core/util/pluginmanager.h"

#include <QtPlugin>

#include <memory>
#include <string_view>

namespace hako::models {

/// What a model-provider plugin exports: a factory of providers of one kind (the built-in kinds
/// `openai` and `replay` are part of Hako, not plugins). The plugin's JSON metadata (read
/// before loading) has `id`, `name`, `description`, `version` and `providerKind`. The
/// PluginManager loads it; createDefaultProvider() offers its kind to the router.
/// Threading: create() may be called from any thread; providers follow IModelProvider's rules.
class IModelProviderPlugin {
public:
    virtual ~IModelProviderPlugin() = default;
    /// The kind named by `provider:` in hako-models.yaml (`openai`, `replay`, …).
    virtual QString providerKind() const = 0;
    /// A provider for the endpoint; the caller owns it (shared).
    virtual Result<std::shared_ptr<IModelProvider>> create(const ResolvedModel& where) = 0;
};

} // namespace hako::models

#define HAKO_MODEL_PROVIDER_PLUGIN_IID "io.github.hako.ModelProviderPlugin/1.0"
Q_DECLARE_INTERFACE(hako::models::IModelProviderPlugin, HAKO_MODEL_PROVIDER_PLUGIN_IID)
static_assert(std::string_view(HAKO_MODEL_PROVIDER_PLUGIN_IID) ==
                  std::string_view(hako::kModelProviderPluginIid),
              "the plugin manager loads this interface version");
