#pragma once

#include "core/pdl/value.h"
#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hako::models {

/// Where a request comes from, for the prompt log (core/promptlog): the model block that sent
/// it. Empty for requests made outside a program (the playground fills its own).
struct CallSite {
    /// The prompt's human name (core/pdl/promptidentity.h): the block's `description`, else its
    /// `def`, else "<program name> #<n>".
    std::string promptName;
    /// The block's id (`# hako-prompt:` above it), else a derived one ("~…", unsaved identity).
    std::string promptId;
    /// The program's id, likewise, and its human name (root `description`, else file name).
    std::string programId;
    std::string programName;
    /// The model block's span in its program file.
    SourceSpan span;
    /// The block's id in the trace (`text.0.model`).
    std::string nodeId;
    /// Which try of the block this is (0 the first; `retry` runs it again).
    int attempt = 0;
};

/// One chat completion request as a PDL model block makes it.
struct ChatRequest {
    /// The model name as written in the program, LiteLLM style (`ollama/granite3.2:2b`,
    /// `openai/gpt-4o-mini`, `gpt-4o`, `watsonx/…`).
    std::string model;
    /// Messages: dicts with `role`, `content` and optionally `tool_calls`, `tool_call_id`,
    /// `name`. Extra keys (PDL's `pdl__defsite`) are the provider's to drop.
    pdl::List messages;
    /// The block's `parameters` after evaluation (temperature, max_tokens, stop, seed,
    /// response_format, tools, mock_response, base_url, api_key, …).
    pdl::Dict parameters;
    /// Ask the server to stream; deltas then reach the callback as they arrive.
    bool stream = false;
    /// The block that sends it (for the prompt log; providers ignore it).
    CallSite site;

    /// A request of one user message, `text`, to `model`: what Hako itself asks a model (an
    /// evaluation's judge, a memory reflection).
    static ChatRequest userText(std::string model, const std::string& text)
    {
        ChatRequest request;
        request.model = std::move(model);
        pdl::Dict message;
        message.set("role", pdl::Value("user"));
        message.set("content", pdl::Value(text));
        request.messages.push_back(pdl::Value(std::move(message)));
        return request;
    }
};

/// Token counts of one call; `estimated` when the server reported none.
struct Usage {
    int64_t promptTokens = 0;
    int64_t completionTokens = 0;
    bool estimated = false;
};

struct ChatResponse {
    /// The assistant message: `{role: assistant, content: …}` plus `tool_calls` when present.
    pdl::Value message;
    /// The reply text (message content, "" when the reply is only tool calls).
    std::string content;
    /// The raw response body as a value (what a block's `modelResponse` variable receives).
    pdl::Value raw;
    Usage usage;
    /// The model name the endpoint was asked for once aliases were resolved (`default` →
    /// `gpt-4o-mini`); empty when the provider resolves nothing (set by the router).
    std::string resolvedModel;

    /// The model the server says answered (`model` of its reply: `gpt-4o-mini-2024-07-18`),
    /// or "" when it said none.
    std::string servedModel() const
    {
        if (raw.isDict())
            if (const pdl::Value* m = raw.asDict().find("model"); m && m->isString())
                return m->asString();
        return {};
    }
};

/// Receives each text delta of a streamed reply, on the calling (worker) thread.
using DeltaCallback = std::function<void(std::string_view delta)>;

/// Talks to model servers. The interpreter holds one (usually a router that resolves model
/// names to endpoints) and calls it from its worker thread.
///
/// Threading: every call blocks until the answer is complete, failed or cancelled, so it must
/// be made from a worker thread, never the GUI thread. Implementations must be safe to call
/// from several threads at once (a `map` block runs iterations in parallel).
class IModelProvider {
public:
    virtual ~IModelProvider() = default;

    /// A short name for messages and the plugin list (`openai`, `replay`, `router`).
    virtual QString id() const = 0;

    /// One chat completion. Errors name the model and the endpoint and say how to fix the
    /// configuration when that is the cause. A cancelled call returns an error promptly.
    virtual Result<ChatResponse> chat(const ChatRequest& request, const DeltaCallback& onDelta,
                                      const CancelToken& cancel) = 0;

    /// Embeddings of `texts` with `model`, one vector per text, in order.
    virtual Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                          const std::vector<std::string>& texts,
                                                          const CancelToken& cancel) = 0;

    /// The model names the configured endpoints offer (for completion in the editor).
    virtual Result<QStringList> listModels(const CancelToken& cancel) = 0;
};

} // namespace hako::models
