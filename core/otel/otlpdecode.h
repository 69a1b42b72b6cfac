#pragma once

#include "core/otel/span.h"
#include "core/util/diagnostic.h"

#include <functional>
#include <string_view>
#include <vector>

namespace hako::otel {

/// Decodes one OTLP/JSON `ExportTraceServiceRequest` (the body of `POST /v1/traces` with
/// `Content-Type: application/json`, one line of the Collector's file exporter, or a Phoenix
/// export): hex ids, int64 as strings or numbers, enums as numbers or names, AnyValue
/// `{stringValue|boolValue|intValue|doubleValue|arrayValue|kvlistValue|bytesValue}`. Strict:
/// a wrong type, a malformed id or ill-formed UTF-8 fails the whole request (nothing is
/// returned) with a message saying where. Read by simdjson's On Demand parser; what that reader
/// leaves (malformed or odd requests) is read again by the reference reader below, which words
/// the error. Pure, any thread.
Result<std::vector<Span>> decodeOtlpJson(std::string_view json);
/// The reference reader alone (nlohmann's DOM of the request): what decodeOtlpJson falls back
/// to. Public so that tests can hold the two readers to the same result. Pure, any thread.
Result<std::vector<Span>> decodeOtlpJsonReference(std::string_view json);

/// Decodes one OTLP/protobuf `ExportTraceServiceRequest` (opentelemetry/proto/collector/trace/
/// v1) with a hand-written wire reader: unknown fields are skipped, truncation, bad wire types,
/// lengths past the end, nesting deeper than 64 and ill-formed UTF-8 in strings fail the whole
/// request. Pure, any thread.
Result<std::vector<Span>> decodeOtlpProtobuf(std::string_view bytes);
/// The same, handing each span to `sink` as it is read (no vector of the request's spans):
/// how many. When the request fails, the spans already handed on are to be dropped.
Result<size_t> decodeOtlpProtobuf(std::string_view bytes, const std::function<void(Span&&)>& sink);

/// Encodes spans as one OTLP/protobuf `ExportTraceServiceRequest` (one ResourceSpans per
/// distinct resource, in order): what the receiver's tests and benchmark send.
std::string encodeOtlpProtobuf(const std::vector<Span>& spans);

} // namespace hako::otel
