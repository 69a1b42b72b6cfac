#pragma once

#include "core/models/providerplugin.h"

#include <QObject>

namespace hako::models {

/// Plugin wrapper of ReplayProvider (provider kind `replay`; `cassette:` names the file).
class ReplayProviderPlugin : public QObject, public IModelProviderPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HAKO_MODEL_PROVIDER_PLUGIN_IID FILE "replay.json")
    Q_INTERFACES(hako::models::IModelProviderPlugin)

public:
    QString providerKind() const override { return QStringLiteral("replay"); }
    Result<std::shared_ptr<IModelProvider>> create(const ResolvedModel& where) override;
};

} // namespace hako::models
