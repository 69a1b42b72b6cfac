// OpenTelemetry benchmarks: a generated OTLP/JSON file of HAKO_BENCH_OTEL_SPANS spans (default
// 100,000; one trace of agent turns: an LLM span with messages and usage, a tool span and a
// retriever span with documents, 1,000 spans per request line) opened the way the workbench
// opens it (read, decode, map, assemble, TraceModel), its peak memory, and the same trace as
// Hako's trace JSON through the current reader for comparison; then the receiver's throughput
// from one loopback client (keep-alive, 1,000 spans per request) in JSON and protobuf: in this
// process, spans going to a TraceAssembler and through the prompt-log mapping (the window's live
// view), and `hako serve --otlp` itself (prompt log in a fresh SQLite file, trace archive).
#include "benchproc.h"
#include "core/otel/otlpdecode.h"
#include "core/otel/otlpfile.h"
#include "core/otel/otlpreceiver.h"
#include "core/otel/spanmapper.h"
#include "core/otel/traceassembler.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/util/bulkmemory.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <sys/prctl.h>
#include <unistd.h>

using namespace hako;
using namespace hako::benchproc;

namespace {

[[noreturn]] void fail(const QString& message)
{
    std::fprintf(stderr, "%s\n", qPrintable(message));
    std::exit(1);
}

std::string hex16(uint64_t v)
{
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string attr(const char* key, const std::string& value)
{
    std::string escaped;
    for (char c : value) {
        if (c == '"' || c == '\\')
            escaped += '\\';
        escaped += c;
    }
    return std::string("{\"key\":\"") + key + "\",\"value\":{\"stringValue\":\"" + escaped + "\"}}";
}
std::string attrInt(const char* key, long long v)
{
    return std::string("{\"key\":\"") + key + "\",\"value\":{\"intValue\":\"" + std::to_string(v) +
           "\"}}";
}

// Span `i` of the generated trace (span 0 is the root agent; then turns of three spans).
std::string spanJson(const std::string& traceId, long long i)
{
    const long long t0 = 1700000000000000000LL + i * 1000000LL;
    std::string attrs;
    std::string parent = i == 0 ? "" : hex16(1);
    std::string name;
    switch (i == 0 ? -1 : i % 3) {
    case -1:
        name = "agent";
        attrs = attr("openinference.span.kind", "AGENT");
        break;
    case 1:
        name = "ChatOpenAI";
        attrs =
            attr("openinference.span.kind", "LLM") + "," + attr("llm.model_name", "gpt-4o-mini") +
            "," + attr("llm.input_messages.0.message.role", "system") + "," +
            attr("llm.input_messages.0.message.content", "You are a careful assistant.") + "," +
            attr("llm.input_messages.1.message.role", "user") + "," +
            attr("llm.input_messages.1.message.content",
                 "Question number " + std::to_string(i) + ": what is the weather?") +
            "," + attr("llm.output_messages.0.message.role", "assistant") + "," +
            attr("llm.output_messages.0.message.content", "Sunny, 21 C, light wind.") + "," +
            attrInt("llm.token_count.prompt", 42) + "," + attrInt("llm.token_count.completion", 9);
        break;
    case 2:
        name = "get_weather";
        attrs = attr("openinference.span.kind", "TOOL") + "," + attr("tool.name", "get_weather") +
                "," + attr("input.value", "{\"city\":\"Paris\"}") + "," +
                attr("input.mime_type", "application/json") + "," +
                attr("output.value", "{\"temp_c\":21}") + "," +
                attr("output.mime_type", "application/json");
        break;
    default:
        name = "retrieve";
        attrs = attr("openinference.span.kind", "RETRIEVER") + "," +
                attr("input.value", "weather guides") + "," +
                attr("retrieval.documents.0.document.id", "doc-1") + "," +
                attr("retrieval.documents.0.document.content", "Paris in June is mild.") +
                ",{\"key\":\"retrieval.documents.0.document.score\",\"value\":{\"doubleValue\":"
                "0.9}}";
    }
    std::string s =
        "{\"traceId\":\"" + traceId + "\",\"spanId\":\"" + hex16(uint64_t(i) + 1) + "\",";
    if (!parent.empty())
        s += "\"parentSpanId\":\"" + parent + "\",";
    s += "\"name\":\"" + name + "\",\"kind\":1,\"startTimeUnixNano\":\"" + std::to_string(t0) +
         "\",\"endTimeUnixNano\":\"" + std::to_string(t0 + 900000) + "\",\"attributes\":[" + attrs +
         "],\"status\":{}}";
    return s;
}

std::string requestJson(const std::string& traceId, long long from, long long to)
{
    std::string r = "{\"resourceSpans\":[{\"resource\":{\"attributes\":[" +
                    attr("service.name", "bench") +
                    "]},\"scopeSpans\":[{\"scope\":{\"name\":"
                    "\"bench\"},\"spans\":[";
    for (long long i = from; i < to; ++i) {
        if (i > from)
            r += ',';
        r += spanJson(traceId, i);
    }
    return r + "]}]}]}";
}

void report(const std::string& name, double value, const char* unit)
{
    std::printf("BENCH %s %.1f %s\n", name.c_str(), value, unit);
    std::fflush(stdout);
}

// The generated trace as OTLP/JSON lines of 1,000 spans.
void writeOtlpFile(const QString& path, const std::string& traceId, long long spans)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        fail(f.errorString());
    for (long long from = 0; from < spans; from += 1000) {
        const std::string line = requestJson(traceId, from, std::min(spans, from + 1000));
        f.write(line.data(), qint64(line.size()));
        f.write("\n");
    }
}

// The same spans as OTLP/protobuf in the Collector's file exporter's framing (a 4-byte
// big-endian length before each request).
void writeOtlpProtobufFile(const QString& jsonPath, const QString& path)
{
    QFile in(jsonPath);
    QFile out(path);
    if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly))
        fail(in.errorString() + out.errorString());
    while (!in.atEnd()) {
        const QByteArray line = in.readLine();
        auto decoded = otel::decodeOtlpJson(std::string_view(line.constData(), line.size()));
        if (!decoded)
            fail(decoded.error().message);
        const std::string frame = otel::encodeOtlpProtobuf(*decoded);
        const quint32 n = quint32(frame.size());
        const char prefix[4] = {char(n >> 24), char(n >> 16), char(n >> 8), char(n)};
        out.write(prefix, 4);
        out.write(frame.data(), qint64(frame.size()));
    }
}

} // namespace

int loadPhase(const QString& phase, const QString& path, const QString& hakoJson)
{
    if (phase == QLatin1String("otlp") || phase == QLatin1String("otlp-protobuf")) {
        const char* name = phase == QLatin1String("otlp") ? "otel_load" : "otel_load_protobuf";
        const long baseKb = statusKb("VmRSS");
        const std::clock_t c0 = std::clock();
        QElapsedTimer t;
        t.start();
        std::optional<BulkAllocationScope> bulk(std::in_place); // as TraceLoader for big files
        otel::registerOtlpTraceFormat();
        auto loaded = pdl::readTraceFile(path); // the window's path (TraceLoader)
        bulk.reset();
        if (!loaded)
            fail(loaded.error().message);
        const double parsed = t.nsecsElapsed() / 1e6;
        const long treeKb = statusKb("VmRSS");
        auto model = std::make_unique<pdl::TraceModel>();
        pdl::TraceLoadResult result = std::move(loaded).value();
        model->takeTrace(std::move(result.root), path); // as the window's loader does
        std::fprintf(stderr, "# RSS: %.0f MB with the tree, %.0f MB with the model too\n",
                     (treeKb - baseKb) / 1024.0, (statusKb("VmRSS") - baseKb) / 1024.0);
        const double ms = t.nsecsElapsed() / 1e6;
        const double cpu = double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC;
        std::fprintf(stderr, "# %s: read+decode+map+assemble %.0f ms, model %.0f ms\n", name,
                     parsed, ms - parsed);
        report(name + std::string("_ms"), ms, "ms");
        report(name + std::string("_cpu_ms"), cpu, "ms");
        report(name + std::string("_peak_rss_mb"), (statusKb("VmHWM") - baseKb) / 1024.0, "MB");
        if (phase != QLatin1String("otlp"))
            return 0;
        QString error;
        // The model took the tree: the Hako JSON is written from a second read, once the
        // model is gone.
        model.reset();
        auto again = otel::loadOtlpTrace(path);
        if (!again)
            fail(again.error().message);
        if (!pdl::writeTraceFile(*again->root, hakoJson, &error))
            fail(error);
        std::fprintf(stderr, "# the same trace as Hako trace JSON: %.1f MB\n",
                     QFileInfo(hakoJson).size() / 1048576.0);
        return 0;
    }
    if (phase == QLatin1String("stages")) {
        // Where the OTLP load's time goes: decoding alone, then decoding and mapping.
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            fail(f.errorString());
        const QByteArray data = f.readAll();
        const QList<QByteArray> lines = data.split('\n');
        std::clock_t c0 = std::clock();
        size_t spans = 0;
        for (const QByteArray& line : lines)
            if (!line.isEmpty())
                spans += otel::decodeOtlpJson(line.toStdString())->size();
        report("otel_decode_only_cpu_ms", double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC,
               "ms");
        c0 = std::clock();
        for (const QByteArray& line : lines) {
            if (line.isEmpty())
                continue;
            const auto decoded = otel::decodeOtlpJson(line.toStdString());
            for (const otel::Span& s : *decoded)
                (void)otel::interpretSpan(s);
        }
        report("otel_decode_and_interpret_cpu_ms",
               double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC, "ms");
        c0 = std::clock();
        for (const QByteArray& line : lines) {
            if (line.isEmpty())
                continue;
            const auto decoded = otel::decodeOtlpJson(line.toStdString());
            for (const otel::Span& s : *decoded)
                (void)otel::toTraceNode(s, otel::interpretSpan(s));
        }
        report("otel_decode_and_map_cpu_ms", double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC,
               "ms");
        return spans > 0 ? 0 : 1;
    }
    const long baseKb = statusKb("VmRSS");
    const std::clock_t c0 = std::clock();
    QElapsedTimer t;
    t.start();
    auto r = pdl::readTraceFile(hakoJson);
    if (!r)
        fail(r.error().message);
    pdl::TraceModel model;
    model.setTrace(r->root, hakoJson);
    report("otel_same_trace_hako_json_load_ms", t.nsecsElapsed() / 1e6, "ms");
    report("otel_same_trace_hako_json_load_cpu_ms",
           double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC, "ms");
    report("otel_same_trace_hako_json_peak_rss_mb", (statusKb("VmHWM") - baseKb) / 1024.0, "MB");
    return 0;
}

// The requests of a receiver run: `spans` spans, 1,000 per request, as OTLP/JSON or protobuf.
std::vector<QByteArray> requestBodies(const std::string& traceId, long long spans, bool proto)
{
    std::vector<QByteArray> bodies;
    for (long long from = 0; from < spans; from += 1000) {
        const std::string json = requestJson(traceId, from, std::min(spans, from + 1000));
        if (proto) {
            auto decoded = otel::decodeOtlpJson(json);
            bodies.push_back(QByteArray::fromStdString(otel::encodeOtlpProtobuf(*decoded)));
        } else {
            bodies.push_back(QByteArray::fromStdString(json));
        }
    }
    return bodies;
}

// Posts every body on one keep-alive connection to `port`, each after the previous answer.
void postAll(quint16 port, const std::vector<QByteArray>& bodies, bool proto)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(5000))
        fail(QStringLiteral("cannot connect"));
    s.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    const QByteArray type = proto ? "application/x-protobuf" : "application/json";
    for (const QByteArray& body : bodies) {
        s.write("POST /v1/traces HTTP/1.1\r\nHost: b\r\nContent-Type: " + type +
                "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QByteArray response;
        while (true) {
            if (!s.waitForReadyRead(60000))
                fail(QStringLiteral("no response"));
            response += s.readAll();
            const qsizetype end = response.indexOf("\r\n\r\n");
            if (end >= 0 && !response.startsWith("HTTP/1.1 200"))
                fail(QString::fromUtf8(response.left(200)));
            if (end >= 0 && response.size() >= end + 4 + (proto ? 0 : 2))
                break;
        }
    }
}

// The receiver in this process, its spans going to a TraceAssembler and through the prompt-log
// mapping (what the window's live view does with them).
void receiverBench(const std::vector<QByteArray>& bodies, long long spans, bool proto)
{
    const long rssBeforeKb = statusKb("VmRSS");
    otel::ReceiverOptions options;
    options.port = 0;
    otel::OtlpReceiver receiver(options);
    std::mutex mutex;
    otel::TraceAssembler assembler;
    long long calls = 0;
    receiver.setSink([&](std::vector<otel::Span>&& batch) {
        long long llm = 0;
        for (const otel::Span& s : batch)
            if (otel::toCallRecord(s, otel::interpretSpan(s)))
                ++llm;
        std::lock_guard lock(mutex);
        assembler.add(batch);
        calls += llm;
    });
    auto port = receiver.start();
    if (!port)
        fail(port.error().message);
    QElapsedTimer t;
    t.start();
    const std::clock_t c0 = std::clock();
    postAll(*port, bodies, proto);
    const double secs = t.nsecsElapsed() / 1e9;
    const double cpuSecs = double(std::clock() - c0) / CLOCKS_PER_SEC;
    {
        std::lock_guard lock(mutex);
        if (assembler.spanCount() != size_t(spans))
            fail(QStringLiteral("received %1 spans").arg(assembler.spanCount()));
    }
    report(proto ? "otel_receiver_protobuf_spans_per_s" : "otel_receiver_json_spans_per_s",
           double(spans) / secs, "spans/s");
    // Client and server share the process: spans per second of their processor time.
    report(proto ? "otel_receiver_protobuf_spans_per_cpu_s" : "otel_receiver_json_spans_per_cpu_s",
           double(spans) / cpuSecs, "spans/s");
    // What the process grew by, the received trace (every span kept, as a live view's
    // assembler keeps them until it drops traces) included.
    report(proto ? "otel_receiver_protobuf_rss_growth_mb" : "otel_receiver_json_rss_growth_mb",
           (statusKb("VmRSS") - rssBeforeKb) / 1024.0, "MB");
}

// Processor time of process `pid` so far (user and system), in seconds.
double processCpuSeconds(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.readAll();
    // After the command's name in parentheses: fields 3 onwards; utime and stime are 14 and 15.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return 0;
    return double(fields[11].toLongLong() + fields[12].toLongLong()) / double(sysconf(_SC_CLK_TCK));
}

// `hako serve --otlp` as a user runs it: every LLM span into a prompt log, every span into the
// trace archive, each request answered once its calls are committed.
void serveBench(const std::vector<QByteArray>& bodies, long long spans, bool proto,
                const QTemporaryDir& dir)
{
    const QString run =
        dir.filePath(proto ? QStringLiteral("serve-protobuf") : QStringLiteral("serve-json"));
    QProcess serve;
    serve.setProcessChannelMode(QProcess::MergedChannels);
    // Stopped with the benchmark even when it fails half-way (fail() leaves without unwinding).
    serve.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    serve.start(QCoreApplication::applicationDirPath() + QStringLiteral("/hako"),
                {QStringLiteral("serve"), QStringLiteral("--otlp"), QStringLiteral("127.0.0.1:0"),
                 QStringLiteral("--log"), run + QStringLiteral("/log.sqlite"),
                 QStringLiteral("--traces"), run + QStringLiteral("/traces"),
                 QStringLiteral("--quiet")});
    QByteArray said;
    const QByteArray marker = "receiving OTLP on http://127.0.0.1:";
    while (!said.contains(marker) || !said.mid(said.indexOf(marker)).contains('/')) {
        if (!serve.waitForReadyRead(30000))
            fail(QStringLiteral("hako serve did not start: ") + QString::fromUtf8(said));
        said += serve.readAll();
    }
    const QByteArray after = said.mid(said.indexOf(marker) + marker.size());
    const quint16 port = quint16(after.left(after.indexOf('/')).toUInt());
    const double cpu0 = processCpuSeconds(serve.processId());
    QElapsedTimer t;
    t.start();
    postAll(port, bodies, proto);
    const double secs = t.nsecsElapsed() / 1e9;
    const double cpu = processCpuSeconds(serve.processId()) - cpu0;
    ::kill(pid_t(serve.processId()), SIGINT);
    if (!serve.waitForFinished(60000) || serve.exitCode() != 0)
        fail(QStringLiteral("hako serve did not stop: ") + QString::fromUtf8(serve.readAll()));
    const QByteArray stopped = serve.readAll();
    if (!stopped.contains(QByteArray("with " + QByteArray::number(spans) + " span(s)")))
        fail(QStringLiteral("hako serve said: ") + QString::fromUtf8(stopped));
    report(proto ? "otel_serve_protobuf_spans_per_s" : "otel_serve_json_spans_per_s",
           double(spans) / secs, "spans/s");
    if (cpu > 0)
        report(proto ? "otel_serve_protobuf_spans_per_cpu_s" : "otel_serve_json_spans_per_cpu_s",
               double(spans) / cpu, "spans/s");
}

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc == 5 && QByteArray(argv[1]) == "--phase")
        return loadPhase(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]),
                         QString::fromLocal8Bit(argv[4]));
    const long long spans = envInt("HAKO_BENCH_OTEL_SPANS", 100000);
    const std::string traceId = "0af7651916cd43dd8448eb211c80319c";
    QTemporaryDir dir;
    // HAKO_BENCH_OTEL_FILE keeps the generated file at that path (made when missing), for
    // profiling a load phase by hand: `bench_otel --phase otlp <file> <out.json>`; with
    // `--generate` the files are only written (HAKO_BENCH_OTEL_SPANS=1000000 for the target).
    // HAKO_BENCH_OTEL_SERVE_ONLY=1: only `hako serve --otlp` (for profiling the server by hand).
    if (qEnvironmentVariableIntValue("HAKO_BENCH_OTEL_SERVE_ONLY") == 1) {
        const long long n = envInt("HAKO_BENCH_OTEL_RECEIVER_SPANS", 100000);
        for (bool proto : {false, true})
            serveBench(requestBodies(traceId, n, proto), n, proto, dir);
        return 0;
    }
    const QString kept = qEnvironmentVariable("HAKO_BENCH_OTEL_FILE");
    const QString path = kept.isEmpty() ? dir.filePath(QStringLiteral("bench.otlp.jsonl")) : kept;
    if (kept.isEmpty() || !QFileInfo::exists(kept))
        writeOtlpFile(path, traceId, spans);
    if (argc == 2 && QByteArray(argv[1]) == "--generate") {
        // Also the protobuf file beside it, for `--phase otlp-protobuf <file>.binpb <out>`.
        writeOtlpProtobufFile(path, path + QStringLiteral(".binpb"));
        return 0;
    }
    const double mb = QFileInfo(path).size() / 1048576.0;
    std::fprintf(stderr, "# %lld spans, %.1f MB of OTLP/JSON\n", spans, mb);
    report("otel_file_mb", mb, "MB");

    // Each load in a process of its own, so that its peak memory is its own.
    const QString hakoJson = dir.filePath(QStringLiteral("bench_trace.json"));
    const QString protobuf = dir.filePath(QStringLiteral("bench.otlp.binpb"));
    writeOtlpProtobufFile(path, protobuf);
    for (const char* phase : {"otlp", "otlp-protobuf", "hako", "stages"}) {
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedChannels);
        const bool proto = QByteArray(phase) == "otlp-protobuf";
        child.start(
            QCoreApplication::applicationFilePath(),
            {QStringLiteral("--phase"), QLatin1String(phase), proto ? protobuf : path, hakoJson});
        if (!child.waitForFinished(-1) || child.exitCode() != 0)
            fail(QStringLiteral("the %1 load failed").arg(QLatin1String(phase)));
    }
    QFile::remove(protobuf);

    // Receiver throughput: one client, keep-alive, 1,000 spans per request; in this process
    // (the receiver alone), then through `hako serve --otlp` (prompt log and trace archive).
    const long long receiverSpans = envInt("HAKO_BENCH_OTEL_RECEIVER_SPANS", 100000);
    for (bool proto : {false, true})
        receiverBench(requestBodies(traceId, receiverSpans, proto), receiverSpans, proto);
    for (bool proto : {false, true})
        serveBench(requestBodies(traceId, receiverSpans, proto), receiverSpans, proto, dir);
    return 0;
}
