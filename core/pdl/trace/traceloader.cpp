#include "core/pdl/trace/traceloader.h"

#include "core/pdl/trace/fasttracereader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracereader.h"
#include "core/util/bulkmemory.h"

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFuture>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <nlohmann/json.hpp>

#include <atomic>
#include <iterator>
#include <mutex>
#include <optional>

namespace hako::pdl {

using ojson = nlohmann::ordered_json;

namespace {

constexpr qint64 kProgressStep = qint64(1) << 20;

struct Cancelled {};

// Reports progress and polls the cancel flag as the parser consumes the buffer; throwing is
// the only way to stop nlohmann's parser from inside its input.
struct ProgressTracker {
    const char* begin = nullptr;
    qint64 offset = 0; ///< bytes before `begin` already reported (reading the file)
    qint64 total = 0;
    const TraceLoadProgress* progress = nullptr;
    const CancelToken* cancel = nullptr;
    /// How far the parser has read, for errors the builder raises itself (too deep).
    mutable const char* current = nullptr;

    void tick(const char* p) const
    {
        if (cancel && cancel->isCancelled())
            throw Cancelled{};
        if (progress && *progress)
            (*progress)(offset + (p - begin), total);
    }
};

struct ProgressIterator {
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* p = nullptr;
    const ProgressTracker* tracker = nullptr;

    reference operator*() const { return *p; }
    ProgressIterator& operator++()
    {
        ++p;
        tracker->current = p;
        if (((p - tracker->begin) & (kProgressStep - 1)) == 0)
            tracker->tick(p);
        return *this;
    }
    ProgressIterator operator++(int)
    {
        ProgressIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const ProgressIterator& o) const { return p == o.p; }
    bool operator!=(const ProgressIterator& o) const { return p != o.p; }
};

bool isBlockObject(const ojson& j)
{
    if (!j.is_object())
        return false;
    auto k = j.find("kind");
    return k != j.end() && k->is_string();
}

// Builds the JSON tree like nlohmann's DOM parser, but remembers which containers were still
// open when the input ended or broke, so that the complete part can be kept.
class RecoveringBuilder {
public:
    using number_integer_t = ojson::number_integer_t;
    using number_unsigned_t = ojson::number_unsigned_t;
    using number_float_t = ojson::number_float_t;
    using string_t = ojson::string_t;
    using binary_t = ojson::binary_t;

    explicit RecoveringBuilder(const ProgressTracker& tracker) : m_tracker(tracker) {}

    ojson root;
    bool haveRoot = false;
    std::vector<ojson*> open;
    int completeBlocks = 0;
    bool failed = false;
    size_t errorByte = 0;
    std::string errorText;

    bool null() { return insert(nullptr), true; }
    bool boolean(bool v) { return insert(v), true; }
    bool number_integer(number_integer_t v) { return insert(v), true; }
    bool number_unsigned(number_unsigned_t v) { return insert(v), true; }
    bool number_float(number_float_t v, const string_t&) { return insert(v), true; }
    bool string(string_t& v) { return insert(std::move(v)), true; }
    bool binary(binary_t& v) { return insert(ojson::binary(std::move(v))), true; }
    bool start_object(std::size_t)
    {
        if (tooDeep())
            return false;
        open.push_back(insert(ojson::value_t::object));
        return true;
    }
    bool key(string_t& k)
    {
        m_key = std::move(k);
        return true;
    }
    bool end_object()
    {
        if (isBlockObject(*open.back()))
            ++completeBlocks;
        open.pop_back();
        return true;
    }
    bool start_array(std::size_t)
    {
        if (tooDeep())
            return false;
        open.push_back(insert(ojson::value_t::array));
        return true;
    }
    bool end_array()
    {
        open.pop_back();
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e)
    {
        failed = true;
        errorByte = position;
        errorText = e.what();
        return false;
    }

private:
    // Deeper JSON is refused as damage (the blocks read so far are kept): every later pass
    // over the tree recurses, and Hako's own traces stay far below this (500 nested calls
    // take about 2,000 levels).
    static constexpr size_t kMaxDepth = 10'000;

    bool tooDeep()
    {
        if (open.size() < kMaxDepth)
            return false;
        failed = true;
        errorByte = size_t(m_tracker.current - m_tracker.begin);
        errorText = "parse error: the JSON nests arrays and objects more than " +
                    std::to_string(kMaxDepth) + " levels deep";
        return true;
    }

    template <typename V> ojson* insert(V&& v)
    {
        if (open.empty()) {
            root = ojson(std::forward<V>(v));
            haveRoot = true;
            return &root;
        }
        ojson* top = open.back();
        if (top->is_array()) {
            top->emplace_back(std::forward<V>(v));
            return &top->back();
        }
        // Only the innermost open container grows, so pointers to the open ones stay valid.
        // Appended to the ordered map's vector directly: its operator[] searches every key
        // first, which made an object with many keys quadratic. A repeated key is kept twice
        // and lookups find the first; nothing Hako writes repeats a key.
        auto& entries = static_cast<std::vector<std::pair<const std::string, ojson>>&>(
            *top->get_ptr<ojson::object_t*>());
        entries.emplace_back(std::move(m_key), ojson(std::forward<V>(v)));
        return &entries.back().second;
    }

    const ProgressTracker& m_tracker;
    std::string m_key;
};

// 1-based line and column (code points) of a byte offset.
std::pair<int, int> lineColumn(const QByteArray& data, qint64 offset)
{
    offset = std::clamp<qint64>(offset, 0, data.size());
    int line = 1;
    qint64 lineStart = 0;
    const char* d = data.constData();
    for (qint64 i = 0; i < offset; ++i) {
        if (d[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    int column = 1;
    for (qint64 i = lineStart; i < offset; ++i) {
        if ((static_cast<unsigned char>(d[i]) & 0xC0) != 0x80)
            ++column;
    }
    return {line, column};
}

// nlohmann says "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error
// while parsing value - unexpected end of input; …": keep the part after the position.
QString parserDetail(const std::string& what)
{
    QString text = QString::fromStdString(what);
    const qsizetype colon =
        text.indexOf(QStringLiteral(": "), text.indexOf(QStringLiteral("column")));
    if (colon >= 0)
        text = text.mid(colon + 2);
    return text;
}

int countNodes(const TraceNode& n)
{
    int count = 1;
    for (const auto& [name, def] : n.defs)
        if (def)
            count += countNodes(*def);
    for (const TraceNode::Children& c : n.children)
        for (const TracePtr& child : c.nodes)
            if (child)
                count += countNodes(*child);
    return count;
}

// The fast reader's outcome as parseTraceData's, or nothing when the tolerant reader must
// read `data`.
std::optional<Result<TraceLoadResult>> parseFast(const QByteArray& data, const QString& path,
                                                 const TraceLoadProgress& progress,
                                                 const CancelToken& cancel)
{
    const size_t padding = fastTraceReaderPadding();
    const char* begin = data.constData();
    size_t capacity = size_t(data.capacity());
    QByteArray padded;
    if (capacity < size_t(data.size()) + padding) {
        // readTraceFile leaves room; data from elsewhere is copied.
        padded.reserve(data.size() + qsizetype(padding));
        padded.append(data);
        begin = padded.constData();
        capacity = size_t(padded.capacity());
    }
    FastTraceRead fast = fastTraceFromJson(begin, size_t(data.size()), capacity, progress, cancel);
    if (fast.status == FastTraceRead::Status::Cancelled)
        return Result<TraceLoadResult>(makeError(QStringLiteral("cancelled")));
    if (fast.status != FastTraceRead::Status::Done)
        return std::nullopt;
    TraceLoadResult out;
    out.path = path;
    out.bytes = data.size();
    out.root = std::move(fast.root);
    out.blocks = countNodes(*out.root);
    return Result<TraceLoadResult>(std::move(out));
}

} // namespace

namespace {

std::mutex& formatsMutex()
{
    static std::mutex m;
    return m;
}

// The registered formats of one kind (TraceFormatParser, TraceFileFormatReader).
template <typename Format> std::vector<Format>& registeredFormats()
{
    static std::vector<Format> list;
    return list;
}

template <typename Format> void registerFormat(Format format)
{
    std::lock_guard lock(formatsMutex());
    registeredFormats<Format>().push_back(std::move(format));
}

// A copy to call without the lock (a format may take seconds).
template <typename Format> std::vector<Format> formats()
{
    std::lock_guard lock(formatsMutex());
    return registeredFormats<Format>();
}

} // namespace

void registerTraceFormat(TraceFormatParser parser)
{
    registerFormat(std::move(parser));
}

void registerTraceFileFormat(TraceFileFormatReader reader)
{
    registerFormat(std::move(reader));
}

Result<TraceLoadResult> parseTraceData(const QByteArray& data, const QString& path,
                                       const TraceLoadProgress& progress, const CancelToken& cancel)
{
    for (const TraceFormatParser& other : formats<TraceFormatParser>())
        if (std::optional<Result<TraceLoadResult>> r = other(data, path, progress, cancel))
            return std::move(*r);
    // The fast reader takes what it can read exactly as the tolerant one below would; on
    // anything else (damage above all) the tolerant one starts over and says what and where.
    // Progress never goes back when it does.
    qint64 reported = 0;
    TraceLoadProgress forward;
    if (progress)
        forward = [&](qint64 done, qint64 total) {
            if (done < reported)
                return;
            reported = done;
            progress(done, total);
        };
    if (std::optional<Result<TraceLoadResult>> fast = parseFast(data, path, forward, cancel))
        return std::move(*fast);
    return parseTraceDataTolerant(data, path, forward, cancel);
}

namespace {

/// The tolerant reader. `prefix`: `data` is the start of a longer file, so the blocks it ends
/// inside are left as they are (complete children and all), not marked as damaged.
Result<TraceLoadResult> parseTolerant(const QByteArray& data, const QString& path,
                                      const TraceLoadProgress& progress, const CancelToken& cancel,
                                      bool prefix)
{
    ProgressTracker tracker;
    tracker.begin = data.constData();
    tracker.total = data.size();
    tracker.progress = &progress;
    tracker.cancel = &cancel;
    tracker.current = data.constData();
    RecoveringBuilder builder(tracker);
    try {
        ProgressIterator first{data.constData(), &tracker};
        ProgressIterator last{data.constData() + data.size(), &tracker};
        ojson::sax_parse(first, last, &builder);
    } catch (const Cancelled&) {
        return makeError(QStringLiteral("cancelled"));
    }
    if (!builder.haveRoot || !isBlockObject(builder.root)) {
        if (builder.failed && !builder.haveRoot) {
            auto [line, column] = lineColumn(data, qint64(builder.errorByte) - 1);
            return makeError(QStringLiteral("%1 is not a JSON trace: %2")
                                 .arg(QFileInfo(path).fileName(), parserDetail(builder.errorText)),
                             SourceSpan{path, line, column, line, column});
        }
        return makeError(QStringLiteral("%1 is JSON but not a PDL trace (no block `kind`)")
                             .arg(QFileInfo(path).fileName()));
    }
    TraceLoadResult out;
    out.path = path;
    out.bytes = data.size();
    if (builder.failed && prefix) {
        out.partial = true;
        out.truncated = true;
    } else if (builder.failed) {
        out.partial = true;
        out.truncated = builder.errorByte >= size_t(data.size()) ||
                        builder.errorText.find("unexpected end of input") != std::string::npos;
        // Innermost first: wrapping an outer block moves the already wrapped inner one.
        for (auto it = builder.open.rbegin(); it != builder.open.rend(); ++it) {
            ojson& o = **it;
            if (!isBlockObject(o))
                continue;
            ++out.incompleteBlocks;
            ojson wrapped = ojson::object();
            wrapped["kind"] = "error";
            if (auto id = o.find("pdl__id"); id != o.end() && id->is_string())
                wrapped["pdl__id"] = *id;
            wrapped["msg"] = out.truncated
                                 ? "incomplete: the trace file ends inside this block"
                                 : "incomplete: the trace file is damaged inside this block";
            wrapped["program"] = std::move(o);
            o = std::move(wrapped);
        }
        auto [line, column] = lineColumn(data, qint64(builder.errorByte) - 1);
        out.problem = makeError(
            QStringLiteral("%1 %2 at line %3, column %4 (%5). Showing the %6 complete blocks "
                           "read before that point; %7 enclosing blocks are incomplete.")
                .arg(QFileInfo(path).fileName(), out.truncated
                                                     ? QStringLiteral("is truncated: it ends")
                                                     : QStringLiteral("is damaged: a syntax error"))
                .arg(line)
                .arg(column)
                .arg(parserDetail(builder.errorText))
                .arg(builder.completeBlocks)
                .arg(out.incompleteBlocks),
            SourceSpan{path, line, column, line, column});
    }
    try {
        out.root = traceFromJson(builder.root);
    } catch (const std::exception& e) {
        // traceFromJson checks every field's type; this is a last line of defence, so that a
        // file it did not foresee is an error and never an abort.
        return makeError(QStringLiteral("%1 cannot be read as a trace: %2")
                             .arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
    }
    if (!out.root)
        return makeError(QStringLiteral("%1 holds no trace").arg(QFileInfo(path).fileName()));
    // The JSON tree is as large as the trace: free it before returning rather than when
    // the caller happens to drop it.
    builder.root = ojson();
    out.blocks = countNodes(*out.root);
    return out;
}

} // namespace

Result<TraceLoadResult> parseTraceDataTolerant(const QByteArray& data, const QString& path,
                                               const TraceLoadProgress& progress,
                                               const CancelToken& cancel)
{
    return parseTolerant(data, path, progress, cancel, false);
}

Result<TraceLoadResult> parseTracePrefix(const QByteArray& head, const QString& path)
{
    // A format of whole lines (OTLP/JSON Lines) reads the lines the head holds in full.
    if (const qsizetype lastLine = head.lastIndexOf('\n'); lastLine > 0) {
        const QByteArray lines = head.left(lastLine + 1);
        for (const TraceFormatParser& other : formats<TraceFormatParser>()) {
            std::optional<Result<TraceLoadResult>> r = other(lines, path, {}, {});
            if (!r)
                continue;
            if (!*r || !(*r)->root)
                break;
            TraceLoadResult shown = std::move(*r).value();
            shown.partial = true;
            shown.truncated = true;
            return shown;
        }
    }
    return parseTolerant(head, path, {}, {}, true);
}

Result<TraceLoadResult> readTraceFile(const QString& path, const TraceLoadProgress& progress,
                                      const CancelToken& cancel)
{
    const QFileInfo info(path);
    // A device or FIFO would never end (or block the open): only regular files are traces.
    if (info.exists() && !info.isFile())
        return makeError(QStringLiteral("%1 is not a regular file").arg(path));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    if (const auto readers = formats<TraceFileFormatReader>(); !readers.empty()) {
        const QByteArray head = f.peek(64 * 1024);
        for (const TraceFileFormatReader& reader : readers)
            if (std::optional<Result<TraceLoadResult>> r = reader(path, head, progress, cancel))
                return std::move(*r);
    }
    // Read in chunks (not mmap: a writer truncating the file while it is mapped would crash
    // us), reporting reading as the first half of the work.
    const qint64 size = f.size();
    QByteArray data;
    // Room for the fast reader's padding, so that it reads this buffer without a copy.
    data.reserve(size + qsizetype(fastTraceReaderPadding()));
    constexpr qint64 chunk = 4 << 20;
    while (true) {
        if (cancel.isCancelled())
            return makeError(QStringLiteral("cancelled"));
        const QByteArray part = f.read(chunk);
        if (part.isEmpty())
            break;
        data.append(part);
        if (progress)
            progress(data.size(), qMax(size, data.size()) * 2);
    }
    if (f.error() != QFileDevice::NoError)
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    if (data.isEmpty())
        return makeError(QStringLiteral("%1 is empty").arg(path));
    const qint64 read = data.size();
    TraceLoadProgress parseProgress;
    if (progress)
        parseProgress = [&](qint64 done, qint64) {
            progress(read + done, read * 2);
        };
    return parseTraceData(data, path, parseProgress, cancel);
}

struct TraceLoader::Job {
    QString path;
    CancelToken cancel;
    QFuture<void> future;
};

namespace {

// Files from this size are read with BulkAllocationScope.
constexpr qint64 kBulkLoadBytes = 16LL << 20;

/// The start of the file at `path`, when the file is at least `minBytes` long.
QByteArray previewHead(const QString& path, qint64 minBytes, qint64 headBytes)
{
    const QFileInfo info(path);
    if (minBytes <= 0 || headBytes <= 0 || !info.isFile() || info.size() < minBytes)
        return {};
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(headBytes);
}

} // namespace

void TraceLoader::setPreview(qint64 minFileBytes, qint64 headBytes)
{
    m_previewMinBytes = minFileBytes;
    m_previewHeadBytes = headBytes;
}

void TraceLoader::showPreview(const std::shared_ptr<Job>& job, TracePtr root, int blocks)
{
    if (m_running != job || !m_model)
        return;
    m_model->takeTrace(std::move(root), job->path);
    Q_EMIT previewShown(job->path, blocks);
}

TraceLoader::TraceLoader(TraceModel* model, QObject* parent) : QObject(parent), m_model(model)
{
    m_reloadTimer = new QTimer(this);
    m_reloadTimer->setSingleShot(true);
    m_reloadTimer->setInterval(300);
    connect(m_reloadTimer, &QTimer::timeout, this, [this] {
        if (m_path.isEmpty())
            return;
        // A writer that replaces the file (write + rename) removes it from the watcher.
        watch(m_path);
        if (!QFileInfo::exists(m_path))
            return;
        Q_EMIT reloading(m_path);
        load(m_path);
    });
}

TraceLoader::~TraceLoader()
{
    // Workers post their result to this object: none may outlive it. Cancel is polled every
    // megabyte, so this returns promptly.
    for (const auto& job : m_jobs)
        job->cancel.cancel();
    for (const auto& job : m_jobs)
        job->future.waitForFinished();
}

void TraceLoader::load(const QString& path)
{
    if (m_running)
        m_running->cancel.cancel();
    auto job = std::make_shared<Job>();
    job->path = path;
    m_running = job;
    std::erase_if(m_jobs, [](const auto& j) { return j->future.isFinished(); });
    m_jobs.push_back(job);
    if (path != m_path) {
        unwatch();
        m_path = path;
    }
    if (m_autoReload)
        watch(path);
    Q_EMIT loadStarted(path);
    QPointer<TraceLoader> self(this);
    // Throttle to whole percents: a 100 MB file would otherwise post 200 events.
    auto lastPercent = std::make_shared<std::atomic<int>>(-1);
    TraceLoadProgress progress = [self, job, lastPercent](qint64 done, qint64 total) {
        const int percent = total > 0 ? int(done * 100 / total) : 0;
        if (lastPercent->exchange(percent) == percent)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, done, total] {
                if (self && self->m_running == job)
                    Q_EMIT self->progress(done, total);
            },
            Qt::QueuedConnection);
    };
    const CancelToken cancel = job->cancel;
    // The result comes back as a queued call, never synchronously inside load(), even when
    // the file is read before this function returns.
    const qint64 previewMin = m_previewMinBytes, previewBytes = m_previewHeadBytes;
    job->future = QtConcurrent::run([self, job, path, progress, cancel, previewMin, previewBytes] {
        std::shared_ptr<Result<TraceLoadResult>> result;
        try {
            const QByteArray head = previewHead(path, previewMin, previewBytes);
            if (!head.isEmpty() && !cancel.isCancelled()) {
                Result<TraceLoadResult> preview = parseTracePrefix(head, path);
                if (preview && preview->root && preview->partial)
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, job, root = std::move(preview->root),
                         blocks = preview->blocks]() mutable {
                            if (self)
                                self->showPreview(job, std::move(root), blocks);
                        },
                        Qt::QueuedConnection);
            }
            // A large file's nodes take hundreds of megabytes: in huge pages, the kernel clears
            // a page per 2 MB instead of per 4 KB (half the time of a 1,000,000-span file).
            std::optional<BulkAllocationScope> bulk;
            if (QFileInfo(path).size() >= kBulkLoadBytes)
                bulk.emplace();
            result =
                std::make_shared<Result<TraceLoadResult>>(readTraceFile(path, progress, cancel));
        } catch (const std::exception& e) {
            // An exception escaping here would end the job silently: the loader must always
            // answer with loaded, failed or cancelled.
            result = std::make_shared<Result<TraceLoadResult>>(makeError(
                QStringLiteral("cannot read %1: %2").arg(path, QString::fromUtf8(e.what()))));
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, result] {
                if (self)
                    self->finish(job, std::move(*result));
            },
            Qt::QueuedConnection);
    });
}

void TraceLoader::cancel()
{
    if (!m_running)
        return;
    auto job = m_running;
    job->cancel.cancel();
    m_running.reset();
    Q_EMIT cancelled(job->path);
}

void TraceLoader::finish(const std::shared_ptr<Job>& job, Result<TraceLoadResult> result)
{
    if (m_running != job)
        return; // superseded or cancelled
    m_running.reset();
    if (!result) {
        if (job->cancel.isCancelled())
            Q_EMIT cancelled(job->path);
        else
            Q_EMIT failed(job->path, result.error().message);
        return;
    }
    m_last = std::move(result).value();
    TracePtr root = std::move(m_last.root);
    if (m_model)
        m_model->takeTrace(std::move(root), job->path);
    else // freeing a large node tree takes a while, so not here
        (void)QtConcurrent::run([r = std::move(root)]() mutable { r.reset(); });
    Q_EMIT loaded(job->path, m_last.partial ? m_last.problem.message : QString());
}

void TraceLoader::setAutoReload(bool on)
{
    if (on == m_autoReload)
        return;
    m_autoReload = on;
    if (on) {
        if (!m_path.isEmpty())
            watch(m_path);
    } else {
        unwatch();
        m_reloadTimer->stop();
    }
}

void TraceLoader::setReloadDelay(int ms)
{
    m_reloadTimer->setInterval(ms);
}

void TraceLoader::watch(const QString& path)
{
    if (!m_autoReload)
        return;
    if (!m_watcher) {
        m_watcher = new QFileSystemWatcher(this);
        connect(m_watcher, &QFileSystemWatcher::fileChanged, this, [this] { fileChanged(); });
        // A writer that deletes and recreates the file drops it from the watch list; the
        // folder tells us when it is back.
        connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] {
            if (!m_path.isEmpty() && QFileInfo::exists(m_path) &&
                !m_watcher->files().contains(m_path)) {
                m_watcher->addPath(m_path);
                fileChanged();
            }
        });
    }
    if (!m_watcher->files().contains(path) && QFileInfo::exists(path))
        m_watcher->addPath(path);
    const QString dir = QFileInfo(path).absolutePath();
    if (!m_watcher->directories().contains(dir))
        m_watcher->addPath(dir);
}

void TraceLoader::unwatch()
{
    if (!m_watcher)
        return;
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
}

void TraceLoader::fileChanged()
{
    // Debounce: a writer produces a burst of changes; load once it has been quiet.
    m_reloadTimer->start();
}

} // namespace hako::pdl
