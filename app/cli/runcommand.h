#pragma once

#include <QStringList>

namespace hako {
/// `hako run [--trace [FILE]] [-d YAML] [-f DATA.yaml] [--stream result|context|none]
/// [--sandbox] [--replay TRACE] [--max-call-depth N] PROGRAM`: runs a PDL program as the
/// reference CLI does: prints the result, exit 0; or `file:line:col - message` on stderr, a
/// partial trace, exit 1.
int runCommand(const QStringList& args);
} // namespace hako
