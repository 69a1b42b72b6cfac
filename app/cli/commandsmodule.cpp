#include "cli/commandsmodule.h"

#include "cli/output.h"
#include "core/util/siblingmodule.h"

namespace hako {

namespace {

void* commandsSymbol(const char* symbol, QString* error)
{
    return siblingModuleSymbol(reinterpret_cast<const void*>(&runInCommandsModule),
                               kCommandsModuleFile, symbol, error);
}

} // namespace

int runInCommandsModule(const QString& name, const QStringList& args)
{
    QString error;
    auto entry =
        reinterpret_cast<CommandsModuleEntry>(commandsSymbol(kCommandsModuleEntry, &error));
    if (!entry) {
        writeText(stderr, QStringLiteral("hako %1: cannot load the command (Hako's installation is "
                                         "incomplete: reinstall it): %2\n")
                              .arg(name, error));
        return 127;
    }
    return entry(name, args);
}

const RunFeatures* runFeatures(QString* error)
{
    auto entry = reinterpret_cast<RunFeaturesEntry>(commandsSymbol(kRunFeaturesEntry, error));
    return entry ? entry() : nullptr;
}

} // namespace hako
