#pragma once

#include "core/pdl/model/modelprovider.h"

#include <optional>
#include <string>
#include <vector>

namespace hako::models {

/// One model call of a structured-output exchange, for the trace.
struct StructuredAttempt {
    ChatRequest request;
    /// The reply, or the transport error.
    std::optional<ChatResponse> response;
    /// Why the reply was rejected ("" when it was accepted or never arrived).
    std::string validationError;
};

struct StructuredResult {
    /// Every call made, in order (the first one plus each repair).
    std::vector<StructuredAttempt> attempts;
    /// The accepted value (valid against the schema) when `error` is empty.
    pdl::Value value;
    /// The transport error or the last validation error.
    std::optional<Diagnostic> error;
    bool ok() const { return !error.has_value(); }
};

struct StructuredOptions {
    /// Repair calls after the first reply (PDL's `retry`; TypeChat's default is one).
    int maxRepairs = 1;
    /// Schema name sent in response_format.json_schema.name.
    std::string schemaName = "schema";
    /// Whether to add `response_format` (false: the caller put what it wants in the request).
    bool sendSchema = true;
};

/// Asks for JSON valid against `jsonSchema` and repairs it as TypeChat does: sends
/// `response_format: {type: json_schema, json_schema: {name, schema, strict: true}}` unless the
/// request has its own response_format, takes the JSON between the first `{` and the last `}`
/// (or `[`…`]`), validates it, and on failure appends the reply and "The JSON object is invalid
/// for the following reason: """<error>""" The following is a revised JSON object:" and asks
/// again, up to `maxRepairs` times. Blocks like IModelProvider::chat.
StructuredResult chatStructured(IModelProvider& provider, ChatRequest request,
                                const pdl::Value& jsonSchema, const StructuredOptions& options,
                                const DeltaCallback& onDelta, const CancelToken& cancel);

/// TypeChat's extraction: the JSON value in `reply` (whole text, else first `{` to last `}`,
/// else first `[` to last `]`), or an error saying why there is none.
Result<pdl::Value> extractJson(const std::string& reply);

/// TypeChat's repair prompt for `error`.
std::string repairPrompt(const std::string& error);

} // namespace hako::models
