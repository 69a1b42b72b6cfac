#include "core/eval/modeloverrides.h"

namespace hako::eval {

ModelOverrideProvider::ModelOverrideProvider(std::shared_ptr<models::IModelProvider> inner,
                                             QHash<QString, QString> overrides)
    : m_inner(std::move(inner)), m_overrides(std::move(overrides))
{}

std::string ModelOverrideProvider::mapped(const std::string& model) const
{
    const QString name = QString::fromStdString(model);
    auto it = m_overrides.constFind(name);
    if (it == m_overrides.constEnd())
        it = m_overrides.constFind(QStringLiteral("*"));
    return it == m_overrides.constEnd() ? model : it->toStdString();
}

Result<models::ChatResponse> ModelOverrideProvider::chat(const models::ChatRequest& request,
                                                         const models::DeltaCallback& onDelta,
                                                         const CancelToken& cancel)
{
    models::ChatRequest r = request;
    r.model = mapped(request.model);
    return m_inner->chat(r, onDelta, cancel);
}

Result<std::vector<std::vector<float>>>
ModelOverrideProvider::embed(const std::string& model, const std::vector<std::string>& texts,
                             const CancelToken& cancel)
{
    return m_inner->embed(model, texts, cancel);
}

Result<QStringList> ModelOverrideProvider::listModels(const CancelToken& cancel)
{
    return m_inner->listModels(cancel);
}

} // namespace hako::eval
