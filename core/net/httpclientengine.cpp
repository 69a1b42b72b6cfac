// libhako_net, the client half: HttpTransport's connections (QtNetwork's TCP and TLS sockets),
// loaded on the first request so that a run that calls no model does not load QtNetwork.
#include "core/models/httpclientengine_p.h"
#include "core/util/httpmessagereader.h"

#include <QElapsedTimer>
#include <QMultiHash>
#include <QPointer>
#include <QSet>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

#include <chrono>

namespace hako::models {

namespace {

constexpr qint64 kReadChunk = 256 * 1024;
/// A kept-alive connection is used again only this soon after its last reply: servers close
/// idle connections after a few seconds (uvicorn after 5), and a request written into a
/// connection the server is closing would fail, and is never sent again.
constexpr qint64 kReuseWithinMs = 2000;
constexpr int kIdlePerServer = 4;

QNetworkReply::NetworkError networkError(QAbstractSocket::SocketError e)
{
    switch (e) {
    case QAbstractSocket::ConnectionRefusedError:
        return QNetworkReply::ConnectionRefusedError;
    case QAbstractSocket::RemoteHostClosedError:
        return QNetworkReply::RemoteHostClosedError;
    case QAbstractSocket::HostNotFoundError:
        return QNetworkReply::HostNotFoundError;
    case QAbstractSocket::SocketTimeoutError:
        return QNetworkReply::TimeoutError;
    case QAbstractSocket::SslHandshakeFailedError:
        return QNetworkReply::SslHandshakeFailedError;
    case QAbstractSocket::ProxyConnectionRefusedError:
        return QNetworkReply::ProxyConnectionRefusedError;
    case QAbstractSocket::ProxyNotFoundError:
        return QNetworkReply::ProxyNotFoundError;
    case QAbstractSocket::ProxyConnectionTimeoutError:
        return QNetworkReply::ProxyTimeoutError;
    default:
        return QNetworkReply::UnknownNetworkError;
    }
}

quint16 portOf(const QUrl& url)
{
    return quint16(url.port(url.scheme().toLower() == QLatin1String("https") ? 443 : 80));
}

QString serverKey(const QUrl& url)
{
    return url.scheme().toLower() + QLatin1String("://") + url.host().toLower() + QLatin1Char(':') +
           QString::number(portOf(url));
}

} // namespace

class HttpWorker;

/// One exchange on one connection: writes the request, reads the response through
/// HttpMessageReader, and hands the body to the exchange as it arrives. Lives on the
/// transport's thread. All reading is bounded per event (the socket's buffer is capped), so a
/// server that sends faster than it can be read never keeps the thread from its other work:
/// a stop (timeout, size, cancel) closes the connection at once.
class HttpCall : public QObject {
public:
    HttpCall(HttpWorker* worker, std::shared_ptr<HttpExchange> ex, HttpTransport::Request r);

    void begin(QAbstractSocket* pooled);
    /// Ends the exchange now: closes the connection, the exchange finishes with `error`.
    void cancel(const QString& timedOut, QNetworkReply::NetworkError error, const QString& message);

private:
    void writeRequest();
    void onReadyRead();
    void onClosed(QAbstractSocket::SocketError error);
    void complete(QNetworkReply::NetworkError error, const QString& message);
    void restartIdle();

    HttpWorker* m_worker;
    std::shared_ptr<HttpExchange> m_ex;
    HttpTransport::Request m_r;
    QString m_key;
    QPointer<QAbstractSocket> m_socket;
    HttpMessageReader m_parser;
    QTimer m_phaseTimer;
    QTimer m_deadline;
    QString m_phase = QStringLiteral("connect");
    qint64 m_unwritten = 0;
    bool m_done = false;
};

/// Lives on the transport's thread: its calls and the connections kept alive between them.
class HttpWorker : public HttpClientEngine {
public:
    struct Idle {
        QPointer<QAbstractSocket> socket;
        QElapsedTimer since;
    };
    QMultiHash<QString, Idle> idle;
    QSet<HttpCall*> calls; ///< not yet complete

    void start(const std::shared_ptr<HttpExchange>& ex, const HttpTransport::Request& r) override
    {
        if (ex->m_aborted) {
            finish(ex, QNetworkReply::OperationCanceledError, QStringLiteral("cancelled"));
            return;
        }
        for (const auto& [name, value] : r.headers) {
            if (const QString problem = headerProblem(name, value); !problem.isEmpty()) {
                finish(ex, QNetworkReply::ProtocolInvalidOperationError,
                       QStringLiteral("not sent: %1").arg(problem));
                return;
            }
        }
        auto* call = new HttpCall(this, ex, r);
        ex->m_call = call;
        calls.insert(call);
        call->begin(takeIdle(serverKey(r.url)));
    }

    void abort(const std::shared_ptr<HttpExchange>& ex) override
    {
        ex->m_aborted = true;
        if (auto* call = static_cast<HttpCall*>(ex->m_call))
            call->cancel({}, QNetworkReply::OperationCanceledError,
                         QStringLiteral("Operation canceled"));
    }

    void abortAll() override
    {
        const QSet<HttpCall*> running = calls;
        for (HttpCall* call : running)
            call->cancel({}, QNetworkReply::OperationCanceledError,
                         QStringLiteral("Operation canceled"));
    }

    QAbstractSocket* takeIdle(const QString& key)
    {
        while (true) {
            auto it = idle.find(key);
            if (it == idle.end())
                return nullptr;
            Idle entry = it.value();
            idle.erase(it);
            if (!entry.socket)
                continue;
            if (entry.socket->state() == QAbstractSocket::ConnectedState &&
                entry.since.elapsed() < kReuseWithinMs) {
                // A close (or stray bytes) that reached this machine but was not handled yet
                // is seen now, before a request is written into a closing connection (which
                // would fail, and is never sent again): the idle watch drops such a socket.
                entry.socket->waitForReadyRead(0);
                if (entry.socket && entry.socket->state() == QAbstractSocket::ConnectedState &&
                    entry.socket->bytesAvailable() == 0) {
                    entry.socket->disconnect(); // the idle watch
                    return entry.socket;
                }
            }
            if (!entry.socket)
                continue;
            entry.socket->abort();
            entry.socket->deleteLater();
        }
    }

    void keepIdle(const QString& key, QAbstractSocket* socket)
    {
        socket->disconnect();
        socket->setParent(this);
        if (idle.count(key) >= kIdlePerServer) {
            socket->abort();
            socket->deleteLater();
            return;
        }
        // A connection the server closes while idle is dropped at once.
        connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QIODevice::readyRead, socket, [socket] {
            socket->abort(); // an idle connection has nothing to say
        });
        Idle entry{socket, {}};
        entry.since.start();
        idle.insert(key, entry);
    }

    static void finish(const std::shared_ptr<HttpExchange>& ex, QNetworkReply::NetworkError error,
                       const QString& message)
    {
        {
            std::lock_guard lock(ex->m_mutex);
            ex->m_finished = true;
            ex->m_error = error;
            ex->m_errorString = message;
        }
        ex->m_cv.notify_all();
    }
};

HttpCall::HttpCall(HttpWorker* worker, std::shared_ptr<HttpExchange> ex, HttpTransport::Request r)
    : QObject(worker), m_worker(worker), m_ex(std::move(ex)), m_r(std::move(r)),
      m_key(serverKey(m_r.url)), m_parser(HttpMessageReader::Kind::Response, {}, m_r.verb == "HEAD")
{
    m_phaseTimer.setSingleShot(true);
    connect(&m_phaseTimer, &QTimer::timeout, this,
            [this] { cancel(m_phase, QNetworkReply::TimeoutError, QStringLiteral("timed out")); });
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        cancel(QStringLiteral("deadline"), QNetworkReply::TimeoutError,
               QStringLiteral("timed out"));
    });
}

void HttpCall::begin(QAbstractSocket* pooled)
{
    m_phaseTimer.start(m_r.connectTimeoutMs);
    m_deadline.start(std::max(1, m_r.deadlineMs));
    const QString scheme = m_r.url.scheme().toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https")) {
        complete(QNetworkReply::ProtocolUnknownError,
                 QStringLiteral("'%1' is not an http or https address").arg(m_r.url.toString()));
        return;
    }
    QAbstractSocket* socket = pooled;
    if (!socket) {
        if (scheme == QLatin1String("https")) {
            if (!QSslSocket::supportsSsl()) {
                complete(QNetworkReply::SslHandshakeFailedError,
                         QStringLiteral("this system has no TLS library for https addresses"));
                return;
            }
            auto* ssl = new QSslSocket(this);
            connect(ssl, &QSslSocket::encrypted, this, &HttpCall::writeRequest);
            socket = ssl;
        } else {
            socket = new QTcpSocket(this);
            connect(socket, &QAbstractSocket::connected, this, &HttpCall::writeRequest);
        }
    } else {
        socket->setParent(this);
    }
    m_socket = socket;
    // Qt reads no more than this ahead of us; what the server sends beyond waits in the kernel.
    socket->setReadBufferSize(kReadChunk);
    connect(socket, &QIODevice::readyRead, this, &HttpCall::onReadyRead);
    connect(socket, &QIODevice::bytesWritten, this, [this](qint64 n) {
        m_unwritten -= n;
        if (m_unwritten <= 0 && m_phase == QLatin1String("connect")) {
            m_phase = QStringLiteral("idle");
            restartIdle();
        }
    });
    connect(socket, &QAbstractSocket::errorOccurred, this, &HttpCall::onClosed);
    connect(socket, &QAbstractSocket::disconnected, this,
            [this] { onClosed(QAbstractSocket::RemoteHostClosedError); });
    if (pooled) {
        writeRequest();
        return;
    }
    const quint16 port = portOf(m_r.url);
    if (auto* ssl = qobject_cast<QSslSocket*>(socket))
        ssl->connectToHostEncrypted(m_r.url.host(), port);
    else
        socket->connectToHost(m_r.url.host(), port);
}

void HttpCall::writeRequest()
{
    if (m_done || !m_socket)
        return;
    QByteArray path = m_r.url.path(QUrl::FullyEncoded).toLatin1();
    if (path.isEmpty())
        path = "/";
    if (m_r.url.hasQuery())
        path += '?' + m_r.url.query(QUrl::FullyEncoded).toLatin1();
    QByteArray host = m_r.url.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']';
    if (m_r.url.port() >= 0)
        host += ':' + QByteArray::number(m_r.url.port());
    QByteArray head = m_r.verb + ' ' + path + " HTTP/1.1\r\nHost: " + host + "\r\n";
    bool hasUserAgent = false;
    for (const auto& h : m_r.headers) {
        if (h.first.compare("content-length", Qt::CaseInsensitive) == 0 ||
            h.first.compare("host", Qt::CaseInsensitive) == 0 ||
            h.first.compare("connection", Qt::CaseInsensitive) == 0)
            continue;
        hasUserAgent |= h.first.compare("user-agent", Qt::CaseInsensitive) == 0;
        head += h.first + ": " + h.second + "\r\n";
    }
    if (!hasUserAgent)
        head += "User-Agent: Hako\r\n";
    if (!m_r.body.isNull() || (m_r.verb != "GET" && m_r.verb != "HEAD"))
        head += "Content-Length: " + QByteArray::number(m_r.body.size()) + "\r\n";
    head += "\r\n";
    m_unwritten = head.size() + m_r.body.size();
    m_socket->write(head);
    if (!m_r.body.isEmpty())
        m_socket->write(m_r.body);
}

void HttpCall::restartIdle()
{
    m_phaseTimer.start(m_r.idleTimeoutMs);
}

void HttpCall::onReadyRead()
{
    if (m_done || !m_socket)
        return;
    if (m_phase == QLatin1String("connect"))
        m_phase = QStringLiteral("idle");
    restartIdle();
    // At most the socket's buffer per event: the thread returns to its loop in between.
    QByteArray body;
    while (!m_done && m_socket && m_socket->bytesAvailable() > 0) {
        const QByteArray data = m_socket->read(kReadChunk);
        if (data.isEmpty())
            break;
        const bool hadHeaders = m_parser.headersComplete();
        if (!m_parser.feed(data, body)) {
            cancel({}, QNetworkReply::ProtocolFailure, m_parser.error());
            return;
        }
        if (!hadHeaders && m_parser.headersComplete()) {
            std::lock_guard lock(m_ex->m_mutex);
            m_ex->m_status = m_parser.status();
            m_ex->m_headers = m_parser.headers();
        }
        qint64 allowed = 0;
        {
            std::lock_guard lock(m_ex->m_mutex);
            allowed = m_r.maxReplyBytes - m_ex->m_received;
        }
        // Never more than the limit in memory: what is over it is dropped with the connection.
        const bool tooLarge = qint64(body.size()) > allowed;
        if (tooLarge)
            body.truncate(qsizetype(std::max<qint64>(0, allowed)));
        if (!body.isEmpty()) {
            {
                std::lock_guard lock(m_ex->m_mutex);
                m_ex->m_pending += body;
                m_ex->m_received += body.size();
            }
            m_ex->m_cv.notify_all();
            body.clear();
        }
        if (tooLarge) {
            cancel(QStringLiteral("size"), QNetworkReply::OperationCanceledError,
                   QStringLiteral("the reply is too large"));
            return;
        }
        if (m_parser.state() == HttpMessageReader::State::Done) {
            complete(QNetworkReply::NoError, {});
            return;
        }
    }
}

void HttpCall::onClosed(QAbstractSocket::SocketError error)
{
    if (m_done)
        return;
    // What arrived before the close is read first: a body may run to the end of the connection.
    if (m_socket && m_socket->bytesAvailable() > 0) {
        onReadyRead();
        if (m_done)
            return;
    }
    if (error == QAbstractSocket::RemoteHostClosedError && m_parser.endOfStream()) {
        complete(QNetworkReply::NoError, {});
        return;
    }
    if (error == QAbstractSocket::RemoteHostClosedError) {
        complete(QNetworkReply::RemoteHostClosedError, m_parser.error());
        return;
    }
    complete(networkError(error), m_socket ? m_socket->errorString() : QString());
}

void HttpCall::cancel(const QString& timedOut, QNetworkReply::NetworkError error,
                      const QString& message)
{
    if (m_done)
        return;
    if (!timedOut.isEmpty()) {
        std::lock_guard lock(m_ex->m_mutex);
        if (m_ex->m_timedOut.isEmpty())
            m_ex->m_timedOut = timedOut;
    }
    if (m_socket)
        m_socket->abort();
    complete(error, message);
}

void HttpCall::complete(QNetworkReply::NetworkError error, const QString& message)
{
    if (m_done)
        return;
    m_done = true;
    m_phaseTimer.stop();
    m_deadline.stop();
    if (m_socket) {
        m_socket->disconnect(this);
        if (error == QNetworkReply::NoError && m_parser.reusable() &&
            m_socket->state() == QAbstractSocket::ConnectedState) {
            m_worker->keepIdle(m_key, m_socket);
        } else {
            m_socket->abort();
            m_socket->deleteLater();
        }
        m_socket = nullptr;
    }
    {
        std::lock_guard lock(m_ex->m_mutex);
        if (m_ex->m_status == 0 && m_parser.headersComplete()) {
            m_ex->m_status = m_parser.status();
            m_ex->m_headers = m_parser.headers();
        }
    }
    m_ex->m_call = nullptr;
    m_worker->calls.remove(this);
    HttpWorker::finish(m_ex, error, message);
    deleteLater();
}

} // namespace hako::models

extern "C" __attribute__((visibility("default"))) hako::models::HttpClientEngine*
hakoNetClientEngine()
{
    return new hako::models::HttpWorker;
}
