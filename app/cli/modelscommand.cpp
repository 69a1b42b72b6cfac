#include "cli/modelscommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "core/models/apikeystore.h"
#include "core/models/modelrouter.h"

#include <QDir>

#include <nlohmann/json.hpp>

#include <cstdio>

namespace hako {

namespace {

const char* kUsage =
    "usage: hako models [--json] [--workspace DIR]\n"
    "  Lists the models each configured endpoint serves: Ollama (OLLAMA_API_BASE, default\n"
    "  http://localhost:11434), OpenAI or any OpenAI-compatible server (OPENAI_BASE_URL,\n"
    "  OPENAI_API_KEY), a LiteLLM proxy (LITELLM_PROXY_API_BASE) and the endpoints in your\n"
    "  model settings (~/.config/Hako/Hako/hako-models.yaml, edited by the workbench's\n"
    "  Settings › Model Endpoints) and in DIR/hako-models.yaml (DIR defaults to the current\n"
    "  folder).\n"
    "  API keys: the desktop keyring (service `hako`, account = endpoint name, set in the\n"
    "  workbench's model settings), else the environment. HAKO_KEYRING=0 skips the keyring.\n";

} // namespace

int modelsCommand(const QStringList& args)
{
    bool asJson = false;
    QString workspace = QDir::currentPath();
    OptionParser parser;
    parser.addFlag({QStringLiteral("--json")}, [&asJson] { asJson = true; });
    parser.addOption({QStringLiteral("--workspace")}, [&workspace](const QString& dir) {
        workspace = dir;
        return QString();
    });
    parser.setPositional(
        [](const QString& word) { return QStringLiteral("unexpected %1").arg(word); });
    const OptionParser::Parsed parsed = parser.parse(args);
    if (std::optional<int> exit =
            OptionParser::finish(parsed, QStringLiteral("hako models"), kUsage))
        return *exit;
    std::shared_ptr<models::ApiKeyStore> keys = models::ApiKeyStore::system();
    Result<models::ModelConfig> config = models::ModelConfig::load(
        workspace, QProcessEnvironment::systemEnvironment(), keys, models::ModelConfig::userFile());
    if (!config) {
        writeText(stderr, QStringLiteral("hako models: %1\n").arg(config.error().toString()));
        return 2;
    }
    const QString defaultModel = config->defaultModel();
    const QStringList files = config->files();
    models::ModelRouter router(std::move(config.value()));
    const auto endpoints = router.listEndpoints(CancelToken());
    int answered = 0;
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& e : endpoints) {
        nlohmann::ordered_json entry{{"endpoint", e.name.toStdString()},
                                     {"base_url", e.baseUrl.toStdString()}};
        if (e.models) {
            ++answered;
            nlohmann::ordered_json names = nlohmann::ordered_json::array();
            for (const QString& m : *e.models)
                names.push_back(QString(e.prefix + m).toStdString());
            entry["models"] = names;
        } else {
            entry["error"] = e.models.error().message.toStdString();
        }
        if (asJson) {
            out.push_back(entry);
            continue;
        }
        writeText(stdout, QStringLiteral("%1 (%2)\n").arg(e.name, e.baseUrl));
        if (e.models) {
            for (const QString& m : *e.models)
                writeText(stdout, QStringLiteral("  %1%2\n").arg(e.prefix, m));
            if (e.models->isEmpty())
                writeText(stdout, QStringLiteral("  (no models)\n"));
        } else {
            writeText(stdout, QStringLiteral("  error: %1\n").arg(e.models.error().message));
        }
    }
    // Said after the list: by then every endpoint's key has been looked up.
    const QString note = keys->note();
    if (asJson) {
        writeText(stdout, QString::fromStdString(out.dump(2)) + QLatin1Char('\n'));
    } else {
        writeText(stdout,
              QStringLiteral("default: %1 (what `model: default` uses)\n").arg(defaultModel));
        for (const QString& f : files)
            writeText(stdout, QStringLiteral("settings: %1\n").arg(f));
    }
    if (!note.isEmpty())
        writeText(stderr, QStringLiteral("note: %1\n").arg(note));
    return answered > 0 ? 0 : 1;
}

} // namespace hako
