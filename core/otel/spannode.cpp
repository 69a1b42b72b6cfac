// A span's view (spanmapper.cpp) as a trace node or a prompt-log call.
#include "core/otel/conventions.h"
#include "core/otel/spanattr_p.h"
#include "core/otel/spanmapper.h"
#include "core/otel/spanvalue_p.h"

#include "core/pdl/value.h"

#include <string>
#include <vector>

namespace hako::otel {

namespace {

using json = Attributes;
using attr::asInt;
using attr::maybeJson;
using attr::text;

} // namespace

pdl::BlockKind blockKindFromName(std::string_view name)
{
    for (int k = 0; k <= int(pdl::BlockKind::Error); ++k) {
        const auto kind = pdl::BlockKind(k);
        if (name == pdl::blockKindName(kind))
            return kind;
    }
    return pdl::BlockKind::Sequence;
}

namespace {

// A value of the span, or null when it nests deeper than a trace holds (a JSON text in an
// attribute can nest without bound): the node then says so, as the trace reader does for a
// recorded value, and the span is still shown.
pdl::Value recordedValue(const json& j, pdl::TraceNode& n)
{
    try {
        return spanValue(j);
    } catch (const pdl::EvalError& e) {
        if (n.error.empty())
            n.error = std::string("a recorded value is not shown: ") + e.what();
        return pdl::Value();
    }
}

std::string replyOf(const SpanView& v)
{
    if (!v.outputMessages.empty()) {
        const json& last = v.outputMessages.back();
        return last.is_object() ? text(last.value("content", json())) : text(last);
    }
    return text(v.output);
}

} // namespace

namespace {

// A span Hako itself exported (`pdl.*` attributes): the block as it was recorded.
void readPdlBlock(pdl::TraceNode& n, const Span& span, const SpanView& v)
{
    auto val = [&n](const json& j) {
        return recordedValue(j, n);
    };
    const json& p = v.pdl;
    n.kind = blockKindFromName(text(p.value("kind", json())));
    n.id = text(p.value("id", json(span.spanId)));
    n.def = text(p.value("def", json()));
    n.description = text(p.value("description", json()));
    if (auto c = p.find("contribute"); c != p.end()) {
        const json list = maybeJson(*c);
        std::vector<std::string> targets;
        if (list.is_array())
            for (const json& t : list)
                targets.push_back(text(t));
        n.contribute = std::move(targets);
    }
    if (p.contains("location.line")) {
        n.span.file = QString::fromStdString(text(p.value("location.file", json())));
        n.span.line = int(asInt(p["location.line"]).value_or(0));
        n.span.column = int(asInt(p.value("location.column", json(0))).value_or(0));
        n.span.endLine = int(asInt(p.value("location.end_line", json(0))).value_or(0));
        n.span.endColumn = int(asInt(p.value("location.end_column", json(0))).value_or(0));
    }
    if (auto r = p.find("result"); r != p.end()) {
        const json parsed = json::parse(text(*r), nullptr, false);
        n.result = parsed.is_discarded() ? val(*r) : val(parsed);
        n.hasResult = true;
    }
    if (auto e = p.find("exprs"); e != p.end()) {
        const json list = maybeJson(*e);
        if (list.is_array())
            for (const json& pair : list)
                if (pair.is_array() && pair.size() == 2)
                    n.exprs.emplace_back(text(pair[0]), val(pair[1]));
    }
    if (auto m = p.find("model_input"); m != p.end())
        n.modelInput = val(maybeJson(*m));
    else if (!v.inputMessages.empty())
        n.modelInput = val(v.inputMessages);
    if (auto c = p.find("context"); c != p.end())
        n.context = val(maybeJson(*c));
    if (auto u = p.find("usage"); u != p.end())
        n.usage = val(maybeJson(*u));
    if (auto o = p.find("stdout"); o != p.end())
        n.out = text(*o);
    if (auto o = p.find("stderr"); o != p.end())
        n.err = text(*o);
    if (auto e = p.find("error"); e != p.end())
        n.error = text(*e);
    if (!v.raw.empty())
        n.exprs.emplace_back("attributes", val(v.raw));
}

// What a span produced, by its category.
json resultOf(const SpanView& v)
{
    switch (v.category) {
    case SpanCategory::Llm:
        if (!v.outputMessages.empty())
            return replyOf(v);
        else
            return v.output;
    case SpanCategory::Tool:
        return v.toolResult;
    case SpanCategory::Retriever:
    case SpanCategory::Reranker:
    case SpanCategory::Memory:
        return v.documents.empty() ? v.output : v.documents;
    default:
        return v.output;
    }
    return v.output;
}

// The token counts as a `pdl__usage` dict.
pdl::Value usageOf(const SpanView& v)
{
    pdl::Dict u;
    u.set("prompt_tokens", pdl::Value(v.inputTokens.value_or(0)));
    u.set("completion_tokens", pdl::Value(v.outputTokens.value_or(0)));
    if (v.totalTokens)
        u.set("total_tokens", pdl::Value(*v.totalTokens));
    if (v.cachedTokens)
        u.set("cached_tokens", pdl::Value(*v.cachedTokens));
    return pdl::Value(std::move(u));
}

// The fields the span carries, as the block's evaluated expressions (empty ones left out).
void putFields(pdl::TraceNode& n, const SpanView& v)
{
    auto put = [&](const char* name, const json& value) {
        if (!value.is_null() && !(value.is_string() && value.get_ref<const std::string&>().empty()))
            n.exprs.emplace_back(name, recordedValue(value, n));
    };
    put("model",
        v.responseModel.empty() || !v.model.empty() ? json(v.model) : json(v.responseModel));
    put("provider", v.provider);
    if (!v.parameters.empty())
        put("parameters", v.parameters);
    put("agent", v.agentName);
    put("tool", v.toolName);
    put("tool_description", v.toolDescription);
    put("tool_call_id", v.toolCallId);
    put("tool_parameters", v.toolParameters);
    put("arguments", v.toolArguments);
    if (v.category != SpanCategory::Tool || v.toolArguments != v.input)
        put("input", v.input);
    if (v.category == SpanCategory::Llm && !v.outputMessages.empty())
        put("output_messages", v.outputMessages);
    if (v.category != SpanCategory::Retriever && !v.documents.empty())
        put("documents", v.documents);
    put("prompt_template", v.promptTemplate);
    put("prompt_template_version", v.promptTemplateVersion);
    put("prompt_variables", v.promptVariables);
    put("finish_reason", v.finishReason);
    put("response_id", v.responseId);
}

// Where the span came from (ids, kind, status, resource), as its `otel` expression: a Value
// with shared keys and names, as every span has one.
pdl::Value otelOf(const Span& span, const SpanView& v, pdl::TraceNode& n)
{
    pdl::Dict otel;
    auto put = [&otel](const char* key, pdl::Value value) {
        otel.set(sharedText(key), std::move(value));
    };
    // The trace id is the same for every span of a trace: on roots only.
    put("span_id", pdl::Value(span.spanId));
    put("category", sharedText(categoryName(v.category)));
    if (!span.parentSpanId.empty())
        put("parent_span_id", sharedText(span.parentSpanId));
    else
        put("trace_id", sharedText(span.traceId));
    if (!v.convention.empty())
        put("convention", sharedText(v.convention));
    static const char* const kinds[] = {"unspecified", "internal", "server",
                                        "client",      "producer", "consumer"};
    if (span.kind > 0 && span.kind < 6)
        put("span_kind", sharedText(kinds[span.kind]));
    if (span.statusCode)
        put("status", sharedText(span.statusCode == 2 ? "error" : "ok"));
    if (!span.statusMessage.empty())
        put("status_message", sharedText(span.statusMessage));
    if (span.resource) {
        // The resource is the same for thousands of spans: whole on roots, its service below.
        if (span.parentSpanId.empty() && !span.resource->attributes.empty())
            put("resource", recordedValue(span.resource->attributes, n));
        else if (auto s = span.resource->attributes.find("service.name");
                 s != span.resource->attributes.end())
            put("service", recordedValue(*s, n));
        if (!span.resource->scopeName.empty())
            put("scope", sharedText(span.resource->scopeName));
    }
    return pdl::Value(pdl::Dict(otel)); // a copy holds exactly its items (no doubling's slack)
}

} // namespace

pdl::TracePtr toTraceNode(const Span& span, const SpanView& v)
{
    auto n = std::make_shared<pdl::TraceNode>();
    auto val = [&n](const json& j) {
        return recordedValue(j, *n);
    };
    n->startNanos = span.startNanos;
    n->endNanos = span.endNanos;
    if (v.convention == "pdl") {
        readPdlBlock(*n, span, v);
        return n;
    }
    n->kind = blockKindFor(v.category);
    n->id = span.spanId;
    n->def = span.name;
    n->error = v.error;
    if (const json result = resultOf(v); !result.is_null()) {
        n->result = val(result);
        n->hasResult = true;
    }
    if (!v.inputMessages.empty())
        n->modelInput = val(v.inputMessages);
    if (v.inputTokens || v.outputTokens || v.totalTokens)
        n->usage = usageOf(v);
    putFields(*n, v);
    n->exprs.emplace_back("otel", otelOf(span, v, *n));
    if (!v.raw.empty())
        n->exprs.emplace_back("attributes", val(v.raw));
    if (!v.rawEvents.empty())
        n->exprs.emplace_back("events", val(v.rawEvents));
    n->exprs.shrink_to_fit();
    return n;
}

std::optional<promptlog::CallRecord> toCallRecord(const Span& span, const SpanView& v)
{
    const bool pdlModel = v.convention == "pdl" && text(v.pdl.value("kind", json())) == "model";
    if (v.category != SpanCategory::Llm && !pdlModel)
        return std::nullopt;
    promptlog::CallRecord c;
    c.uid = QStringLiteral("otel:%1:%2")
                .arg(QString::fromStdString(span.traceId), QString::fromStdString(span.spanId));
    c.runId = QString::fromStdString(span.traceId);
    c.traceNodeId = QString::fromStdString(span.spanId);
    c.origin = promptlog::CallOrigin::Received;
    std::string name = v.promptName;
    if (name.empty() && pdlModel)
        name = text(v.pdl.value("def", json()));
    if (name.empty())
        name = span.name;
    c.promptName = QString::fromStdString(name);
    if (span.resource) {
        const json& r = span.resource->attributes;
        const std::string service = attrString(r, "service.name");
        if (!service.empty()) {
            c.tags << QStringLiteral("service:%1").arg(QString::fromStdString(service));
            c.programPath = QString::fromStdString(service);
        }
        std::string env = attrString(r, "deployment.environment.name");
        if (env.empty())
            env = attrString(r, "deployment.environment");
        if (!env.empty())
            c.tags << QStringLiteral("env:%1").arg(QString::fromStdString(env));
    }
    c.tags << QStringLiteral("otel");
    if (v.convention == "pdl") {
        c.span.file = QString::fromStdString(text(v.pdl.value("location.file", json())));
        c.span.line = int(asInt(v.pdl.value("location.line", json(0))).value_or(0));
    }
    c.model = QString::fromStdString(v.model.empty() ? v.responseModel : v.model);
    c.endpoint = QString::fromStdString(v.provider);
    c.parameters = spanQJson(v.parameters).toObject();
    c.messages = spanQJson(v.inputMessages).toArray();
    c.reply = QString::fromStdString(replyOf(v));
    if (!v.outputMessages.empty() && v.outputMessages.back().is_object())
        if (auto t = v.outputMessages.back().find("tool_calls"); t != v.outputMessages.back().end())
            c.toolCalls = spanQJson(*t).toArray();
    c.finishReason = QString::fromStdString(v.finishReason);
    c.promptTokens = v.inputTokens;
    c.completionTokens = v.outputTokens;
    c.cachedTokens = v.cachedTokens;
    if (span.endNanos >= span.startNanos && span.startNanos > 0)
        c.latencyMs = double(span.endNanos - span.startNanos) / 1e6;
    c.startedAt = span.startNanos / 1000000;
    if (!v.error.empty()) {
        c.status = promptlog::CallStatus::Failed;
        c.error = QString::fromStdString(v.error);
    }
    return c;
}

} // namespace hako::otel
