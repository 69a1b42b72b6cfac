#pragma once

#include "core/models/providerplugin.h"

#include <QObject>

namespace hako::models {

/// Plugin wrapper of OpenAiProvider (provider kind `openai`).
class OpenAiProviderPlugin : public QObject, public IModelProviderPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HAKO_MODEL_PROVIDER_PLUGIN_IID FILE "openai.json")
    Q_INTERFACES(hako::models::IModelProviderPlugin)

public:
    QString providerKind() const override { return QStringLiteral("openai"); }
    Result<std::shared_ptr<IModelProvider>> create(const ResolvedModel& where) override;
};

} // namespace hako::models
