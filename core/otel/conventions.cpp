#include "core/otel/conventions.h"

namespace hako::otel {

namespace {

using C = SpanCategory;
using F = Field;

// Attribute values that say what a span is. OpenInference first (its kind is explicit), then
// the OpenTelemetry GenAI operation names, then Traceloop/OpenLLMetry's older kind attribute.
const KindRule kKinds[] = {
    {"openinference.span.kind", "LLM", C::Llm, "openinference"},
    {"openinference.span.kind", "EMBEDDING", C::Embedding, "openinference"},
    {"openinference.span.kind", "CHAIN", C::Chain, "openinference"},
    {"openinference.span.kind", "TOOL", C::Tool, "openinference"},
    {"openinference.span.kind", "RETRIEVER", C::Retriever, "openinference"},
    {"openinference.span.kind", "RERANKER", C::Reranker, "openinference"},
    {"openinference.span.kind", "AGENT", C::Agent, "openinference"},
    {"openinference.span.kind", "GUARDRAIL", C::Guardrail, "openinference"},
    {"openinference.span.kind", "EVALUATOR", C::Evaluator, "openinference"},
    {"gen_ai.operation.name", "chat", C::Llm, "gen_ai"},
    {"gen_ai.operation.name", "text_completion", C::Llm, "gen_ai"},
    {"gen_ai.operation.name", "generate_content", C::Llm, "gen_ai"},
    {"gen_ai.operation.name", "embeddings", C::Embedding, "gen_ai"},
    {"gen_ai.operation.name", "execute_tool", C::Tool, "gen_ai"},
    {"gen_ai.operation.name", "invoke_agent", C::Agent, "gen_ai"},
    {"gen_ai.operation.name", "create_agent", C::Agent, "gen_ai"},
    {"gen_ai.operation.name", "search_memory", C::Memory, "gen_ai"},
    {"gen_ai.operation.name", "update_memory", C::Memory, "gen_ai"},
    {"gen_ai.operation.name", "create_memory", C::Memory, "gen_ai"},
    {"gen_ai.operation.name", "delete_memory", C::Memory, "gen_ai"},
    {"traceloop.span.kind", "workflow", C::Chain, "traceloop"},
    {"traceloop.span.kind", "task", C::Chain, "traceloop"},
    {"traceloop.span.kind", "agent", C::Agent, "traceloop"},
    {"traceloop.span.kind", "tool", C::Tool, "traceloop"},
    {"llm.request.type", "chat", C::Llm, "traceloop"},
    {"llm.request.type", "completion", C::Llm, "traceloop"},
    {"llm.request.type", "embedding", C::Embedding, "traceloop"},
};

const FieldRule kFields[] = {
    // What decides the category is not repeated in the raw attributes.
    {"openinference.span.kind", false, F::Ignore},
    {"gen_ai.operation.name", false, F::Ignore},
    {"traceloop.span.kind", false, F::Ignore},
    // Model and provider.
    {"llm.model_name", false, F::ModelName},
    {"embedding.model_name", false, F::ModelName},
    {"gen_ai.request.model", false, F::ModelName},
    {"gen_ai.response.model", false, F::ResponseModel},
    {"llm.provider", false, F::Provider},
    {"llm.system", false, F::Provider},
    {"gen_ai.system", false, F::Provider},
    {"gen_ai.provider.name", false, F::Provider},
    {"llm.invocation_parameters", false, F::InvocationParameters},
    {"gen_ai.request.", true, F::RequestParameter},
    // Usage.
    {"llm.token_count.prompt", false, F::InputTokens},
    {"llm.token_count.completion", false, F::OutputTokens},
    {"llm.token_count.total", false, F::TotalTokens},
    {"llm.token_count.prompt_details.cache_read", false, F::CachedTokens},
    {"gen_ai.usage.input_tokens", false, F::InputTokens},
    {"gen_ai.usage.output_tokens", false, F::OutputTokens},
    {"gen_ai.usage.prompt_tokens", false, F::InputTokens},
    {"gen_ai.usage.completion_tokens", false, F::OutputTokens},
    {"gen_ai.usage.total_tokens", false, F::TotalTokens},
    {"gen_ai.usage.cache_read.input_tokens", false, F::CachedTokens},
    {"llm.usage.total_tokens", false, F::TotalTokens},
    // Input and output.
    {"input.value", false, F::InputValue},
    {"input.mime_type", false, F::InputMime},
    {"output.value", false, F::OutputValue},
    {"output.mime_type", false, F::OutputMime},
    {"traceloop.entity.input", false, F::InputValue},
    {"traceloop.entity.output", false, F::OutputValue},
    // Tools.
    {"tool.name", false, F::ToolName},
    {"tool.description", false, F::ToolDescription},
    {"tool.parameters", false, F::ToolParameters},
    {"tool.json_schema", false, F::ToolParameters},
    {"gen_ai.tool.name", false, F::ToolName},
    {"gen_ai.tool.description", false, F::ToolDescription},
    {"gen_ai.tool.call.id", false, F::ToolCallId},
    {"tool_call.id", false, F::ToolCallId},
    {"gen_ai.tool.call.arguments", false, F::ToolArguments},
    {"gen_ai.tool.call.result", false, F::ToolResult},
    // Messages.
    {"llm.input_messages.", true, F::InputMessagesFlat},
    {"llm.output_messages.", true, F::OutputMessagesFlat},
    {"gen_ai.prompt.", true, F::InputMessagesFlat},
    {"gen_ai.completion.", true, F::OutputMessagesFlat},
    {"gen_ai.input.messages", false, F::InputMessagesJson},
    {"gen_ai.output.messages", false, F::OutputMessagesJson},
    {"gen_ai.system_instructions", false, F::SystemInstructionsJson},
    // Documents.
    {"retrieval.documents.", true, F::DocumentsFlat},
    {"reranker.output_documents.", true, F::DocumentsFlat},
    {"gen_ai.retrieval.documents", false, F::DocumentsJson},
    // Prompts.
    {"llm.prompt_template.template", false, F::PromptTemplate},
    {"llm.prompt_template.variables", false, F::PromptTemplateVariables},
    {"llm.prompt_template.version", false, F::PromptTemplateVersion},
    {"llm.prompt_template.name", false, F::PromptName},
    {"gen_ai.prompt.name", false, F::PromptName},
    // Response.
    {"gen_ai.response.finish_reasons", false, F::FinishReasons},
    {"gen_ai.response.id", false, F::ResponseId},
    {"gen_ai.agent.name", false, F::AgentName},
    {"agent.name", false, F::AgentName},
};

} // namespace

const char* categoryName(SpanCategory category)
{
    switch (category) {
    case C::Llm:
        return "llm";
    case C::Embedding:
        return "embedding";
    case C::Chain:
        return "chain";
    case C::Tool:
        return "tool";
    case C::Retriever:
        return "retriever";
    case C::Reranker:
        return "reranker";
    case C::Agent:
        return "agent";
    case C::Guardrail:
        return "guardrail";
    case C::Evaluator:
        return "evaluator";
    case C::Memory:
        return "memory";
    case C::Unknown:
        break;
    }
    return "span";
}

std::span<const KindRule> kindRules()
{
    return kKinds;
}
std::span<const FieldRule> fieldRules()
{
    return kFields;
}

pdl::BlockKind blockKindFor(SpanCategory category)
{
    using K = pdl::BlockKind;
    switch (category) {
    case C::Llm:
    case C::Embedding:
        return K::Model;
    case C::Tool:
        return K::Call;
    case C::Retriever:
    case C::Reranker:
    case C::Memory:
        return K::Read;
    case C::Agent:
        return K::LastOf;
    case C::Guardrail:
    case C::Evaluator:
        return K::If;
    case C::Chain:
    case C::Unknown:
        break;
    }
    return K::Sequence;
}

std::string_view eventMessageRole(std::string_view name, bool* output)
{
    if (output)
        *output = false;
    if (name == "gen_ai.system.message")
        return "system";
    if (name == "gen_ai.user.message")
        return "user";
    if (name == "gen_ai.assistant.message")
        return "assistant";
    if (name == "gen_ai.tool.message")
        return "tool";
    if (name == "gen_ai.choice") {
        if (output)
            *output = true;
        return "assistant";
    }
    return {};
}

} // namespace hako::otel
