#pragma once

#include <QStringList>

namespace hako {
/// `hako check PROGRAM…`: prints every diagnostic as `file:line:col: severity: message` with
/// the source line and a caret; exit code 1 when any program has errors, 2 on bad usage.
int checkCommand(const QStringList& args);
/// `hako expr [--var NAME=VALUE]… [--vars FILE.json] [--repr] TEMPLATE`: evaluates a PDL
/// expression template and prints its value (PDL's text form, or Python repr with --repr).
int exprCommand(const QStringList& args);
} // namespace hako
