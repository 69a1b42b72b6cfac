#include "core/models/openaiprovider.h"

#include "core/models/httptransport.h"
#include "core/models/openaiprotocol.h"
#include "core/models/sseparser.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QRandomGenerator>
#include <QUrlQuery>

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <thread>

namespace hako::models {

using openai::json;

struct OpenAiProvider::Call {
    EndpointConfig endpoint;
    QString model; ///< empty for calls that are not about one model
    QString path;  ///< `chat/completions`, `embeddings`, `models`
    QByteArray verb = "POST";
    QByteArray body;
    /// The block's `parameters.extra_headers`, sent after Hako's own headers.
    QList<QPair<QByteArray, QByteArray>> extraHeaders;
    bool stream = false;
    /// The reply came as an event stream (false when a server ignored `stream: true` and sent
    /// one JSON body, which is then read as such).
    bool eventStream = false;
    const DeltaCallback* onDelta = nullptr;
    openai::StreamAccumulator accumulator;

    QUrl url() const
    {
        QString base = endpoint.baseUrl;
        while (base.endsWith(QLatin1Char('/')))
            base.chop(1);
        // `/tokenize` and the like live at the server's root, beside its `/v1`.
        if (path.startsWith(QLatin1Char('/'))) {
            if (base.endsWith(QLatin1String("/v1")))
                base.chop(3);
            return QUrl(base + path);
        }
        if (!endpoint.azure)
            return QUrl(base + QLatin1Char('/') + path);
        const QString tail =
            path == QLatin1String("models")
                ? QStringLiteral("/openai/models")
                : QString(QStringLiteral("/openai/deployments/") + model + QLatin1Char('/') + path);
        QUrl url(base + tail);
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("api-version"), endpoint.apiVersion);
        url.setQuery(query);
        return url;
    }

    QString where() const
    {
        const QString at = QStringLiteral("%1 (%2)").arg(endpoint.name, endpoint.baseUrl);
        return model.isEmpty() ? QStringLiteral("endpoint %1").arg(at)
                               : QStringLiteral("model '%1' at %2").arg(model, at);
    }

    Diagnostic error(const QString& what) const
    {
        return makeError(openai::printable(
            openai::redact(where() + QStringLiteral(": ") + what, endpoint.apiKey)));
    }

    /// The HTTP request: URL, body, timeouts and headers (content type, accept, the key).
    HttpTransport::Request request() const;
    /// How long to wait before retry `attempt` (Retry-After, else backoff with jitter).
    int retryDelayMs(const HttpExchange& ex, int attempt) const;
    /// Why a finished exchange is not a usable reply (timeouts, connection, HTTP errors,
    /// redirects, a truncated stream), or nothing when it is one.
    std::optional<Diagnostic> failure(const HttpExchange& ex, int status, int attempt,
                                      const QByteArray& body) const;
    /// The call's deadline passed.
    Diagnostic deadlineError() const;
};

namespace {

bool isRetryable(int status)
{
    return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

/// Milliseconds the server asks us to wait, or -1.
int retryAfterMs(const HttpExchange& ex)
{
    bool ok = false;
    const QByteArray ms = ex.header("retry-after-ms").trimmed();
    if (!ms.isEmpty()) {
        const double v = ms.toDouble(&ok);
        if (ok && v >= 0)
            return int(v);
    }
    const QByteArray ra = ex.header("retry-after").trimmed();
    if (ra.isEmpty())
        return -1;
    const double seconds = ra.toDouble(&ok);
    if (ok && seconds >= 0)
        return int(seconds * 1000);
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(ra), Qt::RFC2822Date);
    if (when.isValid())
        return int(std::max<qint64>(0, QDateTime::currentDateTimeUtc().msecsTo(when)));
    return -1;
}

bool sleepUnlessCancelled(int ms, const CancelToken& cancel)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until) {
        if (cancel.isCancelled())
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return !cancel.isCancelled();
}

QString seconds(int ms)
{
    return QString::number(ms / 1000.0, 'g', 3);
}

/// Transport errors that mean no connection to the server was made.
bool isConnectError(QNetworkReply::NetworkError e)
{
    switch (e) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::SslHandshakeFailedError:
    case QNetworkReply::UnknownNetworkError:
        return true;
    default:
        return false;
    }
}

/// Same address, ignoring trailing slashes and letter case in scheme and host.
bool sameEndpoint(const QString& a, const QString& b)
{
    auto norm = [](QString s) {
        while (s.endsWith(QLatin1Char('/')))
            s.chop(1);
        QUrl u(s);
        return u.isValid() ? u.adjusted(QUrl::NormalizePathSegments).toString() : s;
    };
    return norm(a) == norm(b);
}

} // namespace

OpenAiProvider::OpenAiProvider(EndpointConfig config)
    : m_config(std::move(config)), m_transport(std::make_unique<HttpTransport>())
{
    m_embedCache.setMaxCost(std::max(1, m_config.embedCacheEntries));
}

OpenAiProvider::~OpenAiProvider() = default;

Diagnostic OpenAiProvider::Call::deadlineError() const
{
    return error(QStringLiteral("no complete reply within %1 s (the call's deadline; "
                                "`deadline:` in hako-models.yaml sets it)")
                     .arg(seconds(endpoint.deadlineMs)));
}

HttpTransport::Request OpenAiProvider::Call::request() const
{
    HttpTransport::Request request;
    request.url = url();
    request.verb = verb;
    request.body = body;
    request.connectTimeoutMs = endpoint.connectTimeoutMs;
    request.idleTimeoutMs = endpoint.idleTimeoutMs;
    if (!body.isNull())
        request.headers.append(
            qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    request.headers.append(qMakePair(
        QByteArray("Accept"), QByteArray(stream ? "text/event-stream" : "application/json")));
    if (!endpoint.apiKey.isEmpty()) {
        if (endpoint.azure)
            request.headers.append({QByteArray("api-key"), endpoint.apiKey.toUtf8()});
        else
            request.headers.append(
                {QByteArray("Authorization"), QByteArray("Bearer " + endpoint.apiKey.toUtf8())});
    }

    request.headers.append(extraHeaders);
    return request;
}

int OpenAiProvider::Call::retryDelayMs(const HttpExchange& ex, int attempt) const
{
    int delay = retryAfterMs(ex);
    if (delay < 0) {
        const double backoff = endpoint.retryBaseDelayMs * double(1 << attempt);
        // Full jitter in [50%, 100%] keeps parallel callers from retrying in lockstep.
        delay = int(std::min<double>(endpoint.retryMaxDelayMs, backoff) *
                    (0.5 + 0.5 * QRandomGenerator::global()->generateDouble()));
    }
    return std::min(delay, endpoint.retryMaxDelayMs);
}

std::optional<Diagnostic> OpenAiProvider::Call::failure(const HttpExchange& ex, int status,
                                                        int attempt, const QByteArray& body) const
{
    const QNetworkReply::NetworkError netError = ex.error();
    const QString timedOut = ex.timedOut();
    if (timedOut == QLatin1String("connect"))
        return error(
            QCoreApplication::translate("hako::models::OpenAiProvider",
                                        "could not connect within %1 s (connect timeout). %2")
                .arg(seconds(endpoint.connectTimeoutMs), endpoint.configHint));
    if (timedOut == QLatin1String("idle"))
        return error(QStringLiteral("the server sent nothing for %1 s (idle timeout)")
                         .arg(seconds(endpoint.idleTimeoutMs)));
    if (timedOut == QLatin1String("deadline"))
        return deadlineError();
    if (timedOut == QLatin1String("size"))
        return error(
            QStringLiteral("the reply is larger than %1 MB%2 and was stopped "
                           "(`max_reply_mb:` in hako-models.yaml sets the "
                           "limit)")
                .arg(QString::number(double(endpoint.maxReplyBytes) / (1024 * 1024), 'g', 4))
                .arg(stream ? QStringLiteral(" (a stream that does not "
                                             "end)")
                            : QString()));
    if (status <= 0 && isConnectError(netError)) {
        return error(
            QCoreApplication::translate("hako::models::OpenAiProvider", "cannot connect: %1. %2")
                .arg(ex.errorString(), endpoint.configHint));
    }
    if (status <= 0) {
        // The request may have reached the server: sending it again could run (and bill)
        // it twice, so it is not re-sent.
        return error(QStringLiteral("no valid HTTP reply (%1); the request was not sent "
                                    "again")
                         .arg(ex.errorString()));
    }
    if (status >= 400) {
        QString what =
            QStringLiteral("HTTP %1: %2").arg(status).arg(openai::errorMessageFromBody(body));
        if (isRetryable(status) && attempt > 0)
            what += QStringLiteral(" (after %1 retries)").arg(attempt);
        if (status == 404 && !model.isEmpty())
            what += QStringLiteral(". Check the model name; `hako models` lists the models "
                                   "this endpoint serves");
        if (status == 401 || status == 403)
            what += QStringLiteral(". Check the API key. %1").arg(endpoint.configHint);
        return error(what);
    }
    if (status >= 300)
        return error(QStringLiteral("HTTP %1 redirect to %2 not followed; set the "
                                    "endpoint's address to the final URL")
                         .arg(status)
                         .arg(QString::fromUtf8(ex.header("location"))));
    if (netError != QNetworkReply::NoError)
        return error(QStringLiteral("the connection dropped before the reply was complete (%1)")
                         .arg(ex.errorString()));
    return std::nullopt;
}

Result<QByteArray> OpenAiProvider::send(Call& call, const CancelToken& cancel)
{
    HttpTransport::Request request = call.request();

    bool deltaDelivered = false;
    using Clock = std::chrono::steady_clock;
    const Clock::time_point deadline =
        Clock::now() + std::chrono::milliseconds(std::max(1, call.endpoint.deadlineMs));
    auto remainingMs = [&] {
        return int(
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
    };
    for (int attempt = 0;; ++attempt) {
        if (cancel.isCancelled())
            return call.error(QStringLiteral("cancelled"));
        if (remainingMs() <= 0)
            return call.deadlineError();
        request.deadlineMs = remainingMs();
        request.maxReplyBytes = call.endpoint.maxReplyBytes;
        const std::shared_ptr<HttpExchange> ex = m_transport->start(request);
        QByteArray body;
        QByteArray chunk;
        int status = -1;
        std::optional<Diagnostic> streamError;
        call.accumulator = openai::StreamAccumulator();
        call.eventStream = false;
        // The key may arrive split across events; deltas pass through a redactor that holds
        // back what could be its start.
        openai::StreamRedactor redactor(call.endpoint.apiKey);
        SseParser sse([&](const QByteArray& data) {
            if (streamError)
                return;
            Result<std::string> delta = call.accumulator.feed(data);
            if (!delta) {
                streamError = call.error(delta.error().message);
                return;
            }
            const std::string safe = redactor.feed(*delta);
            if (!safe.empty() && call.onDelta && *call.onDelta) {
                deltaDelivered = true;
                (*call.onDelta)(safe);
            }
        });
        for (;;) {
            const HttpExchange::Event event = ex->next(chunk, cancel);
            if (event == HttpExchange::Event::Cancelled) {
                m_transport->abort(ex);
                return call.error(QStringLiteral("cancelled"));
            }
            if (event == HttpExchange::Event::Finished)
                break;
            if (status < 0) {
                status = ex->status();
                call.eventStream =
                    call.stream && status >= 200 && status < 300 &&
                    !ex->header("content-type").toLower().contains("application/json");
            }
            if (call.eventStream) {
                sse.feed(chunk);
                if (streamError) {
                    m_transport->abort(ex);
                    return *streamError;
                }
            } else {
                body += chunk;
            }
        }
        status = ex->status();
        body = openai::redact(body, call.endpoint.apiKey);
        if (isRetryable(status) && attempt < call.endpoint.maxRetries && !deltaDelivered) {
            const int delay = call.retryDelayMs(*ex, attempt);
            if (delay >= remainingMs())
                return call.deadlineError();
            if (call.endpoint.onRetry)
                call.endpoint.onRetry(attempt, status, delay);
            if (!sleepUnlessCancelled(delay, cancel))
                return call.error(QStringLiteral("cancelled"));
            continue;
        }
        if (std::optional<Diagnostic> failed = call.failure(*ex, status, attempt, body))
            return *failed;
        if (call.eventStream) {
            if (sse.hasPartialEvent() || !call.accumulator.complete())
                return call.error(QStringLiteral(
                    "the streamed reply ended before it was complete (truncated event stream)"));
            const std::string rest = redactor.finish();
            if (!rest.empty() && call.onDelta && *call.onDelta)
                (*call.onDelta)(rest);
        }
        return body;
    }
}

Result<ChatResponse> OpenAiProvider::chat(const ChatRequest& request, const DeltaCallback& onDelta,
                                          const CancelToken& cancel)
{
    if (std::optional<ChatResponse> mock = openai::mockReply(request, onDelta))
        return std::move(*mock);
    Call call;
    call.endpoint = m_config;
    const pdl::Dict& p = request.parameters;
    for (const char* key : {"base_url", "api_base"}) {
        if (const pdl::Value* v = p.find(key); v && v->isString() && !v->asString().empty()) {
            const QString url = QString::fromStdString(v->asString());
            // The configured key belongs to the configured address: a program that names
            // another server must bring that server's key.
            if (!sameEndpoint(url, m_config.baseUrl)) {
                call.endpoint.apiKey.clear();
                call.endpoint.configHint =
                    QStringLiteral("This block's parameters.base_url is not the configured "
                                   "endpoint, so no configured key is sent there; give "
                                   "parameters.api_key for it.");
            }
            call.endpoint.baseUrl = url;
        }
    }
    if (const pdl::Value* v = p.find("api_key"); v && v->isString())
        call.endpoint.apiKey = QString::fromStdString(v->asString());
    if (const pdl::Value* v = p.find("api_version"); v && v->isString())
        call.endpoint.apiVersion = QString::fromStdString(v->asString());
    call.model = QString::fromStdString(request.model);
    call.path = QStringLiteral("chat/completions");
    call.body = QByteArray::fromStdString(openai::chatBody(request.model, request).dump());
    call.extraHeaders = openai::extraHeaders(p);
    call.stream = request.stream;
    call.onDelta = &onDelta;
    Result<QByteArray> body = send(call, cancel);
    if (!body)
        return body.error();
    Result<ChatResponse> response = call.eventStream
                                        ? Result<ChatResponse>(call.accumulator.result())
                                        : openai::parseChatReply(*body);
    if (!response)
        return call.error(response.error().message);
    openai::redactResponse(response.value(), call.endpoint.apiKey);
    // A server that ignores `stream: true` answers with one JSON body: its text is the one
    // delta, so that streaming callers still see the reply.
    if (call.stream && !call.eventStream && !response->content.empty() && onDelta)
        onDelta(response->content);
    openai::estimateUsageIfMissing(response.value(), request.messages);
    return response;
}

Result<std::vector<std::vector<float>>> OpenAiProvider::embed(const std::string& model,
                                                              const std::vector<std::string>& texts,
                                                              const CancelToken& cancel)
{
    std::vector<std::vector<float>> vectors(texts.size());
    std::vector<QByteArray> keys(texts.size());
    std::vector<size_t> missing;
    {
        std::lock_guard lock(m_cacheMutex);
        for (size_t i = 0; i < texts.size(); ++i) {
            keys[i] = QByteArray::fromStdString(model) + '\0' +
                      QCryptographicHash::hash(QByteArray::fromStdString(texts[i]),
                                               QCryptographicHash::Sha256);
            if (const std::vector<float>* cached = m_embedCache.object(keys[i])) {
                vectors[i] = *cached;
                ++m_cacheHits;
            } else {
                missing.push_back(i);
            }
        }
    }
    const size_t batch = size_t(std::max(1, m_config.embedBatchSize));
    for (size_t start = 0; start < missing.size(); start += batch) {
        const size_t end = std::min(missing.size(), start + batch);
        json input = json::array();
        for (size_t k = start; k < end; ++k)
            input.push_back(texts[missing[k]]);
        Call call;
        call.endpoint = m_config;
        call.model = QString::fromStdString(model);
        call.path = QStringLiteral("embeddings");
        call.body = QByteArray::fromStdString(
            json{{"model", model}, {"input", input}, {"encoding_format", "float"}}.dump());
        Result<QByteArray> body = send(call, cancel);
        if (!body)
            return body.error();
        const json reply =
            json::parse(body->constData(), body->constData() + body->size(), nullptr, false);
        if (reply.is_discarded() || !reply.is_object() || !reply.contains("data") ||
            !reply["data"].is_array())
            return call.error(QStringLiteral("the embeddings reply is not a JSON object with "
                                             "`data`: %1")
                                  .arg(openai::errorMessageFromBody(*body)));
        const json& data = reply["data"];
        if (data.size() != end - start)
            return call.error(QStringLiteral("asked for %1 embeddings, got %2")
                                  .arg(end - start)
                                  .arg(data.size()));
        std::vector<bool> seen(end - start, false);
        for (size_t position = 0; position < data.size(); ++position) {
            const json& item = data[position];
            if (!item.is_object())
                return call.error(QStringLiteral("data[%1] of the embeddings reply is a %2, "
                                                 "expected an object with `embedding`")
                                      .arg(position)
                                      .arg(QLatin1String(item.type_name())));
            size_t index = position;
            if (const auto i = item.find("index"); i != item.end() && !i->is_null()) {
                if (!i->is_number_integer() || i->get<int64_t>() < 0 ||
                    size_t(i->get<int64_t>()) >= end - start)
                    return call.error(QStringLiteral("data[%1].index of the embeddings reply is "
                                                     "%2, expected an integer from 0 to %3")
                                          .arg(position)
                                          .arg(QString::fromStdString(i->dump()))
                                          .arg(end - start - 1));
                index = size_t(i->get<int64_t>());
            }
            if (seen[index])
                return call.error(
                    QStringLiteral("the embeddings reply holds index %1 twice").arg(index));
            seen[index] = true;
            const auto e = item.find("embedding");
            if (e == item.end() || !e->is_array() || e->empty())
                return call.error(QStringLiteral("data[%1].embedding of the embeddings reply is "
                                                 "not a list of numbers")
                                      .arg(position));
            std::vector<float> v;
            v.reserve(e->size());
            double norm = 0;
            for (const json& x : *e) {
                if (!x.is_number())
                    return call.error(QStringLiteral("data[%1].embedding holds a %2, expected "
                                                     "numbers")
                                          .arg(position)
                                          .arg(QLatin1String(x.type_name())));
                const double d = x.get<double>();
                norm += d * d;
                v.push_back(float(d));
            }
            // Scores are cosines: a value a float cannot hold (or whose square cannot) would
            // make them nan.
            if (!std::isfinite(norm) || norm > double(std::numeric_limits<float>::max()))
                return call.error(QStringLiteral("data[%1].embedding holds numbers too large for "
                                                 "a similarity score")
                                      .arg(position));
            const size_t target = missing[start + index];
            vectors[target] = std::move(v);
            std::lock_guard lock(m_cacheMutex);
            m_embedCache.insert(keys[target], new std::vector<float>(vectors[target]));
        }
    }
    return vectors;
}

Result<QStringList> OpenAiProvider::listModels(const CancelToken& cancel)
{
    Call call;
    call.endpoint = m_config;
    call.path = QStringLiteral("models");
    call.verb = "GET";
    Result<QByteArray> body = send(call, cancel);
    if (!body)
        return body.error();
    const json reply =
        json::parse(body->constData(), body->constData() + body->size(), nullptr, false);
    const json data = reply.is_object() ? reply.value("data", json()) : json();
    if (!data.is_array())
        return call.error(QStringLiteral("the model list is not a JSON object with `data`: %1")
                              .arg(openai::errorMessageFromBody(*body)));
    QStringList names;
    for (const json& m : data) {
        if (m.is_object() && m.contains("id") && m["id"].is_string())
            names.append(QString::fromStdString(m["id"].get<std::string>()));
    }
    return names;
}

Result<int> OpenAiProvider::countTokens(const std::string& model, const QString& text,
                                        const CancelToken& cancel)
{
    Call call;
    call.endpoint = m_config;
    call.endpoint.maxRetries = 0;
    call.endpoint.connectTimeoutMs = std::min(call.endpoint.connectTimeoutMs, 3000);
    call.endpoint.idleTimeoutMs = std::min(call.endpoint.idleTimeoutMs, 5000);
    call.endpoint.deadlineMs = std::min(call.endpoint.deadlineMs, 8000);
    call.endpoint.maxReplyBytes = std::min<qint64>(call.endpoint.maxReplyBytes, 16 * 1024 * 1024);
    call.model = QString::fromStdString(model);
    call.path = QStringLiteral("/tokenize");
    // Both servers' field names: llama.cpp reads `content`, vLLM `model` and `prompt`.
    const std::string utf8 = text.toStdString();
    call.body = QByteArray::fromStdString(
        json{{"model", model}, {"prompt", utf8}, {"content", utf8}, {"add_special_tokens", false}}
            .dump());
    Result<QByteArray> body = send(call, cancel);
    if (!body)
        return body.error();
    const json reply =
        json::parse(body->constData(), body->constData() + body->size(), nullptr, false);
    if (reply.is_object()) {
        if (reply.contains("count") && reply["count"].is_number_integer() &&
            reply["count"].get<long long>() >= 0)
            return int(std::min<long long>(reply["count"].get<long long>(),
                                           std::numeric_limits<int>::max()));
        if (reply.contains("tokens") && reply["tokens"].is_array())
            return int(reply["tokens"].size());
    }
    return call.error(QStringLiteral("the tokenizer's reply has neither `count` nor `tokens`"));
}

int OpenAiProvider::embedCacheHits() const
{
    std::lock_guard lock(m_cacheMutex);
    return m_cacheHits;
}

} // namespace hako::models
