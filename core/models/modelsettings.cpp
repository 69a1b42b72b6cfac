#include "core/models/modelsettings.h"

#include "core/models/modelconfig.h"
#include "core/util/outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QUrl>

#include <yaml-cpp/yaml.h>

namespace hako::models {

namespace {

const char* const kBuiltIn[] = {"ollama", "openai", "azure", "litellm"};

bool isBuiltInName(const QString& name)
{
    for (const char* b : kBuiltIn) {
        if (name == QLatin1String(b))
            return true;
    }
    return false;
}

QString scalar(const YAML::Node& node, const char* key)
{
    const YAML::Node v = node[key];
    return v && v.IsScalar() ? QString::fromStdString(v.as<std::string>()) : QString();
}

} // namespace

Result<ModelSettings> ModelSettings::load(const QString& file, const QProcessEnvironment& env)
{
    // ModelConfig knows the defaults and checks the file; its errors carry line and column.
    Result<ModelConfig> config = ModelConfig::load(QString(), env, nullptr, file);
    if (!config)
        return config.error();
    ModelSettings settings;
    settings.m_file = file;

    auto builtIn = [&](const QString& name, const QString& model, const QString& keyEnv) {
        EndpointSetting s;
        s.name = name;
        s.builtIn = true;
        s.apiKeyEnv = keyEnv;
        if (Result<ResolvedModel> r = config->resolve(model.toStdString()))
            s.baseUrl = r->endpoint.baseUrl;
        return s;
    };
    settings.endpoints.append(builtIn(QStringLiteral("ollama"), QStringLiteral("ollama/x"), {}));
    EndpointSetting openai;
    openai.name = QStringLiteral("openai");
    openai.builtIn = true;
    openai.apiKeyEnv = QStringLiteral("OPENAI_API_KEY");
    openai.baseUrl = env.value(
        QStringLiteral("OPENAI_BASE_URL"),
        env.value(QStringLiteral("OPENAI_API_BASE"), QStringLiteral("https://api.openai.com/v1")));
    settings.endpoints.append(openai);
    EndpointSetting azure;
    azure.name = QStringLiteral("azure");
    azure.builtIn = true;
    azure.apiKeyEnv = QStringLiteral("AZURE_API_KEY");
    azure.baseUrl = env.value(QStringLiteral("AZURE_API_BASE"));
    settings.endpoints.append(azure);
    EndpointSetting proxy;
    proxy.name = QStringLiteral("litellm");
    proxy.builtIn = true;
    proxy.apiKeyEnv = QStringLiteral("LITELLM_PROXY_API_KEY");
    proxy.baseUrl = env.value(QStringLiteral("LITELLM_PROXY_API_BASE"));

    if (!config->file().isEmpty()) {
        try {
            const YAML::Node root = YAML::LoadFile(config->file().toStdString());
            if (const YAML::Node proxyNode = root["litellm_proxy"]; proxyNode && proxyNode.IsMap())
                proxy.baseUrl = scalar(proxyNode, "base_url");
            if (const YAML::Node d = root["default_model"]; d && d.IsScalar())
                settings.defaultModel = QString::fromStdString(d.as<std::string>());
            if (const YAML::Node routes = root["models"]; routes && routes.IsMap()) {
                for (const auto& r : routes) {
                    ModelRoute route;
                    route.name = QString::fromStdString(r.first.as<std::string>());
                    if (r.second.IsMap()) {
                        route.endpoint = scalar(r.second, "endpoint");
                        route.model = scalar(r.second, "model");
                    } else if (r.second.IsScalar()) {
                        route.endpoint = QString::fromStdString(r.second.as<std::string>());
                    }
                    settings.routes.append(route);
                }
            }
            if (const YAML::Node eps = root["endpoints"]; eps && eps.IsMap()) {
                for (const auto& e : eps) {
                    EndpointSetting s;
                    s.name = QString::fromStdString(e.first.as<std::string>());
                    s.baseUrl = scalar(e.second, "base_url");
                    s.apiKeyEnv = scalar(e.second, "api_key_env");
                    s.defaultModel = scalar(e.second, "default_model");
                    if (scalar(e.second, "provider").isEmpty() ||
                        scalar(e.second, "provider") == QLatin1String("openai"))
                        settings.endpoints.append(s);
                    else
                        settings.m_otherEndpoints.insert(s.name);
                }
            }
        } catch (const YAML::Exception& e) {
            return makeError(
                QStringLiteral("%1: %2").arg(config->file(), QString::fromStdString(e.what())));
        }
    }
    settings.endpoints.insert(3, proxy);
    return settings;
}

QString ModelSettings::check() const
{
    QSet<QString> seen;
    for (const EndpointSetting& e : endpoints) {
        if (e.builtIn)
            continue;
        if (e.name.trimmed().isEmpty())
            return QStringLiteral("every endpoint needs a name");
        if (e.name != e.name.trimmed() || e.name.contains(QLatin1Char(':')))
            return QStringLiteral("endpoint name '%1' may not have spaces around it or a colon")
                .arg(e.name);
        if (isBuiltInName(e.name))
            return QStringLiteral("'%1' is a built-in endpoint; choose another name").arg(e.name);
        if (seen.contains(e.name))
            return QStringLiteral("two endpoints are named '%1'").arg(e.name);
        seen.insert(e.name);
        const QUrl url(e.baseUrl, QUrl::StrictMode);
        if (!url.isValid() ||
            (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) ||
            url.host().isEmpty())
            return QStringLiteral("endpoint '%1': the base URL must be an http:// or https:// "
                                  "address such as http://localhost:8000/v1")
                .arg(e.name);
    }
    QSet<QString> routeNames;
    for (const ModelRoute& r : routes) {
        if (r.name.trimmed().isEmpty())
            return QStringLiteral("every mapped model needs a name");
        if (routeNames.contains(r.name))
            return QStringLiteral("the model name '%1' is mapped twice").arg(r.name);
        routeNames.insert(r.name);
        if (!seen.contains(r.endpoint) && !m_otherEndpoints.contains(r.endpoint))
            return QStringLiteral("model '%1' is mapped to '%2', which is not one of your "
                                  "endpoints; add the endpoint first")
                .arg(r.name, r.endpoint);
    }
    if (defaultModel.trimmed() == QLatin1String(ModelConfig::kDefaultAlias))
        return QStringLiteral("the default model must be a real model name, such as %1")
            .arg(QLatin1String(ModelConfig::kFallbackDefaultModel));
    return QString();
}

Result<bool> ModelSettings::save() const
{
    if (const QString problem = check(); !problem.isEmpty())
        return makeError(problem);
    if (m_file.isEmpty())
        return makeError(QStringLiteral("there is no configuration folder to save the model "
                                        "settings in"));
    YAML::Node root(YAML::NodeType::Map);
    YAML::Node oldEndpoints;
    try {
        if (QFile::exists(m_file)) {
            root = YAML::LoadFile(m_file.toStdString());
            if (root.IsNull())
                root = YAML::Node(YAML::NodeType::Map);
            oldEndpoints = YAML::Clone(root["endpoints"]);
        }
    } catch (const YAML::Exception& e) {
        return makeError(QStringLiteral("%1: %2").arg(m_file, QString::fromStdString(e.what())));
    }
    if (!root.IsMap())
        return makeError(QStringLiteral("%1 is not a mapping; fix it by hand first").arg(m_file));
    YAML::Node eps(YAML::NodeType::Map);
    // Endpoints of other providers (replay, plugins) are not shown, so they are kept as they are.
    if (oldEndpoints && oldEndpoints.IsMap()) {
        for (const auto& e : oldEndpoints) {
            const YAML::Node provider = e.second["provider"];
            if (provider && provider.IsScalar() && provider.as<std::string>() != "openai")
                eps[e.first.as<std::string>()] = e.second;
        }
    }
    for (const EndpointSetting& s : endpoints) {
        if (s.builtIn)
            continue;
        const std::string name = s.name.toStdString();
        YAML::Node node(YAML::NodeType::Map);
        if (oldEndpoints && oldEndpoints.IsMap() && oldEndpoints[name] &&
            oldEndpoints[name].IsMap())
            node = YAML::Clone(oldEndpoints[name]);
        node["base_url"] = s.baseUrl.toStdString();
        for (const auto& [key, value] :
             {std::pair{"api_key_env", s.apiKeyEnv}, std::pair{"default_model", s.defaultModel}}) {
            if (value.isEmpty())
                node.remove(key);
            else
                node[key] = value.toStdString();
        }
        eps[name] = node;
    }
    if (eps.size() == 0)
        root.remove("endpoints");
    else
        root["endpoints"] = eps;
    // The routes as edited replace the file's; replay and plugin endpoints kept above stay valid
    // targets.
    YAML::Node models(YAML::NodeType::Map);
    for (const ModelRoute& r : routes) {
        const std::string endpoint = r.endpoint.toStdString();
        if (!eps[endpoint])
            return makeError(QStringLiteral("model '%1' names endpoint '%2', which would not "
                                            "be in %3")
                                 .arg(r.name, r.endpoint, m_file));
        if (r.model.isEmpty()) {
            models[r.name.toStdString()] = endpoint;
        } else {
            YAML::Node route(YAML::NodeType::Map);
            route["endpoint"] = endpoint;
            route["model"] = r.model.toStdString();
            models[r.name.toStdString()] = route;
        }
    }
    if (models.size() == 0)
        root.remove("models");
    else
        root["models"] = models;
    if (defaultModel.trimmed().isEmpty())
        root.remove("default_model");
    else
        root["default_model"] = defaultModel.trimmed().toStdString();
    QString error;
    if (!makeOutputFolder(QFileInfo(m_file).absolutePath(), &error))
        return makeError(QStringLiteral("cannot create the folder of %1: %2").arg(m_file, error));
    YAML::Emitter out;
    out << root;
    const QByteArray text = QByteArray("# Hako's model settings (see Hako's README, \"Connecting "
                                       "a model\").\n# API keys are never written here: they "
                                       "live in the desktop keyring.\n") +
                            QByteArray(out.c_str()) + '\n';
    if (!writeOutputFile(m_file, text, &error))
        return makeError(QStringLiteral("cannot write %1: %2").arg(m_file, error));
    return true;
}

} // namespace hako::models
