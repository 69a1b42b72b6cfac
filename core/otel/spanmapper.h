#pragma once

#include "core/otel/conventions.h"
#include "core/otel/span.h"
#include "core/pdl/interp/tracenode.h"
#include "core/promptlog/callrecord.h"

#include <optional>

namespace hako::otel {

/// What the conventions make of one span, before it becomes a trace node or a prompt-log call.
/// Messages are Hako's form: `[{role, content, tool_calls?, tool_call_id?, name?}]`.
struct SpanView {
    SpanCategory category = SpanCategory::Unknown;
    std::string convention; ///< "openinference", "gen_ai", "traceloop", "pdl" or empty
    std::string model;
    std::string provider;
    Attributes parameters = Attributes::object();
    Attributes inputMessages = Attributes::array();
    Attributes outputMessages = Attributes::array();
    std::optional<int64_t> inputTokens, outputTokens, totalTokens, cachedTokens;
    Attributes input;  ///< input.value (parsed when its mime type is JSON); null when absent
    Attributes output; ///< output.value likewise
    std::string toolName, toolDescription, toolCallId;
    Attributes toolParameters, toolArguments, toolResult;
    Attributes documents = Attributes::array(); ///< [{id, content, score, metadata}]
    std::string promptTemplate, promptTemplateVersion, promptName, agentName;
    Attributes promptVariables;
    std::string finishReason, responseId, responseModel;
    Attributes raw = Attributes::object();      ///< attributes no rule maps, as received
    Attributes rawEvents = Attributes::array(); ///< events no rule maps
    Attributes pdl = Attributes::object();      ///< `pdl.*` attributes, prefix removed
    std::string error;                          ///< status or exception message on failure
};

/// Applies the convention tables (conventions.h) to a span. Pure, any thread.
SpanView interpretSpan(const Span& span);

/// The same, the span's attribute values moved into the view rather than copied (a span being
/// taken apart: its attributes are left empty; its ids, name, times, status, resource and
/// events stay, as toTraceNode() wants them).
SpanView interpretSpanTaking(Span& span);

/// The span as a trace node (no children): kind from the category (or `pdl.kind`), label
/// (`def`) the span name, id the span id (or `pdl.id`), timing, messages as `modelInput`,
/// usage, result (output, reply, tool result or documents), and in `exprs`: model,
/// parameters, input, tool, arguments, documents…, `otel` (ids, kind, status, service,
/// scope) and `attributes` / `events` holding everything unmapped, verbatim.
pdl::TracePtr toTraceNode(const Span& span, const SpanView& view);

/// The prompt-log call of an LLM span (either convention), or nothing for other spans: prompt
/// name from `llm.prompt_template.name`/`gen_ai.prompt.name` else the span name; tags
/// `service:…`, `env:…` from the resource and `otel`; uid `otel:<trace>:<span>`.
std::optional<promptlog::CallRecord> toCallRecord(const Span& span, const SpanView& view);
/// Whether `span` may be a model call: false when its kind attribute names another kind (a
/// tool, a retriever, an agent…) and it is no PDL model block, so that toCallRecord() of its
/// view would give nothing (a receiver need not read the rest of it). Looks at its kind only.
bool mayBeModelCall(const Span& span);

/// The kind named as PDL spells it (`lastOf`, `model`, …); Sequence for an unknown name.
pdl::BlockKind blockKindFromName(std::string_view name);

} // namespace hako::otel
