#pragma once

#include <QString>

namespace hako {

/// The function `symbol` of the module `file` (a shared object built with Hako, such as
/// libhako_net.so) found in the folder of the shared library that holds `anchor` (build/lib, or
/// the installed library folder): how a floor keeps a heavy dependency (QtNetwork, QtKeychain)
/// out of every process that never uses it. The module is loaded on the first call and stays
/// loaded; a later call finds it again. Null, with `*error` saying why (the loader's message,
/// which names the file), when the module is missing or damaged. Thread-safe.
void* siblingModuleSymbol(const void* anchor, const char* file, const char* symbol, QString* error);

} // namespace hako
