#include "core/otel/otlpreceiver.h"

#include "core/otel/otlpdecode.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <sys/socket.h>
#include <zlib.h>

#include <memory>
#include <unordered_map>

namespace hako::otel {

Result<QByteArray> gunzip(const QByteArray& data, qint64 maxBytes)
{
    z_stream zs{};
    // 32 + MAX_WBITS: gzip or zlib header, detected.
    if (inflateInit2(&zs, 32 + MAX_WBITS) != Z_OK)
        return makeError(QStringLiteral("cannot start inflating"));
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    zs.avail_in = uInt(data.size());
    QByteArray out;
    char buf[64 * 1024];
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof buf;
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            inflateEnd(&zs);
            return makeError(QStringLiteral("malformed gzip body"));
        }
        const qsizetype produced = qsizetype(sizeof buf - zs.avail_out);
        if (out.size() + produced > maxBytes) {
            inflateEnd(&zs);
            return makeError(QStringLiteral("too large"));
        }
        out.append(buf, produced);
        if (rc == Z_OK && produced == 0 && zs.avail_in == 0) {
            inflateEnd(&zs);
            return makeError(QStringLiteral("truncated gzip body"));
        }
    }
    inflateEnd(&zs);
    return out;
}

QByteArray gzipCompress(const QByteArray& data)
{
    z_stream zs{};
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out;
    out.resize(qsizetype(deflateBound(&zs, uLong(data.size()))) + 32);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    zs.avail_in = uInt(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(qsizetype(zs.total_out));
    deflateEnd(&zs);
    return rc == Z_STREAM_END ? out : QByteArray();
}

ReceiverReply OtlpReceiver::process(const QByteArray& contentType,
                                    const QByteArray& contentEncoding, const QByteArray& body,
                                    const ReceiverOptions& options)
{
    ReceiverReply reply;
    const QByteArray type = contentType.split(';').value(0).trimmed().toLower();
    const bool json = type == "application/json";
    const bool proto = type == "application/x-protobuf" || type == "application/protobuf";
    if (!json && !proto) {
        reply.status = 415;
        reply.message = "Content-Type must be application/json or application/x-protobuf";
        return reply;
    }
    QByteArray data = body;
    const QByteArray encoding = contentEncoding.trimmed().toLower();
    if (encoding == "gzip" || encoding == "deflate") {
        auto inflated = gunzip(body, options.maxInflatedBytes);
        if (!inflated) {
            const bool tooLarge = inflated.error().message == QLatin1String("too large");
            reply.status = tooLarge ? 413 : 400;
            reply.message = tooLarge ? QByteArray("the inflated body is over the limit")
                                     : inflated.error().message.toUtf8();
            return reply;
        }
        data = std::move(*inflated);
    } else if (!encoding.isEmpty() && encoding != "identity") {
        reply.status = 415;
        reply.message = "unsupported Content-Encoding " + encoding;
        return reply;
    }
    const std::string_view bytes(data.constData(), size_t(data.size()));
    auto spans = json ? decodeOtlpJson(bytes) : decodeOtlpProtobuf(bytes);
    if (!spans) {
        reply.status = 400;
        reply.message = spans.error().message.toUtf8();
        return reply;
    }
    reply.spans = std::move(*spans);
    return reply;
}

namespace {

constexpr qsizetype kMaxHeaderBytes = 64 * 1024;

const char* reason(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 415:
        return "Unsupported Media Type";
    case 431:
        return "Request Header Fields Too Large";
    case 503:
        return "Service Unavailable";
    }
    return "Error";
}

} // namespace

class ReceiverWorker : public QObject {
public:
    ReceiverWorker(OtlpReceiver* owner)
        : m_owner(owner), m_options(owner->m_options), m_sink(owner->m_sink),
          m_counters(owner->m_counters)
    {}

    Result<quint16> listen()
    {
        m_server = new QTcpServer(this);
        if (!m_server->listen(m_options.address, m_options.port))
            return makeError(QStringLiteral("cannot listen on %1:%2: %3")
                                 .arg(m_options.address.toString())
                                 .arg(m_options.port)
                                 .arg(m_server->errorString()));
        QObject::connect(m_server, &QTcpServer::newConnection, this, [this] { accept(); });
        m_idleTimer = new QTimer(this);
        m_idleTimer->setInterval(std::max(50, m_options.idleTimeoutMs / 4));
        QObject::connect(m_idleTimer, &QTimer::timeout, this, [this] { closeIdle(); });
        m_idleTimer->start();
        return m_server->serverPort();
    }

    void shutdown()
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
        enum class State { Headers, Body, Chunked, Discard } state = State::Headers;
        QElapsedTimer idle;
        QByteArray buf;
        QByteArray method, path;
        std::unordered_map<std::string, QByteArray> headers;
        qint64 contentLength = 0;
        QByteArray body;
        bool close = false;
    };

    void accept()
    {
        while (QTcpSocket* s = m_server->nextPendingConnection()) {
            if (int(m_conns.size()) >= m_options.maxConnections) {
                s->write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                         "Connection: close\r\n\r\n");
                s->disconnectFromHost();
                QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                continue;
            }
            s->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            m_conns[s] = Conn{};
            m_conns[s].idle.start();
            QObject::connect(s, &QTcpSocket::readyRead, this, [this, s] { read(s); });
            QObject::connect(s, &QTcpSocket::disconnected, this, [this, s] {
                m_conns.erase(s);
                s->deleteLater();
            });
        }
    }

    void respond(QTcpSocket* s, Conn& c, int status, const QByteArray& message, bool protobuf)
    {
        QByteArray body;
        QByteArray type = protobuf ? "application/x-protobuf" : "application/json";
        if (status == 200) {
            body = protobuf ? QByteArray() : QByteArray("{}");
        } else if (protobuf) {
            // google.rpc.Status {code = 1, message = 2}
            body.append(char(0x08)).append(char(3));
            QByteArray m = message.left(1000);
            body.append(char(0x12));
            quint64 n = quint64(m.size());
            while (n >= 0x80) {
                body.append(char(uchar(n) | 0x80));
                n >>= 7;
            }
            body.append(char(n));
            body.append(m);
        } else {
            body = "{\"code\":3,\"message\":" +
                   QByteArray::fromStdString(
                       nlohmann::json(message.left(1000).toStdString())
                           .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) +
                   "}";
        }
        QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason(status) +
                          "\r\nContent-Type: " + type +
                          "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
        if (c.close)
            head += "Connection: close\r\n";
        s->write(head + "\r\n" + body);
        if (status != 200) {
            ++m_counters->rejected;
            Q_EMIT m_owner->requestRejected(status, QString::fromUtf8(message));
        }
        if (c.close) {
            c.state = Conn::State::Discard;
            c.buf.clear();
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
        const QByteArray type = header(c, "content-type");
        respond(s, c, status, message, type.contains("protobuf"));
    }

    static QByteArray header(const Conn& c, const char* name)
    {
        auto it = c.headers.find(name);
        return it == c.headers.end() ? QByteArray() : it->second;
    }

    void read(QTcpSocket* s)
    {
        auto it = m_conns.find(s);
        if (it == m_conns.end())
            return;
        Conn& c = it->second;
        c.idle.restart();
        if (c.state == Conn::State::Discard) {
            s->readAll();
            return;
        }
        c.buf += s->readAll();
        for (;;) {
            if (c.state == Conn::State::Headers) {
                const qsizetype end = c.buf.indexOf("\r\n\r\n");
                if (end < 0) {
                    if (c.buf.size() > kMaxHeaderBytes)
                        fail(s, c, 431, "request headers too large");
                    return;
                }
                if (!parseHeaders(s, c, c.buf.left(end)))
                    return;
                c.buf.remove(0, end + 4);
                continue;
            }
            if (c.state == Conn::State::Body) {
                if (c.buf.size() < c.contentLength)
                    return;
                c.body = c.buf.left(c.contentLength);
                c.buf.remove(0, c.contentLength);
                finish(s, c);
                if (c.state == Conn::State::Discard)
                    return;
                continue;
            }
            if (c.state == Conn::State::Chunked) {
                const qsizetype eol = c.buf.indexOf("\r\n");
                if (eol < 0) {
                    if (c.buf.size() > 1024)
                        fail(s, c, 400, "malformed chunk");
                    return;
                }
                bool ok = false;
                const qint64 size =
                    c.buf.left(eol).split(';').value(0).trimmed().toLongLong(&ok, 16);
                if (!ok || size < 0) {
                    fail(s, c, 400, "malformed chunk size");
                    return;
                }
                if (c.body.size() + size > m_options.maxBodyBytes) {
                    fail(s, c, 413, "request body over the limit");
                    return;
                }
                if (size == 0) {
                    // Trailers end with an empty line.
                    const qsizetype end = c.buf.indexOf("\r\n\r\n", eol);
                    if (end < 0 && c.buf.mid(eol, 4) != "\r\n\r\n") {
                        if (c.buf.size() > kMaxHeaderBytes)
                            fail(s, c, 431, "trailers too large");
                        return;
                    }
                    c.buf.remove(0, (end < 0 ? eol : end) + 4);
                    finish(s, c);
                    if (c.state == Conn::State::Discard)
                        return;
                    continue;
                }
                if (c.buf.size() < eol + 2 + size + 2)
                    return;
                c.body += c.buf.mid(eol + 2, size);
                c.buf.remove(0, eol + 2 + size + 2);
                continue;
            }
            return;
        }
    }

    bool parseHeaders(QTcpSocket* s, Conn& c, const QByteArray& head)
    {
        const QList<QByteArray> lines = head.split('\n');
        const QList<QByteArray> request = lines.value(0).trimmed().split(' ');
        c.headers.clear();
        c.body.clear();
        if (request.size() != 3 || !request[2].startsWith("HTTP/1.")) {
            fail(s, c, 400, "malformed request line");
            return false;
        }
        c.method = request[0];
        c.path = request[1];
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            c.headers[line.left(colon).trimmed().toLower().toStdString()] =
                line.mid(colon + 1).trimmed();
        }
        c.close = request[2] == "HTTP/1.0" || header(c, "connection").toLower() == "close";
        const QByteArray path = c.path.split('?').value(0);
        if (path != "/v1/traces") {
            fail(s, c, 404, "only /v1/traces is served");
            return false;
        }
        if (c.method != "POST") {
            fail(s, c, 405, "POST only");
            return false;
        }
        if (!m_options.bearerToken.isEmpty() &&
            header(c, "authorization") != "Bearer " + m_options.bearerToken) {
            fail(s, c, 401, "a bearer token is required");
            return false;
        }
        const bool chunked = header(c, "transfer-encoding").toLower().contains("chunked");
        if (chunked) {
            c.state = Conn::State::Chunked;
        } else {
            bool ok = false;
            const QByteArray lengthText = header(c, "content-length");
            c.contentLength = lengthText.toLongLong(&ok);
            if (!ok || c.contentLength < 0) {
                fail(s, c, 411, "Content-Length required");
                return false;
            }
            if (c.contentLength > m_options.maxBodyBytes) {
                // Refused before reading it: the rest of the body is discarded unread.
                fail(s, c, 413, "request body over the limit");
                return false;
            }
            c.state = Conn::State::Body;
        }
        if (header(c, "expect").toLower() == "100-continue")
            s->write("HTTP/1.1 100 Continue\r\n\r\n");
        return true;
    }

    void finish(QTcpSocket* s, Conn& c)
    {
        ++m_counters->requests;
        ReceiverReply reply = OtlpReceiver::process(
            header(c, "content-type"), header(c, "content-encoding"), c.body, m_options);
        c.body.clear();
        c.state = Conn::State::Headers;
        const bool protobuf = header(c, "content-type").contains("protobuf");
        if (reply.status == 200) {
            ++m_counters->accepted;
            const int count = int(reply.spans.size());
            m_counters->spans += count;
            if (m_sink && count > 0)
                m_sink(std::move(reply.spans));
            Q_EMIT m_owner->spansReceived(count);
        }
        respond(s, c, reply.status, reply.message, protobuf);
    }

    void closeIdle()
    {
        std::vector<QTcpSocket*> idle;
        for (auto& [socket, conn] : m_conns)
            if (conn.idle.elapsed() > m_options.idleTimeoutMs)
                idle.push_back(socket);
        for (QTcpSocket* socket : idle)
            socket->abort(); // disconnected() forgets it
    }

    OtlpReceiver* m_owner;
    ReceiverOptions m_options;
    QTimer* m_idleTimer = nullptr;
    OtlpReceiver::SpanSink m_sink;
    std::shared_ptr<OtlpReceiver::Counters> m_counters;
    QTcpServer* m_server = nullptr;
    std::unordered_map<QTcpSocket*, Conn> m_conns;
};

OtlpReceiver::OtlpReceiver(ReceiverOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options)), m_counters(std::make_shared<Counters>())
{}

OtlpReceiver::~OtlpReceiver()
{
    stop();
}

void OtlpReceiver::setSink(SpanSink sink)
{
    m_sink = std::move(sink);
}

Result<quint16> OtlpReceiver::start()
{
    if (m_thread)
        return m_port;
    if (!m_options.address.isLoopback() && m_options.bearerToken.isEmpty())
        return makeError(QStringLiteral("listening on %1 (beyond loopback) needs a bearer token")
                             .arg(m_options.address.toString()));
    m_thread = new QThread;
    m_thread->setObjectName(QStringLiteral("otlp-receiver"));
    auto* worker = new ReceiverWorker(this);
    worker->moveToThread(m_thread);
    QObject::connect(m_thread, &QThread::finished, worker, &QObject::deleteLater);
    m_thread->start();
    m_worker = worker;
    Result<quint16> result = makeError(QStringLiteral("the receiver thread did not start"));
    // Binding is quick; the caller wants to know the port (or why not) before going on.
    QMetaObject::invokeMethod(
        worker, [&result, worker] { result = worker->listen(); }, Qt::BlockingQueuedConnection);
    if (!result) {
        stop();
        return result;
    }
    m_port = *result;
    return result;
}

void OtlpReceiver::stop()
{
    if (!m_thread)
        return;
    auto* worker = static_cast<ReceiverWorker*>(m_worker);
    QMetaObject::invokeMethod(
        worker, [worker] { worker->shutdown(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_worker = nullptr;
    m_port = 0;
}

} // namespace hako::otel
