#pragma once
// Beside the model port (not in core/models) so that every floor with a decorator — eval,
// library, memory, workbench — can derive from it without reaching sideways.

#include "core/pdl/model/modelprovider.h"

#include <memory>
#include <utility>

namespace hako::models {

/// A model provider that passes every call to an inner provider unchanged: the base of the
/// decorators (prompt logging, model overrides, usage meters), which override only the calls
/// they change. Thread-safe as the inner provider is; the inner provider is fixed at
/// construction and never null.
class ForwardingModelProvider : public IModelProvider {
public:
    explicit ForwardingModelProvider(std::shared_ptr<IModelProvider> inner)
        : m_inner(std::move(inner))
    {}

    QString id() const override { return m_inner->id(); }
    Result<ChatResponse> chat(const ChatRequest& request, const DeltaCallback& onDelta,
                              const CancelToken& cancel) override
    {
        return m_inner->chat(request, onDelta, cancel);
    }
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& texts,
                                                  const CancelToken& cancel) override
    {
        return m_inner->embed(model, texts, cancel);
    }
    Result<QStringList> listModels(const CancelToken& cancel) override
    {
        return m_inner->listModels(cancel);
    }

protected:
    /// The provider every call goes to.
    const std::shared_ptr<IModelProvider>& inner() const { return m_inner; }

private:
    std::shared_ptr<IModelProvider> m_inner;
};

} // namespace hako::models
