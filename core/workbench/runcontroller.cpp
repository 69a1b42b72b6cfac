#include "core/workbench/runcontroller.h"

#include "core/util/logging.h"
#include "core/workbench/runarchive.h"

#include "core/pdl/debug/rerun.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/model/modelprovider.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/trace/tracefeed.h"
#include "core/pdl/trace/tracemodel.h"

#include <QDir>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QUuid>

#include <chrono>

namespace hako {

// What the worker and the GUI thread share. Kept alive by both, so a worker outliving a
// destroyed controller never touches freed memory.
struct RunController::Shared {
    std::mutex mutex;
    std::condition_variable inputReady;
    std::optional<std::optional<std::string>> input; // set: answered (inner nullopt = EOF)
    CancelToken cancel;
    QString out;
    QString err;
    bool outputPosted = false;
    // Results handed back at the end.
    bool ok = false;
    QString result;
    Diagnostic error;
    pdl::TracePtr trace;
    std::string divergedAt;
    SourceSpan divergedSpan;
};

RunController::RunController(QObject* parent)
    : QObject(parent), m_model(new pdl::TraceModel(this)), m_feed(new pdl::TraceFeed(m_model, this))
{}

RunController::~RunController()
{
    if (m_shared) {
        m_shared->cancel.cancel();
        m_shared->inputReady.notify_all();
    }
    if (m_debugger)
        m_debugger->interrupt();
    if (m_worker.joinable())
        m_worker.join();
}

void RunController::setModelProvider(std::shared_ptr<models::IModelProvider> provider)
{
    m_environment.modelProvider = std::move(provider);
}

QString RunController::programFileName(const QString& path)
{
    // An unsaved program's name reaches the trace's title, the console's messages and the
    // prompt log: in the interface's language, as the editor's tab says it (無題.pdl).
    return path.isEmpty() ? QDir::current().filePath(tr("untitled.pdl"))
                          : QFileInfo(path).absoluteFilePath();
}

bool RunController::start(const QByteArray& text, const QString& path)
{
    if (m_running)
        return false;
    return start(pdl::parseProgramText(text, programFileName(path)), path);
}

// The run's output goes to the Console through `shared`, posted to the GUI thread; input
// requests wait on the worker for the answer given on the GUI thread.
void RunController::connectIo(pdl::RunOptions& options, const std::shared_ptr<Shared>& shared)
{
    QPointer<RunController> self(this);
    auto post = [shared, self](bool isError, std::string_view text) {
        bool postNow = false;
        {
            std::lock_guard lock(shared->mutex);
            (isError ? shared->err : shared->out) +=
                QString::fromUtf8(text.data(), qsizetype(text.size()));
            if (!shared->outputPosted) {
                shared->outputPosted = true;
                postNow = true;
            }
        }
        if (postNow && self)
            QMetaObject::invokeMethod(self.data(), &RunController::flushOutput,
                                      Qt::QueuedConnection);
    };
    options.writeStdout = [post](std::string_view t) {
        post(false, t);
    };
    options.writeStderr = [post](std::string_view t) {
        post(true, t);
    };
    options.readInput = [shared, self, post](const std::string& prompt,
                                             bool multiline) -> std::optional<std::string> {
        {
            std::lock_guard lock(shared->mutex);
            shared->input.reset();
        }
        const QString p = QString::fromStdString(prompt);
        if (self)
            QMetaObject::invokeMethod(
                self.data(),
                [self, p, multiline] {
                    if (!self)
                        return;
                    self->flushOutput();
                    self->m_waitingForInput = true;
                    Q_EMIT self->inputRequested(p, multiline);
                },
                Qt::QueuedConnection);
        std::unique_lock lock(shared->mutex);
        while (!shared->input && !shared->cancel.isCancelled())
            shared->inputReady.wait_for(lock, std::chrono::milliseconds(100));
        if (!shared->input)
            return std::nullopt; // cancelled: the runner notices at the next boundary
        std::optional<std::string> answer = std::move(*shared->input);
        shared->input.reset();
        return answer;
    };
}

// Under the debugger (Debug rather than Run): a fresh one, with the breakpoints and pauses set.
void RunController::attachDebugger(pdl::RunOptions& options)
{
    m_debugger.reset();
    if (m_debugging) {
        auto debugger = std::make_shared<pdl::Debugger>();
        m_debugger = debugger;
        debugger->setPauseOnError(m_pauseOnError);
        debugger->setPauseBeforeModelCalls(m_pauseBeforeModel);
        applyBreakpoints();
        options.debugger = debugger.get();
        std::weak_ptr<pdl::Debugger> weak = debugger;
        m_frame = 0;
        installPausedCallback();
        // A logpoint's message goes to the Console with the program's output, in its order.
        if (auto write = options.writeStdout)
            debugger->setLogCallback([write](const QString& message, const pdl::DebugLocation&) {
                write(QString(message + QLatin1Char('\n')).toStdString());
            });
    }
}

RunController::DebugSnapshot RunController::makeSnapshot(pdl::DebugFrame& frame,
                                                         const pdl::DebugLocation& at,
                                                         int frameIndex, const QStringList& watches)
{
    DebugSnapshot snap;
    snap.location = at;
    snap.stack = pdl::Debugger::stackOf(frame);
    const pdl::DebugFrame* selected = pdl::Debugger::frameAt(frame, frameIndex);
    if (!selected) {
        selected = &frame;
        frameIndex = 0;
    }
    snap.frame = frameIndex;
    snap.variables = selected->variables();
    snap.context = selected->context();
    for (const QString& expression : watches) {
        WatchValue w{expression, std::nullopt, QString()};
        Result<pdl::Value> v =
            selected->evaluate(pdl::Debugger::asTemplate(expression.trimmed().toStdString()));
        if (v.ok())
            w.value = std::move(*v);
        else
            w.error = v.error().message;
        snap.watches << w;
    }
    return snap;
}

// On the worker, as it pauses: ask it (through its request queue, where the frame is valid)
// for the snapshot, with the watch expressions as they are now, which goes to the GUI thread.
// Each pause starts at the paused block's own frame.
void RunController::installPausedCallback()
{
    if (!m_debugger)
        return;
    std::weak_ptr<pdl::Debugger> weak = m_debugger;
    QPointer<RunController> self(this);
    m_debugger->setPausedCallback([weak, self, watches = m_watches](const pdl::DebugLocation& at) {
        if (auto d = weak.lock())
            d->post([self, at, watches](pdl::DebugFrame& frame) {
                const DebugSnapshot snap = makeSnapshot(frame, at, 0, watches);
                if (self)
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, snap] {
                            if (!self || !self->m_running)
                                return;
                            self->flushOutput();
                            self->m_paused = true;
                            self->m_frame = 0;
                            self->takeSnapshot(snap);
                        },
                        Qt::QueuedConnection);
            });
    });
}

void RunController::takeSnapshot(const DebugSnapshot& snapshot)
{
    m_snapshot = snapshot;
    Q_EMIT paused();
}

void RunController::setWatchExpressions(const QStringList& expressions)
{
    m_watches = expressions;
    // The run's pauses from now on evaluate them too.
    installPausedCallback();
    requestSnapshot();
}

void RunController::selectFrame(int index)
{
    if (!m_paused || index < 0 || index == m_frame)
        return;
    m_frame = index;
    requestSnapshot();
}

bool RunController::start(pdl::ParseResult parsed, const QString& path)
{
    if (m_running)
        return false;
    if (m_worker.joinable())
        m_worker.join();
    const QString fileName = programFileName(path);
    // What a re-run adds applies to this run only.
    const std::function<void(pdl::RunOptions&)> prepare = std::move(m_prepare);
    m_prepare = nullptr;
    if (!prepare) {
        m_forkedFromRun.clear();
        m_forkedFromNode.clear();
    }
    m_divergedAt.clear();
    m_divergedSpan = {};
    m_running = true;
    m_stopped = false;
    m_waitingForInput = false;
    m_lastTrace.reset();
    m_model->beginLiveRun(fileName);
    Q_EMIT started(fileName);

    if (!parsed.ok() || !parsed.program) {
        Diagnostic first;
        for (const Diagnostic& d : parsed.diagnostics)
            if (d.severity == Severity::Error) {
                first = d;
                break;
            }
        if (first.message.isEmpty())
            first.message = tr("the program could not be read");
        m_running = false;
        m_model->endLiveRun(nullptr);
        Q_EMIT finished(false, QString(), first);
        return true;
    }

    auto shared = std::make_shared<Shared>();
    m_shared = shared;
    pdl::RunOptions options;
    options.trace = true;
    options.captureScope = true;
    options.observer = m_feed;
    options.cancel = shared->cancel;
    // The Console shows the result as it is produced (as `hako run` prints it), so it never
    // needs to show the finished result again.
    options.streamResult = true;
    connectIo(options, shared);

    RunEnvironment environment = m_environment;
    if (environment.baseFolder.isEmpty())
        environment.baseFolder = QFileInfo(fileName).absolutePath();
    // Known here, before the worker starts, so that the window can find this run's calls and
    // its kept trace.
    if (environment.runLog.runId.isEmpty())
        environment.runLog.runId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_lastRunId = environment.runLog.runId;
    m_paused = false;
    attachDebugger(options);
    if (prepare) {
        prepare(options);
        environment.runLog.tags << QStringLiteral("forked-from:%1").arg(m_forkedFromRun)
                                << QStringLiteral("forked-at:%1").arg(m_forkedFromNode);
    }
    std::shared_ptr<const pdl::Program> program = parsed.program;
    QPointer<RunController> self(this);
    m_worker =
        std::thread([shared, self, options, environment, program, debugger = m_debugger]() mutable {
            // A broken model configuration only matters to programs with model blocks; those fail
            // with the interpreter's "no provider" message naming the model.
            environment.compose(options);
            pdl::Interpreter interpreter(options);
            pdl::RunResult r = interpreter.run(program);
            {
                std::lock_guard lock(shared->mutex);
                shared->ok = r.ok;
                shared->result = QString::fromStdString(r.result.toText());
                shared->error = r.error;
                shared->trace = r.trace;
                shared->divergedAt = r.replayDivergedAt;
                shared->divergedSpan = r.replayDivergedSpan;
            }
            if (r.trace && !environment.traceArchiveFolder.isEmpty()) {
                QString why;
                if (!RunArchive(environment.traceArchiveFolder)
                         .save(*r.trace, environment.runLog.runId, &why))
                    qCWarning(lcApp).noquote() << "the run's trace was not kept:" << why;
            }
            if (self)
                QMetaObject::invokeMethod(self.data(), &RunController::onWorkerDone,
                                          Qt::QueuedConnection);
        });
    return true;
}

bool RunController::startRerun(const QByteArray& text, const QString& path,
                               const pdl::TraceNode& trace, const QString& fromRunId,
                               const QString& nodeId, QString* error)
{
    if (m_running) {
        if (error)
            *error = tr("a run is going");
        return false;
    }
    return startRerun(pdl::parseProgramText(text, programFileName(path)), path, trace, fromRunId,
                      nodeId, error);
}

bool RunController::startRerun(pdl::ParseResult parsed, const QString& path,
                               const pdl::TraceNode& trace, const QString& fromRunId,
                               const QString& nodeId, QString* error)
{
    if (m_running) {
        if (error)
            *error = tr("a run is going");
        return false;
    }
    pdl::RerunPlan plan = pdl::planRerun(trace, nodeId.toStdString());
    if (!plan.ok) {
        if (error)
            *error = tr("no block '%1' in the trace").arg(nodeId);
        return false;
    }
    m_forkedFromRun = fromRunId;
    m_forkedFromNode = nodeId;
    m_prepare = [plan](pdl::RunOptions& options) {
        plan.apply(options);
    };
    return start(std::move(parsed), path);
}

void RunController::stop()
{
    if (!m_running || !m_shared)
        return;
    m_shared->cancel.cancel();
    m_shared->inputReady.notify_all();
    if (m_debugger)
        m_debugger->interrupt();
}

void RunController::applyBreakpoints()
{
    if (!m_debugger)
        return;
    m_debugger->clearBreakpoints();
    for (auto it = m_breakpoints.cbegin(); it != m_breakpoints.cend(); ++it)
        for (auto line = it->cbegin(); line != it->cend(); ++line) {
            // The same check `break` makes in the console: a breakpoint that could never stop
            // (a condition that does not parse, a line past the end) is refused aloud. A line
            // without a block of its own stops at the next block, as the console's does.
            const std::string condition = line.value().condition.toStdString();
            const Result<int> at = m_debugger->checkLocation(it.key(), line.key(), condition);
            if (!at) {
                Q_EMIT debugError(tr("The breakpoint on line %1 of %2 is not set: %3")
                                      .arg(line.key())
                                      .arg(QFileInfo(it.key()).fileName(), at.error().message));
                continue;
            }
            const int number = m_debugger->addBreakpoint(it.key(), line.key(), condition,
                                                         line.value().logMessage.toStdString());
            if (!line.value().enabled)
                m_debugger->setBreakpointEnabled(number, false);
        }
}

void RunController::setBreakpoints(const QString& file, const QList<int>& lines)
{
    QMap<int, QString> conditions;
    for (int line : lines)
        conditions.insert(line, QString());
    setBreakpoints(file, conditions);
}

void RunController::setBreakpoints(const QString& file, const QMap<int, QString>& conditions)
{
    QMap<int, BreakpointSpec> specs;
    for (auto it = conditions.cbegin(); it != conditions.cend(); ++it)
        specs.insert(it.key(), BreakpointSpec{it.value(), QString(), true});
    setBreakpoints(file, specs);
}

void RunController::setBreakpoints(const QString& file,
                                   const QMap<int, BreakpointSpec>& breakpoints)
{
    if (breakpoints.isEmpty())
        m_breakpoints.remove(file);
    else
        m_breakpoints.insert(file, breakpoints);
    applyBreakpoints();
}

void RunController::setPauseOnError(bool on)
{
    m_pauseOnError = on;
    if (m_debugger)
        m_debugger->setPauseOnError(on);
}

void RunController::setPauseBeforeModelCalls(bool on)
{
    m_pauseBeforeModel = on;
    if (m_debugger)
        m_debugger->setPauseBeforeModelCalls(on);
}

void RunController::resume(pdl::Debugger::Resume mode, const QString& file, int line)
{
    if (!m_debugger || !m_paused)
        return;
    m_paused = false;
    m_debugger->resume(mode, file, line);
    Q_EMIT resumed();
}

void RunController::continueRun()
{
    resume(pdl::Debugger::Resume::Continue);
}

void RunController::stepOver()
{
    resume(pdl::Debugger::Resume::StepOver);
}

void RunController::stepInto()
{
    resume(pdl::Debugger::Resume::StepInto);
}

void RunController::stepOut()
{
    resume(pdl::Debugger::Resume::StepOut);
}

void RunController::runToLine(const QString& file, int line)
{
    resume(pdl::Debugger::Resume::RunToLine, file, line);
}

void RunController::pauseRun()
{
    if (m_debugger && m_running && !m_paused)
        m_debugger->requestPause();
}

void RunController::answerModelCall(const QString& reply)
{
    if (!m_debugger || !m_paused)
        return;
    if (m_snapshot.location.kind != pdl::BlockKind::Model) {
        Q_EMIT debugError(tr("the run is not paused before a model call"));
        return;
    }
    const std::string text = reply.toStdString();
    // Queued on the worker before the resume, so it is there when the call is made.
    m_debugger->post([text](pdl::DebugFrame& frame) { frame.answerModel(text); });
    continueRun();
}

void RunController::requestSnapshot()
{
    if (!m_debugger || !m_paused)
        return;
    QPointer<RunController> self(this);
    const pdl::DebugLocation at = m_snapshot.location;
    m_debugger->post([self, at, index = m_frame, watches = m_watches](pdl::DebugFrame& frame) {
        const DebugSnapshot snap = makeSnapshot(frame, at, index, watches);
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, snap] {
                if (!self || !self->m_paused)
                    return;
                self->takeSnapshot(snap);
            },
            Qt::QueuedConnection);
    });
}

void RunController::setVariable(const QString& name, const QString& valueText)
{
    if (!m_debugger || !m_paused)
        return;
    Result<pdl::YamlValue> yaml = pdl::loadYaml(valueText.toUtf8(), QStringLiteral("value"));
    if (!yaml.ok() || name.trimmed().isEmpty()) {
        Q_EMIT debugError(yaml.ok() ? tr("no variable name") : yaml.error().message);
        return;
    }
    const pdl::Value value = yaml->toValue();
    const std::string key = name.trimmed().toStdString();
    m_debugger->post([key, value](pdl::DebugFrame& frame) { frame.setVariable(key, value); });
    requestSnapshot();
}

void RunController::setContextMessage(int index, const QString& content)
{
    if (!m_debugger || !m_paused)
        return;
    const std::string text = content.toStdString();
    m_debugger->post([index, text](pdl::DebugFrame& frame) {
        pdl::List messages = frame.context();
        if (index < 0 || index >= int(messages.size()) || !messages[size_t(index)].isDict())
            return;
        pdl::Dict message = messages[size_t(index)].asDict();
        message.set("content", pdl::Value(text));
        messages[size_t(index)] = pdl::Value(std::move(message));
        frame.setContext(messages);
    });
    requestSnapshot();
}

void RunController::provideInput(const QString& text)
{
    if (!m_shared || !m_waitingForInput)
        return;
    m_waitingForInput = false;
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->input = std::optional<std::string>(text.toStdString());
    }
    m_shared->inputReady.notify_all();
}

void RunController::closeInput()
{
    if (!m_shared || !m_waitingForInput)
        return;
    m_waitingForInput = false;
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->input = std::optional<std::string>();
    }
    m_shared->inputReady.notify_all();
}

void RunController::flushOutput()
{
    if (!m_shared)
        return;
    QString out, err;
    {
        std::lock_guard lock(m_shared->mutex);
        out.swap(m_shared->out);
        err.swap(m_shared->err);
        m_shared->outputPosted = false;
    }
    if (!out.isEmpty())
        Q_EMIT output(out, false);
    if (!err.isEmpty())
        Q_EMIT output(err, true);
}

void RunController::onWorkerDone()
{
    if (m_worker.joinable())
        m_worker.join();
    flushOutput();
    m_feed->flush();
    bool ok;
    QString result;
    Diagnostic error;
    {
        std::lock_guard lock(m_shared->mutex);
        ok = m_shared->ok;
        result = m_shared->result;
        error = m_shared->error;
        m_lastTrace = m_shared->trace;
        m_divergedAt = QString::fromStdString(m_shared->divergedAt);
        m_divergedSpan = m_shared->divergedSpan;
    }
    m_stopped = !ok && m_shared->cancel.isCancelled();
    m_model->endLiveRun(m_lastTrace);
    m_running = false;
    m_waitingForInput = false;
    const bool wasPaused = m_paused;
    m_paused = false;
    if (wasPaused)
        Q_EMIT resumed();
    Q_EMIT finished(ok, result, error);
}

} // namespace hako
