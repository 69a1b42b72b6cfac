#include "openaitestserver.h"

#include <QCryptographicHash>
#include <QHash>
#include <QMutex>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <sys/socket.h>

#include <chrono>
#include <deque>
#include <functional>
#include <map>

namespace hako::testing {

using json = nlohmann::ordered_json;

QByteArray RecordedRequest::header(const QByteArray& lowerName) const
{
    for (const auto& h : headers) {
        if (h.first == lowerName)
            return h.second;
    }
    return {};
}

namespace {

QByteArray dump(const json& j)
{
    return QByteArray::fromStdString(j.dump());
}

json chunkJson(const json& delta, const json& finish)
{
    return json{{"id", "chatcmpl-test"},
                {"object", "chat.completion.chunk"},
                {"created", 1700000000},
                {"model", "test-model"},
                {"choices",
                 json::array({json{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}};
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

} // namespace

ScriptedReply ScriptedReply::chat(const QString& content, int promptTokens, int completionTokens)
{
    json body{
        {"id", "chatcmpl-test"},
        {"object", "chat.completion"},
        {"created", 1700000000},
        {"model", "test-model"},
        {"choices",
         json::array({json{{"index", 0},
                           {"message", {{"role", "assistant"}, {"content", content.toStdString()}}},
                           {"finish_reason", "stop"}}})}};
    if (promptTokens >= 0)
        body["usage"] = {{"prompt_tokens", promptTokens},
                         {"completion_tokens", completionTokens},
                         {"total_tokens", promptTokens + completionTokens}};
    ScriptedReply r;
    r.body = dump(body);
    return r;
}

ScriptedReply ScriptedReply::chatStream(const QStringList& tokens, int promptTokens,
                                        int completionTokens)
{
    ScriptedReply r;
    r.events.append(dump(chunkJson({{"role", "assistant"}, {"content", ""}}, nullptr)));
    for (const QString& t : tokens)
        r.events.append(dump(chunkJson({{"content", t.toStdString()}}, nullptr)));
    r.events.append(dump(chunkJson(json::object(), "stop")));
    if (promptTokens >= 0) {
        const int completion = completionTokens >= 0 ? completionTokens : int(tokens.size());
        json usage = chunkJson(json::object(), nullptr);
        usage["choices"] = json::array();
        usage["usage"] = {{"prompt_tokens", promptTokens},
                          {"completion_tokens", completion},
                          {"total_tokens", promptTokens + completion}};
        r.events.append(dump(usage));
    }
    r.events.append("[DONE]");
    return r;
}

ScriptedReply ScriptedReply::toolCall(const QString& id, const QString& name,
                                      const QString& argumentsJson)
{
    json call{
        {"id", id.toStdString()},
        {"type", "function"},
        {"function", {{"name", name.toStdString()}, {"arguments", argumentsJson.toStdString()}}}};
    json body{
        {"id", "chatcmpl-test"},
        {"object", "chat.completion"},
        {"model", "test-model"},
        {"choices",
         json::array({json{
             {"index", 0},
             {"message",
              {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", json::array({call})}}},
             {"finish_reason", "tool_calls"}}})},
        {"usage", {{"prompt_tokens", 7}, {"completion_tokens", 4}, {"total_tokens", 11}}}};
    ScriptedReply r;
    r.body = dump(body);
    return r;
}

ScriptedReply ScriptedReply::error(int status, const QString& message, int retryAfterSeconds)
{
    ScriptedReply r;
    r.status = status;
    r.body = dump(json{{"error",
                        {{"message", message.toStdString()},
                         {"type", status == 429 ? "rate_limit_error" : "server_error"},
                         {"code", nullptr}}}});
    if (retryAfterSeconds >= 0)
        r.headers.append({"Retry-After", QByteArray::number(retryAfterSeconds)});
    return r;
}

ScriptedReply ScriptedReply::withBody(const QByteArray& body)
{
    ScriptedReply r;
    r.body = body;
    return r;
}

ScriptedReply ScriptedReply::badJson()
{
    ScriptedReply r;
    r.body = "{\"id\": \"chatcmpl-test\", \"choices\": [ {\"message\": ";
    return r;
}

// --- the server, living on its own thread ---------------------------------------------------

struct OpenAiTestServer::Impl : QObject {
    mutable QMutex mutex;
    std::map<QByteArray, std::deque<ScriptedReply>> queues;
    QStringList models;
    QList<RecordedRequest> requests;
    int openConnections = 0;
    int inFlight = 0;
    int peakInFlight = 0;
    int defaultDelayMs = 0;

    QThread thread;
    QTcpServer* server = nullptr; // lives on `thread`
    quint16 port = 0;
    QHash<QTcpSocket*, QByteArray> buffers;

    void onNewConnection()
    {
        while (QTcpSocket* socket = server->nextPendingConnection()) {
            // As real servers do for streaming: no Nagle delay between small event writes.
            socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            {
                QMutexLocker lock(&mutex);
                ++openConnections;
            }
            QObject::connect(socket, &QTcpSocket::readyRead, this,
                             [this, socket] { onReadyRead(socket); });
            QObject::connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
                buffers.remove(socket);
                {
                    QMutexLocker lock(&mutex);
                    --openConnections;
                    // A reply cut short by either side is no longer in flight.
                    if (socket->property("busy").toBool() && inFlight > 0)
                        --inFlight;
                }
                socket->setProperty("busy", false);
                socket->deleteLater();
            });
        }
    }

    void onReadyRead(QTcpSocket* socket)
    {
        QByteArray& buf = buffers[socket];
        buf += socket->readAll();
        // A socket busy sending a delayed or streamed reply keeps its next request buffered.
        if (socket->property("busy").toBool())
            return;
        const qsizetype headerEnd = buf.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        const QList<QByteArray> lines = buf.left(headerEnd).split('\n');
        RecordedRequest req;
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        req.method = requestLine.value(0);
        req.path = requestLine.value(1);
        qsizetype contentLength = 0;
        for (int i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = line.left(colon).trimmed().toLower();
            const QByteArray value = line.mid(colon + 1).trimmed();
            req.headers.append({name, value});
            if (name == "content-length")
                contentLength = value.toLongLong();
        }
        if (buf.size() < headerEnd + 4 + contentLength)
            return;
        req.body = buf.mid(headerEnd + 4, contentLength);
        buf.remove(0, headerEnd + 4 + contentLength);

        ScriptedReply reply;
        {
            QMutexLocker lock(&mutex);
            requests.append(req);
            peakInFlight = std::max(peakInFlight, ++inFlight);
            auto& queue = queues[req.path];
            if (!queue.empty()) {
                reply = queue.front();
                queue.pop_front();
            } else {
                const int delay = defaultDelayMs;
                lock.unlock();
                reply = defaultReply(req);
                if (reply.delayMs == 0)
                    reply.delayMs = delay;
            }
        }
        socket->setProperty("busy", true);
        QPointer<QTcpSocket> guard(socket);
        auto send = [this, guard, reply] {
            if (guard)
                sendReply(guard, reply);
        };
        if (reply.delayMs > 0)
            QTimer::singleShot(reply.delayMs, this, send);
        else
            send();
    }

    ScriptedReply defaultReply(const RecordedRequest& req)
    {
        const json body = json::parse(req.body.toStdString(), nullptr, false);
        QStringList known;
        {
            QMutexLocker lock(&mutex);
            known = models;
        }
        if (req.path.endsWith("/models")) {
            json data = json::array();
            for (const QString& m : known)
                data.push_back(
                    {{"id", m.toStdString()}, {"object", "model"}, {"owned_by", "test"}});
            ScriptedReply r;
            r.body = dump(json{{"object", "list"}, {"data", data}});
            return r;
        }
        if (body.is_discarded() || !body.is_object())
            return ScriptedReply::error(400, QStringLiteral("request body is not JSON"));
        const QString model = QString::fromStdString(body.value("model", std::string()));
        if (!known.isEmpty() && !known.contains(model)) {
            ScriptedReply r;
            r.status = 404;
            r.body =
                dump(json{{"error",
                           {{"message", "The model `" + model.toStdString() +
                                            "` does not exist or you do not have access to it."},
                            {"type", "invalid_request_error"},
                            {"code", "model_not_found"}}}});
            return r;
        }
        if (req.path.endsWith("/embeddings")) {
            json inputs = body.value("input", json::array());
            if (inputs.is_string())
                inputs = json::array({inputs});
            json data = json::array();
            int i = 0;
            for (const auto& text : inputs) {
                const QByteArray hash = QCryptographicHash::hash(
                    QByteArray::fromStdString(text.get<std::string>()), QCryptographicHash::Sha1);
                json vec = json::array();
                for (int k = 0; k < 4; ++k)
                    vec.push_back(double(quint8(hash.at(k))) / 255.0);
                data.push_back({{"object", "embedding"}, {"index", i++}, {"embedding", vec}});
            }
            ScriptedReply r;
            r.body = dump(json{{"object", "list"},
                               {"data", data},
                               {"model", model.toStdString()},
                               {"usage", {{"prompt_tokens", i}, {"total_tokens", i}}}});
            return r;
        }
        if (req.path.endsWith("/chat/completions")) {
            std::string last;
            for (const auto& m : body.value("messages", json::array())) {
                if (m.is_object() && m.value("role", "") == "user" && m.contains("content") &&
                    m["content"].is_string())
                    last = m["content"].get<std::string>();
            }
            const QString text = QStringLiteral("echo: ") + QString::fromStdString(last);
            if (body.value("stream", false)) {
                QStringList tokens;
                const QStringList words = text.split(QLatin1Char(' '));
                for (int w = 0; w < words.size(); ++w)
                    tokens.append(w == 0 ? words.at(w) : QLatin1Char(' ') + words.at(w));
                return ScriptedReply::chatStream(tokens, 5);
            }
            return ScriptedReply::chat(text, 5, int(text.size() / 4 + 1));
        }
        return ScriptedReply::error(404, QStringLiteral("no such endpoint"));
    }

    void sendReply(QTcpSocket* socket, const ScriptedReply& reply)
    {
        if (reply.resetImmediately) {
            // SO_LINGER 0: closing sends a TCP reset instead of a FIN.
            const linger hard{1, 0};
            ::setsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &hard,
                         sizeof hard);
            socket->abort();
            return;
        }
        if (reply.disconnectImmediately) {
            socket->abort();
            return;
        }
        QPointer<QTcpSocket> guard(socket);
        if (!reply.raw.isEmpty()) {
            writeSequence(guard, reply.raw, 0, reply.rawDelayMs, [guard] {
                if (guard)
                    guard->disconnectFromHost();
            });
            return;
        }
        if (reply.hugeBodyBytes >= 0) {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                          QByteArray::number(reply.hugeBodyBytes) + "\r\n\r\n{\"pad\": \"");
            auto left = std::make_shared<qint64>(std::max<qint64>(0, reply.hugeBodyBytes - 9));
            pump(guard, [this, guard, left]() -> QByteArray {
                if (*left <= 0) {
                    finishReply(guard);
                    return {};
                }
                const qint64 n = std::min<qint64>(*left, 64 * 1024);
                *left -= n;
                return QByteArray(n, 'a');
            });
            return;
        }
        QByteArray head = "HTTP/1.1 " + QByteArray::number(reply.status) + ' ' +
                          reasonPhrase(reply.status) + "\r\n";
        for (const auto& h : reply.headers)
            head += h.first + ": " + h.second + "\r\n";
        if (reply.events.isEmpty() && !reply.endless) {
            head += "Content-Type: application/json\r\nContent-Length: " +
                    QByteArray::number(reply.body.size()) + "\r\n\r\n";
            if (reply.dripMs > 0) {
                QList<QByteArray> bytes;
                const QByteArray all = head + reply.body;
                for (const char c : all)
                    bytes.append(QByteArray(1, c));
                writeSequence(guard, bytes, 0, reply.dripMs, [this, guard] {
                    if (guard)
                        finishReply(guard);
                });
                return;
            }
            socket->write(head + reply.body);
            finishReply(socket);
            return;
        }
        head += "Content-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                "Transfer-Encoding: chunked\r\n\r\n";
        socket->write(head);
        socket->flush();
        if (reply.splitEventsBytes > 0) {
            QList<QByteArray> pieces;
            for (const QByteArray& event : reply.events) {
                const QByteArray data = "data: " + event + "\n\n";
                for (qsizetype at = 0; at < data.size(); at += reply.splitEventsBytes) {
                    const QByteArray piece = data.mid(at, reply.splitEventsBytes);
                    pieces.append(QByteArray::number(piece.size(), 16) + "\r\n" + piece + "\r\n");
                }
            }
            pieces.append("0\r\n\r\n");
            writeSequence(guard, pieces, 0, std::max(1, reply.eventDelayMs), [this, guard] {
                if (guard)
                    finishReply(guard);
            });
            return;
        }
        sendEvents(guard, reply, 0);
    }

    /// Writes `pieces[i…]`, each flushed on its own, `delayMs` apart, then calls `done`.
    void writeSequence(QPointer<QTcpSocket> socket, const QList<QByteArray>& pieces, int i,
                       int delayMs, const std::function<void()>& done)
    {
        for (; i < pieces.size(); ++i) {
            if (!socket)
                return;
            socket->write(pieces.at(i));
            socket->flush();
            if (delayMs > 0 && i + 1 < pieces.size()) {
                QTimer::singleShot(delayMs, this, [this, socket, pieces, i, delayMs, done] {
                    writeSequence(socket, pieces, i + 1, delayMs, done);
                });
                return;
            }
        }
        done();
    }

    /// Writes what `next` gives whenever the socket's send buffer runs low, until it gives
    /// nothing or the client goes away: as fast as the client reads, never faster (the server
    /// must not buffer gigabytes for a client that stopped reading).
    void pump(QPointer<QTcpSocket> socket, const std::function<QByteArray()>& next)
    {
        auto refill = [socket, next] {
            while (socket && socket->state() == QAbstractSocket::ConnectedState &&
                   socket->bytesToWrite() < 512 * 1024) {
                const QByteArray data = next();
                if (data.isEmpty()) {
                    QObject::disconnect(socket, &QTcpSocket::bytesWritten, nullptr, nullptr);
                    return;
                }
                socket->write(data);
            }
        };
        QObject::connect(socket, &QTcpSocket::bytesWritten, this, refill);
        refill();
    }

    void sendEvents(QPointer<QTcpSocket> socket, const ScriptedReply& reply, int from)
    {
        for (int i = from; i < reply.events.size(); ++i) {
            if (!socket)
                return;
            if (i > from && reply.eventDelayMs > 0) {
                QTimer::singleShot(reply.eventDelayMs, this,
                                   [this, socket, reply, i] { sendEvents(socket, reply, i); });
                return;
            }
            const QByteArray data = "data: " + reply.events.at(i) + "\n\n";
            socket->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
            socket->flush();
            if (reply.eventWrittenNs)
                reply.eventWrittenNs->store(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                std::chrono::steady_clock::now().time_since_epoch())
                                                .count());
        }
        if (!socket)
            return;
        if (reply.endless) {
            const QByteArray event = !reply.endlessEvent.isEmpty()
                                         ? reply.endlessEvent
                                         : dump(chunkJson({{"content", "and again "}}, nullptr));
            const QByteArray data = "data: " + event + "\n\n";
            QByteArray block;
            while (block.size() < 64 * 1024)
                block += QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
            pump(socket, [block] { return block; });
            return;
        }
        if (reply.disconnectAfterEvents) {
            socket->flush();
            socket->disconnectFromHost();
            return;
        }
        socket->write("0\r\n\r\n");
        finishReply(socket);
    }

    void finishReply(QTcpSocket* socket)
    {
        socket->flush();
        if (socket->property("busy").toBool()) {
            QMutexLocker lock(&mutex);
            if (inFlight > 0)
                --inFlight;
        }
        socket->setProperty("busy", false);
        if (buffers.value(socket).contains("\r\n\r\n"))
            QMetaObject::invokeMethod(
                this,
                [this, s = QPointer<QTcpSocket>(socket)] {
                    if (s)
                        onReadyRead(s);
                },
                Qt::QueuedConnection);
    }
};

OpenAiTestServer::OpenAiTestServer() : d(std::make_unique<Impl>())
{
    d->moveToThread(&d->thread);
    d->thread.start();
}

OpenAiTestServer::~OpenAiTestServer()
{
    QMetaObject::invokeMethod(
        d.get(),
        [this] {
            delete d->server;
            d->server = nullptr;
            for (QTcpSocket* s : d->buffers.keys())
                s->abort();
        },
        Qt::BlockingQueuedConnection);
    d->thread.quit();
    d->thread.wait();
}

bool OpenAiTestServer::start()
{
    bool ok = false;
    QMetaObject::invokeMethod(
        d.get(),
        [this, &ok] {
            d->server = new QTcpServer;
            QObject::connect(d->server, &QTcpServer::newConnection, d.get(),
                             [this] { d->onNewConnection(); });
            ok = d->server->listen(QHostAddress::LocalHost, 0);
            d->port = d->server->serverPort();
        },
        Qt::BlockingQueuedConnection);
    return ok;
}

quint16 OpenAiTestServer::port() const
{
    return d->port;
}

QString OpenAiTestServer::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1/v1").arg(d->port);
}

void OpenAiTestServer::enqueue(const QByteArray& path, const ScriptedReply& reply)
{
    QMutexLocker lock(&d->mutex);
    d->queues[path].push_back(reply);
}

void OpenAiTestServer::setModels(const QStringList& models)
{
    QMutexLocker lock(&d->mutex);
    d->models = models;
}

QList<RecordedRequest> OpenAiTestServer::requests() const
{
    QMutexLocker lock(&d->mutex);
    return d->requests;
}

int OpenAiTestServer::requestCount() const
{
    QMutexLocker lock(&d->mutex);
    return int(d->requests.size());
}

void OpenAiTestServer::clearRequests()
{
    QMutexLocker lock(&d->mutex);
    d->requests.clear();
}

int OpenAiTestServer::openConnections() const
{
    QMutexLocker lock(&d->mutex);
    return d->openConnections;
}

int OpenAiTestServer::requestsInFlight() const
{
    QMutexLocker lock(&d->mutex);
    return d->inFlight;
}

int OpenAiTestServer::peakRequestsInFlight() const
{
    QMutexLocker lock(&d->mutex);
    return d->peakInFlight;
}

void OpenAiTestServer::resetPeakInFlight()
{
    QMutexLocker lock(&d->mutex);
    d->peakInFlight = d->inFlight;
}

void OpenAiTestServer::setDefaultDelayMs(int delayMs)
{
    QMutexLocker lock(&d->mutex);
    d->defaultDelayMs = delayMs;
}

} // namespace hako::testing
