#include "cli/commandregistry.h"

#include "cli/commandsmodule.h"
#include "cli/output.h"
#include "cli/runcommand.h"
#include "core/util/settingsfileguard.h"
#include "core/util/version.h"

#include <QCoreApplication>

namespace hako {

void CommandRegistry::add(Command command)
{
    for (Command& existing : m_commands) {
        if (existing.name == command.name) {
            existing = std::move(command);
            return;
        }
    }
    m_commands.append(std::move(command));
}

const Command* CommandRegistry::find(const QString& name) const
{
    for (const Command& command : m_commands) {
        if (command.name == name)
            return &command;
    }
    return nullptr;
}

int CommandRegistry::run(const Command& command, const QStringList& args, int& argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Hako"));
    QCoreApplication::setApplicationName(QStringLiteral("Hako"));
    QCoreApplication::setApplicationVersion(versionString());
    // Before any command reads or writes the settings (run trust, model settings).
    const SettingsFileGuard settingsGuard;
    if (settingsGuard.redirected())
        writeText(stderr, QStringLiteral("hako: warning: %1\n").arg(settingsGuard.warning()));
    return command.handler(args);
}

void registerBuiltinCommands(CommandRegistry& registry)
{
    // `run` is here; every other command is in libhako_commands, which has a handler for each
    // name below (tst_startuplibs asks each for its usage).
    const auto inModule = [](const QString& name) {
        return [name](const QStringList& args) {
            return runInCommandsModule(name, args);
        };
    };
    registry.add({QStringLiteral("run"), QStringLiteral("Run a PDL program and print its result"),
                  runCommand});
    registry.add({QStringLiteral("check"),
                  QStringLiteral("Check programs for structural and expression errors"),
                  inModule(QStringLiteral("check"))});
    registry.add({QStringLiteral("expr"),
                  QStringLiteral("Evaluate a PDL expression template and print its value"),
                  inModule(QStringLiteral("expr"))});
    registry.add({QStringLiteral("eval"),
                  QStringLiteral("Run an evaluation suite: a program over a dataset, judged by "
                                 "evaluators (CI: exit 1 on a missed threshold)"),
                  inModule(QStringLiteral("eval"))});
    registry.add({QStringLiteral("search"),
                  QStringLiteral("Search and show lines of a document (the seed's command game)"),
                  inModule(QStringLiteral("search"))});
    registry.add({QStringLiteral("models"),
                  QStringLiteral("List the models the configured endpoints serve"),
                  inModule(QStringLiteral("models"))});
    registry.add({QStringLiteral("memory"),
                  QStringLiteral("Add, list and retrieve agent memories; import and export stores"),
                  inModule(QStringLiteral("memory"))});
    registry.add({QStringLiteral("log"),
                  QStringLiteral("List, measure, export and prune the prompt log of model calls"),
                  inModule(QStringLiteral("log"))});
    registry.add({QStringLiteral("prompt"),
                  QStringLiteral("The prompt library: prompts, versions, labels, diffs, and a "
                                 "prompt at a label (NAME@production)"),
                  inModule(QStringLiteral("prompt"))});
    registry.add({QStringLiteral("serve"),
                  QStringLiteral("Receive OpenTelemetry traces (OTLP/HTTP) into the prompt log"),
                  inModule(QStringLiteral("serve"))});
    registry.add({QStringLiteral("notebook"),
                  QStringLiteral("Run the %%pdl cells of a Jupyter notebook and write their "
                                 "outputs back"),
                  inModule(QStringLiteral("notebook"))});
    registry.add({QStringLiteral("diff"),
                  QStringLiteral("Compare two traces: the blocks that changed, were inserted or "
                                 "deleted, word diffs and deltas (exit 1 when they differ)"),
                  inModule(QStringLiteral("diff"))});
    registry.add({QStringLiteral("traces"),
                  QStringLiteral("List the runs of a trace file (every trace of an OTLP file): "
                                 "status, duration, tokens, cost, session and user"),
                  inModule(QStringLiteral("traces"))});
}

} // namespace hako
