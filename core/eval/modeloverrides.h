#pragma once

#include "core/pdl/model/modelprovider.h"

#include <QHash>
#include <QString>

#include <memory>

namespace hako::eval {

/// A model provider that sends a program's model blocks to other models: `from → to`, `*`
/// for every model not named. Used by suites' `models:` overrides. Thread-safe as its inner
/// provider is.
class ModelOverrideProvider : public models::IModelProvider {
public:
    ModelOverrideProvider(std::shared_ptr<models::IModelProvider> inner,
                          QHash<QString, QString> overrides);

    /// The model `model` is sent to.
    std::string mapped(const std::string& model) const;

    QString id() const override { return m_inner->id(); }
    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback& onDelta,
                                      const CancelToken& cancel) override;
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& texts,
                                                  const CancelToken& cancel) override;
    Result<QStringList> listModels(const CancelToken& cancel) override;

private:
    std::shared_ptr<models::IModelProvider> m_inner;
    QHash<QString, QString> m_overrides;
};

} // namespace hako::eval
