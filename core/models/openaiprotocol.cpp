#include "core/models/openaiprotocol.h"

#include <algorithm>

namespace hako::models::openai {

namespace {

constexpr std::string_view kClientOnly[] = {"base_url",    "api_base",      "api_key",
                                            "api_version", "mock_response", "stream"};

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

pdl::Value assistantMessage(const json& message)
{
    pdl::Dict m;
    m.set("role", pdl::Value(message.value("role", std::string("assistant"))));
    const json content = message.value("content", json());
    m.set("content",
          content.is_string() ? pdl::Value(content.get<std::string>()) : pdl::Value(std::string()));
    if (message.contains("tool_calls") && message["tool_calls"].is_array() &&
        !message["tool_calls"].empty())
        m.set("tool_calls", pdl::Value::fromJson(message["tool_calls"]));
    return pdl::Value(std::move(m));
}

} // namespace

bool isClientOnlyParameter(std::string_view name)
{
    return std::find(std::begin(kClientOnly), std::end(kClientOnly), name) != std::end(kClientOnly);
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
    ChatResponse response;
    response.message = assistantMessage(choices[0]["message"]);
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
        // Role and separators cost a few tokens per message in every chat template.
        prompt += 4 + (content ? estimateTokens(contentText(*content)) : 0);
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
    const json j = json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    if (!j.is_discarded() && j.is_object()) {
        const json error = j.value("error", json());
        if (error.is_object() && error.contains("message") && error["message"].is_string())
            return QString::fromStdString(error["message"].get<std::string>());
        if (error.is_string())
            return QString::fromStdString(error.get<std::string>());
        if (j.contains("detail"))
            return QString::fromStdString(j["detail"].is_string() ? j["detail"].get<std::string>()
                                                                  : j["detail"].dump());
    }
    QString text = QString::fromUtf8(body).simplified();
    if (text.size() > 200)
        text = text.left(200) + QStringLiteral("…");
    return text.isEmpty() ? QStringLiteral("(empty body)") : text;
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
    if (it == chunk.end() || !it->is_array())
        return delta;
    for (const json& c : *it) {
        if (!c.is_object())
            continue;
        const size_t index = c.value("index", 0);
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
        if (d == c.end() || !d->is_object())
            continue;
        if (d->contains("role") && (*d)["role"].is_string())
            choice.role = (*d)["role"].get<std::string>();
        if (d->contains("content") && (*d)["content"].is_string()) {
            const std::string& text = (*d)["content"].get_ref<const std::string&>();
            choice.content += text;
            if (index == 0)
                delta += text;
        }
        const auto calls = d->find("tool_calls");
        if (calls == d->end() || !calls->is_array())
            continue;
        for (const json& tc : *calls) {
            const size_t ti = tc.value("index", 0);
            if (ti > 1024)
                continue;
            if (choice.toolCalls.size() <= ti)
                choice.toolCalls.resize(ti + 1);
            ToolCall& call = choice.toolCalls[ti];
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
    response.message = assistantMessage(choices[0]["message"]);
    response.content = response.message.asDict().find("content")->asString();
    response.raw = pdl::Value::fromJson(raw);
    if (m_usage.is_object())
        response.usage = usageFrom(m_usage);
    else
        response.usage.estimated = true;
    return response;
}

} // namespace hako::models::openai
