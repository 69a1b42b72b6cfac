// libhako_net, the server half: HttpServer's listening socket and connections (QtNetwork), loaded
// by HttpServer::start() so that a process that never serves does not load QtNetwork.
#include "core/util/httpmessagereader.h"
#include "core/util/httpserver.h"
#include "core/util/httpserverengine_p.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <sys/socket.h>

#include <algorithm>
#include <memory>

namespace hako {

namespace {

/// "localhost" is the IPv4 loopback address, as it always was for Hako's servers.
QHostAddress hostAddress(const QString& text)
{
    if (text.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return QHostAddress(QHostAddress::LocalHost);
    return QHostAddress(text);
}

HttpResponse defaultError(int status, const QByteArray& message, const HttpRequest&)
{
    HttpResponse r;
    r.status = status;
    r.body = QJsonDocument(QJsonObject{{QStringLiteral("error"), QString::fromUtf8(message)}})
                 .toJson(QJsonDocument::Compact);
    r.message = message;
    return r;
}

} // namespace

class HttpServerWorker : public HttpServerEngine {
public:
    explicit HttpServerWorker(HttpServer* owner) : m_owner(owner), m_options(owner->m_options) {}

    Result<quint16> listen() override
    {
        m_server = new QTcpServer(this);
        const QHostAddress address = hostAddress(m_options.address);
        if (address.isNull())
            return makeError(
                QStringLiteral("cannot listen on %1: not an IP address").arg(m_options.address));
        if (!m_server->listen(address, m_options.port))
            return makeError(QStringLiteral("cannot listen on %1:%2: %3")
                                 .arg(m_options.address)
                                 .arg(m_options.port)
                                 .arg(m_server->errorString()));
        QObject::connect(m_server, &QTcpServer::newConnection, this, [this] { accept(); });
        m_idleTimer = new QTimer(this);
        const int shortest =
            std::min({m_options.idleTimeoutMs, m_options.headTimeoutMs, m_options.bodyGraceMs});
        m_idleTimer->setInterval(std::clamp(shortest / 4, 50, 1000));
        QObject::connect(m_idleTimer, &QTimer::timeout, this, [this] { closeIdle(); });
        m_idleTimer->start();
        return m_server->serverPort();
    }

    void shutdown() override
    {
        if (m_server)
            m_server->close();
        // abort() emits disconnected(), whose handler edits m_conns: take the map first.
        auto conns = std::move(m_conns);
        m_conns.clear();
        for (auto& [socket, conn] : conns) {
            socket->disconnect(this);
            socket->abort();
            socket->deleteLater();
        }
    }

private:
    struct Conn {
        explicit Conn(HttpMessageReader r) : reader(std::move(r)) {}
        HttpMessageReader reader;
        bool discard = false; ///< answered and closing: what still arrives is dropped
        QElapsedTimer idle;   ///< since the last byte
        QElapsedTimer phase;  ///< since the head's first byte, or since the head (a body)
        qint64 bodyBytes = 0; ///< of the body being read, received so far (framing included)
        HttpRequest request;
        bool close = false;
        bool readingBody() const
        {
            return !discard && reader.state() == HttpMessageReader::State::Body;
        }
    };

    HttpMessageReader newReader() const
    {
        HttpReaderLimits limits;
        limits.maxChunkLineBytes = 1024;
        limits.maxBodyBytes = m_options.maxBodyBytes;
        return HttpMessageReader(HttpMessageReader::Kind::Request, limits);
    }

    void accept()
    {
        while (QTcpSocket* s = m_server->nextPendingConnection()) {
            if (int(m_conns.size()) >= m_options.maxConnections)
                evictOne();
            if (int(m_conns.size()) >= m_options.maxConnections) {
                s->write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                         "Connection: close\r\n\r\n");
                s->disconnectFromHost();
                QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                continue;
            }
            s->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            Conn& c = m_conns.emplace(s, Conn(newReader())).first->second;
            c.idle.start();
            c.phase.start();
            QObject::connect(s, &QTcpSocket::readyRead, this, [this, s] { read(s); });
            QObject::connect(s, &QTcpSocket::disconnected, this, [this, s] {
                m_conns.erase(s);
                s->deleteLater();
            });
        }
    }

    // Every slot is taken: the connection quiet longest among those not sending a body (idle
    // between requests, sending a head slowly, or being closed) gives its slot up, so that
    // slow or idle clients cannot keep a real one out. Nothing is given up while every
    // connection is receiving a body (the deadlines close the slow ones among them).
    void evictOne()
    {
        QTcpSocket* victim = nullptr;
        qint64 quietest = -1;
        for (auto& [socket, conn] : m_conns) {
            if (conn.readingBody())
                continue;
            // Connections already being closed go first.
            const qint64 quiet = conn.idle.elapsed() + (conn.discard ? (qint64(1) << 40) : 0);
            if (quiet > quietest) {
                quietest = quiet;
                victim = socket;
            }
        }
        if (!victim)
            return;
        m_conns.erase(victim);
        victim->disconnect(this);
        victim->abort();
        victim->deleteLater();
    }

    void respond(QTcpSocket* s, Conn& c, const HttpResponse& r)
    {
        QByteArray head = "HTTP/1.1 " + QByteArray::number(r.status) + ' ' +
                          HttpServer::reason(r.status) + "\r\nContent-Type: " + r.contentType +
                          "\r\nContent-Length: " + QByteArray::number(r.body.size()) + "\r\n";
        for (const QByteArray& h : r.headers)
            if (!h.contains('\r') && !h.contains('\n'))
                head += h + "\r\n";
        if (c.close)
            head += "Connection: close\r\n";
        s->write(head + "\r\n" + r.body);
        if (r.status >= 300)
            Q_EMIT m_owner->requestRejected(r.status, QString::fromUtf8(r.message));
        if (c.close) {
            c.discard = true;
            lingeringClose(s);
        }
    }

    // Closing a connection the client is still writing to (a refused upload) with its data
    // unread makes the kernel reset it, and the client can lose the response it was sent. So
    // the response goes out, the write side is shut (the client reads it, then end of stream),
    // and what the client still sends is read and dropped (Discard) until it closes — for at
    // most two seconds, then the connection is cut.
    static void lingeringClose(QTcpSocket* s)
    {
        auto shutWrite = [s] {
            if (s->bytesToWrite() > 0 || s->state() != QAbstractSocket::ConnectedState)
                return false;
            ::shutdown(int(s->socketDescriptor()), SHUT_WR);
            return true;
        };
        s->flush();
        if (!shutWrite()) {
            auto conn = std::make_shared<QMetaObject::Connection>();
            *conn = QObject::connect(s, &QTcpSocket::bytesWritten, s, [shutWrite, conn] {
                if (shutWrite())
                    QObject::disconnect(*conn);
            });
        }
        QTimer::singleShot(2000, s, [s] { s->abort(); });
    }

    void fail(QTcpSocket* s, Conn& c, int status, const QByteArray& message)
    {
        c.close = true;
        HttpResponse r = m_owner->m_errorFormat ? m_owner->m_errorFormat(status, message, c.request)
                                                : defaultError(status, message, c.request);
        r.status = status;
        if (r.message.isEmpty())
            r.message = message;
        respond(s, c, r);
    }

    void read(QTcpSocket* s)
    {
        auto it = m_conns.find(s);
        if (it == m_conns.end())
            return;
        Conn& c = it->second;
        c.idle.restart();
        const QByteArray data = s->readAll();
        if (c.discard)
            return;
        if (c.reader.state() == HttpMessageReader::State::Head && !c.reader.headStarted() &&
            !data.isEmpty())
            c.phase.restart(); // a head starts: its deadline runs from its first byte
        else if (c.readingBody())
            c.bodyBytes += data.size();
        consume(s, c, data);
    }

    // Feeds what arrived to the request reader: the head is checked as soon as it is complete
    // (before any of its body is read), each complete request is answered, and what follows a
    // request (a pipelined one) starts the next.
    void consume(QTcpSocket* s, Conn& c, QByteArrayView in)
    {
        while (!in.isEmpty() && !c.discard) {
            const bool hadHead = c.reader.headersComplete();
            in = in.sliced(c.reader.read(in, c.request.body));
            if (!hadHead && c.reader.headersComplete()) {
                c.phase.restart();
                c.bodyBytes = in.size();
                if (!checkHead(s, c))
                    return;
            }
            if (c.reader.state() == HttpMessageReader::State::Failed) {
                fail(s, c, c.reader.errorStatus(), c.reader.error().toUtf8());
                return;
            }
            if (c.reader.state() == HttpMessageReader::State::Done)
                finish(s, c);
        }
    }

    // The request's head is read: the token first, then the handler's look at it; then the
    // reader's verdict on its framing (411, 413) is given.
    bool checkHead(QTcpSocket* s, Conn& c)
    {
        const HttpMessageReader& reader = c.reader;
        HttpRequest& r = c.request;
        r.method = reader.method();
        r.target = reader.target();
        const qsizetype q = r.target.indexOf('?');
        r.path = q < 0 ? r.target : r.target.left(q);
        r.query = q < 0 ? QByteArray() : r.target.mid(q + 1);
        for (const auto& [name, value] : reader.headers())
            r.headers[name.toLower().toStdString()] = value;
        c.close =
            reader.isHttp10() || HttpMessageReader::listsToken(r.header("connection"), "close");
        // The token first: nothing about the server (its paths, methods, limits) is told to a
        // client without it, and no body of it is read.
        if (!m_options.bearerToken.isEmpty() &&
            !HttpServer::bearerMatches(r.header("authorization"), m_options.bearerToken)) {
            fail(s, c, 401, "a bearer token is required");
            return false;
        }
        if (m_owner->m_headCheck) {
            if (std::optional<HttpResponse> refusal = m_owner->m_headCheck(r)) {
                c.close = true;
                if (refusal->message.isEmpty())
                    refusal->message = refusal->body;
                respond(s, c, *refusal);
                return false;
            }
        }
        if (reader.state() != HttpMessageReader::State::Failed &&
            r.header("expect").toLower() == "100-continue")
            s->write("HTTP/1.1 100 Continue\r\n\r\n");
        return true;
    }

    void finish(QTcpSocket* s, Conn& c)
    {
        HttpResponse reply = m_owner->m_handler
                                 ? m_owner->m_handler(c.request)
                                 : defaultError(404, "nothing is served here", c.request);
        c.request = HttpRequest{};
        c.reader = newReader();
        c.phase.restart(); // a pipelined head already waiting starts now
        respond(s, c, reply);
    }

    // The deadlines (HttpServerOptions): silent connections are cut; a head or a body that
    // trickles in too slowly is answered 408 and its connection closed.
    void closeIdle()
    {
        std::vector<QTcpSocket*> idle, slowHead, slowBody;
        for (auto& [socket, conn] : m_conns) {
            if (conn.idle.elapsed() > m_options.idleTimeoutMs) {
                idle.push_back(socket);
            } else if (conn.discard) {
                continue;
            } else if (conn.reader.headStarted()) {
                if (conn.phase.elapsed() > m_options.headTimeoutMs)
                    slowHead.push_back(socket);
            } else if (conn.readingBody()) {
                const qint64 late = conn.phase.elapsed() - m_options.bodyGraceMs;
                if (late > 0 && conn.bodyBytes < late * m_options.minBodyBytesPerSec / 1000)
                    slowBody.push_back(socket);
            }
        }
        for (QTcpSocket* socket : idle)
            socket->abort(); // disconnected() forgets it
        auto timeOut = [this](QTcpSocket* socket, const QByteArray& why) {
            auto it = m_conns.find(socket);
            if (it != m_conns.end())
                fail(socket, it->second, 408, why);
        };
        for (QTcpSocket* socket : slowHead)
            timeOut(socket, "the request head did not arrive in time");
        for (QTcpSocket* socket : slowBody)
            timeOut(socket, "the request body arrives too slowly");
    }

    HttpServer* m_owner;
    HttpServerOptions m_options;
    QTimer* m_idleTimer = nullptr;
    QTcpServer* m_server = nullptr;
    std::unordered_map<QTcpSocket*, Conn> m_conns;
};

} // namespace hako

extern "C" __attribute__((visibility("default"))) hako::HttpServerEngine*
hakoNetServerEngine(hako::HttpServer* owner)
{
    return new hako::HttpServerWorker(owner);
}
