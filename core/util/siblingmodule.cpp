#include "core/util/siblingmodule.h"

#include <dlfcn.h>

#include <string>

namespace hako {

void* siblingModuleSymbol(const void* anchor, const char* file, const char* symbol, QString* error)
{
    std::string path = file;
    Dl_info self{};
    if (dladdr(anchor, &self) && self.dli_fname) {
        const std::string library = self.dli_fname;
        const size_t slash = library.rfind('/');
        if (slash != std::string::npos)
            path = library.substr(0, slash + 1) + file;
    }
    // dlopen keeps one handle per file and counts the references: a second call costs a
    // lookup, not a load. RTLD_NOW: a module that cannot be bound fails here, not mid-call.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        if (error)
            *error = QString::fromLocal8Bit(dlerror());
        return nullptr;
    }
    void* found = dlsym(handle, symbol);
    if (!found && error)
        *error = QStringLiteral("%1 has no %2: built from another version of Hako?")
                     .arg(QString::fromStdString(path), QString::fromLatin1(symbol));
    return found;
}

} // namespace hako
