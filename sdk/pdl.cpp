#include "hako/pdl.h"

#include "core/pdl/interp/interpreter.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/run/loggingprovider.h"
#include "core/run/promptlogopener.h"
#include "core/run/runenvironment.h"
#include "core/run/runtrust.h"
#include "core/util/cancel.h"
#include "core/util/version.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <cstdio>
#include <mutex>

namespace hako::sdk {

struct Cancellation::Flag {
    CancelToken token;
};

Cancellation::Cancellation() : m_flag(std::make_unique<Flag>()) {}
Cancellation::~Cancellation() = default;
void Cancellation::cancel()
{
    m_flag->token.cancel();
}
bool Cancellation::cancelled() const
{
    return m_flag->token.isCancelled();
}

struct CancellationAccess {
    static CancelToken token(const Cancellation& c) { return c.m_flag->token; }
};

namespace {

// Hako's HTTP client and its settings need a Qt application object. A host without one (a plain
// C++ program, Python) gets one, made once on the thread of its first run and kept for the life
// of the process, named as Hako's own programs are so that the same settings are read.
void ensureApplication()
{
    static std::once_flag once;
    std::call_once(once, [] {
        if (QCoreApplication::instance())
            return;
        static int argc = 1;
        static char name[] = "hako";
        static char* argv[] = {name, nullptr};
        new QCoreApplication(argc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("Hako"));
        QCoreApplication::setApplicationName(QStringLiteral("Hako"));
    });
}

// Values that JSON cannot hold (functions, Python objects) come out as null.
Json toJson(const pdl::Value& value)
{
    try {
        return Json::parse(value.json());
    } catch (const std::exception&) {
        return nullptr;
    }
}

Json scopeJson(const pdl::Dict& scope)
{
    Json out = Json::object();
    for (const auto& [key, value] : scope)
        out[key.str()] = toJson(value);
    return out;
}

// The run's events handed to the host's callback.
class EventRelay : public pdl::IRunObserver {
public:
    explicit EventRelay(std::function<void(const Event&)> sink) : m_sink(std::move(sink)) {}

    void blockStarted(const pdl::TraceNode& node) override
    {
        send(Event::Kind::BlockStarted, node, {});
    }
    void blockFinished(const pdl::TraceNode& node) override
    {
        send(Event::Kind::BlockFinished, node, node.error);
    }
    void modelDelta(const pdl::TraceNode& node, std::string_view delta) override
    {
        send(Event::Kind::ModelText, node, std::string(delta));
    }

private:
    void send(Event::Kind kind, const pdl::TraceNode& node, std::string text)
    {
        m_sink(Event{kind, pdl::blockKindName(node.kind), node.id, std::move(text)});
    }

    std::function<void(const Event&)> m_sink;
};

RunOutcome failure(const std::string& message)
{
    RunOutcome out;
    out.error = message;
    return out;
}

RunOutcome outcomeOf(const pdl::RunResult& result, bool trace)
{
    RunOutcome out;
    out.ok = result.ok;
    if (result.ok) {
        out.result = toJson(result.result);
        result.result.writeText([&out](std::string_view text) { out.text += text; });
    } else {
        out.error = result.error.message.toStdString();
        const SourceSpan& at = result.error.span;
        if (at.isValid()) {
            out.errorFile = at.file.toStdString();
            out.errorLine = result.referenceLine > 0 ? result.referenceLine : at.line;
        }
    }
    out.scope = scopeJson(result.scope);
    out.context = toJson(pdl::Value(result.context));
    if (trace && result.trace)
        out.trace = pdl::traceToJson(*result.trace);
    return out;
}

// The options the interpreter gets, composed as `hako run` composes them (RunEnvironment):
// the configured models of `folder`, the prompt log, the sandbox.
std::optional<std::string> compose(const RunOptions& options, const QString& folder,
                                   const QString& programPath, pdl::RunOptions& run)
{
    run.initialScope =
        pdl::Value::fromJson(options.scope.is_object() ? options.scope : Json::object()).asDict();
    run.trace = options.trace;
    run.keepContext = true;
    run.streamResult = options.stream == RunOptions::Stream::Result;
    run.streamContext = options.stream == RunOptions::Stream::Context;
    run.writeStdout = [](std::string_view text) {
        std::fwrite(text.data(), 1, text.size(), stdout);
    };
    if (options.cancellation)
        run.cancel = CancellationAccess::token(*options.cancellation);
    RunEnvironment environment;
    environment.baseFolder = folder;
    environment.sandbox = options.sandbox;
    if (options.logCalls) {
        environment.openPromptLog = lazyPromptLog({}, [](const QString& error) {
            std::fprintf(stderr, "hako: prompt log: %s\n", qPrintable(error));
        });
        environment.runLog.programPath = programPath;
        environment.runLog.tags = tagsFromEnvironment() << QStringLiteral("sdk");
    }
    if (std::optional<Diagnostic> error = environment.compose(run))
        return error->toString().toStdString();
    return std::nullopt;
}

// The trust rule of `hako run`, over a parsed program: code, and requests to servers other
// than the configured ones, need a trusted folder or `trusted`.
std::optional<std::string> refusal(const pdl::Program& program, const QString& programPath,
                                   const RunOptions& options)
{
    if (options.trusted)
        return std::nullopt;
    QSettings settings(QStringLiteral("Hako"), QStringLiteral("Hako"));
    const RunTrustCheck check = checkRunTrust(program, programPath, options.sandbox, &settings);
    if (!check.needsConsent())
        return std::nullopt;
    return QStringLiteral("%1 is not a trusted folder, and the program would run:\n  %2\n"
                          "Pass trusted = true (Python: config={\"trusted\": True}) to run it "
                          "once, or trust the folder with `hako run --trust-folder`.")
        .arg(QDir::toNativeSeparators(check.folder), check.describe().join(QStringLiteral("\n  ")))
        .toStdString();
}

RunOutcome run(const pdl::ParseResult& parsed, const QString& programPath, const QString& folder,
               const RunOptions& options)
{
    if (!parsed.ok() || !parsed.program) {
        RunOutcome out = failure(pdl::parseFailure(parsed).message.toStdString());
        if (!parsed.diagnostics.empty() && parsed.diagnostics.front().span.isValid()) {
            out.errorFile = parsed.diagnostics.front().span.file.toStdString();
            out.errorLine = parsed.diagnostics.front().span.line;
        }
        return out;
    }
    if (std::optional<std::string> why = refusal(*parsed.program, programPath, options))
        return failure(*why);
    pdl::RunOptions runOptions;
    if (std::optional<std::string> error = compose(options, folder, programPath, runOptions))
        return failure(*error);
    std::unique_ptr<EventRelay> relay;
    if (options.onEvent) {
        relay = std::make_unique<EventRelay>(options.onEvent);
        runOptions.observer = relay.get();
    }
    pdl::Interpreter interpreter(runOptions);
    return outcomeOf(interpreter.run(parsed.program), options.trace);
}

} // namespace

RunOutcome runFile(const std::string& path, const RunOptions& options)
{
    ensureApplication();
    const QFileInfo file(QString::fromStdString(path));
    if (!file.isFile())
        return failure(path + ": no such file");
    const QString folder =
        options.folder.empty() ? file.absolutePath() : QString::fromStdString(options.folder);
    return run(pdl::checkProgram(file.absoluteFilePath()), file.absoluteFilePath(), folder,
               options);
}

RunOutcome runString(const std::string& yaml, const RunOptions& options, const std::string& name)
{
    ensureApplication();
    const QString folder =
        QDir(options.folder.empty() ? QDir::currentPath() : QString::fromStdString(options.folder))
            .absolutePath();
    // Relative reads resolve against the folder the text is said to be in.
    const QString path = QDir(folder).absoluteFilePath(QString::fromStdString(name));
    return run(pdl::checkProgramText(QByteArray::fromStdString(yaml), path), path, folder, options);
}

std::string version()
{
    return versionString().toStdString();
}

} // namespace hako::sdk
