#include "core/run/debugsession.h"
#include "core/pdl/interp/scopenames.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <cctype>

namespace hako {

namespace {

// `json` (ensure_ascii: every non-ASCII character written \uXXXX) with those characters written
// as themselves, as json.dumps(ensure_ascii=False) would; control characters stay escaped.
std::string withCharacters(const std::string& json)
{
    std::string out;
    out.reserve(json.size());
    auto hex = [&](size_t at) -> int {
        if (at + 4 > json.size())
            return -1;
        int v = 0;
        for (size_t k = at; k < at + 4; ++k) {
            const char c = json[k];
            const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                          : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                          : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                                      : -1;
            if (d < 0)
                return -1;
            v = v * 16 + d;
        }
        return v;
    };
    for (size_t i = 0; i < json.size(); ++i) {
        if (json[i] != '\\' || i + 1 >= json.size()) {
            out += json[i];
            continue;
        }
        int cp = json[i + 1] == 'u' ? hex(i + 2) : -1;
        size_t used = 6;
        if (cp >= 0xD800 && cp < 0xDC00 && json.compare(i + 6, 2, "\\u") == 0) {
            const int low = hex(i + 8);
            cp = (low >= 0xDC00 && low < 0xE000) ? 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
                                                 : -1;
            used = 12;
        }
        if (cp < 0x80 || (cp >= 0xD800 && cp < 0xE000)) { // an escape to keep, as written
            out += json[i];
            out += json[i + 1];
            ++i;
            continue;
        }
        const QByteArray utf8 =
            QString::fromUcs4(reinterpret_cast<const char32_t*>(&cp), 1).toUtf8();
        out.append(utf8.constData(), size_t(utf8.size()));
        i += used - 1;
    }
    return out;
}

} // namespace

QString DebugSession::valueText(const pdl::Value& v)
{
    if (v.isCallable())
        return QString::fromStdString(v.repr());
    // PDL's JSON (json.dumps) with its characters kept (「苦情」, not \u82e6\u60c5); what
    // cannot be JSON as Python's repr.
    try {
        return QString::fromStdString(withCharacters(v.json()));
    } catch (const std::exception&) {
        return QString::fromStdString(v.repr());
    }
}

DebugSession::DebugSession(pdl::Debugger& debugger, QString programFile)
    : m_debugger(debugger), m_programFile(std::move(programFile))
{}

QString DebugSession::pausedMessage(const pdl::DebugLocation& location)
{
    return tr("paused at %1").arg(location.describe()) + QLatin1Char('\n');
}

bool DebugSession::parseLocation(const QString& text, QString* file, int* line) const
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    if (colon < 0) {
        *line = text.toInt(&ok);
        *file = m_programFile;
    } else {
        *line = text.mid(colon + 1).toInt(&ok);
        *file = text.left(colon);
    }
    return ok && *line > 0 && !file->isEmpty();
}

DebugSession::Reply DebugSession::addBreakpoint(const QString& args)
{
    Reply r;
    QString where = args;
    std::string condition;
    static const QRegularExpression ifWord(QStringLiteral("\\s+if\\s+"));
    if (const QRegularExpressionMatch m = ifWord.match(args); m.hasMatch()) {
        where = args.left(m.capturedStart());
        condition = args.mid(m.capturedEnd()).trimmed().toStdString();
    }
    QString file;
    int line = 0;
    if (!parseLocation(where.trimmed(), &file, &line)) {
        r.text = tr("usage: break FILE:LINE [if EXPR]") + QLatin1Char('\n');
        return r;
    }
    // Refused when it could never stop: a file not in the run, a line past the end, a
    // condition that does not parse. A line without a block moves to the next one, said so.
    const Result<int> at = m_debugger.checkLocation(file, line, condition);
    if (!at) {
        r.text = tr("No breakpoint set: %1").arg(at.error().message) + QLatin1Char('\n');
        return r;
    }
    const int n = m_debugger.addBreakpoint(file, *at, condition);
    r.text = tr("Breakpoint %1 at %2:%3").arg(n).arg(QFileInfo(file).fileName()).arg(*at);
    if (!condition.empty())
        r.text += tr(" if %1").arg(QString::fromStdString(condition));
    if (*at != line)
        r.text += tr(" (line %1 has no block)").arg(line);
    r.text += QLatin1Char('\n');
    return r;
}

// `breaks`: every breakpoint, its condition and hits.
DebugSession::Reply DebugSession::listBreakpoints()
{
    Reply r;
    for (const pdl::Breakpoint& bp : m_debugger.breakpoints()) {
        r.text += tr("%1: %2:%3").arg(bp.number).arg(QFileInfo(bp.file).fileName()).arg(bp.line);
        if (!bp.condition.empty())
            r.text += tr(" if %1").arg(QString::fromStdString(bp.condition));
        r.text += tr(" (hit %n time(s))", nullptr, bp.hits) + QLatin1Char('\n');
    }
    if (r.text.isEmpty())
        r.text = tr("No breakpoints.") + QLatin1Char('\n');
    return r;
}

// `until FILE:LINE`: resumes to the block at that line (or the next line that has one).
DebugSession::Reply DebugSession::runUntil(const QString& args)
{
    Reply r;
    QString file;
    int l = 0;
    if (!parseLocation(args, &file, &l)) {
        r.text = tr("usage: until FILE:LINE") + QLatin1Char('\n');
        return r;
    }
    if (!m_debugger.isPaused()) {
        r.text = tr("The program is not paused.") + QLatin1Char('\n');
        return r;
    }
    // A line without a block would never be reached: run to the next one that has a
    // block, or refuse.
    const Result<int> at = m_debugger.checkLocation(file, l);
    if (!at) {
        r.text = tr("Not resumed: %1").arg(at.error().message) + QLatin1Char('\n');
        return r;
    }
    if (*at != l) {
        r.text =
            tr("Line %1 has no block: running until line %2").arg(l).arg(*at) + QLatin1Char('\n');
        if (m_write) // said before the run goes on and prints
            m_write(std::exchange(r.text, QString()));
    }
    m_debugger.resume(pdl::Debugger::Resume::RunToLine, file, *at);
    r.resumed = true;
    return r;
}

// `vars`: the variables where the program is paused (builtins left out).
DebugSession::Reply DebugSession::listVariables()
{
    Reply r;
    std::optional<pdl::Dict> vars = m_debugger.variables();
    if (!vars) {
        r.text = tr("The program is not paused.") + QLatin1Char('\n');
        return r;
    }
    for (const auto& [k, v] : *vars) {
        const std::string name = k.isString() ? k.asString() : k.str();
        if (pdl::isBuiltinScopeName(name))
            continue;
        r.text += QString::fromStdString(name) + QStringLiteral(" = ") +
                  DebugSession::valueText(v) + QLatin1Char('\n');
    }
    return r;
}

// `set NAME = VALUE`: a variable, or the background context.
DebugSession::Reply DebugSession::setValue(const QString& args)
{
    Reply r;
    const qsizetype eq = args.indexOf(QLatin1Char('='));
    if (eq <= 0) {
        r.text = tr("usage: set NAME = VALUE") + QLatin1Char('\n');
        return r;
    }
    const QString name = args.left(eq).trimmed();
    const QString value = args.mid(eq + 1).trimmed();
    Result<bool> done = name == QLatin1String("context") || name == QLatin1String("pdl_context")
                            ? m_debugger.setContext(value)
                            : m_debugger.setVariable(name.toStdString(), value);
    if (!done.ok()) {
        r.text = tr("error: %1").arg(done.error().message) + QLatin1Char('\n');
        return r;
    }
    Result<pdl::Value> now = m_debugger.evaluate(name.toStdString());
    r.text = name + QStringLiteral(" = ") + (now.ok() ? DebugSession::valueText(*now) : value) +
             QLatin1Char('\n');
    return r;
}

// `context`: the background context, one message a line.
DebugSession::Reply DebugSession::showContext()
{
    Reply r;
    std::optional<pdl::List> messages = m_debugger.context();
    if (!messages) {
        r.text = tr("The program is not paused.") + QLatin1Char('\n');
        return r;
    }
    int i = 0;
    for (const pdl::Value& m : *messages) {
        QString role = QStringLiteral("?"), content;
        if (m.isDict()) {
            if (const pdl::Value* x = m.asDict().find("role"))
                role = QString::fromStdString(x->toText());
            if (const pdl::Value* x = m.asDict().find("content"))
                content = x->isString() ? QString::fromStdString(x->asString())
                                        : DebugSession::valueText(*x);
        }
        r.text += QStringLiteral("[%1] %2: %3\n").arg(i++).arg(role, content);
    }
    if (messages->empty())
        r.text = tr("(empty context)") + QLatin1Char('\n');
    return r;
}

// `pause errors|models on|off`.
DebugSession::Reply DebugSession::setPauses(const QString& args)
{
    Reply r;
    const QStringList words = args.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.size() == 2 &&
        (words[1] == QLatin1String("on") || words[1] == QLatin1String("off")) &&
        (words[0] == QLatin1String("errors") || words[0] == QLatin1String("models"))) {
        const bool on = words[1] == QLatin1String("on");
        if (words[0] == QLatin1String("errors"))
            m_debugger.setPauseOnError(on);
        else
            m_debugger.setPauseBeforeModelCalls(on);
        return r;
    }
    r.text = tr("usage: pause errors|models on|off") + QLatin1Char('\n');
    return r;
}

// `help`: the commands.
DebugSession::Reply DebugSession::help() const
{
    Reply r;
    r.text = tr("break FILE:LINE [if EXPR]  set a breakpoint (break LINE: in the program)\n"
                "delete N                   delete breakpoint N; breaks lists them\n"
                "continue, c                run to the next breakpoint\n"
                "next, n                    run to the next block at this level or above\n"
                "step, s                    run to the next block (into this one)\n"
                "out                        run to the end of the enclosing block\n"
                "until FILE:LINE            run to the block at that line\n"
                "print EXPR, p              evaluate a PDL expression here\n"
                "vars                       the variables here\n"
                "set NAME = VALUE           set a variable (VALUE in YAML/JSON)\n"
                "context                    the background context (set context = [...])\n"
                "answer TEXT                answer the model call here by hand\n"
                "where                      where the program is paused\n"
                "pause errors|models on|off pause on errors / before model calls\n"
                "quit, q                    stop the program\n");
    return r;
}

DebugSession::Reply DebugSession::execute(const QString& input)
{
    Reply r;
    const QString line = input.trimmed();
    if (line.isEmpty())
        return r;
    const qsizetype space = line.indexOf(QLatin1Char(' '));
    const QString cmd = space < 0 ? line : line.left(space);
    const QString args = space < 0 ? QString() : line.mid(space + 1).trimmed();
    auto resume = [&](pdl::Debugger::Resume mode) {
        if (!m_debugger.isPaused()) {
            r.text = tr("The program is not paused.") + QLatin1Char('\n');
            return;
        }
        m_debugger.resume(mode);
        r.resumed = true;
    };
    using Resume = pdl::Debugger::Resume;
    if (cmd == QLatin1String("break") || cmd == QLatin1String("b"))
        return addBreakpoint(args);
    if (cmd == QLatin1String("delete") || cmd == QLatin1String("d")) {
        bool ok = false;
        const int n = args.toInt(&ok);
        r.text = (ok && m_debugger.removeBreakpoint(n) ? tr("Deleted breakpoint %1").arg(n)
                                                       : tr("No breakpoint %1").arg(args)) +
                 QLatin1Char('\n');
        return r;
    }
    if (cmd == QLatin1String("breaks") || line == QLatin1String("info breakpoints"))
        return listBreakpoints();
    if (cmd == QLatin1String("continue") || cmd == QLatin1String("c")) {
        resume(Resume::Continue);
        return r;
    }
    if (cmd == QLatin1String("next") || cmd == QLatin1String("n")) {
        resume(Resume::StepOver);
        return r;
    }
    if (cmd == QLatin1String("step") || cmd == QLatin1String("s")) {
        resume(Resume::StepInto);
        return r;
    }
    if (cmd == QLatin1String("out") || cmd == QLatin1String("finish")) {
        resume(Resume::StepOut);
        return r;
    }
    if (cmd == QLatin1String("until") || cmd == QLatin1String("u"))
        return runUntil(args);
    if (cmd == QLatin1String("print") || cmd == QLatin1String("p")) {
        if (args.isEmpty()) {
            r.text = tr("usage: print EXPR") + QLatin1Char('\n');
            return r;
        }
        Result<pdl::Value> v = m_debugger.evaluate(args.toStdString());
        r.text = (v.ok() ? DebugSession::valueText(*v) : tr("error: %1").arg(v.error().message)) +
                 QLatin1Char('\n');
        return r;
    }
    if (cmd == QLatin1String("vars"))
        return listVariables();
    if (cmd == QLatin1String("set"))
        return setValue(args);
    if (cmd == QLatin1String("context"))
        return showContext();
    if (cmd == QLatin1String("answer")) {
        Result<bool> done = m_debugger.answerModel(args.toStdString());
        if (!done.ok())
            r.text = tr("error: %1").arg(done.error().message) + QLatin1Char('\n');
        else
            r.resumed = true;
        return r;
    }
    if (cmd == QLatin1String("where") || cmd == QLatin1String("w")) {
        std::optional<pdl::DebugLocation> at = m_debugger.location();
        r.text = (at ? tr("%1 [%2]").arg(at->describe(), QString::fromStdString(at->id))
                     : tr("The program is not paused.")) +
                 QLatin1Char('\n');
        return r;
    }
    if (cmd == QLatin1String("pause"))
        return setPauses(args);
    if (cmd == QLatin1String("quit") || cmd == QLatin1String("q")) {
        r.quit = true;
        return r;
    }
    if (cmd == QLatin1String("help") || cmd == QLatin1String("h"))
        return help();
    r.text = tr("Unknown command: %1 (help lists them)").arg(cmd) + QLatin1Char('\n');
    return r;
}

} // namespace hako
