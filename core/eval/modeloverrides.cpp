#include "core/eval/modeloverrides.h"

namespace hako::eval {

ModelOverrideProvider::ModelOverrideProvider(std::shared_ptr<models::IModelProvider> inner,
                                             QHash<QString, QString> overrides)
    : ForwardingModelProvider(std::move(inner)), m_overrides(std::move(overrides))
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
    return inner()->chat(r, onDelta, cancel);
}

} // namespace hako::eval
