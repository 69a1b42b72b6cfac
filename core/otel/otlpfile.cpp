#include "core/otel/otlpfile.h"

#include "core/otel/otlpdecode.h"
#include "core/otel/otlpjsonfast_p.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <cstring>
#include <mutex>
#include <optional>

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

// The length a protobuf frame's 4-byte big-endian prefix at `p` gives.
size_t frameLength(const char* p)
{
    const auto* b = reinterpret_cast<const uchar*>(p);
    return (size_t(b[0]) << 24) | (size_t(b[1]) << 16) | (size_t(b[2]) << 8) | size_t(b[3]);
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
        const size_t n = frameLength(head.constData());
        if (head[4] == '\x0A' && n + 4 <= size_t(head.size()) &&
            decodes(std::string_view(head.constData() + 4, n)))
            return true;
        // A first frame longer than the head (a request of a thousand spans is hundreds of
        // kilobytes): the shape of its start decides.
        if (head[4] == '\x0A' && n + 4 > size_t(head.size()) && head.size() >= 64 * 1024 &&
            shaped(bytes + 4, head.size() - 4))
            return true;
    }
    return false;
}

namespace {

constexpr qint64 kBatchBytes = 8 << 20;

// What a file of protobuf frames whose last frame is incomplete is told (a writer killed
// mid-write): the whole frames before it are read.
void reportCutFrame(OtlpScan& scan, qint64 present)
{
    ++scan.badRequests;
    if (scan.firstProblem.isEmpty())
        scan.firstProblem = QStringLiteral("the file ends inside its last frame (%1 bytes of it "
                                           "are there): it was cut short while being written")
                                .arg(present);
}

// Requests decoded in parallel, a batch of about 8 MB at a time (bounded memory; progress and
// cancel between batches), and handed on in file order on the calling thread while the next
// batch decodes. `Decoded` is what a worker makes of one request (its spans, or its spans
// mapped for a TraceAssembler).
template <typename Decoded> class Batches {
public:
    using Decode = std::function<Result<Decoded>(std::string_view)>;
    using Use = std::function<void(Decoded&&)>;

    /// `firstMayFail`: a first request that does not decode ends flush() (see there).
    Batches(Decode decode, Use use, OtlpScan& scan, bool firstMayFail = true)
        : m_decode(std::move(decode)), m_use(std::move(use)), m_scan(scan),
          m_firstMayFail(firstMayFail), m_next(std::make_unique<Batch>())
    {
        // Read on a thread of the pool (the window's loader, the Runs list's scan), the reader
        // mostly waits for the batches it hands to the pool: let the pool run one more, or on
        // two cores a single thread decodes while the other waits.
        QThreadPool* pool = QThreadPool::globalInstance();
        m_lentThread = pool->contains(QThread::currentThread());
        if (m_lentThread)
            pool->releaseThread();
    }
    ~Batches()
    {
        if (m_running)
            m_running->done.waitForFinished();
        if (m_lentThread)
            QThreadPool::globalInstance()->reserveThread();
    }
    /// Adds a request: bytes that stay valid until finish(), or that `owner` holds.
    void add(std::string_view request, const QByteArray& owner = {})
    {
        m_next->jobs.push_back(Job{request, std::nullopt});
        m_bytes += qint64(request.size());
        if (!owner.isNull() &&
            (m_next->owners.isEmpty() || !owner.isSharedWith(m_next->owners.back())))
            m_next->owners.append(owner);
    }
    bool full() const { return m_bytes >= kBatchBytes; }
    /// Starts decoding what was added and hands on the batch before it. False when the first
    /// request of the data does not decode (nothing is handed on: the data may be one request
    /// over many lines).
    bool flush()
    {
        std::unique_ptr<Batch> previous = std::move(m_running);
        m_running = std::move(m_next);
        m_next = std::make_unique<Batch>();
        m_bytes = 0;
        m_running->done =
            QtConcurrent::map(m_running->jobs, [this](Job& j) { j.out = m_decode(j.bytes); });
        if (!previous || handOn(*previous))
            return true;
        m_running->done.waitForFinished();
        m_running.reset();
        return false;
    }
    /// Decodes and hands on everything added. False as flush().
    bool finish()
    {
        if (!flush())
            return false;
        std::unique_ptr<Batch> last = std::move(m_running);
        return handOn(*last);
    }

private:
    struct Job {
        std::string_view bytes;
        std::optional<Result<Decoded>> out;
    };
    struct Batch {
        std::vector<Job> jobs;
        QList<QByteArray> owners;
        QFuture<void> done;
    };
    bool handOn(Batch& batch)
    {
        batch.done.waitForFinished();
        for (Job& j : batch.jobs) {
            if (*j.out) {
                ++m_scan.requests;
                m_use(std::move(*j.out).value());
            } else if (m_firstMayFail && m_scan.requests == 0 && m_scan.badRequests == 0) {
                return false;
            } else {
                ++m_scan.badRequests;
                if (m_scan.firstProblem.isEmpty())
                    m_scan.firstProblem = (*j.out).error().message;
            }
            j.out.reset(); // frees the request's spans while the rest are handed on
        }
        return true;
    }

    Decode m_decode;
    Use m_use;
    OtlpScan& m_scan;
    bool m_firstMayFail;
    bool m_lentThread = false;        ///< the reader's pool thread lent to the decoding
    std::unique_ptr<Batch> m_next;    ///< being added to
    std::unique_ptr<Batch> m_running; ///< decoding
    qint64 m_bytes = 0;
};

// The non-blank lines of `text` into `batches` (`owner` holds the bytes).
template <typename Decoded>
void addLines(std::string_view text, Batches<Decoded>& batches, const QByteArray& owner = {})
{
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(at, end - at);
        if (line.find_first_not_of(" \t\r") != std::string_view::npos)
            batches.add(line, owner);
        at = end + 1;
    }
}

// What readRequests decodes with: a request of each encoding.
template <typename Decoded> struct Decoders {
    std::function<Result<Decoded>(std::string_view)> json, protobuf;
};

// The requests of OTLP data (see parseOtlpData for the formats), decoded in parallel.
template <typename Decoded>
Result<OtlpScan> readRequests(const QByteArray& data, const QString& path,
                              const Decoders<Decoded>& decode,
                              const std::function<void(Decoded&&)>& use,
                              const pdl::TraceLoadProgress& progress, const CancelToken& cancel)
{
    OtlpScan scan;
    qsizetype at = 0;
    const std::string_view all(data.constData(), size_t(data.size()));
    auto whole = [&](const auto& decodeOne) -> Result<OtlpScan> {
        Result<Decoded> one = decodeOne(all);
        if (!one)
            return one.error();
        ++scan.requests;
        use(std::move(one).value());
        return scan;
    };
    if (startsLikeJson(data, &at)) {
        // One request per line; a pretty-printed file is one request over many lines.
        Batches<Decoded> batches(decode.json, use, scan);
        qsizetype from = at;
        while (from < data.size()) {
            if (cancel.isCancelled())
                return makeError(QStringLiteral("cancelled"));
            // A batch of whole lines: up to the last line break in the next 8 MB (or past a
            // longer line), or the end.
            const qsizetype limit = std::min(data.size(), from + qsizetype(kBatchBytes));
            qsizetype to = data.size();
            if (limit < data.size()) {
                to = data.lastIndexOf('\n', limit - 1) + 1;
                if (to <= from) {
                    const qsizetype next = data.indexOf('\n', limit);
                    to = next < 0 ? data.size() : next + 1;
                }
            }
            addLines(all.substr(size_t(from), size_t(to - from)), batches);
            if (!batches.flush())
                return whole(decode.json);
            if (progress)
                progress(to, data.size());
            from = to;
        }
        if (!batches.finish())
            return whole(decode.json);
        if (scan.requests == 0 && scan.badRequests == 0)
            return whole(decode.json);
    } else {
        Result<Decoded> one = decode.protobuf(all);
        if (one && !one->empty()) {
            ++scan.requests;
            use(std::move(one).value());
        } else {
            // Length-prefixed frames (the Collector's file exporter with `format: proto`).
            OtlpScan frames;
            // A first frame that does not decode is counted like any other.
            Batches<Decoded> batches(decode.protobuf, use, frames, false);
            size_t pos = 0;
            while (pos + 4 <= all.size()) {
                if (cancel.isCancelled())
                    return makeError(QStringLiteral("cancelled"));
                const size_t n = frameLength(all.data() + pos);
                if (pos + 4 + n > all.size())
                    break;
                batches.add(all.substr(pos + 4, n));
                pos += 4 + n;
                if (batches.full()) {
                    (void)batches.flush();
                    if (progress)
                        progress(qint64(pos), data.size());
                }
            }
            (void)batches.finish();
            if (pos < all.size())
                reportCutFrame(frames, qint64(all.size() - pos));
            if (frames.requests == 0)
                return one ? makeError(QStringLiteral("no spans in %1").arg(path)) : one.error();
            scan = frames;
        }
    }
    if (progress)
        progress(data.size(), data.size());
    return scan;
}

// Items kept in pieces of the allocator's ordinary sizes: a vector of a request's 1,000 spans
// (or their 256-byte run parts) would be a large block, taken from the system and given back
// for every request, its pages cleared again each time, and copied as it grows.
template <class T> struct Pieces {
    static constexpr size_t kPiece = 128;
    std::vector<std::vector<T>> pieces;

    void push(T&& item)
    {
        if (pieces.empty() || pieces.back().size() == kPiece) {
            pieces.emplace_back();
            pieces.back().reserve(kPiece);
        }
        pieces.back().push_back(std::move(item));
    }
    /// Hands each item to `use`, freeing each piece once it is used.
    template <class F> void drain(F&& use)
    {
        for (auto& piece : pieces) {
            for (T& item : piece)
                use(std::move(item));
            piece = {};
        }
    }
};

// The spans of a request mapped for a TraceAssembler and the Runs list.
struct PreparedSpans {
    Pieces<TraceAssembler::PreparedSpan> spans;
    Pieces<RunCollector::Part> runs;
    size_t count = 0;

    /// What a span gives the trace (its node, prepared) and its run (the Runs list's row).
    void take(Span&& span)
    {
        runs.push(RunCollector::partOf(span));
        add(TraceAssembler::prepare(std::move(span)));
    }
    void add(TraceAssembler::PreparedSpan&& p)
    {
        spans.push(std::move(p));
        ++count;
    }
    size_t size() const { return count; }
    bool empty() const { return count == 0; }
};

// A request's spans decoded and mapped one by one (no vector of the request's spans).
Result<PreparedSpans> preparedJson(std::string_view bytes)
{
    PreparedSpans out;
    if (decodeOtlpJsonFast(bytes, [&out](Span&& s) { out.take(std::move(s)); }))
        return out;
    out = PreparedSpans();
    auto spans = decodeOtlpJsonReference(bytes);
    if (!spans)
        return spans.error();
    for (Span& s : spans.value())
        out.take(std::move(s));
    return out;
}

Result<PreparedSpans> preparedProtobuf(std::string_view bytes)
{
    PreparedSpans out;
    auto decoded = decodeOtlpProtobuf(bytes, [&out](Span&& s) { out.take(std::move(s)); });
    if (!decoded)
        return decoded.error();
    return out;
}

const Decoders<PreparedSpans>& preparedDecoders()
{
    static const Decoders<PreparedSpans> d{preparedJson, preparedProtobuf};
    return d;
}

const Decoders<std::vector<Span>>& spanDecoders()
{
    static const Decoders<std::vector<Span>> d{[](std::string_view b) { return decodeOtlpJson(b); },
                                               [](std::string_view b) {
                                                   return decodeOtlpProtobuf(b);
                                               }};
    return d;
}

void addPrepared(OtlpFile& file, PreparedSpans&& spans)
{
    spans.spans.drain(
        [&file](TraceAssembler::PreparedSpan&& p) { file.assembler->add(std::move(p)); });
    spans.runs.drain([&file](RunCollector::Part&& part) { file.runs->add(std::move(part)); });
}

// The runs of the file the window read last (the Runs list asks for them next), as long as
// the file is as it was when read.
struct RunsMemo {
    QString path;
    qint64 size = -1;
    QDateTime modified;
    std::vector<RunRow> rows;
};
std::mutex g_runsMemoMutex;
RunsMemo g_runsMemo;

void rememberRuns(const OtlpFile& file, qint64 size, const QDateTime& modified)
{
    std::lock_guard lock(g_runsMemoMutex);
    g_runsMemo = {file.path, size, modified, file.runs->rows()};
}

Result<OtlpFile> assembled(OtlpFile& file, const Result<OtlpScan>& scan)
{
    if (!scan)
        return scan.error();
    file.requests = scan->requests;
    file.badRequests = scan->badRequests;
    file.firstProblem = scan->firstProblem;
    if (file.assembler->spanCount() == 0)
        return makeError(file.firstProblem.isEmpty()
                             ? QStringLiteral("%1 holds no spans").arg(file.path)
                             : file.firstProblem);
    return std::move(file);
}

} // namespace

Result<OtlpScan> scanOtlpData(const QByteArray& data, const QString& path,
                              const std::function<void(const std::vector<Span>&)>& sink,
                              const pdl::TraceLoadProgress& progress, const CancelToken& cancel)
{
    return readRequests<std::vector<Span>>(
        data, path, spanDecoders(), [&sink](std::vector<Span>&& spans) { sink(spans); }, progress,
        cancel);
}

Result<OtlpFile> parseOtlpData(const QByteArray& data, const QString& path,
                               const pdl::TraceLoadProgress& progress, const CancelToken& cancel)
{
    OtlpFile file;
    file.path = path;
    file.bytes = data.size();
    file.assembler = std::make_shared<TraceAssembler>();
    file.runs = std::make_shared<RunCollector>();
    const Result<OtlpScan> scan = readRequests<PreparedSpans>(
        data, path, preparedDecoders(),
        [&file](PreparedSpans&& spans) { addPrepared(file, std::move(spans)); }, progress, cancel);
    return assembled(file, scan);
}

namespace {

// A file read a batch at a time into buffers that are reused once their batch is done (an 8 MB
// block allocated for every read would be taken from the system and given back each time, its
// pages cleared again). Each chunk starts with what the last one left unused.
class ChunkReader {
public:
    explicit ChunkReader(QFile& f) : m_f(f) {}
    /// The next chunk: the unused tail and at least `want` more bytes (fewer at the end of the
    /// file; none at all sets `atEnd`). Null when reading fails.
    QByteArray* next(qint64 want, bool& atEnd)
    {
        QByteArray& chunk = freeChunk();
        chunk.resize(m_tail.size() + qsizetype(want));
        std::memcpy(chunk.data(), m_tail.constData(), size_t(m_tail.size()));
        const qint64 n = m_f.read(chunk.data() + m_tail.size(), want);
        if (n < 0)
            return nullptr;
        chunk.resize(m_tail.size() + qsizetype(n));
        atEnd = n == 0;
        return &chunk;
    }
    /// The chunk's bytes from `used` on wait for the next chunk.
    void keep(const QByteArray& chunk, qsizetype used)
    {
        m_tail = QByteArray(chunk.constData() + used, chunk.size() - used);
    }
    qint64 position() const { return m_f.pos() - m_tail.size(); }

private:
    QByteArray& freeChunk()
    {
        for (QByteArray& c : m_chunks)
            if (c.isDetached())
                return c;
        m_chunks.append(QByteArray());
        return m_chunks.back();
    }

    QFile& m_f;
    QList<QByteArray> m_chunks;
    QByteArray m_tail;
};

// One request per line, 8 MB of whole lines at a time. Null when the file is not one request
// per line after all (a pretty-printed request): then it is read whole.
template <typename Decoded>
std::optional<Result<OtlpScan>>
streamJsonLines(QFile& f, const QString& path, const Decoders<Decoded>& decode,
                const std::function<void(Decoded&&)>& use, const pdl::TraceLoadProgress& progress,
                const CancelToken& cancel)
{
    OtlpScan scan;
    Batches<Decoded> batches(decode.json, use, scan);
    ChunkReader reader(f);
    bool atEnd = false;
    while (!atEnd) {
        if (cancel.isCancelled())
            return makeError(QStringLiteral("cancelled"));
        QByteArray* chunk = reader.next(kBatchBytes, atEnd);
        if (!chunk)
            return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
        // Whole lines only (a line longer than what was read so far waits for more).
        const qsizetype lines = atEnd ? chunk->size() : chunk->lastIndexOf('\n') + 1;
        reader.keep(*chunk, lines);
        addLines(std::string_view(chunk->constData(), size_t(lines)), batches, *chunk);
        if (!(atEnd ? batches.finish() : batches.flush()) ||
            (atEnd && scan.requests == 0 && scan.badRequests == 0))
            return std::nullopt;
        if (progress)
            progress(reader.position(), f.size());
    }
    return scan;
}

// Length-prefixed protobuf frames (the Collector's file exporter with `format: proto`), 8 MB of
// whole frames at a time, so that a million spans' 400 MB are never in memory whole. Null when
// no frame decodes (then the file is read whole, for its error).
template <typename Decoded>
std::optional<Result<OtlpScan>>
streamProtobufFrames(QFile& f, const QString& path, const Decoders<Decoded>& decode,
                     const std::function<void(Decoded&&)>& use,
                     const pdl::TraceLoadProgress& progress, const CancelToken& cancel)
{
    OtlpScan scan;
    // A first frame that does not decode is counted like any other.
    Batches<Decoded> batches(decode.protobuf, use, scan, false);
    const qint64 size = f.size();
    ChunkReader reader(f);
    qint64 want = kBatchBytes;
    bool atEnd = false, truncated = false;
    while (!atEnd && !truncated) {
        if (cancel.isCancelled())
            return makeError(QStringLiteral("cancelled"));
        QByteArray* chunk = reader.next(want, atEnd);
        if (!chunk)
            return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
        const qint64 chunkStart = f.pos() - chunk->size();
        const std::string_view all(chunk->constData(), size_t(chunk->size()));
        size_t pos = 0;
        want = kBatchBytes;
        while (pos + 4 <= all.size()) {
            const size_t n = frameLength(all.data() + pos);
            if (pos + 4 + n > all.size()) {
                // A frame longer than the rest of the file ends it (as a file read whole);
                // otherwise the next read holds at least all of it.
                if (chunkStart + qint64(pos + 4 + n) > size)
                    truncated = true;
                else
                    want = std::max(kBatchBytes, qint64(pos + 4 + n - all.size()));
                break;
            }
            batches.add(all.substr(pos + 4, n), *chunk);
            pos += 4 + n;
        }
        reader.keep(*chunk, qsizetype(pos));
        (void)batches.flush();
        if (progress)
            progress(reader.position(), size);
    }
    (void)batches.finish();
    if (scan.requests == 0)
        return std::nullopt;
    if (const qint64 rest = size - reader.position(); rest > 0)
        reportCutFrame(scan, rest);
    if (progress)
        progress(size, size);
    return scan;
}

// Length-prefixed frames: a 4-byte length, then a request (whose first byte is 0x0A).
bool looksFramed(const QByteArray& head)
{
    return head.size() > 5 && head[0] != '\x0A' && head[4] == '\x0A';
}

// The requests of an OTLP file read a batch at a time (JSON lines, protobuf frames); null for
// data that must be read whole (one request, pretty-printed or not).
template <typename Decoded>
std::optional<Result<OtlpScan>>
streamOtlpFile(QFile& f, const QString& path, const Decoders<Decoded>& decode,
               const std::function<void(Decoded&&)>& use, const pdl::TraceLoadProgress& progress,
               const CancelToken& cancel)
{
    const QByteArray head = f.peek(4096);
    if (startsLikeJson(head))
        return streamJsonLines(f, path, decode, use, progress, cancel);
    if (looksFramed(head))
        return streamProtobufFrames(f, path, decode, use, progress, cancel);
    return std::nullopt;
}

} // namespace

Result<OtlpFile> readOtlpFile(const QString& path, const pdl::TraceLoadProgress& progress,
                              const CancelToken& cancel)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    OtlpFile file;
    file.path = path;
    file.bytes = f.size();
    file.assembler = std::make_shared<TraceAssembler>();
    file.runs = std::make_shared<RunCollector>();
    const std::function<void(PreparedSpans &&)> add = [&file](PreparedSpans&& spans) {
        addPrepared(file, std::move(spans));
    };
    if (auto scan = streamOtlpFile(f, path, preparedDecoders(), add, progress, cancel))
        return assembled(file, *scan);
    f.seek(0);
    return parseOtlpData(f.readAll(), path, progress, cancel);
}

Result<OtlpScan> scanOtlpFile(const QString& path,
                              const std::function<void(const std::vector<Span>&)>& sink,
                              const pdl::TraceLoadProgress& progress, const CancelToken& cancel)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    const std::function<void(std::vector<Span> &&)> use = [&sink](std::vector<Span>&& spans) {
        sink(spans);
    };
    if (auto scan = streamOtlpFile(f, path, spanDecoders(), use, progress, cancel))
        return std::move(*scan);
    f.seek(0);
    return scanOtlpData(f.readAll(), path, sink, progress, cancel);
}

Result<pdl::TraceLoadResult> loadOtlpTrace(const QString& path, const std::string& traceId,
                                           const pdl::TraceLoadProgress& progress,
                                           const CancelToken& cancel)
{
    // The file as it was before reading: one still growing is read again for its runs.
    const QFileInfo before(path);
    const qint64 size = before.size();
    const QDateTime modified = before.lastModified();
    auto file = readOtlpFile(path, progress, cancel);
    if (!file)
        return file.error();
    rememberRuns(file.value(), size, modified);
    file.value().runs.reset(); // every span's part: gone before the trace is assembled
    return takeTrace(file.value(), traceId);
}

std::optional<std::vector<RunRow>> runsReadWithTrace(const QString& path)
{
    const QFileInfo now(path);
    std::lock_guard lock(g_runsMemoMutex);
    if (g_runsMemo.path != path || g_runsMemo.size != now.size() ||
        g_runsMemo.modified != now.lastModified())
        return std::nullopt;
    return g_runsMemo.rows;
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
        // A file is read a batch at a time (a million spans' file is never in memory whole).
        pdl::registerTraceFileFormat(
            [](const QString& path, const QByteArray& head, const pdl::TraceLoadProgress& progress,
               const CancelToken& cancel) -> std::optional<Result<pdl::TraceLoadResult>> {
                if (!looksLikeOtlp(head))
                    return std::nullopt;
                return loadOtlpTrace(path, {}, progress, cancel);
            });
    });
}

} // namespace hako::otel
