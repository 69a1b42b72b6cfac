#pragma once

#include <QStringList>

namespace hako {
/// `hako log <list|show|stats|export|import|delete-run|prune> …`: the prompt log from the command
/// line (see the usage text). Exit 0 on success, 1 on errors, 2 on bad usage. Never creates a
/// GUI application object.
int logCommand(const QStringList& args);
} // namespace hako
