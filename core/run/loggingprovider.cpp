#include "core/run/loggingprovider.h"

#include "core/pdl/valuejson.h"
#include "core/promptlog/callrecord.h"
#include "core/promptlog/privacypolicy.h"
#include "core/promptlog/promptlog.h"
#include "core/util/boundedfile.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>

namespace hako {

namespace {

// What a block's parameters say that the log may keep: never a credential (the log's privacy
// policy would mask it; better not to hand it over at all), nor a mock reply.
QJsonObject loggableParameters(const pdl::Dict& parameters)
{
    QJsonObject out;
    for (const auto& [k, v] : parameters) {
        const QString name = QString::fromStdString(k.isString() ? k.asString() : k.str());
        if (name == QLatin1String("mock_response") ||
            (promptlog::isCredentialName(name) && !v.isInt() && !v.isFloat() && !v.isBool()))
            continue;
        out.insert(name, pdl::toQJsonValue(v));
    }
    return out;
}

const pdl::Value* path(const pdl::Value& v, std::initializer_list<const char*> keys)
{
    const pdl::Value* at = &v;
    for (const char* key : keys) {
        if (at->isList()) {
            if (at->asList().empty())
                return nullptr;
            at = &at->asList().front();
        }
        if (!at->isDict())
            return nullptr;
        at = at->asDict().find(key);
        if (!at)
            return nullptr;
    }
    return at;
}

} // namespace

LoggingModelProvider::LoggingModelProvider(std::shared_ptr<models::IModelProvider> inner,
                                           std::shared_ptr<promptlog::PromptLog> log,
                                           RunLogInfo run,
                                           std::function<QString(const std::string&)> endpointOf)
    : ForwardingModelProvider(std::move(inner)), m_log(std::move(log)), m_run(std::move(run)),
      m_endpointOf(std::move(endpointOf))
{}

Result<models::ChatResponse> LoggingModelProvider::chat(const models::ChatRequest& request,
                                                        const models::DeltaCallback& onDelta,
                                                        const CancelToken& cancel)
{
    const int64_t startedAt = QDateTime::currentMSecsSinceEpoch();
    QElapsedTimer timer;
    timer.start();
    std::optional<double> firstToken;
    auto measured = [&](std::string_view delta) {
        if (!firstToken && !delta.empty())
            firstToken = double(timer.nsecsElapsed()) / 1e6;
        if (onDelta)
            onDelta(delta);
    };
    Result<models::ChatResponse> response = inner()->chat(request, measured, cancel);
    const double latency = double(timer.nsecsElapsed()) / 1e6;

    promptlog::CallRecord call;
    call.runId = m_run.runId;
    call.programPath = m_run.programPath;
    call.programHash = m_run.programHash;
    call.tags = m_run.tags;
    call.inputs = m_run.inputs;
    call.promptName = QString::fromStdString(request.site.promptName);
    call.promptId = QString::fromStdString(request.site.promptId);
    call.programId = QString::fromStdString(request.site.programId);
    call.programName = QString::fromStdString(request.site.programName);
    call.version = m_run.version;
    call.origin = m_run.origin;
    call.span = request.site.span;
    call.traceNodeId = QString::fromStdString(request.site.nodeId);
    call.retries = request.site.attempt;
    call.model = QString::fromStdString(request.model);
    call.endpoint = m_endpointOf ? m_endpointOf(request.model) : QString();
    call.parameters = loggableParameters(request.parameters);
    for (const pdl::Value& m : request.messages) {
        if (!m.isDict()) {
            call.messages.append(pdl::toQJsonValue(m));
            continue;
        }
        pdl::Dict clean = m.asDict();
        clean.remove(pdl::Value("pdl__defsite"));
        call.messages.append(pdl::toQJsonValue(pdl::Value(std::move(clean))));
    }
    call.startedAt = startedAt;
    call.latencyMs = latency;
    call.timeToFirstTokenMs = firstToken ? firstToken : std::optional<double>(latency);
    if (response.ok()) {
        call.status = promptlog::CallStatus::Ok;
        call.resolvedModel = QString::fromStdString(response->resolvedModel);
        call.responseModel = QString::fromStdString(response->servedModel());
        call.reply = QString::fromStdString(response->content);
        if (const pdl::Value* tools = path(response->message, {"tool_calls"}))
            call.toolCalls = pdl::toQJsonValue(*tools).toArray();
        if (const pdl::Value* finish = path(response->raw, {"choices", "finish_reason"});
            finish && finish->isString())
            call.finishReason = QString::fromStdString(finish->asString());
        if (!response->usage.estimated) {
            call.promptTokens = response->usage.promptTokens;
            call.completionTokens = response->usage.completionTokens;
        }
        if (const pdl::Value* cached =
                path(response->raw, {"usage", "prompt_tokens_details", "cached_tokens"});
            cached && cached->isInt())
            call.cachedTokens = cached->asInt();
    } else {
        call.status =
            cancel.isCancelled() ? promptlog::CallStatus::Cancelled : promptlog::CallStatus::Failed;
        call.error = response.error().message;
    }
    m_log->record(std::move(call));
    return response;
}

QString programContentHash(const QString& path)
{
    // Regular files only, up to the usual limit (never blocks on a FIFO or reads a device).
    Result<QByteArray> text = readBoundedFile(path);
    if (!text)
        return {};
    return QString::fromLatin1(QCryptographicHash::hash(*text, QCryptographicHash::Sha256).toHex());
}

QStringList tagsFromEnvironment()
{
    // Split by hand: every `hako run` asks, and a regular expression compiled for an unset
    // variable was a noticeable part of a hello world's start.
    QStringList tags;
    QString tag;
    for (const QChar c : qEnvironmentVariable("HAKO_TAGS")) {
        if (c == QLatin1Char(',') || c.isSpace()) {
            if (!tag.isEmpty())
                tags << std::exchange(tag, QString());
        } else {
            tag += c;
        }
    }
    if (!tag.isEmpty())
        tags << tag;
    return tags;
}

} // namespace hako
