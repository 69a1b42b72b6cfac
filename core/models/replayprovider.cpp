#include "core/models/replayprovider.h"

#include "core/models/openaiprotocol.h"

#include <QFile>

namespace hako::models {

using openai::json;

namespace {

nlohmann::json keyJson(const ChatRequest& request)
{
    ChatRequest bare = request;
    bare.stream = false;
    // nlohmann::json (unordered) sorts object keys, which makes the dump canonical.
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [k, v] : request.parameters) {
        if (k.isString() && !v.isNull() && !v.isUndefined() &&
            !openai::isClientOnlyParameter(k.asString()))
            params[k.asString()] = v.toJson();
    }
    return nlohmann::json{
        {"model", request.model},
        {"messages", nlohmann::json::parse(openai::messagesJson(request.messages).dump())},
        {"parameters", params}};
}

} // namespace

std::string ReplayProvider::requestKey(const ChatRequest& request)
{
    return keyJson(request).dump();
}

pdl::Value ReplayProvider::interaction(const ChatRequest& request, const ChatResponse& response)
{
    json r{{"content", response.content}};
    if (!response.message.isNull())
        r["message"] = response.message.toOrderedJson();
    if (!response.raw.isNull())
        r["raw"] = response.raw.toOrderedJson();
    if (!response.usage.estimated)
        r["usage"] = {{"prompt_tokens", response.usage.promptTokens},
                      {"completion_tokens", response.usage.completionTokens}};
    return pdl::Value::fromJson(
        json{{"request", json::parse(keyJson(request).dump())}, {"response", r}});
}

Result<std::shared_ptr<ReplayProvider>> ReplayProvider::load(const QString& cassetteFile)
{
    QFile file(cassetteFile);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(
            QStringLiteral("cannot read cassette %1: %2").arg(cassetteFile, file.errorString()));
    const QByteArray bytes = file.readAll();
    const json doc =
        json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("interactions") ||
        !doc["interactions"].is_array())
        return makeError(QStringLiteral("%1 is not a cassette (a JSON object with an "
                                        "`interactions` list)")
                             .arg(cassetteFile));
    auto provider = std::make_shared<ReplayProvider>();
    provider->m_file = cassetteFile;
    int index = 0;
    for (const json& item : doc["interactions"]) {
        const json req = item.value("request", json());
        const json resp = item.value("response", json());
        if (!req.is_object() || !resp.is_object() || !resp.contains("content"))
            return makeError(QStringLiteral("%1: interaction %2 needs `request` and "
                                            "`response.content`")
                                 .arg(cassetteFile)
                                 .arg(index));
        ChatRequest key;
        key.model = req.value("model", std::string());
        const pdl::Value messages = pdl::Value::fromJson(req.value("messages", json::array()));
        if (messages.isList())
            key.messages = messages.asList();
        const pdl::Value params = pdl::Value::fromJson(req.value("parameters", json::object()));
        if (params.isDict())
            key.parameters = params.asDict();
        ChatResponse response;
        response.content = resp["content"].is_string() ? resp["content"].get<std::string>()
                                                       : resp["content"].dump();
        response.message = resp.contains("message")
                               ? pdl::Value::fromJson(resp["message"])
                               : pdl::Value(pdl::Dict{{"role", "assistant"},
                                                      {"content", pdl::Value(response.content)}});
        response.raw = resp.contains("raw") ? pdl::Value::fromJson(resp["raw"]) : pdl::Value();
        const json usage = resp.value("usage", json());
        if (usage.is_object()) {
            response.usage.promptTokens = usage.value("prompt_tokens", int64_t(0));
            response.usage.completionTokens = usage.value("completion_tokens", int64_t(0));
        } else {
            response.usage.estimated = true;
            openai::estimateUsageIfMissing(response, key.messages);
        }
        provider->m_replies[requestKey(key)] = response;
        const QString model = QString::fromStdString(key.model);
        if (!provider->m_models.contains(model))
            provider->m_models.append(model);
        ++index;
    }
    return provider;
}

Result<ChatResponse> ReplayProvider::chat(const ChatRequest& request, const DeltaCallback& onDelta,
                                          const CancelToken& cancel)
{
    if (std::optional<ChatResponse> mock = openai::mockReply(request, onDelta))
        return std::move(*mock);
    const std::string key = requestKey(request);
    const auto it = m_replies.find(key);
    if (it == m_replies.end()) {
        QString shown = QString::fromStdString(key);
        if (shown.size() > 400)
            shown = shown.left(400) + QStringLiteral("…");
        return makeError(QStringLiteral("replay: %1 has no recorded reply for model '%2' with "
                                        "this request: %3")
                             .arg(m_file, QString::fromStdString(request.model), shown));
    }
    const ChatResponse& response = it->second;
    if (request.stream && onDelta) {
        const std::string& text = response.content;
        size_t start = 0;
        while (start < text.size() && !cancel.isCancelled()) {
            size_t end = text.find(' ', start + 1);
            if (end == std::string::npos)
                end = text.size();
            onDelta(std::string_view(text).substr(start, end - start));
            start = end;
        }
    }
    if (cancel.isCancelled())
        return makeError(QStringLiteral("replay: model '%1': cancelled")
                             .arg(QString::fromStdString(request.model)));
    return response;
}

Result<std::vector<std::vector<float>>>
ReplayProvider::embed(const std::string& model, const std::vector<std::string>&, const CancelToken&)
{
    return makeError(QStringLiteral("replay: %1 records no embeddings (model '%2')")
                         .arg(m_file, QString::fromStdString(model)));
}

Result<QStringList> ReplayProvider::listModels(const CancelToken&)
{
    return m_models;
}

} // namespace hako::models
