#pragma once

#include <QStringList>

namespace hako {
/// `hako memory --store FILE <add|list|retrieve|import-ga|export|import> …`: the agent-memory
/// store from the command line (see the usage text). Exit 0 on success, 1 on errors, 2 on bad
/// usage. Never creates a GUI application object.
int memoryCommand(const QStringList& args);
} // namespace hako
