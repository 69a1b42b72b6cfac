// libhako_commands' entry: every subcommand but `run` (see commandsmodule.h), by the name the
// command line registered it under (CommandRegistry, in libhako_cli).
#include "cli/checkcommand.h"
#include "cli/commandsmodule.h"
#include "cli/diffcommand.h"
#include "cli/evalcommand.h"
#include "cli/logcommand.h"
#include "cli/memorycommand.h"
#include "cli/modelscommand.h"
#include "cli/notebookcommand.h"
#include "cli/output.h"
#include "cli/promptcommand.h"
#include "cli/searchcommand.h"
#include "cli/servecommand.h"
#include "cli/tracescommand.h"

#include <type_traits>

extern "C" __attribute__((visibility("default"))) int hakoCommandMain(const QString& name,
                                                                      const QStringList& args)
{
    static_assert(std::is_same_v<decltype(&hakoCommandMain), hako::CommandsModuleEntry>);
    using Handler = int (*)(const QStringList&);
    static const std::pair<const char*, Handler> kHandlers[] = {
        {"check", hako::checkCommand},   {"expr", hako::exprCommand},
        {"eval", hako::evalCommand},     {"search", hako::searchCommand},
        {"models", hako::modelsCommand}, {"memory", hako::memoryCommand},
        {"log", hako::logCommand},       {"prompt", hako::promptCommand},
        {"serve", hako::serveCommand},   {"notebook", hako::notebookCommand},
        {"diff", hako::diffCommand},     {"traces", hako::tracesCommand},
    };
    for (const auto& [handlerName, handler] : kHandlers) {
        if (name == QLatin1String(handlerName))
            return handler(args);
    }
    hako::writeText(stderr, QStringLiteral("hako: no command %1 in %2\n")
                                .arg(name, QLatin1String(hako::kCommandsModuleFile)));
    return 2;
}
