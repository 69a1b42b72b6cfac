// libhako_cli's entry (see moduleentry.h): decides between a subcommand (QCoreApplication only),
// printing help or the version (no application object at all) and the workbench window, which
// it loads from libhako_window only then.
#include "cli/commandline.h"
#include "cli/commandregistry.h"
#include "cli/output.h"
#include "core/util/version.h"
#include "moduleentry.h"

#include <cstdio>
#include <type_traits>
#include <vector>

namespace {

int openWindow(int* argc, char** argv, const char* moduleFolder, const QStringList& files)
{
    std::string error;
    auto entry = reinterpret_cast<hako::WindowEntry>(
        hako::loadModuleEntry(moduleFolder, hako::windowModuleFile, hako::windowEntryName, &error));
    if (!entry) {
        hako::writeText(stderr, QStringLiteral("hako: cannot load the workbench window: %1\n")
                                    .arg(QString::fromLocal8Bit(error.c_str())));
        return 127;
    }
    // Handed over as the locale's bytes they came in as, so the window reads them as main did.
    std::vector<QByteArray> bytes;
    std::vector<const char*> paths;
    bytes.reserve(files.size());
    for (const QString& file : files) {
        bytes.push_back(file.toLocal8Bit());
        paths.push_back(bytes.back().constData());
    }
    return entry(argc, argv, paths.data(), int(paths.size()));
}

} // namespace

extern "C" __attribute__((visibility("default"))) int hakoCliMain(int* argc, char** argv,
                                                                  const char* moduleFolder)
{
    static_assert(std::is_same_v<decltype(&hakoCliMain), hako::CliEntry>);
    QStringList args;
    for (int i = 1; i < *argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));

    hako::CommandRegistry registry;
    hako::registerBuiltinCommands(registry);
    const hako::Invocation invocation = hako::parseCommandLine(args, registry);

    switch (invocation.kind) {
    case hako::Invocation::Kind::Version:
        hako::writeText(stdout, QStringLiteral("hako %1\n").arg(hako::versionString()));
        return 0;
    case hako::Invocation::Kind::Help:
        hako::writeText(stdout, hako::usageText(registry));
        return 0;
    case hako::Invocation::Kind::Error:
        hako::writeText(stderr, QStringLiteral("hako: error: %1\n\n").arg(invocation.error) +
                                    hako::usageText(registry));
        return 2;
    case hako::Invocation::Kind::Subcommand:
        return hako::CommandRegistry::run(*registry.find(invocation.command),
                                          invocation.commandArgs, *argc, argv);
    case hako::Invocation::Kind::Gui:
        break;
    }
    return openWindow(argc, argv, moduleFolder, invocation.files);
}
