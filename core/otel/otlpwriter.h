#pragma once

#include "core/otel/span.h"
#include "core/pdl/interp/tracenode.h"

#include <QString>
#include <QStringList>
#include <QUrl>

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

/// Spans as one OTLP/JSON ExportTraceServiceRequest on one line (no trailing newline):
/// ids in hex, int64 as strings, one ResourceSpans per distinct resource.
std::string encodeOtlpJson(const std::vector<Span>& spans);

/// Writes `root` as OTLP/JSON (one request, one line) to `path` atomically. False with
/// `error` set on failure.
bool writeOtlpFile(const pdl::TraceNode& root, const QString& path, const OtlpWriteOptions& options,
                   QString* error);

/// Sends `root` as one OTLP/JSON request (gzip) to an OTLP/HTTP endpoint (`…/v1/traces`) with
/// extra `NAME=VALUE` headers, waiting up to `timeoutMs` for the answer. For command-line use:
/// it runs a local event loop, so never call it on the GUI thread. False with `error` set on
/// a network error or a status other than 2xx.
bool postOtlp(const pdl::TraceNode& root, const QUrl& endpoint, const QStringList& headers,
              const OtlpWriteOptions& options, QString* error, int timeoutMs = 30000);

} // namespace hako::otel
