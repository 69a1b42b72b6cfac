// The `hako` executable: a launcher that links no Qt. `hako --version` is answered here; any
// other invocation loads libhako_cli (see moduleentry.h), which runs a subcommand on QtCore
// alone or loads libhako_window for the workbench. So `hako run` never maps a GUI library and
// `hako --version` maps none of Hako's.
#include "moduleentry.h"

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

/// The folder holding libhako_cli: `../lib` from the executable in a build tree (and in an
/// install whose library folder is `lib`), else `../<install libdir>`.
std::string moduleFolder()
{
    char exe[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return HAKO_INSTALL_FULL_LIBDIR;
    exe[n] = '\0';
    std::string dir(exe);
    dir.erase(dir.rfind('/'));
    for (const char* relative : {"/../lib", "/../" HAKO_INSTALL_LIBDIR}) {
        const std::string folder = dir + relative;
        if (access((folder + "/" + hako::cliModuleFile).c_str(), R_OK) == 0)
            return folder;
    }
    return HAKO_INSTALL_FULL_LIBDIR;
}

} // namespace

int main(int argc, char** argv)
{
    // The same answer libhako_cli gives (a first word that is an option is never a command),
    // without loading it: scripts and package managers ask this often.
    if (argc == 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-v") == 0)) {
        std::printf("hako %s\n", HAKO_VERSION);
        return 0;
    }
    const std::string folder = moduleFolder();
    std::string error;
    auto entry = reinterpret_cast<hako::CliEntry>(
        hako::loadModuleEntry(folder, hako::cliModuleFile, hako::cliEntryName, &error));
    if (!entry) {
        std::fprintf(stderr, "hako: cannot load the command line: %s\n", error.c_str());
        return 127;
    }
    return entry(&argc, argv, folder.c_str());
}
