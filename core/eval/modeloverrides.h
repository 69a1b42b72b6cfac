#pragma once

#include "core/pdl/model/forwardingprovider.h"

#include <QHash>
#include <QString>

#include <memory>

namespace hako::eval {

/// A model provider that sends a program's model blocks to other models: `from → to`, `*`
/// for every model not named; embeddings and listings pass through. Used by suites' `models:`
/// overrides. Thread-safe as its inner provider is.
class ModelOverrideProvider : public models::ForwardingModelProvider {
public:
    ModelOverrideProvider(std::shared_ptr<models::IModelProvider> inner,
                          QHash<QString, QString> overrides);

    /// The model `model` is sent to.
    std::string mapped(const std::string& model) const;

    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback& onDelta,
                                      const CancelToken& cancel) override;

private:
    QHash<QString, QString> m_overrides;
};

} // namespace hako::eval
