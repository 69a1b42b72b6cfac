#pragma once

#include "core/otel/span.h"
#include "core/pdl/interp/tracenode.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <string>
#include <vector>

namespace hako::otel {

/// How a Hako trace is written as OpenTelemetry spans.
struct OtlpWriteOptions {
    /// Write message content (model inputs and replies, results, evaluated expressions,
    /// context, code output). Off by default: the GenAI conventions mark content sensitive.
    bool includeContent = false;
    std::string serviceName = "hako";
    std::string programPath; ///< resource attribute `hako.program` when set
    /// 32 hex digits; empty makes a random one.
    std::string traceId;
};

/// The spans of a trace tree (one per block, defs included), parents before children. Every
/// span has OpenInference and GenAI attributes (`openinference.span.kind`,
/// `gen_ai.operation.name`, model, parameters, token counts; with content: messages, input and
/// output values) plus `pdl.*` attributes carrying what only PDL has (`pdl.kind`, `pdl.id`,
/// `pdl.def`, `pdl.field`, `pdl.order`, `pdl.location.*`, `pdl.defs_name`, `pdl.usage`; with
/// content `pdl.result`, `pdl.exprs`, `pdl.model_input` (whose messages keep `pdl__defsite`),
/// `pdl.context`, `pdl.stdout`/`pdl.stderr`), so that reading them back (TraceAssembler)
/// gives the same tree. Pure, any thread.
std::vector<Span> traceToSpans(const pdl::TraceNode& root, const OtlpWriteOptions& options = {});
/// The same spans one at a time, in the same order, to `visit`: nothing but the span being
/// made is held (what writeOtlpFile() streams). Pure, any thread.
void forEachSpan(const pdl::TraceNode& root, const OtlpWriteOptions& options,
                 const std::function<void(Span&&)>& visit);

/// Spans as one OTLP/JSON ExportTraceServiceRequest on one line (no trailing newline):
/// ids in hex, int64 as strings, one ResourceSpans per distinct resource.
std::string encodeOtlpJson(const std::vector<Span>& spans);
/// The same for spans held elsewhere (a request's spans of one trace), in this order.
std::string encodeOtlpJson(const std::vector<const Span*>& spans);
/// The same appended to `out` (a buffer kept from request to request: a request's text is a
/// megabyte, whose pages a fresh string has the kernel clear again each time).
void appendOtlpJson(std::string& out, const std::vector<const Span*>& spans);

/// Writes `root` as OTLP/JSON (one request, one line) to `path` through the output-file rule,
/// span by span (memory stays that of one span). False with `error` set on failure, running
/// out of memory included (the file then keeps its old content).
bool writeOtlpFile(const pdl::TraceNode& root, const QString& path, const OtlpWriteOptions& options,
                   QString* error);

/// `NAME=VALUE` strings (`--otel-header`) as HTTP headers, both sides trimmed; the error names
/// the first header without a '=', or whose name or value HTTP cannot carry (a CR, LF or NUL
/// would inject headers; see models::headerProblem()), with its value left out.
Result<QList<QPair<QByteArray, QByteArray>>> otlpHeaders(const QStringList& headers);

/// Sends `root` as one OTLP/JSON request (gzip) to an OTLP/HTTP endpoint (`…/v1/traces`) with
/// extra `NAME=VALUE` headers, waiting up to `timeoutMs` for the answer, through Hako's HTTP
/// client (blocking the calling thread, never on the GUI thread). A redirect is not followed
/// (the headers, often a collector's Authorization, go to the named endpoint only): the error
/// says where it pointed. False with `error` set on a header otlpHeaders() refuses, a network
/// error, a redirect or a status other than 2xx.
bool postOtlp(const pdl::TraceNode& root, const QUrl& endpoint, const QStringList& headers,
              const OtlpWriteOptions& options, QString* error, int timeoutMs = 30000);

} // namespace hako::otel
