#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace hako {

/// One `hako <name> …` subcommand. The handler runs under a QCoreApplication (never a GUI
/// application) and returns the process exit code.
struct Command {
    QString name;
    QString summary; ///< one line for `hako --help`
    std::function<int(const QStringList& args)> handler;
};

/// The subcommands the executable knows, in registration order.
class CommandRegistry {
public:
    /// Adds `command`; a later command with the same name replaces the earlier one.
    void add(Command command);
    const Command* find(const QString& name) const;
    const QList<Command>& commands() const { return m_commands; }

    /// Creates the QCoreApplication and runs `command` with `args` (the words after its name).
    static int run(const Command& command, const QStringList& args, int& argc, char** argv);

private:
    QList<Command> m_commands;
};

/// Registers every built-in subcommand (`hako run`, `hako check`, … add one line each here).
void registerBuiltinCommands(CommandRegistry& registry);

} // namespace hako
