#include "core/models/modelchoices.h"

#include "core/models/apikeystore.h"
#include "core/models/modelconfig.h"

#include <QCoreApplication>

namespace hako::models {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("hako::models::ModelChoices", text);
}

// Whether `name` goes, by `config`'s rules, to the server that answered as `answer`, as the
// model `served` (so that a call reaches the server that listed it).
bool reaches(const ModelConfig& config, const std::string& name,
             const ModelRouter::EndpointModels& answer, const QString* served)
{
    const Result<ResolvedModel> where = config.resolve(name);
    if (!where || where->provider != QLatin1String("openai"))
        return false;
    if (where->endpoint.name != answer.name || where->endpoint.baseUrl != answer.baseUrl)
        return false;
    return !served || QString::fromStdString(where->model) == *served;
}

} // namespace

QList<ModelChoice> modelChoices(const ModelConfig& config,
                                const std::vector<ModelRouter::EndpointModels>& answers)
{
    QList<ModelChoice> out;
    auto add = [&out](const QString& name, const QString& reason, const QString& server) {
        for (const ModelChoice& c : out)
            if (c.name == name)
                return;
        out.append({name, reason, server});
    };
    // `default` first: the examples use it.
    const std::string alias = ModelConfig::kDefaultAlias;
    for (const ModelRouter::EndpointModels& a : answers) {
        if (!a.models || !reaches(config, alias, a, nullptr))
            continue;
        const QString model = config.defaultModel();
        add(QString::fromLatin1(ModelConfig::kDefaultAlias),
            tr("The default model, %1, on the server %2").arg(model, a.baseUrl), a.baseUrl);
        if (reaches(config, model.toStdString(), a, nullptr))
            add(model, tr("The default model, on the server %1").arg(a.baseUrl), a.baseUrl);
        break;
    }
    for (const ModelRouter::EndpointModels& a : answers) {
        if (!a.models)
            continue;
        const QString reason = tr("A model of the server %1").arg(a.baseUrl);
        for (const QString& m : *a.models) {
            const QString name = a.prefix + m;
            if (reaches(config, name.toStdString(), a, &m))
                add(name, reason, a.baseUrl);
        }
    }
    return out;
}

QList<ModelChoice> listModelChoices(const QString& workspaceDir, const CancelToken& cancel)
{
    Result<ModelConfig> config =
        ModelConfig::load(workspaceDir, QProcessEnvironment::systemEnvironment(),
                          ApiKeyStore::system(), ModelConfig::userFile());
    if (!config)
        return {};
    ModelRouter router(config.value());
    return modelChoices(*config, router.listEndpoints(cancel));
}

QStringList choiceNames(const QList<ModelChoice>& choices)
{
    QStringList names;
    names.reserve(choices.size());
    for (const ModelChoice& c : choices)
        names.append(c.name);
    return names;
}

} // namespace hako::models
