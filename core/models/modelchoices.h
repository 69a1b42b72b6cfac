#pragma once

#include "core/models/modelrouter.h"
#include "core/util/cancel.h"

#include <QList>
#include <QString>

#include <vector>

namespace hako::models {

class ModelConfig;

/// One model name the model picker and the snippets offer, with why.
struct ModelChoice {
    /// What a program writes after `model:` (`server/qwen-7b`, `default`).
    QString name;
    /// A short translated sentence for a tooltip: which server serves it.
    QString reason;
    /// The address of that server (for grouping).
    QString server;

    bool operator==(const ModelChoice&) const = default;
};

/// The names to offer for a configuration, given what its listed endpoints answered
/// (ModelRouter::listEndpoints()): every model a server that answered lists, under the name
/// that `config` routes back to that same server; `default` and the default model's own name
/// when they resolve to a server that answered. Never a bare prefix (`ollama/`), never a name
/// that `config` sends to another server or refuses (an OpenAI name without a key): such a name
/// would not reach a server. Pure; any thread (resolving may ask the key store).
QList<ModelChoice> modelChoices(const ModelConfig& config,
                                const std::vector<ModelRouter::EndpointModels>& answers);

/// Loads the configuration of `workspaceDir` (environment, the key store of
/// ApiKeyStore::system(), the user's hako-models.yaml and the folder's), asks every listed
/// endpoint for its models and gives modelChoices(). Blocking: for worker threads
/// (ModelCatalog's default lister). A configuration that cannot be read offers nothing.
QList<ModelChoice> listModelChoices(const QString& workspaceDir, const CancelToken& cancel);

/// The names of `choices`, in order.
QStringList choiceNames(const QList<ModelChoice>& choices);

} // namespace hako::models
