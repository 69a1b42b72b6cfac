#pragma once

#include <QString>
#include <QStringList>

namespace hako {

class CommandRegistry;

/// What `hako ARGS…` was asked to do, decided before any application object exists.
///
/// Rule: a first argument naming a registered subcommand runs that subcommand with the rest.
/// Otherwise `--help`/`--version` print and exit, any other `-option` is an error (exit 2), and
/// the remaining words are files to open in the workbench window. A first word that is neither
/// a subcommand nor an existing path and does not look like a file name (no `.` or `/`) is
/// reported as an unknown command.
struct Invocation {
    enum class Kind { Gui, Subcommand, Help, Version, Error };
    Kind kind = Kind::Gui;
    QStringList files;       ///< Gui: files to open
    QString command;         ///< Subcommand: its name
    QStringList commandArgs; ///< Subcommand: the words after its name
    QString error;           ///< Error: what was wrong
};

Invocation parseCommandLine(const QStringList& args, const CommandRegistry& registry);

/// The `hako --help` text, listing the registered subcommands.
QString usageText(const CommandRegistry& registry);

} // namespace hako
