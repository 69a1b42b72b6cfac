#pragma once

#include "core/pdl/debug/debugger.h"

#include <QCoreApplication>
#include <QString>

#include <functional>

namespace hako {

/// The debugger's command language (`hako run --debug`): one line in, the text to print out.
///
/// `break FILE:LINE [if EXPR]` (or `break LINE` in the program), `delete N`, `breaks`,
/// `continue`/`c`, `next`/`n`, `step`/`s`, `out`, `until FILE:LINE`, `print EXPR`/`p`, `vars`,
/// `set NAME = VALUE` (YAML/JSON), `context`, `answer TEXT` (paused before a model call),
/// `where`, `pause errors|models on|off`, `help`, `quit`/`q`.
///
/// Runs on the controlling thread (never the interpreter's): commands that read or change the
/// paused run wait briefly for the paused worker to do it (Debugger::inspect).
class DebugSession {
    Q_DECLARE_TR_FUNCTIONS(hako::DebugSession)
public:
    DebugSession(pdl::Debugger& debugger, QString programFile);

    struct Reply {
        QString text;         ///< what to print (lines ending in a newline), maybe empty
        bool resumed = false; ///< the run goes on: wait for the next pause
        bool quit = false;    ///< stop the run
    };
    /// Executes one command line.
    Reply execute(const QString& line);
    /// Where a command that resumes the run prints what it says first (`until` to a line
    /// without a block): before the run goes on, so its output never comes ahead of the note.
    /// Without one, the note is in the reply's text.
    void setWriter(std::function<void(const QString&)> write) { m_write = std::move(write); }
    /// `paused at prog.pdl:7 (model block 'answer')`, with a newline.
    static QString pausedMessage(const pdl::DebugLocation& location);
    /// A value as the debugger shows it (print, vars, watches, hover): JSON with its
    /// characters, a function as its repr.
    static QString valueText(const pdl::Value& value);

private:
    Reply addBreakpoint(const QString& args);
    Reply listBreakpoints();
    Reply runUntil(const QString& args);
    Reply listVariables();
    Reply setValue(const QString& args);
    Reply showContext();
    Reply setPauses(const QString& args);
    Reply help() const;
    bool parseLocation(const QString& text, QString* file, int* line) const;

    pdl::Debugger& m_debugger;
    QString m_programFile;
    std::function<void(const QString&)> m_write;
};

} // namespace hako
