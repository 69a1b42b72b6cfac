#include "cli/commandline.h"

#include "cli/commandregistry.h"

#include <QFileInfo>

namespace hako {

Invocation parseCommandLine(const QStringList& args, const CommandRegistry& registry)
{
    Invocation result;
    if (!args.isEmpty()) {
        if (registry.find(args.first())) {
            result.kind = Invocation::Kind::Subcommand;
            result.command = args.first();
            result.commandArgs = args.mid(1);
            return result;
        }
    }
    bool onlyFiles = false;
    for (const QString& arg : args) {
        if (!onlyFiles && arg == QLatin1String("--")) {
            onlyFiles = true;
        } else if (!onlyFiles && (arg == QLatin1String("-h") || arg == QLatin1String("--help"))) {
            result.kind = Invocation::Kind::Help;
            return result;
        } else if (!onlyFiles &&
                   (arg == QLatin1String("-v") || arg == QLatin1String("--version"))) {
            result.kind = Invocation::Kind::Version;
            return result;
        } else if (!onlyFiles && arg.startsWith(u'-') && arg.size() > 1) {
            result.kind = Invocation::Kind::Error;
            result.error = QStringLiteral("unknown option '%1'").arg(arg);
            return result;
        } else {
            result.files.append(arg);
        }
    }
    if (!result.files.isEmpty() && args.first() == result.files.first()) {
        const QString& first = result.files.first();
        const bool looksLikeFile = first.contains(u'.') || first.contains(u'/');
        if (!looksLikeFile && !QFileInfo::exists(first)) {
            result.kind = Invocation::Kind::Error;
            result.error =
                QStringLiteral("'%1' is not a hako command or an existing file").arg(first);
        }
    }
    return result;
}

QString usageText(const CommandRegistry& registry)
{
    QString text =
        QStringLiteral("Usage: hako [OPTIONS] [FILE.pdl…]\n"
                       "       hako COMMAND [ARGS…]\n"
                       "\n"
                       "Opens the Hako workbench, a desktop editor and debugger for PDL\n"
                       "prompt programs, or runs a command without a window.\n"
                       "\n"
                       "Options:\n"
                       "  -h, --help      Show this help and exit\n"
                       "  -v, --version   Show the version and exit\n"
                       "  --              Treat the remaining arguments as files\n"
                       "\n"
                       "Commands:\n");
    if (registry.commands().isEmpty())
        text += QStringLiteral("  (none yet)\n");
    int width = 0;
    for (const Command& command : registry.commands())
        width = qMax(width, int(command.name.size()));
    for (const Command& command : registry.commands()) {
        text += QStringLiteral("  ") + command.name.leftJustified(width + 2) + command.summary +
                QLatin1Char('\n');
    }
    if (!registry.commands().isEmpty())
        text += QStringLiteral("\nRun 'hako COMMAND --help' for a command's options.\n");
    return text;
}

} // namespace hako
