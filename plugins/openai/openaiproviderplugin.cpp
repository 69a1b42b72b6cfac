#include "openaiproviderplugin.h"

#include "core/models/openaiprovider.h"

namespace hako::models {

Result<std::shared_ptr<IModelProvider>> OpenAiProviderPlugin::create(const ResolvedModel& where)
{
    if (where.endpoint.baseUrl.isEmpty())
        return makeError(QStringLiteral("endpoint '%1' has no base_url").arg(where.endpoint.name));
    return std::shared_ptr<IModelProvider>(std::make_shared<OpenAiProvider>(where.endpoint));
}

} // namespace hako::models
