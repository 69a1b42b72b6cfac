#include "core/pdl/debug/debugger.h"

#include "core/pdl/check/blockwalk_p.h"
#include "core/pdl/expr/expression.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>

#include <chrono>

namespace hako::pdl {

namespace {

// The blocks directly inside `b` that can run, in source order as far as it matters for
// breakpoints: a parser's `pdl:` program too, an error block's program not (it never runs).
template <typename F> void forEachChild(const Block& b, F&& f)
{
    auto one = [&](const BlockPtr& c, const std::string& = {}) {
        if (c)
            f(*c);
    };
    for (const auto& d : b.defs)
        one(d.second);
    detail::forEachKindChild(b, one, detail::ChildBlocks::Runnable);
    one(b.fallback);
    one(b.parser.pdl);
}

bool covers(const SourceSpan& s, int line)
{
    const int end = s.endLine > 0 ? s.endLine : s.line;
    return s.line <= line && line <= end;
}

// The innermost block covering `line` (the first of siblings), or null.
const Block* innermost(const Block& b, int line, int depth = 0)
{
    if (depth > 2000 || !covers(b.span, line))
        return nullptr;
    const Block* found = &b;
    forEachChild(b, [&](const Block& c) {
        if (found != &b)
            return;
        if (const Block* inner = innermost(c, line, depth + 1))
            found = inner;
    });
    return found;
}

// The first line after `line` on which a block of `b` starts (0 when none).
int nextBlockLine(const Block& b, int line, int depth = 0)
{
    if (depth > 2000)
        return 0;
    int best = b.span.line > line ? b.span.line : 0;
    forEachChild(b, [&](const Block& c) {
        const int inner = nextBlockLine(c, line, depth + 1);
        if (inner > 0 && (best == 0 || inner < best))
            best = inner;
    });
    return best;
}

bool hasChildren(const Block& b)
{
    bool any = false;
    forEachChild(b, [&](const Block&) { any = true; });
    return any;
}

// The line a breakpoint on `line` stops at: the line itself when a block starts on it or a leaf
// block runs over it, or a line of a model, call, code or read block's own; else the next line
// that starts a block (a blank line, a key of a structure entered earlier, stand for it); 0 when no
// block follows. One rule for checkLocation() and for breakpoints set without it (the editor's
// margin), so both stop where the person expects.
int effectiveLine(const Block& root, int line)
{
    const Block* at = innermost(root, line);
    // A block that does something itself (calls a model, a function, code, reads) stops on any
    // of its own lines, as on `model:` below a `def:`: its input is only what it sends.
    const bool actsItself = at && (at->kind == BlockKind::Model || at->kind == BlockKind::Call ||
                                   at->kind == BlockKind::Code || at->kind == BlockKind::Read);
    if (at && at != &root && (at->span.line == line || !hasChildren(*at) || actsItself))
        return line;
    return nextBlockLine(root, line);
}

bool sameFile(const QString& programFile, const QString& wanted)
{
    if (wanted.isEmpty())
        return true;
    const QString abs = QFileInfo(wanted).absoluteFilePath();
    if (QFileInfo(programFile).absoluteFilePath() == abs)
        return true;
    // `prog.pdl` or `sub/prog.pdl` as typed: any program file ending so.
    return !QFileInfo(wanted).isAbsolute() &&
           (programFile == wanted || programFile.endsWith(QLatin1Char('/') + wanted));
}

DebugLocation locationOf(const DebugFrame& frame, DebugLocation::Reason reason)
{
    DebugLocation l;
    l.reason = reason;
    const Block& b = frame.block();
    l.span = b.span;
    l.kind = b.kind;
    l.id = frame.id();
    if (b.def)
        l.def = *b.def;
    l.depth = frame.depth();
    return l;
}

} // namespace

QString DebugLocation::describe() const
{
    QString where = QStringLiteral("%1:%2").arg(QFileInfo(span.file).fileName()).arg(span.line);
    QString what = QStringLiteral("%1 block").arg(QString::fromUtf8(blockKindName(kind)));
    if (!def.empty())
        what += QStringLiteral(" '%1'").arg(QString::fromStdString(def));
    QString text = QCoreApplication::translate("hako::pdl::Debugger", "%1 (%2)").arg(where, what);
    if (reason == Reason::Breakpoint)
        text +=
            QCoreApplication::translate("hako::pdl::Debugger", ", breakpoint %1").arg(breakpoint);
    else if (reason == Reason::ModelCall)
        text += QCoreApplication::translate("hako::pdl::Debugger", ", before the model call");
    if (reason == Reason::Error)
        text += QCoreApplication::translate("hako::pdl::Debugger", ", error: %1")
                    .arg(QString::fromStdString(error));
    return text;
}

struct Debugger::Request {
    std::function<void(DebugFrame&)> fn;
    bool done = false;
    bool ran = false;
};

Debugger::Debugger() = default;
Debugger::~Debugger() = default;

std::string Debugger::asTemplate(const std::string& expression)
{
    if (expression.find("${") != std::string::npos)
        return expression;
    return "${ " + expression + " }";
}

int Debugger::addBreakpoint(const QString& file, int line, std::string condition,
                            std::string logMessage)
{
    std::lock_guard lock(m_mutex);
    Breakpoint bp;
    bp.number = m_nextNumber++;
    bp.file = file;
    bp.line = line;
    // A bare expression is read as one: `i == 3` means `${ i == 3 }`.
    if (!condition.empty())
        condition = asTemplate(condition);
    bp.condition = std::move(condition);
    bp.logMessage = std::move(logMessage);
    m_breakpoints.push_back(bp);
    resolveAll();
    rearm();
    return bp.number;
}

Result<int> Debugger::checkLocation(const QString& file, int line,
                                    const std::string& condition) const
{
    auto tr = [](const char* text) {
        return QCoreApplication::translate("hako::pdl::Debugger", text);
    };
    if (!condition.empty()) {
        const std::string expression =
            condition.find("${") == std::string::npos ? "${ " + condition + " }" : condition;
        if (std::optional<Diagnostic> bad = checkTemplate(expression))
            return makeError(tr("the condition '%1' cannot be read: %2")
                                 .arg(QString::fromStdString(condition), bad->message));
    }
    if (line < 1)
        return makeError(tr("line %1 does not exist (lines count from 1)").arg(line));
    std::lock_guard lock(m_mutex);
    const Program* program = nullptr;
    for (const auto& p : m_programs)
        if (p->root && sameFile(p->file, file) && !program)
            program = p.get();
    if (!program) {
        // Not loaded (yet): an included program runs later; a file that does not exist never.
        if (m_programs.empty() || QFileInfo::exists(file))
            return line;
        QStringList loaded;
        for (const auto& p : m_programs)
            loaded << QFileInfo(p->file).fileName();
        return makeError(tr("no program file '%1' in this run (it runs %2)")
                             .arg(file, loaded.join(QStringLiteral(", "))));
    }
    const QString name = QFileInfo(program->file).fileName();
    const int lines = int(program->source.count('\n')) +
                      (program->source.endsWith('\n') || program->source.isEmpty() ? 0 : 1);
    if (line > lines)
        return makeError(tr("%1 has %2 lines: there is no line %3").arg(name).arg(lines).arg(line));
    // A block that starts on the line, or a leaf block running over it, stops there. A line
    // between blocks (a blank line, a key of a block entered earlier) has no block of its own:
    // the next line that starts one stands in.
    const int next = effectiveLine(*program->root, line);
    if (next == 0)
        return makeError(
            tr("line %1 of %2 has no block, and no block follows it").arg(line).arg(name));
    return next;
}

bool Debugger::setBreakpointEnabled(int number, bool on)
{
    std::lock_guard lock(m_mutex);
    for (Breakpoint& bp : m_breakpoints)
        if (bp.number == number) {
            bp.enabled = on;
            resolveAll();
            rearm();
            return true;
        }
    return false;
}

void Debugger::setLogCallback(
    std::function<void(const QString& message, const DebugLocation&)> callback)
{
    std::lock_guard lock(m_mutex);
    m_onLog = std::move(callback);
}

std::vector<StackFrame> Debugger::stackOf(const DebugFrame& frame)
{
    std::vector<StackFrame> out;
    for (const DebugFrame* f = &frame; f && out.size() < 10000; f = f->enclosing()) {
        const Block& b = f->block();
        StackFrame row;
        row.span = b.span;
        row.kind = b.kind;
        row.id = f->id();
        if (b.def)
            row.def = *b.def;
        if (b.kind == BlockKind::Call) {
            const Value& call = static_cast<const CallBlock&>(b).call.value;
            std::string text = call.isString() ? call.asString() : call.repr();
            // `${ get_weather }` reads as the function's name.
            if (text.rfind("${", 0) == 0 && text.size() > 3 && text.back() == '}')
                text = text.substr(2, text.size() - 3);
            const auto first = text.find_first_not_of(' ');
            const auto last = text.find_last_not_of(' ');
            row.callee = first == std::string::npos ? text : text.substr(first, last - first + 1);
        }
        out.push_back(std::move(row));
    }
    return out;
}

const DebugFrame* Debugger::frameAt(const DebugFrame& frame, int index)
{
    const DebugFrame* f = &frame;
    for (int i = 0; f && i < index; ++i)
        f = f->enclosing();
    return index < 0 ? nullptr : f;
}

QString StackFrame::name() const
{
    if (kind == BlockKind::Call && !callee.empty())
        return QStringLiteral("call %1").arg(QString::fromStdString(callee));
    if (!def.empty())
        return QStringLiteral("%1 '%2'").arg(QString::fromUtf8(blockKindName(kind)),
                                             QString::fromStdString(def));
    return QString::fromUtf8(blockKindName(kind));
}

QString StackFrame::where() const
{
    return QStringLiteral("%1:%2").arg(QFileInfo(span.file).fileName()).arg(span.line);
}

QString StackFrame::describe() const
{
    return name() + QStringLiteral("  ") + where();
}

bool Debugger::removeBreakpoint(int number)
{
    std::lock_guard lock(m_mutex);
    auto it = std::find_if(m_breakpoints.begin(), m_breakpoints.end(),
                           [&](const Breakpoint& b) { return b.number == number; });
    if (it == m_breakpoints.end())
        return false;
    m_breakpoints.erase(it);
    resolveAll();
    rearm();
    return true;
}

void Debugger::clearBreakpoints()
{
    std::lock_guard lock(m_mutex);
    m_breakpoints.clear();
    resolveAll();
    rearm();
}

std::vector<Breakpoint> Debugger::breakpoints() const
{
    std::lock_guard lock(m_mutex);
    return m_breakpoints;
}

void Debugger::setPauseOnEntry(bool on)
{
    std::lock_guard lock(m_mutex);
    m_pauseOnEntry = on;
    rearm();
}

void Debugger::setPauseOnError(bool on)
{
    std::lock_guard lock(m_mutex);
    m_pauseOnError = on;
}

void Debugger::setPauseBeforeModelCalls(bool on)
{
    std::lock_guard lock(m_mutex);
    m_pauseBeforeModel = on;
    rearm();
}

void Debugger::requestPause()
{
    std::lock_guard lock(m_mutex);
    m_pauseRequested = true;
    rearm();
}

void Debugger::setPausedCallback(std::function<void(const DebugLocation&)> callback)
{
    std::lock_guard lock(m_mutex);
    m_onPaused = std::move(callback);
}

bool Debugger::isPaused() const
{
    std::lock_guard lock(m_mutex);
    return m_paused;
}

std::optional<DebugLocation> Debugger::location() const
{
    std::lock_guard lock(m_mutex);
    if (!m_paused)
        return std::nullopt;
    return m_location;
}

bool Debugger::inspect(const std::function<void(DebugFrame&)>& fn)
{
    auto request = std::make_shared<Request>();
    request->fn = fn;
    std::unique_lock lock(m_mutex);
    if (!m_paused)
        return false;
    m_requests.push_back(request);
    m_changed.notify_all();
    m_changed.wait(lock, [&] { return request->done; });
    return request->ran;
}

bool Debugger::post(std::function<void(DebugFrame&)> fn)
{
    auto request = std::make_shared<Request>();
    request->fn = std::move(fn);
    std::lock_guard lock(m_mutex);
    if (!m_paused)
        return false;
    m_requests.push_back(std::move(request));
    m_changed.notify_all();
    return true;
}

Result<Value> Debugger::evaluate(const std::string& expression, int frame)
{
    const std::string source = asTemplate(expression);
    std::optional<Result<Value>> out;
    if (!inspect([&](DebugFrame& f) {
            if (const DebugFrame* at = frameAt(f, frame))
                out = at->evaluate(source);
        }))
        return makeError(
            QCoreApplication::translate("hako::pdl::Debugger", "the run is not paused"));
    if (!out)
        return makeError(
            QCoreApplication::translate("hako::pdl::Debugger", "the call stack has no frame %1")
                .arg(frame));
    return std::move(*out);
}

std::optional<Dict> Debugger::variables(int frame)
{
    std::optional<Dict> out;
    inspect([&](DebugFrame& f) {
        if (const DebugFrame* at = frameAt(f, frame))
            out = at->variables();
    });
    return out;
}

std::optional<std::vector<StackFrame>> Debugger::callStack()
{
    std::optional<std::vector<StackFrame>> out;
    inspect([&](DebugFrame& f) { out = stackOf(f); });
    return out;
}

std::optional<List> Debugger::context()
{
    std::optional<List> out;
    inspect([&](DebugFrame& f) { out = f.context(); });
    return out;
}

namespace {

Result<Value> parseValueText(const QString& text)
{
    Result<YamlValue> yaml = loadYaml(text.toUtf8(), QStringLiteral("value"));
    if (!yaml.ok())
        return yaml.error();
    return yaml->toValue();
}

} // namespace

Result<bool> Debugger::setVariable(const std::string& name, const QString& valueText)
{
    Result<Value> v = parseValueText(valueText);
    if (!v.ok())
        return v.error();
    if (name.empty())
        return makeError(QCoreApplication::translate("hako::pdl::Debugger", "no variable name"));
    if (!inspect([&](DebugFrame& f) { f.setVariable(name, *v); }))
        return makeError(
            QCoreApplication::translate("hako::pdl::Debugger", "the run is not paused"));
    return true;
}

Result<bool> Debugger::setContext(const QString& messagesText)
{
    Result<Value> v = parseValueText(messagesText);
    if (!v.ok())
        return v.error();
    if (!v->isList())
        return makeError(QCoreApplication::translate("hako::pdl::Debugger",
                                                     "the context must be a list of messages"));
    if (!inspect([&](DebugFrame& f) { f.setContext(v->asList()); }))
        return makeError(
            QCoreApplication::translate("hako::pdl::Debugger", "the run is not paused"));
    return true;
}

Result<bool> Debugger::answerModel(const std::string& text, Resume then)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_paused)
            return makeError(
                QCoreApplication::translate("hako::pdl::Debugger", "the run is not paused"));
        if (m_location.kind != BlockKind::Model)
            return makeError(QCoreApplication::translate("hako::pdl::Debugger",
                                                         "the run is not paused at a model block"));
    }
    if (!inspect([&](DebugFrame& f) { f.answerModel(text); }))
        return makeError(
            QCoreApplication::translate("hako::pdl::Debugger", "the run is not paused"));
    resume(then);
    return true;
}

void Debugger::resume(Resume mode, const QString& file, int line)
{
    std::lock_guard lock(m_mutex);
    if (!m_paused)
        return;
    m_resume = mode;
    // Paused no more from here on: inspect() refuses and waitForPause() waits for the next.
    m_paused = false;
    m_runToFile = file;
    m_runToLine = mode == Resume::RunToLine ? line : 0;
    m_changed.notify_all();
}

void Debugger::interrupt()
{
    std::lock_guard lock(m_mutex);
    m_interrupted = true;
    m_armed.store(false, std::memory_order_relaxed);
    m_changed.notify_all();
}

bool Debugger::waitForPause()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_paused || m_finished; });
    return m_paused;
}

void Debugger::runFinished()
{
    std::lock_guard lock(m_mutex);
    m_finished = true;
    m_changed.notify_all();
}

void Debugger::programLoaded(const std::shared_ptr<const Program>& program)
{
    std::lock_guard lock(m_mutex);
    m_programs.push_back(program);
    resolveAll();
    rearm();
}

std::vector<const Block*> Debugger::resolve(const QString& file, int line) const
{
    std::vector<const Block*> out;
    for (const auto& p : m_programs) {
        if (!p->root || !sameFile(p->file, file))
            continue;
        const int at = effectiveLine(*p->root, line);
        if (const Block* b = at > 0 ? innermost(*p->root, at) : nullptr)
            out.push_back(b);
    }
    return out;
}

void Debugger::resolveAll()
{
    m_resolved.clear();
    for (const Breakpoint& bp : m_breakpoints)
        for (const Block* b : bp.enabled ? resolve(bp.file, bp.line) : std::vector<const Block*>{})
            m_resolved.push_back({bp.number, b});
    if (m_stepMode == Resume::RunToLine)
        for (const Block* b : resolve(m_runToFile, m_runToLine))
            m_resolved.push_back({0, b});
}

void Debugger::rearm()
{
    const bool armed =
        !m_interrupted &&
        (!m_resolved.empty() || m_stepMode == Resume::StepInto || m_stepMode == Resume::StepOver ||
         m_stepMode == Resume::StepOut || m_pauseOnEntry || m_pauseRequested || m_pauseBeforeModel);
    m_armed.store(armed, std::memory_order_relaxed);
}

void Debugger::beforeBlock(DebugFrame& frame)
{
    if (!m_armed.load(std::memory_order_relaxed))
        return;
    std::unique_lock lock(m_mutex);
    if (m_interrupted)
        return;
    const Block* block = &frame.block();
    const int depth = frame.depth();
    std::optional<DebugLocation::Reason> reason;
    int number = 0;
    if (m_pauseOnEntry) {
        m_pauseOnEntry = false;
        reason = DebugLocation::Reason::Entry;
    } else if (m_pauseRequested) {
        reason = DebugLocation::Reason::Pause;
    } else if (m_stepMode == Resume::StepInto ||
               (m_stepMode == Resume::StepOver && depth <= m_stepDepth) ||
               (m_stepMode == Resume::StepOut && depth < m_stepDepth)) {
        reason = DebugLocation::Reason::Step;
    }
    if (!reason) {
        bool runToLine = false;
        number = breakpointHit(frame, lock, runToLine);
        if (runToLine)
            reason = DebugLocation::Reason::RunToLine;
        else if (number > 0)
            reason = DebugLocation::Reason::Breakpoint;
    }
    if (!reason && m_pauseBeforeModel && block->kind == BlockKind::Model)
        reason = DebugLocation::Reason::ModelCall;
    if (!reason)
        return;
    DebugLocation loc = locationOf(frame, *reason);
    loc.breakpoint = number;
    if (*reason != DebugLocation::Reason::ModelCall && block->kind == BlockKind::Model &&
        m_pauseBeforeModel)
        loc.reason = DebugLocation::Reason::ModelCall;
    pause(frame, std::move(loc), lock);
}

int Debugger::breakpointHit(DebugFrame& frame, std::unique_lock<std::mutex>& lock, bool& runToLine)
{
    std::vector<Resolved> hits;
    for (const Resolved& r : m_resolved)
        if (r.block == &frame.block())
            hits.push_back(r);
    for (const Resolved& r : hits) {
        if (r.number == 0) {
            runToLine = true;
            return 0;
        }
        auto find = [&]() -> Breakpoint* {
            for (Breakpoint& bp : m_breakpoints)
                if (bp.number == r.number)
                    return &bp;
            return nullptr;
        };
        const Breakpoint* bp = find();
        if (!bp || !bp->enabled)
            continue;
        const std::string condition = bp->condition;
        const std::string message = bp->logMessage;
        // Conditions and messages are evaluated without the lock (they may call functions).
        if (!condition.empty()) {
            lock.unlock();
            Result<Value> v = frame.evaluate(condition);
            lock.lock();
            // A condition that fails to evaluate pauses (or logs): the person sees why.
            if (v.ok() && !v->truthy())
                continue;
        }
        if (Breakpoint* counted = find())
            ++counted->hits;
        if (message.empty())
            return r.number;
        auto log = m_onLog;
        DebugLocation at = locationOf(frame, DebugLocation::Reason::Breakpoint);
        at.breakpoint = r.number;
        lock.unlock();
        QString text;
        if (Result<Value> v = frame.evaluate(message); v.ok())
            text = QString::fromStdString(v->isString() ? v->asString() : v->toText());
        else
            text = QCoreApplication::translate("hako::pdl::Debugger", "(logpoint %1: %2)")
                       .arg(r.number)
                       .arg(v.error().message);
        if (log)
            log(text, at);
        lock.lock();
    }
    return 0;
}

void Debugger::blockFailed(DebugFrame& frame, const std::string& message)
{
    std::unique_lock lock(m_mutex);
    if (!m_pauseOnError || m_interrupted)
        return;
    DebugLocation loc = locationOf(frame, DebugLocation::Reason::Error);
    loc.error = message;
    pause(frame, std::move(loc), lock);
}

void Debugger::pause(DebugFrame& frame, DebugLocation location, std::unique_lock<std::mutex>& lock)
{
    // One paused thread at a time (parallel map iterations queue up here).
    m_changed.wait(lock, [&] { return !m_paused || m_interrupted || frame.cancelled(); });
    if (m_interrupted || frame.cancelled())
        return;
    m_paused = true;
    m_pauseRequested = false;
    m_stepMode = Resume::Continue;
    m_resume.reset();
    m_location = std::move(location);
    resolveAll();
    rearm();
    auto callback = m_onPaused;
    const DebugLocation shown = m_location;
    m_changed.notify_all();
    if (callback) {
        lock.unlock();
        callback(shown);
        lock.lock();
    }
    for (;;) {
        if (!m_requests.empty()) {
            std::shared_ptr<Request> r = m_requests.front();
            m_requests.pop_front();
            lock.unlock();
            r->fn(frame);
            lock.lock();
            r->ran = true;
            r->done = true;
            m_changed.notify_all();
            continue;
        }
        if (m_resume || m_interrupted || frame.cancelled())
            break;
        // Cancelling the run wakes the wait through interrupt(); the timeout is a safety net
        // for a caller that only cancelled the token.
        m_changed.wait_for(lock, std::chrono::milliseconds(20));
    }
    for (const auto& r : m_requests)
        r->done = true;
    m_requests.clear();
    m_paused = false;
    const Resume mode = m_resume.value_or(Resume::Continue);
    m_resume.reset();
    m_stepMode = mode;
    m_stepDepth = frame.depth();
    if (mode != Resume::RunToLine)
        m_runToLine = 0;
    resolveAll();
    rearm();
    m_changed.notify_all();
}

} // namespace hako::pdl
