#pragma once
// The `hako` executable is a small launcher: it prints the version itself and loads the rest
// on demand, so that a command loads only the libraries it uses. libhako_cli (the command line
// and `hako run`, on QtCore and the run's floors) is loaded for any other invocation; it loads
// libhako_commands (every other subcommand: cli/commandsmodule.h) when one is asked for, and
// libhako_window (the workbench: QtWidgets, QScintilla, hako_widgets) only when the window
// opens. All live in the library folder next to the binary's (build/lib, or <prefix>/<libdir>
// when installed).
//
// No Qt in this header: the launcher links nothing but the C and C++ runtimes.

#include <dlfcn.h>

#include <string>

namespace hako {

/// libhako_cli's entry: what `hako ARGS…` does, given the launcher's argc/argv (alive for the
/// whole process) and the folder the modules were found in. Returns the exit status. Called
/// once, on the main thread.
using CliEntry = int (*)(int* argc, char** argv, const char* moduleFolder);
inline constexpr const char* cliModuleFile = "libhako_cli.so";
inline constexpr const char* cliEntryName = "hakoCliMain";

/// libhako_window's entry: opens the workbench window with `files` (each `char*` a path in the
/// locale's encoding, `fileCount` of them) and runs its event loop. Returns the exit status.
/// Called once, on the main thread, with no application object existing.
using WindowEntry = int (*)(int* argc, char** argv, const char* const* files, int fileCount);
inline constexpr const char* windowModuleFile = "libhako_window.so";
inline constexpr const char* windowEntryName = "hakoWindowMain";

/// Loads `folder/file` and returns its `symbol`, or null with `*error` saying why. The module
/// stays loaded for the life of the process. Lazy binding: only the functions a command calls
/// are resolved.
inline void* loadModuleEntry(const std::string& folder, const char* file, const char* symbol,
                             std::string* error)
{
    const std::string path = folder + "/" + file;
    void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
        *error = dlerror();
        return nullptr;
    }
    void* entry = dlsym(handle, symbol);
    if (!entry)
        *error = path + ": no " + symbol;
    return entry;
}

} // namespace hako
