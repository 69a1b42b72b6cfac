#pragma once

#include "core/otel/runtable.h"
#include "core/otel/traceassembler.h"
#include "core/pdl/trace/traceloader.h"
#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace hako::otel {

/// Whether the start of a file is OTLP: JSON with `resourceSpans` (or `resource_spans`), or
/// bytes that decode as an OTLP/protobuf request holding spans. Pure.
bool looksLikeOtlp(const QByteArray& head);

/// Everything an OTLP file holds, assembled per trace.
struct OtlpFile {
    std::shared_ptr<TraceAssembler> assembler;
    std::shared_ptr<RunCollector> runs; ///< every trace's row, read with the spans
    QString path;
    qint64 bytes = 0;
    int requests = 0;     ///< ExportTraceServiceRequests read
    int badRequests = 0;  ///< lines (or frames) that did not decode: skipped
    QString firstProblem; ///< what was wrong with the first of them
};

/// What scanOtlpData read: counts of requests, and of those that did not decode.
struct OtlpScan {
    int requests = 0;
    int badRequests = 0;
    QString firstProblem;
};

/// Decodes OTLP data as parseOtlpData does (same formats and rules) and hands the spans of each
/// request to `sink`, in file order, instead of assembling trees. Calling thread.
Result<OtlpScan> scanOtlpData(const QByteArray& data, const QString& path,
                              const std::function<void(const std::vector<Span>&)>& sink,
                              const pdl::TraceLoadProgress& progress = {},
                              const CancelToken& cancel = {});
/// The same for the file at `path`, read a batch at a time as readOtlpFile reads it.
Result<OtlpScan> scanOtlpFile(const QString& path,
                              const std::function<void(const std::vector<Span>&)>& sink,
                              const pdl::TraceLoadProgress& progress = {},
                              const CancelToken& cancel = {});

/// Reads OTLP data: JSON with one `ExportTraceServiceRequest` per line (the Collector's file
/// exporter, Phoenix exports) or one per file (pretty-printed too), or protobuf (one request,
/// or the Collector's 4-byte big-endian length-prefixed frames). A bad line is skipped and
/// counted; fails when nothing decodes or on cancel ("cancelled"). Calling thread; `progress`
/// about every megabyte.
Result<OtlpFile> parseOtlpData(const QByteArray& data, const QString& path,
                               const pdl::TraceLoadProgress& progress = {},
                               const CancelToken& cancel = {});
Result<OtlpFile> readOtlpFile(const QString& path, const pdl::TraceLoadProgress& progress = {},
                              const CancelToken& cancel = {});

/// One trace of OTLP data as a trace load result (see loadOtlpTrace).
Result<pdl::TraceLoadResult> loadOtlpTraceData(const QByteArray& data, const QString& path,
                                               const std::string& traceId = {},
                                               const pdl::TraceLoadProgress& progress = {},
                                               const CancelToken& cancel = {});

/// Takes one trace out of a read file (empty `traceId`: the one with the most spans) as a
/// trace load result; the file's assembler forgets it.
Result<pdl::TraceLoadResult> takeTrace(OtlpFile& file, const std::string& traceId = {});

/// Registers OTLP with pdl::registerTraceFormat and registerTraceFileFormat (once; later calls
/// do nothing), so that readTraceFile, TraceLoader and every trace pane open OTLP files (their
/// largest trace), a file a batch at a time as readOtlpFile reads it.
/// hako_workbench calls it when it loads.
void registerOtlpTraceFormat();

/// One trace of an OTLP file as a trace load result (what TraceLoader hands to TraceModel):
/// `traceId` empty picks the trace with the most spans. Calling thread.
Result<pdl::TraceLoadResult> loadOtlpTrace(const QString& path, const std::string& traceId = {},
                                           const pdl::TraceLoadProgress& progress = {},
                                           const CancelToken& cancel = {});

/// The runs of the OTLP file `path` as its last loadOtlpTrace read them (every trace's row, the
/// Runs list's), while the file is unchanged; nothing otherwise (read it again: readRuns).
std::optional<std::vector<RunRow>> runsReadWithTrace(const QString& path);

} // namespace hako::otel
