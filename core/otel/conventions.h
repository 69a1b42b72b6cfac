#pragma once

#include "core/pdl/ast/block.h"

#include <span>
#include <string_view>

namespace hako::otel {

/// What a span does, whatever convention said so.
enum class SpanCategory {
    Unknown,
    Llm,
    Embedding,
    Chain,
    Tool,
    Retriever,
    Reranker,
    Agent,
    Guardrail,
    Evaluator,
    Memory,
};

/// "llm", "tool", … (lower case; what `otel.category` shows in the detail pane).
const char* categoryName(SpanCategory category);

/// A span attribute value that decides the category: first matching rule wins.
struct KindRule {
    const char* attribute;
    const char* value;
    SpanCategory category;
    const char* convention; ///< "openinference", "gen_ai", "traceloop"
};

/// Where an attribute's value goes. `Flat*` fields are prefixes of indexed, flattened lists
/// (`llm.input_messages.0.message.role`); `*Json` fields hold JSON (a string or structured).
enum class Field {
    Ignore, ///< consumed elsewhere (the category attribute itself)
    ModelName,
    ResponseModel,
    Provider,
    InvocationParameters, ///< a JSON object of parameters
    RequestParameter,     ///< one parameter: the key's last segment is its name
    InputTokens,
    OutputTokens,
    TotalTokens,
    CachedTokens,
    InputValue,
    InputMime,
    OutputValue,
    OutputMime,
    ToolName,
    ToolDescription,
    ToolParameters, ///< the tool's parameter schema
    ToolArguments,  ///< the arguments of this call
    ToolResult,
    ToolCallId,
    InputMessagesFlat,
    OutputMessagesFlat,
    InputMessagesJson,
    OutputMessagesJson,
    SystemInstructionsJson,
    DocumentsFlat,
    DocumentsJson,
    PromptTemplate,
    PromptTemplateVariables,
    PromptTemplateVersion,
    PromptName,
    FinishReasons,
    ResponseId,
    AgentName,
};

struct FieldRule {
    const char* key;
    bool prefix; ///< `key` is a prefix (ends with '.')
    Field field;
};

/// The tables (pure data, in conventions.cpp): adding an attribute name is an edit there.
std::span<const KindRule> kindRules();
std::span<const FieldRule> fieldRules();

/// The trace block kind a category is shown as (boxes are coloured by it):
/// LLM/embedding → model, tool → call, retriever/reranker/memory → read, agent → lastOf,
/// chain/unknown → sequence, guardrail/evaluator → if.
pdl::BlockKind blockKindFor(SpanCategory category);

/// The older GenAI per-message span events (`gen_ai.user.message`, …): the role they carry,
/// or empty for other events. `gen_ai.choice` gives "assistant" and sets `*output`.
std::string_view eventMessageRole(std::string_view eventName, bool* output);

} // namespace hako::otel
