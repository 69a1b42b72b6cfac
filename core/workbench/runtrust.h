#pragma once

#include <QString>

namespace hako {

/// The workbench's trust rule, as the command line applies it (core, so that every runner —
/// `hako run`, and later the evaluation runner — shares it): a program from a folder the user has not
/// trusted may not run code (without --sandbox) nor send requests to servers other than the
/// configured endpoints, unless the user says so (`--trust` once, `--trust-folder` for good).
/// Returns the refusal to print, or an empty string to go on. Reads and writes the same trusted
/// folders as the workbench (QSettings "Hako"/"Hako").
QString trustRefusal(const QString& program, bool sandbox, bool trustOnce, bool trustFolder);

} // namespace hako
