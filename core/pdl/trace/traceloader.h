#pragma once

#include "core/pdl/interp/tracenode.h"
#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QFileSystemWatcher;
class QTimer;

namespace hako::pdl {

class TraceModel;

/// What reading a trace file produced. A damaged file (truncated, or corrupt part-way) still
/// yields every block that was completely read before the damage, inside its (incomplete)
/// ancestors, which are marked failed with a message saying the file ends inside them.
struct TraceLoadResult {
    TracePtr root;
    QString path;
    qint64 bytes = 0;
    int blocks = 0; ///< nodes in `root` (defs included)
    /// Damaged file: `problem` says what and where (span: path, line, column of the damage) and
    /// what was recovered; `root` holds what could be read.
    bool partial = false;
    bool truncated = false; ///< the damage is the file ending early
    int incompleteBlocks = 0;
    Diagnostic problem;
};

/// Progress of a read: bytes parsed so far and the total.
using TraceLoadProgress = std::function<void(qint64 done, qint64 total)>;

/// Parses trace JSON (Hako's or the reference's) tolerantly: on a syntax error or early end it
/// keeps what was read (see TraceLoadResult). Intact JSON is read by the fast reader (simdjson,
/// no DOM of the file), anything else by the tolerant one, with the same result. Fails only when
/// nothing usable was read or on cancel (message "cancelled"). Runs on the calling thread;
/// `progress` is called from it about every megabyte; `cancel` is polled as often.
Result<TraceLoadResult> parseTraceData(const QByteArray& data, const QString& path,
                                       const TraceLoadProgress& progress = {},
                                       const CancelToken& cancel = {});
/// The tolerant reader alone (nlohmann's SAX parser): what parseTraceData falls back to when
/// the fast reader (fasttracereader.h) leaves the data to it, e.g. on damage. Public so that
/// tests can hold the two readers to the same result; same threading as parseTraceData.
Result<TraceLoadResult> parseTraceDataTolerant(const QByteArray& data, const QString& path,
                                               const TraceLoadProgress& progress = {},
                                               const CancelToken& cancel = {});
/// The start of a longer trace file, read tolerantly: every block complete in `head`, inside
/// the blocks it ends in, which are left as they are (not marked as damaged); for a registered
/// format of whole lines (OTLP/JSON Lines), the lines `head` holds in full. `partial` and
/// `truncated` say whether `head` ended inside the trace. What a large file shows while the
/// rest of it is read.
Result<TraceLoadResult> parseTracePrefix(const QByteArray& head, const QString& path);
/// Reads and parses a trace file (see parseTraceData); progress covers reading and parsing.
Result<TraceLoadResult> readTraceFile(const QString& path, const TraceLoadProgress& progress = {},
                                      const CancelToken& cancel = {});

/// Another trace format (OpenTelemetry's OTLP, from core/otel): given the whole file, gives
/// nothing when the data is not in that format, else the outcome of reading it. parseTraceData
/// asks every registered format first. Called on the loading thread.
using TraceFormatParser = std::function<std::optional<Result<TraceLoadResult>>(
    const QByteArray& data, const QString& path, const TraceLoadProgress& progress,
    const CancelToken& cancel)>;
/// Registers a format (thread-safe; a floor above pdl does so once when it loads).
void registerTraceFormat(TraceFormatParser parser);
/// A format that reads a file itself, a batch at a time, instead of from its whole bytes (OTLP
/// files of a million spans): given the file's first 64 KB, gives nothing when the file is not
/// in that format. readTraceFile asks these first. Called on the loading thread.
using TraceFileFormatReader = std::function<std::optional<Result<TraceLoadResult>>(
    const QString& path, const QByteArray& head, const TraceLoadProgress& progress,
    const CancelToken& cancel)>;
void registerTraceFileFormat(TraceFileFormatReader reader);

/// Loads trace files into a TraceModel without blocking the GUI thread: the file is read and
/// parsed on a worker thread with progress and cancel, then handed to the model (setTrace).
/// A newer load supersedes a running one. With auto-reload on, the file is watched and loaded
/// again shortly after it stops changing (a writer rewriting it produces several change
/// events; a half-written file is shown partially until the final write arrives).
///
/// A large file (see setPreview) first shows its start: the model gets the blocks of the first
/// couple of megabytes within a fraction of a second (previewShown), and the whole trace when
/// it is read (loaded).
///
/// Lives on the GUI thread; the model is not owned and may be deleted first (then loads only
/// report). Signals are emitted on the GUI thread.
class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(TraceModel* model, QObject* parent = nullptr);
    ~TraceLoader() override;

    /// Starts loading `path`; emits loadStarted, progress…, then loaded, failed or cancelled.
    void load(const QString& path);
    /// Stops the running load (cancelled is emitted); the model keeps what it showed.
    void cancel();
    bool isLoading() const { return m_running != nullptr; }
    /// The file last asked for (what auto-reload watches).
    QString path() const { return m_path; }
    /// The outcome of the last completed load (root dropped once handed to the model).
    const TraceLoadResult& lastResult() const { return m_last; }

    void setAutoReload(bool on);
    bool autoReload() const { return m_autoReload; }
    /// Quiet time after the last change before reloading (default 300 ms).
    void setReloadDelay(int ms);
    /// A file of at least `minFileBytes` first shows what its first `headBytes` hold (defaults:
    /// 24 MB and 2 MB; 0 turns it off).
    void setPreview(qint64 minFileBytes, qint64 headBytes);

Q_SIGNALS:
    void loadStarted(const QString& path);
    void progress(qint64 done, qint64 total);
    /// The model shows the start of the file (`blocks` of them) while the rest is read;
    /// loaded (or failed, or cancelled) follows.
    void previewShown(const QString& path, int blocks);
    /// The model now shows the file. `warning` is empty for an intact file; for a damaged one
    /// it says where the damage is and what is shown.
    void loaded(const QString& path, const QString& warning);
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);
    /// The watched file changed on disk and is being loaded again.
    void reloading(const QString& path);

private:
    struct Job;
    void finish(const std::shared_ptr<Job>& job, Result<TraceLoadResult> result);
    void showPreview(const std::shared_ptr<Job>& job, TracePtr root, int blocks);
    void watch(const QString& path);
    void unwatch();
    void fileChanged();

    QPointer<TraceModel> m_model;
    QString m_path;
    std::shared_ptr<Job> m_running;
    std::vector<std::shared_ptr<Job>> m_jobs; ///< every job whose worker may still run
    TraceLoadResult m_last;
    bool m_autoReload = false;
    qint64 m_previewMinBytes = 24LL << 20;
    qint64 m_previewHeadBytes = 2LL << 20;
    QFileSystemWatcher* m_watcher = nullptr;
    QTimer* m_reloadTimer = nullptr;
};

} // namespace hako::pdl
