// The interpreter's debugger: breakpoints by line (plain and conditional), stepping into, over
// and out of blocks, reading and changing a paused run's variables and context, answering a
// model call by hand, pausing on errors, and stopping a paused run at once.
#include "core/pdl/debug/debugger.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <mutex>
#include <thread>

using namespace hako;
using namespace hako::pdl;

namespace {

// A program run on a worker thread under a debugger; the test thread drives it.
class DebugRun {
public:
    DebugRun(const QByteArray& text, Debugger& debugger, RunOptions options = {})
        : m_debugger(debugger)
    {
        m_path = m_dir.filePath(QStringLiteral("prog.pdl"));
        QFile f(m_path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write the program");
        f.write(text);
        f.close();
        options.debugger = &debugger;
        options.trace = true;
        m_cancel = options.cancel;
        m_thread = std::thread([this, options] {
            Interpreter interp(options);
            m_result = interp.runFile(m_path);
            m_debugger.runFinished();
        });
    }
    // A failed check leaves the run paused: stop it.
    ~DebugRun()
    {
        m_cancel.cancel();
        m_debugger.interrupt();
        join();
    }
    void join()
    {
        if (m_thread.joinable())
            m_thread.join();
    }
    // The next pause's location, or nullopt when the run finished.
    std::optional<DebugLocation> next()
    {
        if (!m_debugger.waitForPause())
            return std::nullopt;
        return m_debugger.location();
    }
    CancelToken cancel() const { return m_cancel; }
    const RunResult& result()
    {
        join();
        return m_result;
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
    Debugger& m_debugger;
    CancelToken m_cancel;
    RunResult m_result;
    std::thread m_thread; // last: it starts in the constructor and uses the members above
};

const QByteArray kSteps = "text:\n"           // 1
                          "- def: a\n"        // 2
                          "  data: 1\n"       // 3
                          "- lastOf:\n"       // 4
                          "  - data: 2\n"     // 5
                          "  - data: 3\n"     // 6
                          "- data: ${ a }\n"; // 7

const QByteArray kLoop = "text:\n"                  // 1
                         "- repeat:\n"              // 2
                         "    text:\n"              // 3
                         "    - def: sq\n"          // 4
                         "      data: ${ i * i }\n" // 5
                         "    - \"${ sq },\"\n"     // 6
                         "  for:\n"                 // 7
                         "    i: [1, 2, 3, 4]\n"    // 8
                         "  join: {with: \"\"}\n"   // 9
                         "- \"end\"\n";             // 10

// A function called from a loop (for the call stack, logpoints and disabled breakpoints).
const QByteArray kCalls = "defs:\n"                    // 1
                          "  square:\n"                // 2
                          "    function:\n"            // 3
                          "      n: int\n"             // 4
                          "    return:\n"              // 5
                          "      lastOf:\n"            // 6
                          "      - def: r\n"           // 7
                          "        data: ${ n * n }\n" // 8
                          "      - ${ r }\n"           // 9
                          "text:\n"                    // 10
                          "- for:\n"                   // 11
                          "    i: [1, 2, 3]\n"         // 12
                          "  repeat:\n"                // 13
                          "    call: ${ square }\n"    // 14
                          "    args:\n"                // 15
                          "      n: ${ i }\n"          // 16
                          "  join: {with: \",\"}\n";   // 17

} // namespace

class TestDebugger : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void callStackReachesTheCallerAndItsScope()
    {
        Debugger d;
        d.addBreakpoint(QStringLiteral("prog.pdl"), 9, "n == 2");
        DebugRun run(kCalls, d);
        QVERIFY(run.next());
        const std::optional<std::vector<StackFrame>> stack = d.callStack();
        QVERIFY(stack);
        QVERIFY(stack->size() >= 4);
        QCOMPARE(stack->front().span.line, 9);
        QCOMPARE(stack->back().kind, BlockKind::Text);
        QCOMPARE(stack->back().span.line, 1); // the program's root block
        int call = -1;
        for (size_t i = 0; i < stack->size(); ++i)
            if ((*stack)[i].kind == BlockKind::Call)
                call = int(i);
        QVERIFY(call > 0);
        QCOMPARE((*stack)[size_t(call)].callee, std::string("square"));
        QCOMPARE((*stack)[size_t(call)].span.line, 14);
        QVERIFY((*stack)[size_t(call)].describe().startsWith(QStringLiteral("call square")));
        // The paused block sees the argument; the caller's frame sees the loop's variable.
        QCOMPARE(d.evaluate("n")->toText(), std::string("2"));
        QCOMPARE(d.evaluate("r")->toText(), std::string("4"));
        QCOMPARE(d.evaluate("i", call)->toText(), std::string("2"));
        QVERIFY(d.variables(call)->find("i"));
        QVERIFY(!d.evaluate("i", int(stack->size())).ok()); // past the root
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next());
        QCOMPARE(QString::fromStdString(run.result().result.toText()), QStringLiteral("1,4,9"));
    }

    void logpointWritesAndGoesOn()
    {
        Debugger d;
        QStringList messages;
        std::mutex mutex;
        d.setLogCallback([&](const QString& message, const DebugLocation& at) {
            std::lock_guard lock(mutex);
            messages << QStringLiteral("%1@%2").arg(message).arg(at.span.line);
        });
        d.addBreakpoint(QStringLiteral("prog.pdl"), 9, {}, "n=${ n } r=${ r }");
        d.addBreakpoint(QStringLiteral("prog.pdl"), 14, "i == 3", "last ${ i }");
        DebugRun run(kCalls, d);
        QVERIFY(!run.next()); // never pauses
        QVERIFY(run.result().ok);
        QCOMPARE(messages, QStringList({QStringLiteral("n=1 r=1@9"), QStringLiteral("n=2 r=4@9"),
                                        QStringLiteral("last 3@14"), QStringLiteral("n=3 r=9@9")}));
        QCOMPARE(d.breakpoints().at(0).hits, 3);
        QCOMPARE(d.breakpoints().at(1).hits, 1);
    }

    void logpointErrorIsWrittenNotThrown()
    {
        Debugger d;
        QStringList messages;
        d.setLogCallback(
            [&](const QString& message, const DebugLocation&) { messages << message; });
        d.addBreakpoint(QStringLiteral("prog.pdl"), 9, "n == 1", "${ nope }");
        DebugRun run(kCalls, d);
        QVERIFY(!run.next());
        QVERIFY(run.result().ok);
        QCOMPARE(messages.size(), 1);
        QVERIFY2(messages.front().contains(QStringLiteral("nope")), qPrintable(messages.front()));
    }

    void disabledBreakpointIsKeptButNeverStops()
    {
        Debugger d;
        const int n = d.addBreakpoint(QStringLiteral("prog.pdl"), 9);
        QVERIFY(d.setBreakpointEnabled(n, false));
        QVERIFY(!d.setBreakpointEnabled(n + 1, false));
        DebugRun run(kCalls, d);
        QVERIFY(!run.next());
        QVERIFY(run.result().ok);
        QCOMPARE(d.breakpoints().size(), size_t(1));
        QCOMPARE(d.breakpoints().front().enabled, false);
        QCOMPARE(d.breakpoints().front().hits, 0);
    }

    void reEnabledBreakpointStopsAgain()
    {
        Debugger d;
        const int first = d.addBreakpoint(QStringLiteral("prog.pdl"), 9);
        d.addBreakpoint(QStringLiteral("prog.pdl"), 14, "i == 2");
        d.setBreakpointEnabled(first, false);
        DebugRun run(kCalls, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(at->span.line, 14);
        d.setBreakpointEnabled(first, true);
        d.resume(Debugger::Resume::Continue);
        at = run.next();
        QVERIFY(at);
        QCOMPARE(at->span.line, 9);
        QCOMPARE(d.evaluate("n")->toText(), std::string("2"));
        d.clearBreakpoints();
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next());
    }
    void stepIntoOverAndOut()
    {
        Debugger d;
        d.setPauseOnEntry(true);
        DebugRun run(kSteps, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(at->reason, DebugLocation::Reason::Entry);
        QCOMPARE(at->id, std::string("text"));
        QCOMPARE(at->span.line, 1);
        d.resume(Debugger::Resume::StepInto);
        at = run.next();
        QVERIFY(at);
        QCOMPARE(at->id, std::string("text.0.data"));
        QCOMPARE(at->def, std::string("a"));
        QCOMPARE(at->span.line, 2);
        d.resume(Debugger::Resume::StepOver);
        at = run.next();
        QVERIFY(at);
        QCOMPARE(at->id, std::string("text.1.lastOf"));
        QCOMPARE(at->span.line, 4);
        d.resume(Debugger::Resume::StepInto);
        at = run.next();
        QVERIFY(at);
        QCOMPARE(at->id, std::string("text.1.lastOf.0.data"));
        QCOMPARE(at->span.line, 5);
        QCOMPARE(at->depth, 2);
        d.resume(Debugger::Resume::StepOut);
        at = run.next();
        QVERIFY(at);
        QCOMPARE(at->id, std::string("text.2.data"));
        QCOMPARE(at->span.line, 7);
        QCOMPARE(at->describe(), QStringLiteral("prog.pdl:7 (data block)"));
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next());
        QVERIFY(run.result().ok);
        QCOMPARE(QString::fromStdString(run.result().result.toText()), QStringLiteral("131"));
    }

    void breakpointInspectAndSet()
    {
        Debugger d;
        QCOMPARE(d.addBreakpoint(QStringLiteral("prog.pdl"), 7), 1);
        DebugRun run(kSteps, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(at->reason, DebugLocation::Reason::Breakpoint);
        QCOMPARE(at->breakpoint, 1);
        QCOMPARE(at->describe(), QStringLiteral("prog.pdl:7 (data block), breakpoint 1"));
        Result<Value> a = d.evaluate("a + 10");
        QVERIFY(a.ok());
        QCOMPARE(a->toText(), std::string("11"));
        std::optional<Dict> vars = d.variables();
        QVERIFY(vars && vars->find("a"));
        // The context holds the messages so far.
        std::optional<List> ctx = d.context();
        QVERIFY(ctx);
        QCOMPARE(ctx->size(), size_t(3));
        QVERIFY(d.setVariable("a", QStringLiteral("\"changed\"")).ok());
        QVERIFY(!d.setVariable("a", QStringLiteral("[1, ")).ok()); // not YAML
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next());
        QCOMPARE(QString::fromStdString(run.result().result.toText()), QStringLiteral("13changed"));
    }

    void lineInsideABlockPausesAtIt()
    {
        // Line 3 is the `data:` field of the block starting at line 2.
        Debugger d;
        d.addBreakpoint(QStringLiteral("prog.pdl"), 3);
        DebugRun run(kSteps, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(at->id, std::string("text.0.data"));
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next());
    }

    void conditionalBreakpoint()
    {
        Debugger d;
        d.addBreakpoint(QStringLiteral("prog.pdl"), 6, "${ i == 3 }");
        DebugRun run(kLoop, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(at->id, std::string("text.0.repeat.2.text.1.data"));
        QCOMPARE(d.evaluate("sq")->toText(), std::string("9"));
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next()); // i == 4 does not stop
        QCOMPARE(QString::fromStdString(run.result().result.toText()),
                 QStringLiteral("11,44,99,1616,end"));
        QCOMPARE(d.breakpoints().front().hits, 1);
    }

    void bareConditionAndDelete()
    {
        Debugger d;
        const int n = d.addBreakpoint(QStringLiteral("prog.pdl"), 6, "i >= 2");
        DebugRun run(kLoop, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(d.evaluate("i")->toText(), std::string("2"));
        QVERIFY(d.removeBreakpoint(n));
        QVERIFY(!d.removeBreakpoint(n));
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next());
        QVERIFY(run.result().ok);
    }

    void stepOverInALoopGoesToTheNextIteration()
    {
        Debugger d;
        d.addBreakpoint(QStringLiteral("prog.pdl"), 3); // the loop's body
        DebugRun run(kLoop, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(at->id, std::string("text.0.repeat.0.text"));
        d.clearBreakpoints();
        d.resume(Debugger::Resume::StepOver);
        at = run.next();
        QVERIFY(at);
        QCOMPARE(at->id, std::string("text.0.repeat.1.text"));
        d.resume(Debugger::Resume::RunToLine, QStringLiteral("prog.pdl"), 10);
        at = run.next();
        QVERIFY(at);
        QCOMPARE(at->reason, DebugLocation::Reason::RunToLine);
        QCOMPARE(at->id, std::string("text.1.data"));
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next());
    }

    void answerAModelCallByHand()
    {
        // No provider: the run would fail, but the answer typed in the debugger is used.
        Debugger d;
        d.setPauseBeforeModelCalls(true);
        const QByteArray program = "text:\n"
                                   "- \"Q: \"\n"
                                   "- model: ollama/none\n"
                                   "  def: answer\n"
                                   "- \"|${ answer }\"\n";
        DebugRun run(program, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(at->reason, DebugLocation::Reason::ModelCall);
        QCOMPARE(at->describe(),
                 QStringLiteral("prog.pdl:3 (model block 'answer'), before the model call"));
        QVERIFY(d.setContext(QStringLiteral("[{role: user, content: edited}]")).ok());
        QCOMPARE(d.context()->size(), size_t(1));
        QVERIFY(d.answerModel("forty-two").ok());
        QVERIFY(!run.next());
        const RunResult& r = run.result();
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.toText()),
                 QStringLiteral("Q: forty-two|forty-two"));
        const TraceNode& model = *r.trace->children.front().nodes[1];
        QCOMPARE(model.kind, BlockKind::Model);
        QVERIFY(model.answeredByHand);
        // The edited context, then the reply.
        QCOMPARE(r.context.size(), size_t(3));
        QCOMPARE(r.context[0].asDict().find("content")->toText(), std::string("edited"));
    }

    void timePausedIsNotTheBlocksTime()
    {
        // The person answering takes a while; the model block (and the run) must not count
        // that time as theirs. Accounting, not timing: everything the run measured plus the
        // pause fits in what the test measured around the whole run.
        auto now = [] {
            return std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                .count();
        };
        Debugger d;
        d.setPauseBeforeModelCalls(true);
        const int64_t outerStart = now();
        DebugRun run("text:\n- model: ollama/none\n  def: answer\n", d);
        QVERIFY(run.next());
        const int64_t pauseStart = now();
        QTest::qWait(300); // the person reading the prompt before answering
        QVERIFY(d.answerModel("yes").ok());
        const int64_t paused = now() - pauseStart;
        QVERIFY(!run.next());
        const RunResult& r = run.result();
        const int64_t outer = now() - outerStart;
        QVERIFY2(r.ok, qPrintable(r.error.message));
        const TraceNode& model = *r.trace->children.front().nodes[0];
        QCOMPARE(model.kind, BlockKind::Model);
        QVERIFY(model.endNanos >= model.startNanos);
        QVERIFY2(model.endNanos - model.startNanos + paused <= outer,
                 qPrintable(QStringLiteral("model %1 ns + paused %2 ns > whole run %3 ns")
                                .arg(model.endNanos - model.startNanos)
                                .arg(paused)
                                .arg(outer)));
        QVERIFY(r.trace->endNanos - r.trace->startNanos + paused <= outer);
    }

    void breakpointOnTheModelLineBelowItsDefPausesAtTheModel()
    {
        // Line 4 is `model:` of the block that starts with `def:` on line 3 (its input, on line
        // 5, is a block of its own): a person clicking the `model:` line means the model call.
        Debugger d;
        d.addBreakpoint(QStringLiteral("prog.pdl"), 4);
        const QByteArray program = "text:\n"
                                   "- \"Q: \"\n"
                                   "- def: answer\n"
                                   "  model: ollama/none\n"
                                   "  input: \"the question\"\n";
        DebugRun run(program, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(at->id, std::string("text.1.model"));
        QVERIFY(d.answerModel("yes").ok());
        QVERIFY(!run.next());
    }

    void answerOnlyAtAModelBlock()
    {
        Debugger d;
        d.setPauseOnEntry(true);
        DebugRun run(kSteps, d);
        QVERIFY(run.next());
        QVERIFY(!d.answerModel("x").ok());
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next());
    }

    void pauseOnError()
    {
        Debugger d;
        d.setPauseOnError(true);
        const QByteArray program = "text:\n"
                                   "- def: x\n"
                                   "  data: 5\n"
                                   "- \"${ x + undefined_name }\"\n";
        DebugRun run(program, d);
        auto at = run.next();
        QVERIFY(at);
        QCOMPARE(at->reason, DebugLocation::Reason::Error);
        QCOMPARE(at->id, std::string("text.1.data"));
        QVERIFY(QString::fromStdString(at->error).contains(QLatin1String("undefined_name")));
        QCOMPARE(d.evaluate("x")->toText(), std::string("5"));
        d.resume(Debugger::Resume::Continue);
        QVERIFY(!run.next()); // once, at the innermost block
        QVERIFY(!run.result().ok);
    }

    void stopWhilePausedEndsAtOnce()
    {
        Debugger d;
        d.setPauseOnEntry(true);
        RunOptions o;
        DebugRun run(kLoop, d, o);
        QVERIFY(run.next());
        run.cancel().cancel();
        d.interrupt();
        run.join();
        QVERIFY(!run.result().ok);
        QVERIFY(run.result().error.message.contains(QLatin1String("cancelled")));
        QVERIFY(!d.isPaused());
        QVERIFY(!d.evaluate("1").ok());
    }

    void cancelTokenAloneAlsoWakesThePause()
    {
        Debugger d;
        d.setPauseOnEntry(true);
        DebugRun run(kLoop, d);
        QVERIFY(run.next());
        run.cancel().cancel();
        run.join();
        QVERIFY(!run.result().ok);
    }

    void detachedDebuggerChangesNothing()
    {
        // Attached with nothing armed: the run is as without a debugger.
        Debugger d;
        DebugRun run(kLoop, d);
        QVERIFY(!run.next());
        QCOMPARE(QString::fromStdString(run.result().result.toText()),
                 QStringLiteral("11,44,99,1616,end"));
    }
};

QTEST_GUILESS_MAIN(TestDebugger)
#include "tst_debugger.moc"
