#pragma once

#include "core/pdl/model/modelprovider.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

/// The OpenAI Chat Completions wire format: request bodies, replies, streamed chunks, usage
/// estimates and error texts. Pure functions (and one accumulator), no I/O; thread-safe.
namespace hako::models::openai {

using json = nlohmann::ordered_json;

/// Parameters that configure the client and are never sent as body fields: the endpoint and
/// LiteLLM's own arguments (`drop_params`, `timeout`, `num_retries`, `roles`, …).
bool isClientOnlyParameter(std::string_view name);

/// The HTTP headers a request's `parameters.extra_headers` asks for (string values only), as
/// LiteLLM and the OpenAI client send them.
QList<QPair<QByteArray, QByteArray>> extraHeaders(const pdl::Dict& parameters);

/// Messages as the server accepts them: role, content, name, tool_calls, tool_call_id kept,
/// everything else (PDL's `pdl__defsite`, …) dropped; non-text content becomes its PDL text.
json messagesJson(const pdl::List& messages);

/// The `/chat/completions` body: model, messages, parameters without nulls and client-only
/// ones (unknown ones passed through, `extra_body`'s fields merged in), `stream`
/// (+ `stream_options.include_usage`).
json chatBody(const std::string& model, const ChatRequest& request);

/// Parses a non-streamed reply body; errors describe what is wrong with it.
Result<ChatResponse> parseChatReply(const QByteArray& body);

/// Token estimate for text (about four UTF-8 bytes per token, at least one for non-empty text).
int64_t estimateTokens(std::string_view text);
/// Fills `usage` with estimates from the messages and reply when the server gave none.
void estimateUsageIfMissing(ChatResponse& response, const pdl::List& messages);

/// A reply made locally from `parameters.mock_response` (as LiteLLM does), or nullopt when the
/// request has none. Streams the text word by word to `onDelta` when the request streams.
std::optional<ChatResponse> mockReply(const ChatRequest& request, const DeltaCallback& onDelta);

/// The human part of an error body (`error.message`, `error`, `detail`, or the text itself,
/// shortened).
QString errorMessageFromBody(const QByteArray& body);

/// Replaces every occurrence of `secret` in `text` with `[redacted]`.
QByteArray redact(QByteArray text, const QString& secret);
QString redact(QString text, const QString& secret);
/// `response` with `secret` replaced in its content, message and raw reply.
void redactResponse(ChatResponse& response, const QString& secret);

/// `text` safe for a terminal: control characters other than tab and line feed (NUL, ESC, C1,
/// DEL) become `\xNN` escapes, so a server's error body can neither drive the terminal nor cut
/// a message at a NUL.
QString printable(const QString& text);

/// Redacts a secret from a text that arrives in pieces (streamed deltas): whatever could be
/// the start of the secret is held back until the next piece shows whether it is.
class StreamRedactor {
public:
    explicit StreamRedactor(const QString& secret) : m_secret(secret.toStdString()) {}
    /// The part of `piece` (after what was held back) that is safe to pass on now.
    std::string feed(std::string_view piece);
    /// What is still held back, at the end of the stream.
    std::string finish();

private:
    std::string m_secret;
    std::string m_held;
};

/// Collects the chunks of a streamed reply into the reply a non-streamed call would give.
class StreamAccumulator {
public:
    /// One event's data. Returns the text delta of the first choice ("" when none); an error
    /// for malformed JSON or an error event.
    Result<std::string> feed(const QByteArray& data);
    /// True once `[DONE]` or a finish_reason arrived.
    bool complete() const { return m_done || m_finished; }
    /// The collected reply (usage from the usage chunk when the server sent one).
    ChatResponse result() const;

private:
    struct ToolCall {
        std::string id;
        std::string type = "function";
        std::string name;
        std::string arguments;
    };
    struct Choice {
        std::string role = "assistant";
        std::string content;
        std::vector<ToolCall> toolCalls;
        json finishReason;
    };

    std::vector<Choice> m_choices;
    json m_id;
    json m_model;
    json m_created;
    json m_usage;
    bool m_done = false;
    bool m_finished = false;
};

} // namespace hako::models::openai
