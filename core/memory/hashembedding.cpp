#include "core/memory/hashembedding.h"

#include "core/memory/retrieval.h"

namespace hako::memory {

namespace {

uint64_t fnv1a(const QString& s)
{
    uint64_t h = 1469598103934665603ull;
    for (QChar c : s) {
        h ^= c.unicode();
        h *= 1099511628211ull;
    }
    return h;
}

void addFeature(std::vector<float>& v, const QString& feature, float weight)
{
    const uint64_t h = fnv1a(feature);
    const size_t bucket = size_t(h % uint64_t(v.size()));
    v[bucket] += (h >> 63) ? weight : -weight;
}

} // namespace

std::vector<float> HashEmbeddingProvider::embedText(const QString& text)
{
    std::vector<float> v(kDimension, 0.0f);
    QString word;
    auto flush = [&] {
        if (word.isEmpty())
            return;
        addFeature(v, word, 1.0f);
        const QString padded = QLatin1Char('<') + word + QLatin1Char('>');
        for (qsizetype i = 0; i + 3 <= padded.size(); ++i)
            addFeature(v, padded.mid(i, 3), 0.25f);
        word.clear();
    };
    for (QChar c : text.toCaseFolded()) {
        if (c.isLetterOrNumber())
            word += c;
        else
            flush();
    }
    flush();
    return normalized(std::move(v));
}

Result<models::ChatResponse> HashEmbeddingProvider::chat(const models::ChatRequest& request,
                                                         const models::DeltaCallback&,
                                                         const CancelToken&)
{
    return makeError(QStringLiteral("the built-in 'hash' provider only computes embeddings; no "
                                    "chat model for '%1'")
                         .arg(QString::fromStdString(request.model)));
}

Result<std::vector<std::vector<float>>>
HashEmbeddingProvider::embed(const std::string& model, const std::vector<std::string>& texts,
                             const CancelToken& cancel)
{
    if (QString::fromStdString(model) != modelName())
        return makeError(QStringLiteral("the built-in provider knows only the 'hash' embedding "
                                        "model, not '%1'")
                             .arg(QString::fromStdString(model)));
    std::vector<std::vector<float>> out;
    out.reserve(texts.size());
    for (const std::string& t : texts) {
        if (cancel.isCancelled())
            return makeError(QStringLiteral("cancelled"));
        out.push_back(embedText(QString::fromStdString(t)));
    }
    return out;
}

Result<QStringList> HashEmbeddingProvider::listModels(const CancelToken&)
{
    return QStringList{modelName()};
}

Result<std::vector<float>> embedOne(models::IModelProvider& provider, const QString& model,
                                    const QString& text, const CancelToken& cancel)
{
    auto r = provider.embed(model.toStdString(), {text.toStdString()}, cancel);
    if (!r)
        return makeError(QStringLiteral("embedding with '%1': %2").arg(model, r.error().message));
    if (r->size() != 1 || r->front().empty())
        return makeError(
            QStringLiteral("embedding with '%1': the provider returned no vector").arg(model));
    return std::move(r->front());
}

HashFallbackProvider::HashFallbackProvider(std::shared_ptr<models::IModelProvider> inner)
    : m_inner(std::move(inner))
{}

QString HashFallbackProvider::id() const
{
    return m_inner ? m_inner->id() : m_hash.id();
}

Result<models::ChatResponse> HashFallbackProvider::chat(const models::ChatRequest& request,
                                                        const models::DeltaCallback& onDelta,
                                                        const CancelToken& cancel)
{
    if (!m_inner)
        return m_hash.chat(request, onDelta, cancel);
    return m_inner->chat(request, onDelta, cancel);
}

Result<std::vector<std::vector<float>>>
HashFallbackProvider::embed(const std::string& model, const std::vector<std::string>& texts,
                            const CancelToken& cancel)
{
    if (!m_inner || QString::fromStdString(model) == HashEmbeddingProvider::modelName())
        return m_hash.embed(model, texts, cancel);
    return m_inner->embed(model, texts, cancel);
}

Result<QStringList> HashFallbackProvider::listModels(const CancelToken& cancel)
{
    QStringList models{HashEmbeddingProvider::modelName()};
    if (m_inner) {
        auto more = m_inner->listModels(cancel);
        if (!more)
            return more.error();
        models += *more;
    }
    return models;
}

} // namespace hako::memory
