#include "cli/runcommand.h"

#include "core/docs/docbindings.h"
#include "core/docs/documentsession.h"
#include "core/memory/hashembedding.h"
#include "core/memory/memorybindings.h"
#include "core/memory/memorystore.h"
#include "core/models/modelrouter.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/interp/tracereader.h"
#include "core/pdl/interp/tracewriter.h"
#include "core/pdl/parser/yamlvalue.h"

#include "core/util/boundedfile.h"

#include <QFile>
#include <QFileInfo>
#include <QUuid>

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
    "  --sandbox            run code blocks under bubblewrap (no network, read-only files)\n"
    "  --replay TRACE       reuse the recorded model replies, code results and reads of a\n"
    "                       trace instead of calling anything\n"
    "  --max-call-depth N   stop runaway recursion of function calls (default 500)\n"
    "  --memory STORE       give the program `memory` and `thread` over the agent-memory\n"
    "                       store STORE (created when missing; see `hako memory`)\n"
    "  --memory-agent NAME  whose memories they are (default: default)\n"
    "  --embedding-model M  embeds memories (default: the store's model, else 'hash')\n"
    "  --document FILE      open a text or PDF document as the `doc` object (doc.search,\n"
    "                       doc.show, doc.answer, doc.cost, ...; see hako search)\n";

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
            Result<QByteArray> data = readBoundedFile(v);
            if (!data) {
                write(stderr, QStringLiteral("hako run: %1\n").arg(data.error().message));
                return 2;
            }
            if (!mergeData(*data, v, options.initialScope, &error)) {
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
    if (result.trace && wantTrace) {
        QString error;
        if (!pdl::writeTraceFile(*result.trace, traceFile, &error))
            write(
                stderr,
                QStringLiteral("hako run: cannot write the trace %1: %2\n").arg(traceFile, error));
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
    return 0;
}

} // namespace hako
