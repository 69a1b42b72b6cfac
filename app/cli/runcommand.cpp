#include "cli/runcommand.h"
#include "cli/commandsmodule.h"
#include "cli/interrupt.h"
#include "cli/optionparser.h"
#include "cli/output.h"
#include "core/run/debugsession.h"
#include "core/run/promptlogopener.h"
#include "core/run/runtrust.h"

#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/trace/tracereader.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/pdl/valuejson.h"
#include "core/promptlog/promptlog.h"
#include "core/run/loggingprovider.h"
#include "core/run/runenvironment.h"
#include "core/util/boundedfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <atomic>
#include <cstdio>
#include <iostream>
#include <thread>

#include <unistd.h>

namespace hako {

namespace {

/// libhako_commands' part of the run (--document, --memory, --otel*, NAME@LABEL), loaded on the
/// first option that needs it; null with the reason said on stderr.
const RunFeatures* features()
{
    QString error;
    const RunFeatures* loaded = runFeatures(&error);
    if (!loaded)
        writeText(stderr, QStringLiteral("hako run: cannot load what this option needs (Hako's "
                                         "installation is incomplete: reinstall it): %1\n")
                              .arg(error));
    return loaded;
}

const char* kUsage =
    "usage: hako run [options] PROGRAM.pdl|NAME@LABEL\n"
    "  NAME@LABEL, NAME@VERSION: a prompt of the prompt library at that label or version\n"
    "                       (see hako prompt); --library DIR names the library\n"
    "  --trace [FILE]       write the run's trace (default: PROGRAM_trace.json)\n"
    "  --otel FILE          write the run's trace as OpenTelemetry spans (OTLP/JSON, one\n"
    "                       request on one line; OpenInference, gen_ai.* and pdl.* attributes)\n"
    "  --otel-content       include message content (prompts, replies, results) in --otel\n"
    "                       and --otel-endpoint\n"
    "  --otel-endpoint URL  also send the run's spans to an OTLP/HTTP endpoint (a collector,\n"
    "                       Langfuse, Phoenix, Jaeger, hako serve): URL ending in /v1/traces\n"
    "  --otel-header K=V    a header for --otel-endpoint (repeatable; e.g. Authorization);\n"
    "                       sent to that URL only: a redirect is reported, not followed\n"
    "  -d, --data YAML      initial variables, a YAML/JSON mapping\n"
    "  -f, --data-file F    initial variables from a YAML/JSON file\n"
    "  --stream MODE        result (default): print the result as it is produced (text,\n"
    "                       code results, model replies as they arrive, in order);\n"
    "                       context: print every message added to the context\n"
    "                       (role: content) as it is added, instead of the result;\n"
    "                       none: print the whole result once the run ends (for scripts)\n"
    "  --sandbox            run code blocks under bubblewrap (no network, no files but the\n"
    "                       program's folder, read-only; no API keys in the environment)\n"
    "  --trust              run a program from an untrusted folder although it runs code or\n"
    "                       sends requests to a server of its own choosing (once)\n"
    "  --trust-folder       the same, and trust the program's folder from now on (the\n"
    "                       workbench's trusted folders; Run > Forget Trusted Folders)\n"
    "  --replay TRACE       reuse the recorded model replies, code results and reads of a\n"
    "                       trace instead of calling anything\n"
    "  --debug              run under the debugger: pause before the first block and read\n"
    "                       commands from stdin (break FILE:LINE [if EXPR], delete N,\n"
    "                       continue, next, step, out, print EXPR, set NAME = VALUE,\n"
    "                       context, answer TEXT, where, quit; `help` lists them all;\n"
    "                       end of input quits)\n"
    "  --max-call-depth N   stop runaway recursion of function calls (default 500)\n"
    "  --memory STORE       give the program `memory` and `thread` over the agent-memory\n"
    "                       store STORE (created when missing; see `hako memory`)\n"
    "  --memory-agent NAME  whose memories they are (default: default)\n"
    "  --embedding-model M  embeds memories (default: the store's model, else 'hash')\n"
    "  --document FILE      open a text or PDF document as the `doc` object (doc.search,\n"
    "                       doc.show, doc.answer, doc.cost, ...; see hako search)\n"
    "  --tag TAG            tag the run's model calls in the prompt log (repeatable; also\n"
    "                       HAKO_TAGS); see hako log\n"
    "  --log PATH|URL       record the model calls in this prompt log (a SQLite file or\n"
    "                       postgresql://...; default: the user's log)\n"
    "  --no-log             do not record the model calls\n";

bool mergeData(const QByteArray& text, const QString& origin, pdl::Dict& into, QString* error)
{
    Result<pdl::YamlValue> yaml = pdl::loadYaml(text, origin);
    if (!yaml.ok()) {
        *error = yaml.error().toString();
        return false;
    }
    pdl::Value v = yaml->toValue();
    if (v.isNull())
        return true;
    if (!v.isDict()) {
        *error = QStringLiteral("%1: the data must be a mapping of variable names to values")
                     .arg(origin);
        return false;
    }
    for (const auto& [k, x] : v.asDict())
        into.set(k, x);
    return true;
}

// What `hako run` was asked: the options of the run and what to give it.
struct RunArguments {
    pdl::RunOptions options;
    QString program, traceFile, replayFile, documentFile, library, libraryVersion;
    bool wantTrace = false;
    bool trustOnce = false, trustFolder = false;
    QString stream = QStringLiteral("result"); // the reference's default
    QString memoryStore, memoryAgent = QStringLiteral("default"), embeddingModel;
    QStringList tags;
    QString log;
    bool noLog = false;
    QString otelFile, otelEndpoint;
    QStringList otelHeaders;
    bool otelContent = false;
    bool debug = false;
};

OptionParser runOptions(RunArguments& r)
{
    OptionParser parser;
    auto into = [](QString* target) {
        return [target](const QString& v) {
            *target = v;
            return QString();
        };
    };
    parser.addOption({QStringLiteral("--library")}, into(&r.library));
    parser.addOptionalValue({QStringLiteral("--trace"), QStringLiteral("-t")},
                            [&r](const QString& v) {
                                r.wantTrace = true;
                                r.traceFile = v;
                                return QString();
                            });
    parser.addOption({QStringLiteral("--otel")}, into(&r.otelFile));
    parser.addFlag({QStringLiteral("--otel-content")}, [&r] { r.otelContent = true; });
    parser.addOption({QStringLiteral("--otel-endpoint")}, into(&r.otelEndpoint));
    parser.addOption({QStringLiteral("--otel-header")}, [&r](const QString& v) {
        if (!v.contains(QLatin1Char('=')))
            return QStringLiteral("--otel-header wants NAME=VALUE");
        // Refused before the run, not when the trace is sent: a CR or LF would add headers.
        const RunFeatures* otel = features();
        if (!otel)
            return QStringLiteral("--otel-header cannot be checked");
        if (const QString problem = otel->otelHeaderProblem(v); !problem.isEmpty())
            return QStringLiteral("--otel-header: %1").arg(problem);
        r.otelHeaders << v;
        return QString();
    });
    parser.addOption({QStringLiteral("-d"), QStringLiteral("--data")}, [&r](const QString& v) {
        QString error;
        mergeData(v.toUtf8(), QStringLiteral("--data"), r.options.initialScope, &error);
        return error;
    });
    parser.addOption({QStringLiteral("-f"), QStringLiteral("--data-file")}, [&r](const QString& v) {
        // Bounded: `-f /dev/zero` or a FIFO is an error, not a hang.
        Result<QByteArray> data = readBoundedFile(v);
        if (!data)
            return data.error().message;
        QString error;
        mergeData(*data, v, r.options.initialScope, &error);
        return error;
    });
    parser.addOption({QStringLiteral("--stream")}, [&r](const QString& v) {
        r.stream = v == QLatin1String("background") ? QStringLiteral("context") // older name
                                                    : v;
        if (r.stream != QLatin1String("none") && r.stream != QLatin1String("result") &&
            r.stream != QLatin1String("context"))
            return QStringLiteral("--stream takes result, context or none");
        return QString();
    });
    parser.addFlag({QStringLiteral("--sandbox")}, [&r] { r.options.sandbox = true; });
    parser.addFlag({QStringLiteral("--trust")}, [&r] { r.trustOnce = true; });
    parser.addFlag({QStringLiteral("--trust-folder")}, [&r] { r.trustFolder = true; });
    parser.addOption({QStringLiteral("--replay")}, into(&r.replayFile));
    parser.addFlag({QStringLiteral("--debug")}, [&r] { r.debug = true; });
    parser.addOption({QStringLiteral("--max-call-depth")}, [&r](const QString& v) {
        bool ok = false;
        r.options.maxCallDepth = v.toInt(&ok);
        if (!ok || r.options.maxCallDepth < 1)
            return QStringLiteral("--max-call-depth takes a positive number");
        return QString();
    });
    parser.addOption({QStringLiteral("--memory")}, into(&r.memoryStore));
    parser.addOption({QStringLiteral("--memory-agent")}, into(&r.memoryAgent));
    parser.addOption({QStringLiteral("--embedding-model")}, into(&r.embeddingModel));
    parser.addOption({QStringLiteral("--document")}, into(&r.documentFile));
    parser.addOption({QStringLiteral("--tag")}, [&r](const QString& v) {
        r.tags << v;
        return QString();
    });
    parser.addOption({QStringLiteral("--log")}, into(&r.log));
    parser.addFlag({QStringLiteral("--no-log")}, [&r] { r.noLog = true; });
    parser.setPositional([&r](const QString& word) {
        if (!r.program.isEmpty())
            return QStringLiteral("runs one program at a time");
        r.program = word;
        return QString();
    });
    return parser;
}

// `--debug`: the program runs on a worker thread under a debugger paused before its first
// block, while this thread reads commands (a terminal or a pipe; end of input quits).
// The run of a program parsed already; one that did not parse is read again by the interpreter
// only to report its errors as every run does.
pdl::RunResult runParsed(const pdl::RunOptions& options, const QString& program,
                         const pdl::ParseResult& parsed)
{
    pdl::Interpreter interpreter(options);
    if (parsed.ok() && parsed.program)
        return interpreter.run(parsed.program);
    return interpreter.runFile(program);
}

pdl::RunResult runUnderDebugger(pdl::RunOptions options, const QString& program,
                                const pdl::ParseResult& parsed, bool* quit)
{
    pdl::Debugger debugger;
    debugger.setPauseOnEntry(true);
    debugger.setPauseOnError(true);
    options.debugger = &debugger;
    // The program's output and the debugger's share stdout: a pause starts on a new line.
    auto atLineStart = std::make_shared<std::atomic<bool>>(true);
    const auto inner = options.writeStdout;
    options.writeStdout = [inner, atLineStart](std::string_view text) {
        if (text.empty())
            return;
        inner(text);
        atLineStart->store(text.back() == '\n');
    };
    pdl::RunResult result;
    std::thread worker([&] {
        result = runParsed(options, program, parsed);
        debugger.runFinished();
    });
    DebugSession session(debugger, QFileInfo(program).absoluteFilePath());
    session.setWriter([](const QString& text) { writeText(stdout, text); });
    const bool terminal = isatty(STDIN_FILENO);
    std::string line;
    while (!*quit && debugger.waitForPause()) {
        if (!atLineStart->exchange(true))
            writeText(stdout, std::string_view("\n"));
        if (std::optional<pdl::DebugLocation> at = debugger.location())
            writeText(stdout, DebugSession::pausedMessage(*at));
        for (;;) {
            if (terminal)
                writeText(stdout, std::string_view("(hako) "));
            if (!std::getline(std::cin, line)) {
                *quit = true;
                break;
            }
            const DebugSession::Reply reply = session.execute(QString::fromStdString(line));
            writeText(stdout, reply.text);
            if (reply.quit)
                *quit = true;
            if (reply.quit || reply.resumed)
                break;
        }
    }
    if (*quit) {
        options.cancel.cancel();
        debugger.interrupt();
    }
    worker.join();
    return result;
}

// Writes the run's trace where asked (--trace, --otel-endpoint, --otel); false when one could not
// be written or sent (said on stderr).
bool writeTraces(const pdl::RunResult& result, const RunArguments& r, const QString& traceFile,
                 const QString& program)
{
    const bool wantTrace = r.wantTrace;
    bool ok = true;
    if (result.trace && wantTrace) {
        QString error;
        if (!pdl::writeTraceFile(*result.trace, traceFile, &error)) {
            writeText(
                stderr,
                QStringLiteral("hako run: cannot write the trace %1: %2\n").arg(traceFile, error));
            ok = false;
        }
    }
    if (!result.trace || (r.otelEndpoint.isEmpty() && r.otelFile.isEmpty()))
        return ok;
    const RunFeatures* otel = features();
    if (!otel)
        return false;
    const QString programPath = QFileInfo(program).absoluteFilePath();
    if (!r.otelEndpoint.isEmpty()) {
        QString error;
        if (!otel->exportOtlp(*result.trace, r.otelEndpoint, r.otelHeaders, {}, r.otelContent,
                              programPath, &error)) {
            writeText(stderr, QStringLiteral("hako run: cannot send the trace to %1: %2\n")
                                  .arg(r.otelEndpoint, error));
            ok = false;
        }
    }
    if (!r.otelFile.isEmpty()) {
        QString error;
        if (!otel->exportOtlp(*result.trace, {}, {}, r.otelFile, r.otelContent, programPath,
                              &error)) {
            writeText(stderr, QStringLiteral("hako run: cannot write the OpenTelemetry trace "
                                             "%1: %2\n")
                                  .arg(r.otelFile, error));
            ok = false;
        }
    }
    return ok;
}

// Says why a run failed, in the reference's `file:line - message` form; the exit status.
int reportFailure(const pdl::RunResult& result, const QString& program)
{
    const SourceSpan& s = result.error.span;
    const QString file = QFileInfo(s.isValid() ? s.file : program).fileName();
    // The reference's `file:line - message` form, with the line the reference reports
    // (referencelines.h); Hako's exact line and column follow when they say more.
    QString where = QStringLiteral("%1 - ").arg(file);
    QString exact;
    if (s.isValid()) {
        const int line = result.referenceLine > 0 ? result.referenceLine : s.line;
        where = QStringLiteral("%1:%2 - ").arg(file).arg(line);
        exact = QStringLiteral("  at %1:%2:%3\n").arg(file).arg(s.line).arg(s.column);
    }
    // Parse errors come as `file:line:col: error: …` lines already.
    if (s.isValid() && (result.error.message.startsWith(s.file + QLatin1Char(':')) ||
                        (result.error.message.contains(QLatin1Char('\n')) &&
                         result.error.message.startsWith(QFileInfo(program).fileName())))) {
        where.clear();
        exact.clear();
    }
    QString message = result.error.message;
    // The exact location goes below the first line of the message (above a traceback).
    const qsizetype firstEnd = message.indexOf(QLatin1Char('\n'));
    if (!exact.isEmpty() && firstEnd < 0)
        message += QLatin1Char('\n') + exact.chopped(1);
    else if (!exact.isEmpty())
        message = message.left(firstEnd + 1) + exact + message.mid(firstEnd + 1);
    writeText(stderr, where + message + QLatin1Char('\n'));
    return 1;
}

// --document: the program gets a `doc` object playing the search/show/answer game on it.
std::optional<int> addDocument(RunEnvironment& environment, const RunArguments& r)
{
    if (!r.documentFile.isEmpty()) {
        const RunFeatures* docs = features();
        if (!docs)
            return 1;
        QStringList warnings;
        auto session = docs->openDocument(r.documentFile, &warnings);
        for (const QString& w : warnings)
            writeText(stderr, QStringLiteral("hako run: %1\n").arg(w));
        if (!session.ok()) {
            writeText(stderr, QStringLiteral("hako run: %1\n").arg(session.error().message));
            return 1;
        }
        environment.documentSession = *session;
    }
    return std::nullopt;
}

// Agent memory (--memory) and the prompt log of the run's model calls.
std::optional<int> addMemoryAndLog(RunEnvironment& environment, const RunArguments& r)
{
    const QString& program = r.program;
    const pdl::RunOptions& options = r.options;
    // Agent memory: `memory` and `thread` objects over the store.
    if (!r.memoryStore.isEmpty()) {
        const RunFeatures* memory = features();
        if (!memory)
            return 1;
        auto store = memory->openMemoryStore(r.memoryStore);
        if (!store) {
            writeText(stderr, QStringLiteral("hako run: %1\n").arg(store.error().message));
            return 1;
        }
        environment.memoryStore = *store;
        environment.memoryAgent = r.memoryAgent;
        environment.embeddingModel = r.embeddingModel;
    }
    // The program's path: its calls' log entries name it, and the bindings it uses come from it.
    environment.runLog.programPath = QFileInfo(program).absoluteFilePath();
    // The prompt log records every model call (the user's log unless --log or --no-log). It is
    // opened on the first model call: a program calling no model never touches the store nor
    // starts its writer. A log that cannot be opened then is said once and the run goes on.
    if (!r.noLog && r.replayFile.isEmpty()) {
        environment.openPromptLog = lazyPromptLog(r.log, [](const QString& error) {
            writeText(stderr, QStringLiteral("hako run: prompt log: %1\n").arg(error));
        });
        environment.runLog.tags = tagsFromEnvironment() + r.tags;
        environment.runLog.version = r.libraryVersion;
        environment.runLog.inputs = pdl::toQJsonObject(options.initialScope);
    }
    return std::nullopt;
}

} // namespace

int runCommand(const QStringList& args)
{
    RunArguments r;
    const OptionParser::Parsed parsed = runOptions(r).parse(args);
    if (std::optional<int> exit = OptionParser::finish(parsed, QStringLiteral("hako run"), kUsage))
        return *exit;
    pdl::RunOptions& options = r.options;
    const QString& program = r.program;
    QString& traceFile = r.traceFile;
    const bool wantTrace = r.wantTrace;
    const QString& stream = r.stream;
    if (program.isEmpty()) {
        writeText(stderr, QString::fromLatin1(kUsage));
        return 2;
    }
    if (!QFileInfo::exists(program) && program.contains(QLatin1Char('@'))) {
        // A prompt of the library at a label or version.
        const RunFeatures* library = features();
        if (!library)
            return 1;
        Result<QString> file = library->libraryFile(program, r.library, &r.libraryVersion);
        if (!file) {
            writeText(stderr, QStringLiteral("hako run: %1\n").arg(file.error().message));
            return 1;
        }
        r.program = *file;
    }
    if (!QFileInfo::exists(program)) {
        writeText(stderr, QStringLiteral("hako run: %1: no such file\n").arg(program));
        return 1;
    }
    // Parsed once: the trust check judges, and the run runs, this very parse.
    const pdl::ParseResult parsedProgram = pdl::checkProgram(program);
    // A replay calls nothing and runs no code: nothing to trust.
    if (r.replayFile.isEmpty()) {
        // What did parse is judged even when it has errors: the refusal comes first, as it did.
        const QString refusal = trustRefusal(parsedProgram.program, program, options.sandbox,
                                             r.trustOnce, r.trustFolder);
        if (!refusal.isEmpty()) {
            writeText(stderr, refusal);
            return 1;
        }
    }
    if (!r.replayFile.isEmpty()) {
        QString error;
        auto table = pdl::loadReplayTable(r.replayFile, &error);
        if (!table) {
            writeText(stderr, QStringLiteral("hako run: %1\n").arg(error));
            return 1;
        }
        options.replay = std::move(table);
    }
    // Ctrl+C, SIGTERM and SIGHUP cancel at the next block boundary and kill running code; the
    // trace and the logged calls are still written: the guard outlives the run environment
    // (whose prompt log flushes when it goes). Under --debug the signal also ends the wait for
    // the next command.
    InterruptGuard interruptGuard(options.cancel, !r.debug);
    RunEnvironment environment;
    environment.baseFolder = QFileInfo(program).absolutePath();
    if (std::optional<int> exit = addDocument(environment, r))
        return *exit;
    if (wantTrace && traceFile.isEmpty())
        traceFile = QFileInfo(program).completeBaseName() + QStringLiteral("_trace.json");
    options.trace = wantTrace || !r.otelFile.isEmpty() || !r.otelEndpoint.isEmpty();
    options.streamResult = stream == QLatin1String("result");
    options.streamContext = stream == QLatin1String("context");
    options.writeStdout = [](std::string_view text) {
        writeText(stdout, text);
    };

    if (std::optional<int> exit = addMemoryAndLog(environment, r))
        return *exit;
    // The provider (unless --replay answers the model calls) and the bindings over it.
    if (std::optional<Diagnostic> error = environment.compose(options)) {
        writeText(stderr, QStringLiteral("hako run: %1\n").arg(error->toString()));
        return 1;
    }
    bool quitDebugger = false;
    pdl::RunResult result;
    if (r.debug) {
        result = runUnderDebugger(options, program, parsedProgram, &quitDebugger);
    } else {
        result = runParsed(options, program, parsedProgram);
    }
    // A trace that cannot be written fails the run: a script relying on it must notice.
    const bool traceFailed = !writeTraces(result, r, traceFile, program);
    // Stopped from the debugger: the person asked for it, nothing more to say.
    if (quitDebugger && !result.ok)
        return 1;
    if (!result.ok)
        return reportFailure(result, program);
    // Streamed, the output was written as it was produced (the result, or with `context` the
    // messages); the reference ends it with a newline.
    // Written in parts: the result may be a joined text far larger than its values (a loop
    // joining `${ [x] }`), or nested deeper than toText() renders.
    if (stream == QLatin1String("none"))
        result.result.writeText([](std::string_view text) { writeText(stdout, text); });
    writeText(stdout, std::string_view("\n"));
    return traceFailed ? 1 : 0;
}

} // namespace hako
