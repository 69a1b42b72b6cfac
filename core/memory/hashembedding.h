#pragma once

#include "core/pdl/model/modelprovider.h"

#include <memory>

namespace hako::memory {

/// A model-free, deterministic embedding "model" named `hash`: words and their character
/// trigrams hashed into a fixed number of signed buckets, then scaled to unit length. Texts
/// sharing words score a high cosine. It is the fallback that keeps `hako memory` usable and
/// testable offline, not a semantic model. Stateless and thread-safe. chat() is refused.
class HashEmbeddingProvider : public models::IModelProvider {
public:
    static constexpr int kDimension = 256;
    static QString modelName() { return QStringLiteral("hash"); }

    QString id() const override { return QStringLiteral("hash"); }
    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback& onDelta,
                                      const CancelToken& cancel) override;
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& texts,
                                                  const CancelToken& cancel) override;
    Result<QStringList> listModels(const CancelToken& cancel) override;

    /// The embedding of one text.
    static std::vector<float> embedText(const QString& text);
};

/// A provider that answers embeddings of the `hash` model itself and passes everything else
/// (chat, other embedding models, model lists) to `inner` (may be null: then only `hash`
/// works). Lets a run or a command use the model-free fallback next to configured models.
/// Thread-safe when `inner` is.
class HashFallbackProvider : public models::IModelProvider {
public:
    explicit HashFallbackProvider(std::shared_ptr<models::IModelProvider> inner);

    QString id() const override;
    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback& onDelta,
                                      const CancelToken& cancel) override;
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& texts,
                                                  const CancelToken& cancel) override;
    Result<QStringList> listModels(const CancelToken& cancel) override;

private:
    std::shared_ptr<models::IModelProvider> m_inner;
    HashEmbeddingProvider m_hash;
};

/// Embeds one text with `model` through `provider`; the error names the model.
Result<std::vector<float>> embedOne(models::IModelProvider& provider, const QString& model,
                                    const QString& text, const CancelToken& cancel = {});

} // namespace hako::memory
