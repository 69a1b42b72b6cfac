#pragma once

#include "core/util/diagnostic.h"

#include <QList>
#include <QProcessEnvironment>
#include <QSet>
#include <QString>

namespace hako::models {

/// One row of the model settings: an endpoint and what the user may set on it. Keys are not
/// here: they live in the keyring (ApiKeyStore), under the endpoint's name.
struct EndpointSetting {
    QString name;
    QString baseUrl;
    /// The environment variable holding the key when the keyring has none (`api_key_env:`).
    QString apiKeyEnv;
    /// The model the workbench proposes for this endpoint (`default_model:`).
    QString defaultModel;
    /// openai, ollama, azure, litellm: configured by environment variables, not by the file;
    /// their name and base URL are shown but not written.
    bool builtIn = false;
};

/// A model name (or glob) sent to one of the file's endpoints (`models:` in hako-models.yaml).
struct ModelRoute {
    QString name;     ///< `fast`, `vllm/*`
    QString endpoint; ///< an endpoint of the file
    QString model;    ///< the name the server knows; "" = the name itself (after the prefix)
};

/// The model settings of one hako-models.yaml (the user's, ModelConfig::userFile(), in the
/// workbench) plus the built-in endpoints, for the settings dialog; save() writes the file's
/// endpoints, routes and default model back atomically (QSaveFile), keeping the file's other
/// sections (`litellm_proxy`) and each endpoint's other settings (`timeout`, …). Comments in the
/// file are not kept. A plain value type; no threads involved.
class ModelSettings {
public:
    /// Reads `file` (absent or "": no file endpoints; "" cannot be saved). Errors point into the
    /// file.
    static Result<ModelSettings>
    load(const QString& file,
         const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment());

    /// Built-in endpoints first (in the order ollama, openai, azure, litellm), then the file's.
    QList<EndpointSetting> endpoints;
    /// The model `model: default` stands for (`default_model:`); "" = ModelConfig's fallback.
    QString defaultModel;
    /// The file's `models:` table, in its order.
    QList<ModelRoute> routes;

    /// What is wrong with `endpoints` (empty or repeated names, a name of a built-in endpoint, a
    /// base URL that is not http(s)) or `routes` (no name, an endpoint that is not in the file);
    /// "" when they can be saved.
    QString check() const;
    /// Writes the non-built-in endpoints, the routes and the default model to the file (creating
    /// its folder); on any failure the old file stays whole.
    Result<bool> save() const;

    QString file() const { return m_file; }

private:
    QString m_file;
    /// Endpoints of other providers (replay, plugins): not shown, kept, valid route targets.
    QSet<QString> m_otherEndpoints;
};

} // namespace hako::models
