#pragma once

#include "core/util/diagnostic.h"

#include <QList>
#include <QProcessEnvironment>
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

/// The endpoints of a workspace's hako-models.yaml plus the built-in ones, for the settings
/// dialog; save() writes the file's endpoints back atomically (QSaveFile), keeping the file's
/// other sections (`models`, `litellm_proxy`) and each endpoint's other settings (`timeout`, …).
/// Comments in the file are not kept. A plain value type; no threads involved.
class ModelSettings {
public:
    /// Reads `<workspaceDir>/hako-models.yaml` (absent: no file endpoints). Errors point into
    /// the file.
    static Result<ModelSettings>
    load(const QString& workspaceDir,
         const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment());

    /// Built-in endpoints first (in the order ollama, openai, azure, litellm), then the file's.
    QList<EndpointSetting> endpoints;

    /// What is wrong with `endpoints` (empty or repeated names, a name of a built-in endpoint, a
    /// base URL that is not http(s)); "" when they can be saved.
    QString check() const;
    /// Writes the non-built-in endpoints to the file; on any failure the old file stays whole.
    Result<bool> save() const;

    QString file() const { return m_file; }

private:
    QString m_file;
};

} // namespace hako::models
