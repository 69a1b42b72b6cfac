#include "core/otel/otlpfile.h"

#include "core/otel/otlpdecode.h"

#include <QFile>
#include <QtConcurrent/QtConcurrentMap>

#include <mutex>

namespace hako::otel {

namespace {

bool startsLikeJson(const QByteArray& data, qsizetype* at = nullptr)
{
    qsizetype i = 0;
    if (data.startsWith("\xEF\xBB\xBF"))
        i = 3;
    while (i < data.size() &&
           (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t'))
        ++i;
    if (at)
        *at = i;
    return i < data.size() && data[i] == '{';
}

} // namespace

bool looksLikeOtlp(const QByteArray& head)
{
    if (startsLikeJson(head)) {
        const QByteArray probe = head.left(4096);
        return probe.contains("\"resourceSpans\"") || probe.contains("\"resource_spans\"");
    }
    if (head.isEmpty())
        return false;
    // Protobuf: field 1, wire type 2 (0x0A) opens a request; a length-prefixed frame starts
    // with a 4-byte length. Decode what the head holds and require at least one span.
    auto decodes = [](std::string_view bytes) {
        auto r = decodeOtlpProtobuf(bytes);
        return r.ok() && !r->empty();
    };
    // A head cut inside a request does not decode: then the shape of its start decides
    // (ExportTraceServiceRequest.resource_spans, whose first field is resource or scope_spans).
    auto shaped = [](const uchar* p, qsizetype n) {
        if (n < 3 || p[0] != 0x0A)
            return false;
        qsizetype i = 1;
        while (i < n && i < 6 && (p[i] & 0x80))
            ++i;
        return i + 1 < n && (p[i + 1] == 0x0A || p[i + 1] == 0x12);
    };
    const auto* bytes = reinterpret_cast<const uchar*>(head.constData());
    if (head[0] == '\x0A' && (decodes(std::string_view(head.constData(), size_t(head.size()))) ||
                              (head.size() >= 64 * 1024 && shaped(bytes, head.size()))))
        return true;
    if (head.size() > 5) {
        const quint32 n = (quint32(uchar(head[0])) << 24) | (quint32(uchar(head[1])) << 16) |
                          (quint32(uchar(head[2])) << 8) | quint32(uchar(head[3]));
        if (head[4] == '\x0A' && n + 4 <= quint32(head.size()) &&
            decodes(std::string_view(head.constData() + 4, n)))
            return true;
    }
    return false;
}

Result<OtlpScan> scanOtlpData(const QByteArray& data, const QString& path,
                              const std::function<void(const std::vector<Span>&)>& sink,
                              const pdl::TraceLoadProgress& progress, const CancelToken& cancel)
{
    OtlpScan file;
    auto note = [&file](const Diagnostic& d) {
        ++file.badRequests;
        if (file.firstProblem.isEmpty())
            file.firstProblem = d.message;
    };
    qsizetype at = 0;
    qint64 nextReport = 1 << 20;
    if (startsLikeJson(data, &at)) {
        // One request per line; a pretty-printed file is one request over many lines.
        bool wholeFile = false;
        while (at < data.size()) {
            if (cancel.isCancelled())
                return makeError(QStringLiteral("cancelled"));
            qsizetype end = data.indexOf('\n', at);
            if (end < 0)
                end = data.size();
            const std::string_view line(data.constData() + at, size_t(end - at));
            if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
                auto spans = decodeOtlpJson(line);
                if (spans) {
                    ++file.requests;
                    sink(*spans);
                } else if (file.requests == 0 && file.badRequests == 0) {
                    wholeFile = true;
                    break;
                } else {
                    note(spans.error());
                }
            }
            at = end + 1;
            if (progress && at >= nextReport) {
                progress(at, data.size());
                nextReport = at + (1 << 20);
            }
        }
        if (wholeFile) {
            auto spans = decodeOtlpJson(std::string_view(data.constData(), size_t(data.size())));
            if (!spans)
                return spans.error();
            ++file.requests;
            sink(*spans);
        }
    } else {
        const std::string_view all(data.constData(), size_t(data.size()));
        auto spans = decodeOtlpProtobuf(all);
        if (spans && !spans->empty()) {
            ++file.requests;
            sink(*spans);
        } else {
            // Length-prefixed frames (the Collector's file exporter with `format: proto`).
            size_t pos = 0;
            while (pos + 4 <= all.size()) {
                if (cancel.isCancelled())
                    return makeError(QStringLiteral("cancelled"));
                const uchar* p = reinterpret_cast<const uchar*>(all.data() + pos);
                const size_t n = (size_t(p[0]) << 24) | (size_t(p[1]) << 16) | (size_t(p[2]) << 8) |
                                 size_t(p[3]);
                if (pos + 4 + n > all.size())
                    break;
                auto frame = decodeOtlpProtobuf(all.substr(pos + 4, n));
                if (frame) {
                    ++file.requests;
                    sink(*frame);
                } else {
                    note(frame.error());
                }
                pos += 4 + n;
            }
            if (file.requests == 0)
                return spans ? makeError(QStringLiteral("no spans in %1").arg(path))
                             : spans.error();
        }
    }
    if (progress)
        progress(data.size(), data.size());
    return file;
}

Result<OtlpFile> parseOtlpData(const QByteArray& data, const QString& path,
                               const pdl::TraceLoadProgress& progress, const CancelToken& cancel)
{
    OtlpFile file;
    file.path = path;
    file.bytes = data.size();
    file.assembler = std::make_shared<TraceAssembler>();
    TraceAssembler* assembler = file.assembler.get();
    Result<OtlpScan> scan = scanOtlpData(
        data, path, [assembler](const std::vector<Span>& spans) { assembler->add(spans); },
        progress, cancel);
    if (!scan)
        return scan.error();
    file.requests = scan->requests;
    file.badRequests = scan->badRequests;
    file.firstProblem = scan->firstProblem;
    if (file.assembler->spanCount() == 0)
        return makeError(file.firstProblem.isEmpty() ? QStringLiteral("%1 holds no spans").arg(path)
                                                     : file.firstProblem);
    return file;
}

Result<OtlpFile> readOtlpFile(const QString& path, const pdl::TraceLoadProgress& progress,
                              const CancelToken& cancel)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    if (!startsLikeJson(f.peek(4096)))
        return parseOtlpData(f.readAll(), path, progress, cancel);
    // One request per line: read a line at a time, so that a 1 GB file is never in memory
    // whole. A first line that is not a whole request means one pretty-printed request.
    OtlpFile file;
    file.path = path;
    file.bytes = f.size();
    file.assembler = std::make_shared<TraceAssembler>();
    // Lines are decoded and mapped in parallel, a batch of about 8 MB at a time (bounded
    // memory, progress and cancel between batches), and added in file order.
    struct Decoded {
        bool ok = false;
        QString error;
        std::vector<TraceAssembler::PreparedSpan> spans;
    };
    auto decode = [](const QByteArray& line) {
        Decoded d;
        auto spans = decodeOtlpJson(std::string_view(line.constData(), size_t(line.size())));
        if (!spans) {
            d.error = spans.error().message;
            return d;
        }
        d.ok = true;
        d.spans.reserve(spans->size());
        for (const Span& s : *spans)
            d.spans.push_back(TraceAssembler::prepare(s));
        return d;
    };
    QList<QByteArray> batch;
    qint64 batchBytes = 0;
    auto flush = [&]() -> bool {
        const QList<Decoded> decoded = QtConcurrent::blockingMapped(batch, decode);
        batch.clear();
        batchBytes = 0;
        for (const Decoded& d0 : decoded) {
            Decoded& d = const_cast<Decoded&>(d0);
            if (d.ok) {
                ++file.requests;
                for (TraceAssembler::PreparedSpan& p : d.spans)
                    file.assembler->add(std::move(p));
            } else if (file.requests == 0 && file.badRequests == 0) {
                return false; // not one request per line
            } else {
                ++file.badRequests;
                if (file.firstProblem.isEmpty())
                    file.firstProblem = d.error;
            }
        }
        return true;
    };
    while (!f.atEnd()) {
        if (cancel.isCancelled())
            return makeError(QStringLiteral("cancelled"));
        QByteArray line = f.readLine();
        if (line.trimmed().isEmpty())
            continue;
        batchBytes += line.size();
        batch.append(std::move(line));
        if (batchBytes >= (8 << 20) || f.atEnd()) {
            if (!flush()) {
                f.seek(0);
                return parseOtlpData(f.readAll(), path, progress, cancel);
            }
            if (progress)
                progress(f.pos(), file.bytes);
        }
    }
    if (!batch.isEmpty() && !flush()) {
        f.seek(0);
        return parseOtlpData(f.readAll(), path, progress, cancel);
    }
    if (progress)
        progress(file.bytes, file.bytes);
    if (file.assembler->spanCount() == 0)
        return makeError(file.firstProblem.isEmpty() ? QStringLiteral("%1 holds no spans").arg(path)
                                                     : file.firstProblem);
    return file;
}

Result<pdl::TraceLoadResult> loadOtlpTrace(const QString& path, const std::string& traceId,
                                           const pdl::TraceLoadProgress& progress,
                                           const CancelToken& cancel)
{
    auto file = readOtlpFile(path, progress, cancel);
    if (!file)
        return file.error();
    return takeTrace(file.value(), traceId);
}

Result<pdl::TraceLoadResult> loadOtlpTraceData(const QByteArray& data, const QString& path,
                                               const std::string& traceId,
                                               const pdl::TraceLoadProgress& progress,
                                               const CancelToken& cancel)
{
    auto file = parseOtlpData(data, path, progress, cancel);
    if (!file)
        return file.error();
    return takeTrace(file.value(), traceId);
}

Result<pdl::TraceLoadResult> takeTrace(OtlpFile& file, const std::string& traceId)
{
    const QString& path = file.path;
    std::string id = traceId;
    int spans = 0;
    for (const TraceSummary& s : file.assembler->traces()) {
        if (traceId.empty() ? s.spans > spans : s.traceId == traceId) {
            spans = s.spans;
            id = s.traceId;
        }
    }
    if (!file.assembler->contains(id))
        return makeError(
            QStringLiteral("%1 has no trace %2").arg(path, QString::fromStdString(id)));
    pdl::TraceLoadResult r;
    r.path = path;
    r.bytes = file.bytes;
    r.blocks = spans;
    r.root = file.assembler->take(id);
    if (file.badRequests > 0) {
        r.partial = true;
        r.problem = makeError(QStringLiteral("%1 request(s) skipped: %2")
                                  .arg(file.badRequests)
                                  .arg(file.firstProblem));
    }
    return r;
}

void registerOtlpTraceFormat()
{
    static std::once_flag once;
    std::call_once(once, [] {
        pdl::registerTraceFormat(
            [](const QByteArray& data, const QString& path, const pdl::TraceLoadProgress& progress,
               const CancelToken& cancel) -> std::optional<Result<pdl::TraceLoadResult>> {
                if (!looksLikeOtlp(data.left(64 * 1024)))
                    return std::nullopt;
                return loadOtlpTraceData(data, path, {}, progress, cancel);
            });
    });
}

} // namespace hako::otel
