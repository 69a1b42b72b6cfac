#pragma once

#include "core/otel/span.h"

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace hako::otel {

/// The fast OTLP/JSON reader (simdjson On Demand, no DOM of the request): the spans exactly as
/// decodeOtlpJsonReference gives them, or nothing when the request is malformed or has a
/// shape it leaves to that reader (repeated fields, both spellings of a field, nesting past the
/// limit, escaped surrogates…), which then says what is wrong and where. Pure, any thread.
std::optional<std::vector<Span>> decodeOtlpJsonFast(std::string_view json);
/// The same, handing each span to `sink` as soon as its resource and scope are read (no
/// vector of the request's spans). False as above; the spans handed on then are to be dropped.
bool decodeOtlpJsonFast(std::string_view json, const std::function<void(Span&&)>& sink);

} // namespace hako::otel
