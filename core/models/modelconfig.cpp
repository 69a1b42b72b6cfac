#include "core/models/modelconfig.h"

#include "core/models/apikeystore.h"
#include "core/pdl/code/codetrust.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/util/globmatch.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace hako::models {

namespace {

QString withV1(QString base)
{
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    if (!base.endsWith(QLatin1String("/v1")))
        base += QStringLiteral("/v1");
    return base;
}

/// Where a user maps a model: the workspace's file when one was read, else the user's settings.
QString fileHint(const QString& file, const QString& userFile)
{
    if (!file.isEmpty() && file != userFile)
        return QCoreApplication::translate("hako::models::ModelConfig", "or map the model in %1")
            .arg(file);
    return QCoreApplication::translate("hako::models::ModelConfig",
                                       "or map the model in Settings › Model Endpoints (%1)")
        .arg(userFile.isEmpty() ? QString::fromLatin1(ModelConfig::kFileName) : userFile);
}

Diagnostic at(const pdl::YamlValue& node, const QString& message)
{
    return makeError(message, node.span());
}

} // namespace

QString ModelConfig::userFile()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    return dir.isEmpty() ? QString() : dir + QLatin1Char('/') + QString::fromLatin1(kFileName);
}

bool ModelConfig::workspaceTrusted(const QString& workspaceDir)
{
    if (workspaceDir.isEmpty())
        return false;
    QSettings settings;
    return pdl::code::CodeTrustStore(&settings).isTrusted(
        QDir(workspaceDir).filePath(QString::fromLatin1(kFileName)));
}

Result<ModelConfig> ModelConfig::load(const QString& workspaceDir, const QProcessEnvironment& env,
                                      std::shared_ptr<ApiKeyStore> keys, const QString& userFile,
                                      WorkspaceKeys workspaceKeys)
{
    ModelConfig config;
    config.m_env = env;
    config.m_keys = std::move(keys);
    config.m_userFile = userFile;
    if (env.contains(QStringLiteral("LITELLM_PROXY_API_BASE"))) {
        config.m_haveProxy = true;
        config.m_proxy.name = QStringLiteral("litellm");
        config.m_proxy.baseUrl = env.value(QStringLiteral("LITELLM_PROXY_API_BASE"));
        config.m_proxy.apiKey = env.value(QStringLiteral("LITELLM_PROXY_API_KEY"));
        config.m_proxy.configHint =
            QStringLiteral("Is the LiteLLM proxy running? LITELLM_PROXY_API_BASE is %1.")
                .arg(config.m_proxy.baseUrl);
    }
    // The user's settings first; a workspace file beside the programs adds to them and wins
    // where both name the same thing.
    if (!userFile.isEmpty()) {
        // The user's own settings: their endpoints get the user's keys.
        if (Result<bool> read = config.readFile(userFile, true); !read)
            return read.error();
    }
    if (!workspaceDir.isEmpty()) {
        const QString path = QDir(workspaceDir).filePath(QString::fromLatin1(kFileName));
        // The user's file may be the workspace's too (a program in the settings folder).
        if (QFileInfo(path).absoluteFilePath() != QFileInfo(userFile).absoluteFilePath()) {
            const bool keysAllowed =
                workspaceKeys == WorkspaceKeys::Allowed ||
                (workspaceKeys == WorkspaceKeys::FromTrustStore && workspaceTrusted(workspaceDir));
            if (Result<bool> read = config.readFile(path, keysAllowed); !read)
                return read.error();
        }
    }
    for (const Route& r : config.m_routes) {
        if (!config.findEndpoint(r.endpoint))
            return makeError(QStringLiteral("%1: model '%2' names endpoint '%3', which is not "
                                            "under `endpoints`")
                                 .arg(r.file, QString::fromStdString(r.glob), r.endpoint));
    }
    return config;
}

namespace {

// What one endpoint entry's settings go into, and what they are read against.
struct EndpointFields {
    EndpointConfig& endpoint;
    QString& provider;
    QString& cassette;
    QString refusedKeyEnv; ///< the key variable an untrusted file named (not read)
    const QProcessEnvironment& env;
    bool keysAllowed;
    QString folder; ///< the file's, for relative paths
};

// One setting of an endpoint entry (base_url, api_key_env, azure/api_version, provider,
// cassette, timeouts, reply size): read into `f`, or why it cannot be.
Result<bool> readEndpointSetting(const pdl::YamlValue::Entry& e, EndpointFields& f)
{
    const QString value = QString::fromStdString(e.value.scalar().str());
    if (!e.value.isScalar())
        return at(
            e.value,
            QStringLiteral("'%1' must be a single value").arg(QString::fromStdString(e.name)));
    if (e.name == "base_url") {
        f.endpoint.baseUrl = value;
    } else if (e.name == "api_key_env") {
        if (f.keysAllowed)
            f.endpoint.apiKey = f.env.value(value);
        else
            f.refusedKeyEnv = value;
    } else if (e.name == "api_key") {
        return at(e.key, QStringLiteral("API keys do not belong in a project file; put "
                                        "the key in an environment variable and name it "
                                        "with `api_key_env`"));
    } else if (e.name == "azure") {
        f.endpoint.azure = e.value.scalar().truthy();
    } else if (e.name == "api_version") {
        f.endpoint.apiVersion = value;
    } else if (e.name == "provider") {
        f.provider = value;
    } else if (e.name == "cassette") {
        f.cassette = QDir(f.folder).absoluteFilePath(value);
    } else if (e.name == "default_model") {
        // Read by the workbench (settings dialog, new model blocks), not by routing.
    } else if (e.name == "timeout" || e.name == "deadline") {
        const double seconds = e.value.scalar().toDouble();
        if (!(seconds > 0 && seconds <= 7 * 24 * 3600))
            return at(e.value, QStringLiteral("'%1' must be a number of seconds above 0")
                                   .arg(QString::fromStdString(e.name)));
        (e.name == "timeout" ? f.endpoint.idleTimeoutMs : f.endpoint.deadlineMs) =
            int(seconds * 1000);
    } else if (e.name == "max_reply_mb") {
        const double mb = e.value.scalar().toDouble();
        if (!(mb > 0 && mb <= 64 * 1024))
            return at(e.value, QStringLiteral("'max_reply_mb' must be a number of "
                                              "megabytes above 0 (at most 65536)"));
        f.endpoint.maxReplyBytes = qint64(mb * 1024 * 1024);
    } else if (e.name == "embed_batch_size") {
        f.endpoint.embedBatchSize = int(e.value.scalar().toDouble());
    } else {
        return at(e.key, QStringLiteral("unknown endpoint setting '%1' (known: base_url, "
                                        "api_key_env, azure, api_version, provider, "
                                        "cassette, timeout, deadline, max_reply_mb, "
                                        "embed_batch_size, default_model)")
                             .arg(QString::fromStdString(e.name)));
    }
    return true;
}

} // namespace

Result<bool> ModelConfig::readFile(const QString& path, bool keysAllowed)
{
    const QProcessEnvironment& env = m_env;
    const QString folder = QFileInfo(path).absolutePath();
    QFile file(path);
    if (!file.exists())
        return true;
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    m_file = path;
    m_files.append(path);
    Result<pdl::YamlValue> doc = pdl::loadYaml(file.readAll(), path);
    if (!doc)
        return doc.error();
    if (doc->isNull())
        return true;
    if (!doc->isMapping())
        return at(*doc, QStringLiteral("%1 must be a mapping with `endpoints`, `models`, "
                                       "`litellm_proxy` and `default_model`")
                            .arg(QString::fromLatin1(kFileName)));

    // One endpoint entry: base_url, api_key_env, azure/api_version, provider, cassette.
    auto readEndpoint = [&](const QString& name,
                            const pdl::YamlValue& node) -> Result<ModelConfig::Named> {
        Named named;
        named.name = name;
        named.provider = QStringLiteral("openai");
        named.endpoint.name = name;
        named.keysAllowed = keysAllowed;
        named.file = path;
        named.line = node.span().line;
        named.fromProject =
            QFileInfo(path).absoluteFilePath() != QFileInfo(m_userFile).absoluteFilePath();
        if (!node.isMapping())
            return at(node, QStringLiteral("endpoint '%1' must be a mapping").arg(name));
        EndpointFields fields{named.endpoint, named.provider, named.cassette, {}, env,
                              keysAllowed,    folder};
        for (const auto& e : node.entries())
            if (Result<bool> read = readEndpointSetting(e, fields); !read)
                return read.error();
        const QString refusedKeyEnv = fields.refusedKeyEnv;
        if (named.provider == QLatin1String("openai") && named.endpoint.baseUrl.isEmpty())
            return at(node, QStringLiteral("endpoint '%1' needs a base_url").arg(name));
        named.endpoint.configHint = QStringLiteral("Check endpoint '%1' in %2.").arg(name, path);
        if (!keysAllowed)
            named.endpoint.configHint +=
                QStringLiteral(" Its folder is not trusted, so Hako sends it none of your API "
                               "keys%1; trust the folder (the workbench asks when you run a "
                               "program there, or `hako run --trust`) to let it use them.")
                    .arg(refusedKeyEnv.isEmpty()
                             ? QString()
                             : QStringLiteral(" (not %1, which api_key_env names)")
                                   .arg(refusedKeyEnv));
        return named;
    };

    std::vector<Route> routes;
    for (const auto& top : doc->entries()) {
        if (top.name == "endpoints") {
            if (!top.value.isMapping())
                return at(top.value, QStringLiteral("`endpoints` must map names to endpoints"));
            for (const auto& e : top.value.entries()) {
                Result<Named> named = readEndpoint(QString::fromStdString(e.name), e.value);
                if (!named)
                    return named.error();
                std::erase_if(m_endpoints, [&](const Named& n) { return n.name == named->name; });
                m_endpoints.push_back(std::move(named.value()));
            }
        } else if (top.name == "litellm_proxy") {
            Result<Named> named = readEndpoint(QStringLiteral("litellm"), top.value);
            if (!named)
                return named.error();
            m_haveProxy = true;
            m_proxy = named->endpoint;
            m_proxyKeysAllowed = named->keysAllowed;
            m_projectProxy = named->fromProject
                                 ? ProjectEndpoint{named->endpoint.baseUrl, path, named->line}
                                 : ProjectEndpoint{};
        } else if (top.name == "default_model") {
            if (!top.value.isScalar() || top.value.isNull() || top.value.scalar().str().empty())
                return at(top.value, QStringLiteral("`default_model` must be a model name such "
                                                    "as ollama_chat/granite3.2:2b"));
            const std::string name = top.value.scalar().str();
            if (name == kDefaultAlias)
                return at(top.value, QStringLiteral("`default_model` must name a real model, "
                                                    "not '%1'")
                                         .arg(QString::fromLatin1(kDefaultAlias)));
            m_defaultModel = QString::fromStdString(name);
        } else if (top.name == "models") {
            if (!top.value.isMapping())
                return at(top.value, QStringLiteral("`models` must map model names (globs) to "
                                                    "endpoint names"));
            for (const auto& e : top.value.entries()) {
                Route route;
                route.glob = e.name;
                route.file = path;
                const pdl::YamlValue* endpoint = &e.value;
                if (e.value.isMapping()) {
                    endpoint = e.value.value("endpoint");
                    if (const pdl::YamlValue* m = e.value.value("model"))
                        route.model = m->scalar().str();
                }
                if (!endpoint || !endpoint->isString())
                    return at(e.value, QStringLiteral("model '%1' must name an endpoint")
                                           .arg(QString::fromStdString(e.name)));
                route.endpoint = QString::fromStdString(endpoint->scalar().asString());
                routes.push_back(std::move(route));
            }
        } else {
            return at(top.key, QStringLiteral("unknown section '%1' (known: endpoints, models, "
                                              "litellm_proxy, default_model)")
                                   .arg(QString::fromStdString(top.name)));
        }
    }
    // A later file's routes are tried first.
    m_routes.insert(m_routes.begin(), std::make_move_iterator(routes.begin()),
                    std::make_move_iterator(routes.end()));
    return true;
}

QString ModelConfig::defaultModel() const
{
    return m_defaultModel.isEmpty() ? QString::fromLatin1(kFallbackDefaultModel) : m_defaultModel;
}

const ModelConfig::Named* ModelConfig::findEndpoint(const QString& name) const
{
    for (const Named& n : m_endpoints) {
        if (n.name == name)
            return &n;
    }
    return nullptr;
}

EndpointConfig ModelConfig::withKeyring(EndpointConfig e, bool keysAllowed) const
{
    if (!keysAllowed)
        return e;
    if (m_keys) {
        if (std::optional<QString> key = m_keys->lookup(e.name))
            e.apiKey = *key;
        // An authentication error then says why a key stored in the keyring was not used.
        if (e.apiKey.isEmpty() && !m_keys->available() && e.name != QLatin1String("ollama"))
            e.configHint += QLatin1Char(' ') + m_keys->note();
    }
    return e;
}

EndpointConfig ModelConfig::ollama() const
{
    EndpointConfig e;
    e.name = QStringLiteral("ollama");
    const QString base =
        m_env.value(QStringLiteral("OLLAMA_API_BASE"), QStringLiteral("http://localhost:11434"));
    e.baseUrl = withV1(base);
    e.configHint = QCoreApplication::translate(
                       "hako::models::ModelConfig",
                       "Is Ollama running (`ollama serve`)? Set OLLAMA_API_BASE to its "
                       "address (now %1) %2.")
                       .arg(base, fileHint(m_file, m_userFile));
    return e;
}

EndpointConfig ModelConfig::openai() const
{
    EndpointConfig e;
    e.name = QStringLiteral("openai");
    e.baseUrl = m_env.value(QStringLiteral("OPENAI_BASE_URL"),
                            m_env.value(QStringLiteral("OPENAI_API_BASE"),
                                        QStringLiteral("https://api.openai.com/v1")));
    e.apiKey = m_env.value(QStringLiteral("OPENAI_API_KEY"));
    e.configHint =
        QCoreApplication::translate("hako::models::ModelConfig",
                                    "Set OPENAI_API_KEY, and OPENAI_BASE_URL for a server other "
                                    "than OpenAI's, %1.")
            .arg(fileHint(m_file, m_userFile));
    return e;
}

Result<ResolvedModel> ModelConfig::resolve(const std::string& name) const
{
    Result<ResolvedModel> r = resolveName(name);
    // `default` (not mapped by a route of its own) stands for the configured default model.
    if (!r && name == kDefaultAlias) {
        return makeError(QStringLiteral("model 'default' stands for the default model, %1: %2")
                             .arg(defaultModel(), r.error().message));
    }
    return r;
}

Result<ResolvedModel> ModelConfig::resolveName(const std::string& requested) const
{
    ResolvedModel out;
    bool routed = false;
    for (const Route& r : m_routes)
        routed = routed || globMatch(r.glob, requested);
    const std::string name =
        requested == kDefaultAlias && !routed ? defaultModel().toStdString() : requested;
    const size_t slash = name.find('/');
    const std::string prefix = slash == std::string::npos ? std::string() : name.substr(0, slash);
    const std::string rest = slash == std::string::npos ? name : name.substr(slash + 1);
    const QString qname = QString::fromStdString(name);
    for (const Route& r : m_routes) {
        if (!globMatch(r.glob, name))
            continue;
        const Named* n = findEndpoint(r.endpoint);
        out.provider = n->provider;
        out.endpoint = n->provider == QLatin1String("openai")
                           ? withKeyring(n->endpoint, n->keysAllowed)
                           : n->endpoint;
        out.cassette = n->cassette;
        out.model = !r.model.empty()                        ? r.model
                    : r.glob.find('/') != std::string::npos ? rest
                                                            : name;
        return out;
    }
    if (name.empty())
        return makeError(QStringLiteral("a model block needs a model name"));
    // `NAME/model` goes to the endpoint called NAME under `endpoints` (what Settings › Model
    // Endpoints and the start page's Use This Server add), as a route `NAME/*` would.
    if (!prefix.empty())
        if (const Named* n = findEndpoint(QString::fromStdString(prefix))) {
            out.provider = n->provider;
            out.endpoint = n->provider == QLatin1String("openai")
                               ? withKeyring(n->endpoint, n->keysAllowed)
                               : n->endpoint;
            out.cassette = n->cassette;
            out.model = rest;
            return out;
        }
    if (prefix == "ollama" || prefix == "ollama_chat") {
        out.endpoint = withKeyring(ollama());
        out.model = rest;
        return out;
    }
    if (prefix.empty() || prefix == "openai") {
        out.endpoint = withKeyring(openai());
        out.model = rest;
        if (out.endpoint.apiKey.isEmpty() &&
            out.endpoint.baseUrl.startsWith(QLatin1String("https://api.openai.com")))
            return makeError(QStringLiteral("model '%1' goes to OpenAI (%2) but OPENAI_API_KEY "
                                            "is not set. %3")
                                 .arg(qname, out.endpoint.baseUrl, out.endpoint.configHint));
        return out;
    }
    if (prefix == "azure") {
        out.endpoint.name = QStringLiteral("azure");
        out.endpoint.azure = true;
        out.endpoint.baseUrl = m_env.value(QStringLiteral("AZURE_API_BASE"));
        out.endpoint.apiKey = m_env.value(QStringLiteral("AZURE_API_KEY"));
        out.endpoint = withKeyring(out.endpoint);
        out.endpoint.apiVersion =
            m_env.value(QStringLiteral("AZURE_API_VERSION"), QStringLiteral("2024-06-01"));
        out.endpoint.configHint =
            QCoreApplication::translate("hako::models::ModelConfig",
                                        "Set AZURE_API_BASE, AZURE_API_KEY and "
                                        "AZURE_API_VERSION %1.")
                .arg(fileHint(m_file, m_userFile));
        out.model = rest;
        if (out.endpoint.baseUrl.isEmpty())
            return makeError(QStringLiteral("model '%1' goes to Azure OpenAI but AZURE_API_BASE "
                                            "is not set. %2")
                                 .arg(qname, out.endpoint.configHint));
        return out;
    }
    if (!m_haveProxy)
        return makeError(QStringLiteral("model '%1' needs a LiteLLM proxy (Hako talks to '%2' "
                                        "models through one): set LITELLM_PROXY_API_BASE (and "
                                        "LITELLM_PROXY_API_KEY), or add `litellm_proxy: "
                                        "{base_url: …}` to hako-models.yaml")
                             .arg(qname, QString::fromStdString(prefix)));
    out.endpoint = withKeyring(m_proxy, m_proxyKeysAllowed);
    out.model = prefix == "litellm_proxy" ? rest : name;
    return out;
}

std::vector<ModelConfig::Listed> ModelConfig::listedEndpoints() const
{
    std::vector<Listed> out;
    for (const Named& n : m_endpoints) {
        if (n.provider != QLatin1String("openai"))
            continue;
        // `NAME/model` goes to the endpoint NAME unless a route `PREFIX/*` names it.
        QString prefix = n.name + QLatin1Char('/');
        for (const Route& r : m_routes) {
            if (r.endpoint == n.name && r.glob.size() > 2 && r.glob.ends_with("/*"))
                prefix = QString::fromStdString(r.glob.substr(0, r.glob.size() - 1));
        }
        out.push_back({withKeyring(n.endpoint, n.keysAllowed), prefix});
    }
    out.push_back({withKeyring(ollama()), QStringLiteral("ollama/")});
    const EndpointConfig oa = withKeyring(openai());
    if (!oa.apiKey.isEmpty() || m_env.contains(QStringLiteral("OPENAI_BASE_URL")) ||
        m_env.contains(QStringLiteral("OPENAI_API_BASE")))
        out.push_back({oa, QString()});
    if (m_haveProxy)
        out.push_back({withKeyring(m_proxy, m_proxyKeysAllowed), QStringLiteral("litellm_proxy/")});
    return out;
}

std::vector<ModelConfig::ProjectEndpoint> ModelConfig::projectEndpoints() const
{
    std::vector<ProjectEndpoint> out;
    for (const Named& n : m_endpoints)
        if (n.fromProject && n.provider == QLatin1String("openai"))
            out.push_back({n.endpoint.baseUrl, n.file, n.line});
    if (m_haveProxy && !m_projectProxy.url.isEmpty())
        out.push_back(m_projectProxy);
    return out;
}

} // namespace hako::models
