#pragma once

#include <QString>

#include <string>
#include <vector>

namespace hako::pdl {
struct TraceNode;
}
namespace hako::otel {
struct Span;
}

namespace hako {

/// The folder where the workbench keeps the trace of each run it makes, named by the run's id,
/// so that the prompt log's "Show in Trace" finds the run of a call after the window was closed.
/// Only the newest runs are kept (prune()). A plain value; safe on any thread, as the file
/// system is.
class RunArchive {
public:
    /// How many runs' traces the workbench keeps.
    static constexpr int kDefaultKeep = 500;

    explicit RunArchive(QString folder = defaultFolder());

    /// `traces` in the user's data folder (QStandardPaths::AppDataLocation).
    static QString defaultFolder();

    QString folder() const { return m_folder; }
    /// The file of run `runId` (which need not exist); empty for an id that cannot be a file
    /// name (anything but letters, digits, `-` and `_`).
    QString pathFor(const QString& runId) const;
    /// Whether the trace of `runId` is kept.
    bool contains(const QString& runId) const;

    /// Writes `root` as the trace of `runId` (atomically), then keeps only the newest `keep`
    /// traces. False with `error` set when it cannot be written.
    bool save(const pdl::TraceNode& root, const QString& runId, QString* error = nullptr,
              int keep = kDefaultKeep) const;
    /// Keeps a request's spans received over OTLP (`hako serve`, the window's receiver) with
    /// the rest of their trace: each trace's spans are appended to the file of its trace id (the
    /// run id its logged calls carry) as one OTLP/JSON request per line, which opens as an OTLP
    /// trace. `json` is the request's text when it came as OTLP/JSON (else empty): when all its
    /// spans are of one trace and the text is one line, the line is kept as it came (every
    /// field the sender wrote, and no writing it out again). A trace new to the folder prunes
    /// it to the newest `keep`. False with `error` set when a file cannot be written.
    bool appendRequest(const std::vector<otel::Span>& spans, const QByteArray& json,
                       QString* error = nullptr, int keep = kDefaultKeep) const;

    /// A request's lines as appendRequest() appends them, made before they are written (the
    /// receiver makes them while the request's calls are being committed, and writes them once
    /// they are). The text is in a buffer of the thread that made it, until it makes the next.
    struct RequestLines {
        struct Line {
            QString path;   ///< the file of its trace
            size_t end = 0; ///< where the line ends in `text` (it begins where the last ended)
        };
        std::vector<Line> lines;
        const std::string* text = nullptr;
    };
    RequestLines requestLines(const std::vector<otel::Span>& spans, const QByteArray& json) const;
    /// Appends `lines` (see requestLines()); false with `error` set when a file cannot be
    /// written.
    bool append(const RequestLines& lines, QString* error = nullptr, int keep = kDefaultKeep) const;
    /// Deletes all but the newest `keep` traces (by modification time); gives how many went.
    int prune(int keep = kDefaultKeep) const;

private:
    QString m_folder;
};

} // namespace hako
