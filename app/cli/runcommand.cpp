#include "cli/runcommand.h"

#include "core/docs/docbindings.h"
#include "core/docs/documentsession.h"
#include "core/memory/hashembedding.h"
#include "core/memory/memorybindings.h"
#include "core/memory/memorystore.h"
#include "core/models/modelconfig.h"
#include "core/models/modelrouter.h"
#include "core/pdl/code/codetrust.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/interp/tracereader.h"
#include "core/pdl/interp/tracewriter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSettings>
#include <QUrl>
#include <QUuid>

#include <algorithm>
#include <csignal>
#include <cstdio>

namespace hako {

namespace {

void write(FILE* stream, const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    std::fwrite(utf8.constData(), 1, size_t(utf8.size()), stream);
    std::fflush(stream);
}

const char* kUsage =
    "usage: hako run [options] PROGRAM.pdl\n"
    "  --trace [FILE]       write the run's trace (default: PROGRAM_trace.json)\n"
    "  -d, --data YAML      initial variables, a YAML/JSON mapping\n"
    "  -f, --data-file F    initial variables from a YAML/JSON file\n"
    "  --stream MODE        result: print model replies as they arrive; context: print\n"
    "                       every message added to the context (role: content) as it is\n"
    "                       added, instead of the result; none (default): the result is\n"
    "                       printed at the end\n"
    "  --sandbox            run code blocks under bubblewrap (no network, no files but the\n"
    "                       program's folder, read-only; no API keys in the environment)\n"
    "  --trust              run a program from an untrusted folder although it runs code or\n"
    "                       sends requests to a server of its own choosing (once)\n"
    "  --trust-folder       the same, and trust the program's folder from now on (the\n"
    "                       workbench's trusted folders; Run > Forget Trusted Folders)\n"
    "  --replay TRACE       reuse the recorded model replies, code results and reads of a\n"
    "                       trace instead of calling anything\n"
    "  --max-call-depth N   stop runaway recursion of function calls (default 500)\n"
    "  --memory STORE       give the program `memory` and `thread` over the agent-memory\n"
    "                       store STORE (created when missing; see `hako memory`)\n"
    "  --memory-agent NAME  whose memories they are (default: default)\n"
    "  --embedding-model M  embeds memories (default: the store's model, else 'hash')\n"
    "  --document FILE      open a text or PDF document as the `doc` object (doc.search,\n"
    "                       doc.show, doc.answer, doc.cost, ...; see hako search)\n";

// "host:port" of a URL, for comparing a block's server with the configured endpoints.
QString hostOf(const QString& url)
{
    const QUrl u(url);
    if (u.host().isEmpty())
        return {};
    return u.host().toLower() + QLatin1Char(':') +
           QString::number(u.port(u.scheme() == QLatin1String("http") ? 80 : 443));
}

QString siteText(const pdl::code::CodeSite& site)
{
    using Kind = pdl::code::CodeSite::Kind;
    const QString at =
        QStringLiteral("%1:%2").arg(QFileInfo(site.span.file).fileName()).arg(site.span.line);
    switch (site.kind) {
    case Kind::Python:
        return QStringLiteral("Python code at %1").arg(at);
    case Kind::Command:
        return QStringLiteral("a command at %1").arg(at);
    case Kind::Pdl:
        return QStringLiteral("a program built at run time at %1").arg(at);
    case Kind::Include:
        return QStringLiteral("an include that cannot be checked (%1) at %2")
            .arg(QString::fromStdString(site.detail), at);
    case Kind::Host:
        return site.detail.empty()
                   ? QStringLiteral("model requests to a server chosen at run time at %1").arg(at)
                   : QStringLiteral("model requests to %1 at %2")
                         .arg(QString::fromStdString(site.detail), at);
    }
    return at;
}

// The workbench's trust rule for the command line: a program from a folder the user has not
// trusted may not run code (without --sandbox) nor send requests to servers other than the
// configured endpoints, unless --trust says so. Refuses rather than asks: `hako run` is used
// in scripts, and a question on a terminal is easy to answer without reading. Returns the
// refusal ("" to go on).
QString trustRefusal(const QString& program, bool sandbox, bool trustOnce, bool trustFolder)
{
    // Same settings as the workbench (organization and application "Hako").
    QSettings settings(QStringLiteral("Hako"), QStringLiteral("Hako"));
    pdl::code::CodeTrustStore trust(&settings);
    const QString folder = QFileInfo(program).absolutePath();
    if (trustFolder) {
        trust.trustFolder(folder);
        settings.sync();
        return {};
    }
    if (trustOnce || trust.isTrusted(QFileInfo(program).absoluteFilePath()))
        return {};
    pdl::ParseResult parsed = pdl::parseProgram(program);
    if (!parsed.program)
        return {}; // the run reports the parse errors
    auto loader = [](const QString& file) {
        return pdl::parseProgram(file).program;
    };
    std::vector<pdl::code::CodeSite> sites;
    if (!sandbox)
        sites = pdl::code::findCodeSites(*parsed.program, loader);
    // Servers the user configured (environment and keyring, not a file beside this program).
    QSet<QString> known;
    if (Result<models::ModelConfig> config = models::ModelConfig::load(QString()); config.ok())
        for (const auto& listed : config->listedEndpoints())
            known.insert(hostOf(listed.endpoint.baseUrl));
    for (const pdl::code::CodeSite& site : pdl::code::findModelHosts(*parsed.program, loader)) {
        if (site.kind == pdl::code::CodeSite::Kind::Include && !sandbox)
            continue; // reported by findCodeSites already
        if (site.kind == pdl::code::CodeSite::Kind::Host && !site.detail.empty() &&
            known.contains(hostOf(QString::fromStdString(site.detail))))
            continue;
        sites.push_back(site);
    }
    if (sites.empty())
        return {};
    QStringList lines;
    const size_t shown = std::min<size_t>(sites.size(), 5);
    for (size_t i = 0; i < shown; ++i)
        lines << QStringLiteral("  ") + siteText(sites[i]);
    if (sites.size() > shown)
        lines << QStringLiteral("  … and %1 more").arg(sites.size() - shown);
    return QStringLiteral("hako run: %1 is in a folder you have not trusted (%2) and would run:\n"
                          "%3\n"
                          "Run it only if you trust where it comes from: add --trust to run it "
                          "once, or --trust-folder to trust the folder from now on%4.\n")
        .arg(QFileInfo(program).fileName(), QDir::toNativeSeparators(folder),
             lines.join(QLatin1Char('\n')),
             sandbox ? QString() : QStringLiteral("; --sandbox runs its code in a sandbox"));
}

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

} // namespace

int runCommand(const QStringList& args)
{
    pdl::RunOptions options;
    QString program, traceFile, replayFile, documentFile;
    bool wantTrace = false;
    bool trustOnce = false, trustFolder = false;
    QString stream = QStringLiteral("none");
    QString memoryStore, memoryAgent = QStringLiteral("default"), embeddingModel;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        auto value = [&](QString* out) {
            if (i + 1 >= args.size()) {
                write(stderr, QStringLiteral("hako run: %1 needs a value\n").arg(a));
                return false;
            }
            *out = args[++i];
            return true;
        };
        QString v;
        if (a == QLatin1String("-h") || a == QLatin1String("--help")) {
            write(stdout, QString::fromLatin1(kUsage));
            return 0;
        } else if (a == QLatin1String("--trace") || a == QLatin1String("-t")) {
            wantTrace = true;
            // `--trace FILE PROGRAM`: a value only when a program still follows it.
            if (i + 2 < args.size() && !args[i + 1].startsWith(QLatin1Char('-')))
                traceFile = args[++i];
        } else if (a.startsWith(QLatin1String("--trace="))) {
            wantTrace = true;
            traceFile = a.mid(8);
        } else if (a == QLatin1String("-d") || a == QLatin1String("--data")) {
            QString error;
            if (!value(&v))
                return 2;
            if (!mergeData(v.toUtf8(), QStringLiteral("--data"), options.initialScope, &error)) {
                write(stderr, QStringLiteral("hako run: %1\n").arg(error));
                return 2;
            }
        } else if (a == QLatin1String("-f") || a == QLatin1String("--data-file")) {
            QString error;
            if (!value(&v))
                return 2;
            QFile f(v);
            if (!f.open(QIODevice::ReadOnly)) {
                write(stderr,
                      QStringLiteral("hako run: cannot read %1: %2\n").arg(v, f.errorString()));
                return 2;
            }
            if (!mergeData(f.readAll(), v, options.initialScope, &error)) {
                write(stderr, QStringLiteral("hako run: %1\n").arg(error));
                return 2;
            }
        } else if (a == QLatin1String("--stream")) {
            if (!value(&stream))
                return 2;
            if (stream == QLatin1String("background")) // the reference's older name
                stream = QStringLiteral("context");
            if (stream != QLatin1String("none") && stream != QLatin1String("result") &&
                stream != QLatin1String("context")) {
                write(stderr, QStringLiteral("hako run: --stream takes result, context or none\n"));
                return 2;
            }
        } else if (a == QLatin1String("--sandbox")) {
            options.sandbox = true;
        } else if (a == QLatin1String("--trust")) {
            trustOnce = true;
        } else if (a == QLatin1String("--trust-folder")) {
            trustFolder = true;
        } else if (a == QLatin1String("--replay")) {
            if (!value(&replayFile))
                return 2;
        } else if (a == QLatin1String("--max-call-depth")) {
            bool ok = false;
            if (!value(&v))
                return 2;
            options.maxCallDepth = v.toInt(&ok);
            if (!ok || options.maxCallDepth < 1) {
                write(stderr,
                      QStringLiteral("hako run: --max-call-depth takes a positive number\n"));
                return 2;
            }
        } else if (a == QLatin1String("--memory")) {
            if (!value(&memoryStore))
                return 2;
        } else if (a == QLatin1String("--memory-agent")) {
            if (!value(&memoryAgent))
                return 2;
        } else if (a == QLatin1String("--embedding-model")) {
            if (!value(&embeddingModel))
                return 2;
        } else if (a == QLatin1String("--document")) {
            if (!value(&documentFile))
                return 2;
        } else if (a.startsWith(QLatin1Char('-')) && a.size() > 1) {
            write(stderr, QStringLiteral("hako run: unknown option %1\n\n").arg(a) +
                              QString::fromLatin1(kUsage));
            return 2;
        } else if (program.isEmpty()) {
            program = a;
        } else {
            write(stderr, QStringLiteral("hako run: runs one program at a time\n"));
            return 2;
        }
    }
    if (program.isEmpty()) {
        write(stderr, QString::fromLatin1(kUsage));
        return 2;
    }
    if (!QFileInfo::exists(program)) {
        write(stderr, QStringLiteral("hako run: %1: no such file\n").arg(program));
        return 1;
    }
    // A replay calls nothing and runs no code: nothing to trust.
    if (replayFile.isEmpty()) {
        const QString refusal = trustRefusal(program, options.sandbox, trustOnce, trustFolder);
        if (!refusal.isEmpty()) {
            write(stderr, refusal);
            return 1;
        }
    }
    if (!replayFile.isEmpty()) {
        QString error;
        auto table = pdl::loadReplayTable(replayFile, &error);
        if (!table) {
            write(stderr, QStringLiteral("hako run: %1\n").arg(error));
            return 1;
        }
        options.replay = std::move(table);
    }
    // --document: the program gets a `doc` object playing the search/show/answer game on it.
    if (!documentFile.isEmpty()) {
        Result<docs::Document> document = docs::loadDocument(documentFile);
        if (!document.ok()) {
            write(stderr, QStringLiteral("hako run: %1\n").arg(document.error().message));
            return 1;
        }
        for (const Diagnostic& w : document->warnings())
            write(stderr, QStringLiteral("hako run: %1\n").arg(w.toString()));
        auto index = docs::DocumentIndex::build(
            std::make_shared<docs::Document>(std::move(document).value()));
        options.initialScope.set(
            "doc", docs::makeDocumentBindings(std::make_shared<docs::DocumentSession>(index)));
    }
    if (wantTrace && traceFile.isEmpty())
        traceFile = QFileInfo(program).completeBaseName() + QStringLiteral("_trace.json");
    options.trace = wantTrace;
    bool streamed = false;
    options.streamModelOutput = stream == QLatin1String("result");
    options.streamContext = stream == QLatin1String("context");
    options.writeStdout = [&](std::string_view text) {
        streamed = streamed || options.streamModelOutput;
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
    };
    // Ctrl+C cancels at the next block boundary and kills running code.
    static CancelToken* interrupt = nullptr;
    interrupt = &options.cancel;
    std::signal(SIGINT, [](int) { interrupt->cancel(); });

    if (!options.replay) {
        Result<std::shared_ptr<models::IModelProvider>> provider =
            models::createDefaultProvider(QFileInfo(program).absolutePath());
        if (!provider.ok()) {
            write(stderr, QStringLiteral("hako run: %1\n").arg(provider.error().toString()));
            return 1;
        }
        options.models = *provider;
    }
    // Agent memory: `memory` and `thread` objects over the store; every change and retrieval
    // they make is journaled with this run's id and the calling block's pdl__id.
    if (!memoryStore.isEmpty()) {
        auto store = memory::MemoryStore::open(memoryStore);
        if (!store) {
            write(stderr, QStringLiteral("hako run: %1\n").arg(store.error().message));
            return 1;
        }
        memory::MemoryBindingOptions mo;
        mo.agent = memoryAgent;
        mo.embeddingModel = !embeddingModel.isEmpty()               ? embeddingModel
                            : !(*store)->embeddingModel().isEmpty() ? (*store)->embeddingModel()
                                                                    : QStringLiteral("hash");
        mo.runId = QUuid::createUuid().toString(QUuid::WithoutBraces);
        mo.baseDir = QFileInfo(program).absolutePath();
        auto bindings = memory::makeAgentBindings(
            *store, std::make_shared<memory::HashFallbackProvider>(options.models), mo);
        options.initialScope.set("memory", bindings.memory);
        options.initialScope.set("thread", bindings.thread);
    }
    pdl::Interpreter interpreter(options);
    pdl::RunResult result = interpreter.runFile(program);
    std::signal(SIGINT, SIG_DFL);
    // A trace that cannot be written fails the run: a script relying on it must notice.
    bool traceFailed = false;
    if (result.trace && wantTrace) {
        QString error;
        if (!pdl::writeTraceFile(*result.trace, traceFile, &error)) {
            write(
                stderr,
                QStringLiteral("hako run: cannot write the trace %1: %2\n").arg(traceFile, error));
            traceFailed = true;
        }
    }
    if (!result.ok) {
        const SourceSpan& s = result.error.span;
        QString where = s.isValid() ? QStringLiteral("%1:%2:%3 - ")
                                          .arg(QFileInfo(s.file).fileName())
                                          .arg(s.line)
                                          .arg(s.column)
                                    : QStringLiteral("%1 - ").arg(QFileInfo(program).fileName());
        // Parse errors come as `file:line:col: error: …` lines already.
        if (s.isValid() && (result.error.message.startsWith(s.file + QLatin1Char(':')) ||
                            (result.error.message.contains(QLatin1Char('\n')) &&
                             result.error.message.startsWith(QFileInfo(program).fileName()))))
            where.clear();
        write(stderr, where + result.error.message + QLatin1Char('\n'));
        return 1;
    }
    if (stream == QLatin1String("context"))
        write(stdout, QStringLiteral("\n")); // the messages were the output, as the reference does
    else if (!(streamed && stream == QLatin1String("result")))
        write(stdout, QString::fromStdString(result.result.toText()) + QLatin1Char('\n'));
    return traceFailed ? 1 : 0;
}

} // namespace hako
