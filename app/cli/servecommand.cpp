#include "cli/servecommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "core/eval/onlineeval.h"
#include "core/library/promptserver.h"
#include "core/models/modelconfig.h"
#include "core/otel/otlpreceiver.h"
#include "core/promptlog/promptlog.h"
#include "core/run/runenvironment.h"
#include "core/util/ipaddress.h"
#include "core/workbench/receivedspans.h"
#include "core/workbench/runarchive.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <optional>

namespace hako {

namespace {

const char* kUsage =
    "usage: hako serve --otlp [ADDR] [OPTIONS]\n"
    "       hako serve --prompts [ADDR] [--library DIR] [--token T]\n"
    "  --prompts [ADDR]: serves the prompt library to applications (default 127.0.0.1:4319):\n"
    "  GET /v1/prompts, GET /v1/prompts/NAME?label=production (or version=N, and\n"
    "  variables=JSON for the rendered messages), POST /v1/prompts/NAME/render. Only saved\n"
    "  versions are served. A token is required beyond loopback (also HAKO_PROMPTS_TOKEN).\n"
    "  Receives OpenTelemetry traces over OTLP/HTTP (POST /v1/traces, JSON or protobuf,\n"
    "  gzip) and writes every LLM span (OpenInference or OpenTelemetry GenAI attributes) to\n"
    "  the prompt log as a model call (see hako log). A request is answered 200 once its\n"
    "  model calls are committed to the log; when the log cannot be written it is answered\n"
    "  503 (exporters send it again; a call sent twice is logged once). Runs until Ctrl+C or\n"
    "  SIGTERM.\n"
    "  --otlp [ADDR]        where to listen: PORT, HOST or HOST:PORT (default\n"
    "                       127.0.0.1:4318; port 0 picks a free one and prints it)\n"
    "  --token T            require `Authorization: Bearer T` (required beyond loopback;\n"
    "                       also HAKO_OTLP_TOKEN)\n"
    "  --max-body BYTES     refuse larger requests with 413 (default 16 MB)\n"
    "  --log PATH|URL       the prompt log (a SQLite file or postgresql://...; default: the\n"
    "                       user's log)\n"
    "  --evaluate FILE      online evaluation: runs the evaluators of FILE (a suite's\n"
    "                       `evaluators`, `judge_model`, `language`, plus `sample: 0-1`,\n"
    "                       `filter: {model, prompt, tag}` and `queue: N`) on the chosen\n"
    "                       calls after they are logged, off the receiving thread, and keeps\n"
    "                       each verdict with its call (see hako log scores); a call that\n"
    "                       finds the queue full is not evaluated, and counted\n"
    "  --traces DIR         keeps each received trace whole, one file per trace id, so that\n"
    "                       the window's Show in Trace opens a logged call's trace (default:\n"
    "                       the folder where the workbench keeps its runs' traces; the newest\n"
    "                       500 traces are kept)\n"
    "  --no-traces          keeps the model calls only\n"
    "  --quiet              print nothing per request\n";

std::atomic<bool> g_stop{false};

void onSignal(int)
{
    g_stop = true;
}

// An address as a URL writes it ("[::1]" for IPv6).
QString hostText(const QString& address)
{
    return urlHost(address);
}

// Runs the event loop until Ctrl+C or SIGTERM.
void runUntilStopped()
{
    g_stop = false;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [] {
        if (g_stop)
            QCoreApplication::quit();
    });
    poll.start(100);
    QCoreApplication::exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

// "4318", "0.0.0.0", "127.0.0.1:4318", "[::1]:4318".
bool parseAddress(const QString& text, QString& address, quint16& port)
{
    if (text.isEmpty())
        return true;
    bool ok = false;
    const uint asPort = text.toUInt(&ok);
    if (ok)
        return (port = quint16(asPort)) == asPort && asPort <= 65535;
    QString host = text;
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon > 0 && (text.count(QLatin1Char(':')) == 1 || text.startsWith(QLatin1Char('[')))) {
        const uint p = text.mid(colon + 1).toUInt(&ok);
        if (!ok || p > 65535)
            return false;
        port = quint16(p);
        host = text.left(colon);
    }
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    address = canonicalIpAddress(host);
    return !address.isEmpty();
}

// What `hako serve --otlp` did with the calls it received (updated on the receiver's thread).
struct ServeTally {
    std::atomic<qint64> logged{0};        ///< committed to the log by this server
    std::atomic<qint64> already{0};       ///< sent again (a retry): the log had them
    std::atomic<qint64> notLogged{0};     ///< in requests answered 503
    std::atomic<qint64> tracesNotKept{0}; ///< requests whose spans could not be kept
};

// What `hako serve --otlp` does beside logging: keeps whole traces, evaluates calls online.
struct ServeExtras {
    std::optional<RunArchive> traces;
    eval::OnlineEvaluator* online = nullptr;
};

// The request kept (keepReceivedSpans()) before it is answered: empty when its calls are
// committed, else why not (the receiver answers 503 and the exporter sends the request again).
QString storeCalls(promptlog::PromptLog& log, const std::vector<otel::Span>& spans,
                   const QByteArray& json, ServeTally& tally, const ServeExtras& extras, bool quiet)
{
    const RunArchive* archive = extras.traces ? &*extras.traces : nullptr;
    const KeptSpans kept = keepReceivedSpans(log, spans, json, archive, extras.online);
    if (kept.logError) {
        tally.notLogged += kept.calls;
        return QStringLiteral("the prompt log cannot be written: %1").arg(kept.logError->message);
    }
    tally.logged += kept.added;
    tally.already += kept.calls - kept.added;
    if (!kept.archived && tally.tracesNotKept++ == 0)
        writeText(stderr, QStringLiteral("hako serve: cannot keep the received traces in %1: %2\n")
                              .arg(extras.traces->folder(), kept.archiveError));
    if (!quiet)
        writeText(stdout, QStringLiteral("received %1 span(s), %2 model call(s)\n")
                              .arg(spans.size())
                              .arg(kept.calls));
    return {};
}

QString stopMessage(const otel::OtlpReceiver::Counters& c, const ServeTally& tally)
{
    QString text = QStringLiteral("hako serve: stopped; %1 request(s) accepted with %2 span(s), "
                                  "%3 model call(s) logged")
                       .arg(c.accepted.load())
                       .arg(c.spans.load())
                       .arg(tally.logged.load());
    if (tally.already > 0)
        text += QStringLiteral(" (%1 more sent again, already in the log)").arg(tally.already);
    if (tally.tracesNotKept > 0)
        text += QStringLiteral("; the spans of %1 request(s) could not be kept as traces")
                    .arg(tally.tracesNotKept.load());
    if (c.unstored > 0)
        text += QStringLiteral("; %1 answered 503 because the prompt log could not be written "
                               "(%2 model call(s) not logged; exporters retry them)")
                    .arg(c.unstored.load())
                    .arg(tally.notLogged.load());
    const qint64 refused = c.rejected - c.unstored;
    if (refused > 0)
        text += QStringLiteral("; %1 refused").arg(refused);
    return text + QLatin1Char('\n');
}

// The online evaluator of `--evaluate FILE`; model-graded evaluators judge through the models
// the user configured (as `hako run` would reach them).
Result<std::unique_ptr<eval::OnlineEvaluator>> startOnline(const QString& file,
                                                           promptlog::PromptLog& log)
{
    Result<eval::OnlineEvalConfig> config = eval::OnlineEvalConfig::load(file);
    if (!config)
        return config.error();
    eval::EvaluatorContext context;
    RunEnvironment env;
    env.baseFolder = QFileInfo(file).absolutePath();
    if (Result<std::shared_ptr<models::IModelProvider>> provider = env.composeProvider())
        context.models = *provider;
    // No judge model named: the configured default model judges, as in experiments.
    context.judgeModel = config->judgeModel.isEmpty()
                             ? QString::fromLatin1(models::ModelConfig::kDefaultAlias)
                             : config->judgeModel;
    return eval::OnlineEvaluator::create(std::move(*config), &log, context);
}

// " whose model is gpt-4o*, …" for the start message.
QString filterText(const eval::OnlineEvalConfig& c)
{
    QStringList parts;
    if (!c.model.isEmpty())
        parts << QStringLiteral("model %1").arg(c.model);
    if (!c.prompt.isEmpty())
        parts << QStringLiteral("prompt %1").arg(c.prompt);
    if (!c.tag.isEmpty())
        parts << QStringLiteral("tag %1").arg(c.tag);
    return parts.isEmpty() ? QString()
                           : QStringLiteral(" with ") + parts.join(QStringLiteral(", "));
}

} // namespace

// `hako serve --prompts`: the prompt library over HTTP until Ctrl+C or SIGTERM.
int servePrompts(const QString& addressText, const QString& token, const QString& folder,
                 bool quiet)
{
    HttpServerOptions options;
    options.port = 4319;
    if (!parseAddress(addressText, options.address, options.port)) {
        writeText(stderr, QStringLiteral("hako serve: not an address: %1\n").arg(addressText));
        return 2;
    }
    options.bearerToken = token.toUtf8();
    Result<library::PromptLibrary> lib = library::PromptLibrary::open(
        folder.isEmpty() ? library::PromptLibrary::defaultFolder() : folder);
    if (!lib) {
        writeText(stderr, QStringLiteral("hako serve: %1\n").arg(lib.error().message));
        return 2;
    }
    library::PromptServer server(*lib, options);
    QObject::connect(
        &server, &library::PromptServer::requestRejected,
        [quiet](int status, const QString& reason) {
            if (!quiet)
                writeText(stderr, QStringLiteral("hako serve: %1: %2\n").arg(status).arg(reason));
        });
    Result<quint16> port = server.start();
    if (!port) {
        writeText(stderr, QStringLiteral("hako serve: %1\n").arg(port.error().message));
        return 1;
    }
    const QString host = hostText(options.address);
    writeText(stderr, QStringLiteral("hako serve: serving the prompt library %1 on "
                                     "http://%2:%3/v1/prompts\n")
                          .arg(lib->root(), host)
                          .arg(*port));
    runUntilStopped();
    server.stop();
    writeText(stderr,
              QStringLiteral("hako serve: stopped; %1 request(s)\n").arg(server.requests()));
    return 0;
}

namespace {

// `hako serve`'s command line.
struct ServeArgs {
    bool otlp = false, prompts = false, quiet = false, noTraces = false;
    QString libraryFolder, evaluateFile, tracesFolder;
    QString addressText, token = qEnvironmentVariable("HAKO_OTLP_TOKEN"), logSpec, maxBody;
};

// Reads `args` into `a`; an exit status when the command line is wrong (or asked for help).
std::optional<int> parseServeArgs(const QStringList& args, ServeArgs& a)
{
    auto set = [](QString& target) {
        return [&target](const QString& v) {
            target = v;
            return QString();
        };
    };
    OptionParser parser;
    parser.addOptionalValue({QStringLiteral("--otlp")}, [&a](const QString& v) {
        a.otlp = true;
        a.addressText = v;
        return QString();
    });
    parser.addOptionalValue({QStringLiteral("--prompts")}, [&a](const QString& v) {
        a.prompts = true;
        a.addressText = v;
        return QString();
    });
    parser.addOption({QStringLiteral("--library")}, set(a.libraryFolder));
    parser.addOption({QStringLiteral("--token")}, set(a.token));
    parser.addOption({QStringLiteral("--log")}, set(a.logSpec));
    parser.addOption({QStringLiteral("--max-body")}, set(a.maxBody));
    parser.addOption({QStringLiteral("--evaluate")}, set(a.evaluateFile));
    parser.addOption({QStringLiteral("--traces")}, set(a.tracesFolder));
    parser.addFlag({QStringLiteral("--no-traces")}, [&a] { a.noTraces = true; });
    parser.addFlag({QStringLiteral("--quiet")}, [&a] { a.quiet = true; });
    // No words of its own: `--otlp 4318` is the address.
    parser.setPositional(
        [](const QString& w) { return QStringLiteral("unexpected argument %1").arg(w); }, 0);
    return OptionParser::finish(parser.parse(args), QStringLiteral("hako serve"), kUsage);
}

// `hako serve --otlp`: receives until Ctrl+C or SIGTERM.
int serveOtlp(const ServeArgs& a)
{
    const QString& addressText = a.addressText;
    const QString& maxBody = a.maxBody;
    const QString& logSpec = a.logSpec;
    const bool quiet = a.quiet;
    otel::ReceiverOptions options;
    if (!parseAddress(addressText, options.address, options.port)) {
        writeText(stderr, QStringLiteral("hako serve: not an address: %1\n").arg(addressText));
        return 2;
    }
    if (!maxBody.isEmpty()) {
        bool ok = false;
        options.maxBodyBytes = maxBody.toLongLong(&ok);
        if (!ok || options.maxBodyBytes <= 0) {
            writeText(stderr, QStringLiteral("hako serve: --max-body wants bytes\n"));
            return 2;
        }
    }
    options.bearerToken = a.token.toUtf8();

    QString error;
    std::unique_ptr<promptlog::PromptLog> log;
    if (logSpec.isEmpty()) {
        log = promptlog::PromptLog::openDefault(&error);
    } else {
        QString settingsError;
        promptlog::PromptLogOptions logOptions =
            promptlog::PromptLogOptions::fromUserSettings(&settingsError);
        log = promptlog::PromptLog::open(logSpec, &error, std::move(logOptions));
    }
    if (!log) {
        writeText(stderr,
                  QStringLiteral("hako serve: cannot open the prompt log: %1\n").arg(error));
        return 1;
    }
    if (!error.isEmpty())
        writeText(stderr, QStringLiteral("hako serve: %1\n").arg(error));

    ServeExtras extras;
    if (!a.noTraces)
        extras.traces.emplace(a.tracesFolder.isEmpty() ? RunArchive::defaultFolder()
                                                       : a.tracesFolder);
    std::unique_ptr<eval::OnlineEvaluator> online;
    if (!a.evaluateFile.isEmpty()) {
        Result<std::unique_ptr<eval::OnlineEvaluator>> made = startOnline(a.evaluateFile, *log);
        if (!made) {
            writeText(stderr, QStringLiteral("hako serve: %1\n").arg(made.error().toString()));
            return 2;
        }
        online = std::move(made).value();
        extras.online = online.get();
    }

    otel::OtlpReceiver receiver(options);
    ServeTally tally;
    receiver.setStoringSink([store = log.get(), &tally, &extras,
                             quiet](const std::vector<otel::Span>& s, const QByteArray& json) {
        return storeCalls(*store, s, json, tally, extras, quiet);
    });
    QObject::connect(&receiver, &otel::OtlpReceiver::requestRejected,
                     [quiet](int status, const QString& reason) {
                         if (!quiet)
                             writeText(stderr, QStringLiteral("hako serve: refused a request "
                                                              "(%1): %2\n")
                                                   .arg(status)
                                                   .arg(reason));
                     });
    auto port = receiver.start();
    if (!port) {
        writeText(stderr, QStringLiteral("hako serve: %1\n").arg(port.error().message));
        return 1;
    }
    const QString host = hostText(options.address);
    writeText(stderr, QStringLiteral("hako serve: receiving OTLP on http://%1:%2/v1/traces "
                                     "(prompt log: %3)\n")
                          .arg(host)
                          .arg(*port)
                          .arg(log->location()));

    if (online)
        writeText(stderr,
                  QStringLiteral("hako serve: evaluating %1 of the calls%2 with %3\n")
                      .arg(QString::number(online->config().sample * 100) + QLatin1Char('%'),
                           filterText(online->config()),
                           online->evaluatorNames().join(QStringLiteral(", "))));

    runUntilStopped();
    receiver.stop();
    writeText(stderr, stopMessage(receiver.counters(), tally));
    if (online) {
        // The calls already chosen are judged before leaving (a slow judge: 10 s at most).
        if (!online->waitIdle(10000))
            writeText(stderr, QStringLiteral("hako serve: online evaluation did not finish "
                                             "within 10 s; the calls still waiting are not "
                                             "evaluated\n"));
        const auto& c = online->counters();
        writeText(stderr, QStringLiteral("hako serve: online evaluation: %1 call(s) chosen, %2 "
                                         "evaluated, %3 score(s) kept, %4 skipped (queue full), "
                                         "%5 could not be judged\n")
                              .arg(c.selected.load())
                              .arg(c.evaluated.load())
                              .arg(c.scores.load())
                              .arg(c.skipped.load())
                              .arg(c.errors.load()));
    }
    return 0;
}

} // namespace

int serveCommand(const QStringList& args)
{
    ServeArgs a;
    if (std::optional<int> exit = parseServeArgs(args, a))
        return *exit;
    if (a.otlp && a.prompts) {
        writeText(stderr, QStringLiteral("hako serve: --otlp or --prompts, one at a time\n"));
        return 2;
    }
    if (a.prompts)
        return servePrompts(
            a.addressText, a.token.isEmpty() ? qEnvironmentVariable("HAKO_PROMPTS_TOKEN") : a.token,
            a.libraryFolder, a.quiet);
    if (!a.otlp) {
        writeText(stderr, QString::fromLatin1(kUsage));
        return 2;
    }
    return serveOtlp(a);
}

} // namespace hako
