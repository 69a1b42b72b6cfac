#pragma once

#include "core/models/openaiprovider.h"
#include "core/util/diagnostic.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <memory>

#include <string>
#include <vector>

namespace hako::models {

class ApiKeyStore;

/// Where one model name goes: the endpoint, the provider kind and the name the server knows.
struct ResolvedModel {
    /// `openai` (any OpenAI-compatible server) or `replay` (a cassette file).
    QString provider = QStringLiteral("openai");
    EndpointConfig endpoint;
    /// The model name sent to the server (`granite3.2:2b` for `ollama/granite3.2:2b`).
    std::string model;
    /// For `replay`: the cassette file (absolute).
    QString cassette;
};

/// Whether the endpoints of a workspace's hako-models.yaml may receive the user's API keys
/// (environment variables named by `api_key_env:`, keyring entries). The file comes with the
/// program: one from an untrusted folder could send OPENAI_API_KEY to any host it likes. The
/// user's own file (userFile()) always may.
enum class WorkspaceKeys {
    /// Allowed when the file's folder is trusted in the code trust store (the same folders the
    /// workbench lets run code without asking; `hako run --trust`).
    FromTrustStore,
    Allowed,
    Refused,
};

/// Model name resolution, LiteLLM style, from the environment, the user's own `hako-models.yaml`
/// (userFile(), written by the workbench's model settings) and an optional one beside the
/// programs (the workspace's, which adds endpoints and routes and wins over the user's):
/// - names matched by a glob in the file's `models:` table go to the endpoint it names;
/// - `ollama/NAME`, `ollama_chat/NAME` → OLLAMA_API_BASE (default http://localhost:11434) + /v1;
/// - `openai/NAME` and bare names → OPENAI_BASE_URL (default https://api.openai.com/v1) with
///   OPENAI_API_KEY;
/// - `azure/NAME` → AZURE_API_BASE, AZURE_API_KEY, AZURE_API_VERSION (deployment NAME);
/// - `litellm_proxy/NAME` and any other prefix (`watsonx/…`, `replicate/…`) → the LiteLLM proxy
///   (`litellm_proxy:` in the file, or LITELLM_PROXY_API_BASE / LITELLM_PROXY_API_KEY);
/// - `default` (unless a route maps it) → the default model (`default_model:` in a file, else
///   kFallbackDefaultModel), resolved by these same rules. The examples that need a model use it,
///   so that they run with whatever model the user configured.
/// Keys are looked up in the desktop keyring first (an ApiKeyStore, account = the endpoint's
/// name), then in the environment (OPENAI_API_KEY, …, or the variable `api_key_env:` names); a
/// literal key in the project's file is refused. The file's own endpoints (and its
/// `litellm_proxy`) get a key only when WorkspaceKeys allows it; otherwise they are called
/// without one and an authentication error says why. Immutable after load(); safe to share
/// between threads (keyring answers are cached by the store).
class ModelConfig {
public:
    static constexpr const char* kFileName = "hako-models.yaml";
    /// The model name that stands for the configured default model.
    static constexpr const char* kDefaultAlias = "default";
    /// The default model when no file sets `default_model:` (a small local Ollama model).
    static constexpr const char* kFallbackDefaultModel = "ollama_chat/granite3.2:2b";

    /// The user's model settings: `hako-models.yaml` in the application's configuration folder
    /// (QStandardPaths::AppConfigLocation, e.g. ~/.config/Hako/Hako/); "" when there is none.
    static QString userFile();

    /// Reads `userFile` and then `<workspaceDir>/hako-models.yaml`, each when it exists (an empty
    /// path reads none), and takes variables from `env`. Errors point into the file.
    static Result<ModelConfig>
    load(const QString& workspaceDir,
         const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
         std::shared_ptr<ApiKeyStore> keys = nullptr, const QString& userFile = QString(),
         WorkspaceKeys workspaceKeys = WorkspaceKeys::FromTrustStore);

    /// Whether `workspaceDir` is a folder the user trusts (code trust store, user settings).
    static bool workspaceTrusted(const QString& workspaceDir);

    /// Where `name` goes; an error says what to configure when it cannot go anywhere.
    Result<ResolvedModel> resolve(const std::string& name) const;

    /// The endpoints worth asking for their models (`hako models`): the file's endpoints, Ollama,
    /// OpenAI when a key or base URL is set, the LiteLLM proxy when configured. `prefix` is what
    /// to put before each model name to make it resolve back to that endpoint (`NAME/` for an
    /// endpoint of a file, unless a route `PREFIX/*` names it).
    struct Listed {
        EndpointConfig endpoint;
        QString prefix;
    };
    std::vector<Listed> listedEndpoints() const;

    /// A server that a workspace file (not the user's own) sends model requests to: one of its
    /// `endpoints` or its `litellm_proxy`, with where it is named. The trust rule treats these
    /// as the program's own choice of server, like `parameters: {base_url: …}`.
    struct ProjectEndpoint {
        QString url;
        QString file;
        int line = 0;
    };
    std::vector<ProjectEndpoint> projectEndpoints() const;

    /// The keyring consulted for keys (nullptr: environment only).
    const std::shared_ptr<ApiKeyStore>& keyStore() const { return m_keys; }

    /// The last file that was read ("" when there was none).
    QString file() const { return m_file; }
    /// Every file that was read, the user's first.
    QStringList files() const { return m_files; }
    /// The model `default` stands for.
    QString defaultModel() const;

private:
    struct Route {
        std::string glob;
        QString endpoint;
        std::string model; ///< explicit server-side name, or "" for "the name after the prefix"
        QString file;      ///< where the route was read, for messages
    };
    struct Named {
        QString name;
        QString provider;
        EndpointConfig endpoint;
        QString cassette;
        /// False for an untrusted workspace file's endpoint: no key, from anywhere.
        bool keysAllowed = true;
        /// Where it is named, and whether that is a workspace file rather than the user's.
        QString file;
        int line = 0;
        bool fromProject = false;
    };

    Result<bool> readFile(const QString& path, bool keysAllowed);
    Result<ResolvedModel> resolveName(const std::string& name) const;
    EndpointConfig ollama() const;
    EndpointConfig openai() const;
    const Named* findEndpoint(const QString& name) const;
    /// `e` with the keyring's key for its name when one is stored (and keys are allowed).
    EndpointConfig withKeyring(EndpointConfig e, bool keysAllowed = true) const;

    QProcessEnvironment m_env;
    std::shared_ptr<ApiKeyStore> m_keys;
    QString m_file;
    QString m_userFile;
    QStringList m_files;
    QString m_defaultModel;
    std::vector<Named> m_endpoints;
    std::vector<Route> m_routes;
    bool m_haveProxy = false;
    bool m_proxyKeysAllowed = true;
    EndpointConfig m_proxy;
    /// The workspace file's litellm_proxy, when it set one ("" url otherwise).
    ProjectEndpoint m_projectProxy;
};

} // namespace hako::models
