#include "replayproviderplugin.h"

#include "core/models/replayprovider.h"

namespace hako::models {

Result<std::shared_ptr<IModelProvider>> ReplayProviderPlugin::create(const ResolvedModel& where)
{
    Result<std::shared_ptr<ReplayProvider>> provider = ReplayProvider::load(where.cassette);
    if (!provider)
        return provider.error();
    return std::shared_ptr<IModelProvider>(*provider);
}

} // namespace hako::models
