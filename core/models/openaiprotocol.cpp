#include "core/models/openaiprotocol.h"
#include "core/pdl/imagecontent.h"

#include <algorithm>

namespace hako::models::openai {

namespace {

// What configures the client rather than the request: the endpoint, and the arguments LiteLLM's
// `completion()` consumes itself (retries, timeouts, cost tables, mocking, prompt templates for
// non-chat back ends such as the granite `roles` the reference's default table adds): the
// reference's requests never carry them, so neither do Hako's. `extra_headers` become HTTP
// headers and `extra_body` is merged into the body (chatBody, OpenAiProvider).
constexpr std::string_view kClientOnly[] = {"base_url",
                                            "api_base",
                                            "api_key",
                                            "api_version",
                                            "api_type",
                                            "organization",
                                            "mock_response",
                                            "mock_tool_calls",
                                            "mock_timeout",
                                            "stream",
                                            "drop_params",
                                            "additional_drop_params",
                                            "timeout",
                                            "num_retries",
                                            "max_retries",
                                            "fallbacks",
                                            "context_window_fallback_dict",
                                            "metadata",
                                            "caching",
                                            "cache",
                                            "custom_llm_provider",
                                            "roles",
                                            "final_prompt_value",
                                            "initial_prompt_value",
                                            "bos_token",
                                            "eos_token",
                                            "input_cost_per_token",
                                            "output_cost_per_token",
                                            "input_cost_per_second",
                                            "output_cost_per_second",
                                            "model_list",
                                            "deployment_id",
                                            "logger_fn",
                                            "verbose",
                                            "extra_headers",
                                            "headers",
                                            "extra_body",
                                            "ssl_verify",
                                            "max_parallel_requests",
                                            "tpm",
                                            "rpm",
                                            "hf_model_name",
                                            "model_info",
                                            "base_model",
                                            "preset_cache_key",
                                            "user_continue_message",
                                            "ensure_alternating_roles",
                                            "merge_reasoning_content_in_choices",
                                            "litellm_call_id",
                                            "litellm_logging_obj",
                                            "proxy_server_request",
                                            "acompletion",
                                            "no-log"};

std::string contentText(const pdl::Value& content)
{
    if (content.isString())
        return content.asString();
    if (content.isNull() || content.isUndefined())
        return {};
    return content.toText();
}

bool isContentParts(const pdl::Value& content)
{
    if (!content.isList() || content.asList().empty())
        return false;
    for (const pdl::Value& part : content.asList()) {
        if (!part.isDict() || !part.asDict().find("type"))
            return false;
    }
    return true;
}

Usage usageFrom(const json& usage)
{
    Usage u;
    if (!usage.is_object())
        return u;
    if (usage.contains("prompt_tokens") && usage["prompt_tokens"].is_number_integer())
        u.promptTokens = usage["prompt_tokens"].get<int64_t>();
    if (usage.contains("completion_tokens") && usage["completion_tokens"].is_number_integer())
        u.completionTokens = usage["completion_tokens"].get<int64_t>();
    return u;
}

const char* typeName(const json& j)
{
    return j.type_name();
}

/// The text of a message's `content`: a string, null, or a list of parts whose `text` parts
/// are joined (as servers that answer in the multi-part format send it).
Result<std::string> contentOf(const json& content, const std::string& where)
{
    if (content.is_null())
        return std::string();
    if (content.is_string())
        return content.get<std::string>();
    if (!content.is_array())
        return makeError(QStringLiteral("%1 is a %2, expected a string or a list of parts")
                             .arg(QString::fromStdString(where), QLatin1String(typeName(content))));
    std::string text;
    for (size_t i = 0; i < content.size(); ++i) {
        const json& part = content[i];
        const QString at = QString::fromStdString(where + "[" + std::to_string(i) + "]");
        if (part.is_string()) {
            text += part.get<std::string>();
            continue;
        }
        if (!part.is_object())
            return makeError(QStringLiteral("%1 is a %2, expected a content part (an object)")
                                 .arg(at, QLatin1String(typeName(part))));
        const auto t = part.find("text");
        if (t == part.end())
            continue; // an image or audio part: no text to add
        if (!t->is_string())
            return makeError(QStringLiteral("%1.text is a %2, expected a string")
                                 .arg(at, QLatin1String(typeName(*t))));
        text += t->get<std::string>();
    }
    return text;
}

Result<json> toolCallsOf(const json& calls, const std::string& where)
{
    if (calls.is_null())
        return json::array();
    if (!calls.is_array())
        return makeError(QStringLiteral("%1 is a %2, expected a list")
                             .arg(QString::fromStdString(where), QLatin1String(typeName(calls))));
    for (size_t i = 0; i < calls.size(); ++i) {
        const json& c = calls[i];
        const QString at = QString::fromStdString(where + "[" + std::to_string(i) + "]");
        if (!c.is_object())
            return makeError(QStringLiteral("%1 is a %2, expected a tool call (an object)")
                                 .arg(at, QLatin1String(typeName(c))));
        const auto fn = c.find("function");
        if (fn == c.end() || !fn->is_object())
            return makeError(QStringLiteral("%1 has no `function` object").arg(at));
        for (const char* field : {"name", "arguments"}) {
            const auto f = fn->find(field);
            if (f != fn->end() && !f->is_string())
                return makeError(QStringLiteral("%1.function.%2 is a %3, expected a string")
                                     .arg(at, QLatin1String(field), QLatin1String(typeName(*f))));
        }
    }
    return calls;
}

Result<pdl::Value> assistantMessage(const json& message, const std::string& where)
{
    pdl::Dict m;
    std::string role = "assistant";
    if (const auto r = message.find("role"); r != message.end() && !r->is_null()) {
        if (!r->is_string())
            return makeError(QStringLiteral("%1.role is a %2, expected a string")
                                 .arg(QString::fromStdString(where), QLatin1String(typeName(*r))));
        role = r->get<std::string>();
    }
    m.set("role", pdl::Value(role));
    const auto c = message.find("content");
    Result<std::string> content = contentOf(c == message.end() ? json() : *c, where + ".content");
    if (!content)
        return content.error();
    m.set("content", pdl::Value(std::move(*content)));
    if (const auto t = message.find("tool_calls"); t != message.end()) {
        Result<json> calls = toolCallsOf(*t, where + ".tool_calls");
        if (!calls)
            return calls.error();
        if (!calls->empty())
            m.set("tool_calls", pdl::Value::fromJson(*calls));
    }
    return pdl::Value(std::move(m));
}

/// A non-negative integer `index` field (absent: `fallback`).
Result<size_t> indexOf(const json& object, size_t fallback, const std::string& where)
{
    const auto i = object.find("index");
    if (i == object.end() || i->is_null())
        return fallback;
    if (!i->is_number_unsigned() && !(i->is_number_integer() && i->get<int64_t>() >= 0))
        return makeError(
            QStringLiteral("%1.index is %2, expected a non-negative integer")
                .arg(QString::fromStdString(where), QString::fromStdString(i->dump())));
    return size_t(i->get<uint64_t>());
}

} // namespace

bool isClientOnlyParameter(std::string_view name)
{
    return std::find(std::begin(kClientOnly), std::end(kClientOnly), name) != std::end(kClientOnly);
}

QList<QPair<QByteArray, QByteArray>> extraHeaders(const pdl::Dict& parameters)
{
    QList<QPair<QByteArray, QByteArray>> out;
    const pdl::Value* extra = parameters.find("extra_headers");
    if (!extra || !extra->isDict())
        return out;
    for (const auto& [key, value] : extra->asDict()) {
        if (!key.isString() || !value.isString())
            continue;
        const QByteArray name = QByteArray::fromStdString(key.asString());
        const QByteArray text = QByteArray::fromStdString(value.asString());
        // A header the program names must not split the request or change its framing.
        static const QByteArray framing[] = {"content-length", "transfer-encoding", "host",
                                             "connection", "content-type"};
        const bool unsafe =
            name.isEmpty() || name.contains(':') || name.contains(' ') || name.contains('\r') ||
            name.contains('\n') || text.contains('\r') || text.contains('\n') ||
            std::find(std::begin(framing), std::end(framing), name.toLower()) != std::end(framing);
        if (!unsafe)
            out.append({name, text});
    }
    return out;
}

json messagesJson(const pdl::List& messages)
{
    json out = json::array();
    for (const pdl::Value& message : messages) {
        if (!message.isDict()) {
            out.push_back({{"role", "user"}, {"content", contentText(message)}});
            continue;
        }
        json m = json::object();
        for (const auto& [key, value] : message.asDict()) {
            if (!key.isString())
                continue;
            const std::string& k = key.asString();
            if (k == "content") {
                m["content"] = isContentParts(value) ? value.toOrderedJson()
                               : value.isNull()      ? json()
                                                     : json(contentText(value));
            } else if (k == "role" || k == "name" || k == "tool_call_id") {
                m[k] = contentText(value);
            } else if (k == "tool_calls" && value.isList() && !value.asList().empty()) {
                m[k] = value.toOrderedJson();
            }
        }
        if (!m.contains("role"))
            m["role"] = "user";
        if (!m.contains("content"))
            m["content"] = m.contains("tool_calls") ? json() : json("");
        out.push_back(std::move(m));
    }
    return out;
}

json chatBody(const std::string& model, const ChatRequest& request)
{
    json body = json::object();
    body["model"] = model;
    body["messages"] = messagesJson(request.messages);
    for (const auto& [key, value] : request.parameters) {
        if (!key.isString() || value.isNull() || value.isUndefined() ||
            isClientOnlyParameter(key.asString()))
            continue;
        body[key.asString()] = value.toOrderedJson();
    }
    // The OpenAI client sends `extra_body`'s fields as fields of the body itself.
    if (const pdl::Value* extra = request.parameters.find("extra_body"); extra && extra->isDict()) {
        for (const auto& [key, value] : extra->asDict()) {
            if (key.isString() && !value.isNull() && !value.isUndefined())
                body[key.asString()] = value.toOrderedJson();
        }
    }
    if (request.stream) {
        body["stream"] = true;
        if (!body.contains("stream_options"))
            body["stream_options"] = {{"include_usage", true}};
    } else {
        body.erase("stream_options");
    }
    return body;
}

Result<ChatResponse> parseChatReply(const QByteArray& body)
{
    const json reply =
        json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    if (reply.is_discarded())
        return makeError(QStringLiteral("the server's reply is not valid JSON: %1")
                             .arg(errorMessageFromBody(body)));
    if (!reply.is_object())
        return makeError(QStringLiteral("the server's reply is not a JSON object"));
    if (reply.contains("error") && !reply["error"].is_null())
        return makeError(
            QStringLiteral("the server reported an error: %1").arg(errorMessageFromBody(body)));
    const json choices = reply.value("choices", json());
    if (!choices.is_array() || choices.empty() || !choices[0].is_object() ||
        !choices[0].contains("message") || !choices[0]["message"].is_object())
        return makeError(QStringLiteral("the server's reply has no choices[0].message"));
    Result<pdl::Value> message = assistantMessage(choices[0]["message"], "choices[0].message");
    if (!message)
        return makeError(
            QStringLiteral("the server's reply is malformed: %1").arg(message.error().message));
    ChatResponse response;
    response.message = std::move(*message);
    response.content = response.message.asDict().find("content")->asString();
    response.raw = pdl::Value::fromJson(reply);
    if (reply.contains("usage") && reply["usage"].is_object())
        response.usage = usageFrom(reply["usage"]);
    else
        response.usage.estimated = true;
    return response;
}

int64_t estimateTokens(std::string_view text)
{
    if (text.empty())
        return 0;
    return std::max<int64_t>(1, int64_t((text.size() + 3) / 4));
}

void estimateUsageIfMissing(ChatResponse& response, const pdl::List& messages)
{
    if (!response.usage.estimated)
        return;
    int64_t prompt = 0;
    for (const pdl::Value& m : messages) {
        const pdl::Value* content = m.isDict() ? m.asDict().find("content") : &m;
        // Role and separators cost a few tokens per message in every chat template; an image
        // part counts as a fixed few tokens, never as the length of its base64 text.
        prompt += 4 + (content ? pdl::estimateContentTokens(*content) : 0);
    }
    response.usage.promptTokens = prompt;
    response.usage.completionTokens = estimateTokens(response.content);
}

std::optional<ChatResponse> mockReply(const ChatRequest& request, const DeltaCallback& onDelta)
{
    const pdl::Value* mock = request.parameters.find("mock_response");
    if (!mock || mock->isNull() || mock->isUndefined())
        return std::nullopt;
    ChatResponse response;
    response.content = contentText(*mock);
    if (request.stream && onDelta) {
        size_t start = 0;
        while (start < response.content.size()) {
            size_t end = response.content.find(' ', start + 1);
            if (end == std::string::npos)
                end = response.content.size();
            onDelta(std::string_view(response.content).substr(start, end - start));
            start = end;
        }
    }
    response.message =
        pdl::Value(pdl::Dict{{"role", "assistant"}, {"content", pdl::Value(response.content)}});
    const json raw{
        {"id", "mock"},
        {"object", "chat.completion"},
        {"model", request.model},
        {"choices",
         json::array({json{{"index", 0},
                           {"message", {{"role", "assistant"}, {"content", response.content}}},
                           {"finish_reason", "stop"}}})}};
    response.raw = pdl::Value::fromJson(raw);
    response.usage.estimated = true;
    estimateUsageIfMissing(response, request.messages);
    return response;
}

QString errorMessageFromBody(const QByteArray& body)
{
    return printable([&]() -> QString {
        const json j =
            json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
        if (!j.is_discarded() && j.is_object()) {
            const json error = j.value("error", json());
            if (error.is_object() && error.contains("message") && error["message"].is_string())
                return QString::fromStdString(error["message"].get<std::string>());
            if (error.is_string())
                return QString::fromStdString(error.get<std::string>());
            if (j.contains("detail"))
                return QString::fromStdString(
                    j["detail"].is_string() ? j["detail"].get<std::string>() : j["detail"].dump());
        }
        QString text = QString::fromUtf8(body).simplified();
        if (text.size() > 200)
            text = text.left(200) + QStringLiteral("…");
        return text.isEmpty() ? QStringLiteral("(empty body)") : text;
    }());
}

QString printable(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if ((u < 0x20 && u != '\t' && u != '\n') || (u >= 0x7f && u < 0xa0))
            out += QStringLiteral("\\x%1").arg(int(u), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

void redactResponse(ChatResponse& response, const QString& secret)
{
    if (secret.isEmpty())
        return;
    const std::string key = secret.toStdString();
    auto scrub = [&](pdl::Value& v) {
        const std::string text = v.toOrderedJson().dump();
        if (text.find(key) == std::string::npos)
            return;
        const QByteArray clean = redact(QByteArray::fromStdString(text), secret);
        v = pdl::Value::fromJson(
            json::parse(clean.constData(), clean.constData() + clean.size(), nullptr, false));
    };
    response.content = redact(QByteArray::fromStdString(response.content), secret).toStdString();
    scrub(response.message);
    scrub(response.raw);
}

std::string StreamRedactor::feed(std::string_view piece)
{
    m_held += piece;
    if (m_secret.empty()) {
        std::string out;
        out.swap(m_held);
        return out;
    }
    std::string out;
    size_t from = 0;
    for (size_t at; (at = m_held.find(m_secret, from)) != std::string::npos;
         from = at + m_secret.size()) {
        out.append(m_held, from, at - from);
        out += "[redacted]";
    }
    // Keep back the longest tail that could be the start of the secret.
    const size_t tailRoom = m_held.size() - from;
    size_t keep = std::min(tailRoom, m_secret.size() - 1);
    while (keep > 0 && m_held.compare(m_held.size() - keep, keep, m_secret, 0, keep) != 0)
        --keep;
    out.append(m_held, from, m_held.size() - from - keep);
    m_held.erase(0, m_held.size() - keep);
    return out;
}

std::string StreamRedactor::finish()
{
    std::string out;
    out.swap(m_held);
    return out;
}

QByteArray redact(QByteArray text, const QString& secret)
{
    if (!secret.isEmpty())
        text.replace(secret.toUtf8(), "[redacted]");
    return text;
}

QString redact(QString text, const QString& secret)
{
    if (!secret.isEmpty())
        text.replace(secret, QStringLiteral("[redacted]"));
    return text;
}

Result<std::string> StreamAccumulator::feed(const QByteArray& data)
{
    if (data.trimmed() == "[DONE]") {
        m_done = true;
        return std::string();
    }
    const json chunk =
        json::parse(data.constData(), data.constData() + data.size(), nullptr, false);
    if (chunk.is_discarded() || !chunk.is_object())
        return makeError(QStringLiteral("malformed JSON in the streamed reply: %1")
                             .arg(errorMessageFromBody(data)));
    if (chunk.contains("error") && !chunk["error"].is_null())
        return makeError(QStringLiteral("the server reported an error mid-stream: %1")
                             .arg(errorMessageFromBody(data)));
    if (m_id.is_null() && chunk.contains("id"))
        m_id = chunk["id"];
    if (m_model.is_null() && chunk.contains("model"))
        m_model = chunk["model"];
    if (m_created.is_null() && chunk.contains("created"))
        m_created = chunk["created"];
    if (chunk.contains("usage") && chunk["usage"].is_object())
        m_usage = chunk["usage"];
    std::string delta;
    const auto it = chunk.find("choices");
    if (it == chunk.end() || it->is_null())
        return delta;
    if (!it->is_array())
        return makeError(QStringLiteral("malformed streamed chunk: choices is a %1, expected a "
                                        "list")
                             .arg(QLatin1String(typeName(*it))));
    for (size_t ci = 0; ci < it->size(); ++ci) {
        const json& c = (*it)[ci];
        const std::string where = "choices[" + std::to_string(ci) + "]";
        if (!c.is_object())
            return makeError(QStringLiteral("malformed streamed chunk: %1 is a %2, expected an "
                                            "object")
                                 .arg(QString::fromStdString(where), QLatin1String(typeName(c))));
        Result<size_t> idx = indexOf(c, 0, where);
        if (!idx)
            return makeError(
                QStringLiteral("malformed streamed chunk: %1").arg(idx.error().message));
        const size_t index = *idx;
        if (index > 1024)
            continue;
        if (m_choices.size() <= index)
            m_choices.resize(index + 1);
        Choice& choice = m_choices[index];
        if (c.contains("finish_reason") && !c["finish_reason"].is_null()) {
            choice.finishReason = c["finish_reason"];
            m_finished = true;
        }
        const auto d = c.find("delta");
        if (d == c.end() || d->is_null())
            continue;
        if (!d->is_object())
            return makeError(QStringLiteral("malformed streamed chunk: %1.delta is a %2, "
                                            "expected an object")
                                 .arg(QString::fromStdString(where), QLatin1String(typeName(*d))));
        if (const auto r = d->find("role"); r != d->end() && !r->is_null()) {
            if (!r->is_string())
                return makeError(
                    QStringLiteral("malformed streamed chunk: %1.delta.role is a "
                                   "%2, expected a string")
                        .arg(QString::fromStdString(where), QLatin1String(typeName(*r))));
            choice.role = r->get<std::string>();
        }
        if (const auto content = d->find("content"); content != d->end()) {
            Result<std::string> text = contentOf(*content, where + ".delta.content");
            if (!text)
                return makeError(
                    QStringLiteral("malformed streamed chunk: %1").arg(text.error().message));
            choice.content += *text;
            if (index == 0)
                delta += *text;
        }
        const auto calls = d->find("tool_calls");
        if (calls == d->end() || calls->is_null())
            continue;
        const std::string callsAt = where + ".delta.tool_calls";
        if (!calls->is_array())
            return makeError(
                QStringLiteral("malformed streamed chunk: %1 is a %2, expected a "
                               "list")
                    .arg(QString::fromStdString(callsAt), QLatin1String(typeName(*calls))));
        for (size_t k = 0; k < calls->size(); ++k) {
            const json& tc = (*calls)[k];
            const std::string at = callsAt + "[" + std::to_string(k) + "]";
            if (!tc.is_object())
                return makeError(QStringLiteral("malformed streamed chunk: %1 is a %2, expected "
                                                "a tool call (an object)")
                                     .arg(QString::fromStdString(at), QLatin1String(typeName(tc))));
            Result<size_t> ti = indexOf(tc, k, at);
            if (!ti)
                return makeError(
                    QStringLiteral("malformed streamed chunk: %1").arg(ti.error().message));
            if (*ti > 1024)
                continue;
            if (choice.toolCalls.size() <= *ti)
                choice.toolCalls.resize(*ti + 1);
            ToolCall& call = choice.toolCalls[*ti];
            if (tc.contains("id") && tc["id"].is_string())
                call.id = tc["id"].get<std::string>();
            if (tc.contains("type") && tc["type"].is_string())
                call.type = tc["type"].get<std::string>();
            const auto fn = tc.find("function");
            if (fn != tc.end() && fn->is_object()) {
                if (fn->contains("name") && (*fn)["name"].is_string())
                    call.name += (*fn)["name"].get<std::string>();
                if (fn->contains("arguments") && (*fn)["arguments"].is_string())
                    call.arguments += (*fn)["arguments"].get<std::string>();
            }
        }
    }
    return delta;
}

ChatResponse StreamAccumulator::result() const
{
    json choices = json::array();
    for (size_t i = 0; i < std::max<size_t>(1, m_choices.size()); ++i) {
        const Choice choice = i < m_choices.size() ? m_choices[i] : Choice();
        json message{{"role", choice.role}, {"content", choice.content}};
        if (!choice.toolCalls.empty()) {
            json calls = json::array();
            for (const ToolCall& t : choice.toolCalls)
                calls.push_back({{"id", t.id},
                                 {"type", t.type},
                                 {"function", {{"name", t.name}, {"arguments", t.arguments}}}});
            message["tool_calls"] = calls;
        }
        choices.push_back(
            {{"index", i}, {"message", message}, {"finish_reason", choice.finishReason}});
    }
    json raw{{"id", m_id},
             {"object", "chat.completion"},
             {"created", m_created},
             {"model", m_model},
             {"choices", choices}};
    if (!m_usage.is_null())
        raw["usage"] = m_usage;
    ChatResponse response;
    // Built from validated pieces, so it cannot be malformed.
    response.message = *assistantMessage(choices[0]["message"], "choices[0].message");
    response.content = response.message.asDict().find("content")->asString();
    response.raw = pdl::Value::fromJson(raw);
    if (m_usage.is_object())
        response.usage = usageFrom(m_usage);
    else
        response.usage.estimated = true;
    return response;
}

} // namespace hako::models::openai
