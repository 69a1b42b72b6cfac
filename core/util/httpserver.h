#pragma once

#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

class QThread;

namespace hako {

class HttpServerEngine;

/// Where and how an HttpServer listens, and what it accepts.
struct HttpServerOptions {
    /// An IP address ("127.0.0.1", "::1", "0.0.0.0" for every IPv4 interface, "::" for every
    /// interface) or "localhost".
    QString address = QStringLiteral("127.0.0.1");
    quint16 port = 0; ///< 0 picks a free port (see HttpServer::port())
    /// Required (non-empty) when `address` is not loopback; when set, every request must carry
    /// `Authorization: Bearer <token>` (the scheme in any case; else 401 as soon as the head is
    /// complete, before anything else is looked at and before its body is read).
    QByteArray bearerToken;
    qint64 maxBodyBytes = 16 * 1024 * 1024; ///< larger bodies get 413 (before being read)
    /// Connections served at once. When every slot is taken, a new connection takes the slot
    /// of the one that has been quiet longest among those not sending a body (an idle keep-alive
    /// connection or a head arriving slowly); only when every slot is receiving a body at
    /// `minBodyBytesPerSec` or more is it answered 503.
    int maxConnections = 64;
    /// A connection silent this long between requests is closed.
    int idleTimeoutMs = 30000;
    /// A request's head (request line and headers) must be complete this long after its first
    /// byte, else 408 and the connection is closed: a client sending a byte now and then cannot
    /// keep a slot.
    int headTimeoutMs = 10000;
    /// A body must keep arriving at this rate on average once `bodyGraceMs` has passed since
    /// its head, else 408 and the connection is closed.
    qint64 minBodyBytesPerSec = 16 * 1024;
    int bodyGraceMs = 10000;
    /// The thread's name (for debuggers and `top -H`).
    QString threadName = QStringLiteral("http-server");
};

/// One request as the server read it.
struct HttpRequest {
    QByteArray method;
    QByteArray target; ///< as sent: path and query
    QByteArray path;   ///< the target without its query
    QByteArray query;  ///< after `?`, still percent-encoded ("" when none)
    std::unordered_map<std::string, QByteArray> headers; ///< names in lower case
    QByteArray body;
    /// The header `name` (lower case), "" when absent.
    QByteArray header(const char* name) const;
};

/// What to send back.
struct HttpResponse {
    int status = 200;
    QByteArray contentType = "application/json";
    QByteArray body;
    /// Extra header lines ("Cache-Control: no-store"), without CR/LF.
    QList<QByteArray> headers;
    /// Why, for a refusal: what requestRejected() reports (never sent as such).
    QByteArray message;
};

/// An HTTP/1.1 server on its own thread: keep-alive, Content-Length or chunked bodies,
/// `Expect: 100-continue`, limits on headers, bodies and connections, deadlines on heads,
/// bodies and idle connections (see HttpServerOptions), and the bearer token checked on the
/// head before anything else and before any body is read. A refused upload is answered and
/// then drained briefly (lingering close) so the client reads the answer. The one HTTP server
/// of Hako: the OTLP receiver and the prompt server are handlers on it.
///
/// The sockets are QtNetwork's, in the module libhako_net (loaded by start(), see
/// httpserverengine_p.h), so that a process that never serves does not load QtNetwork.
///
/// The handlers run on the server's thread and must be thread-safe with respect to their own
/// state. start() and stop() from the owner's thread.
class HttpServer : public QObject {
    Q_OBJECT
public:
    /// Answers a whole request.
    using Handler = std::function<HttpResponse(const HttpRequest&)>;
    /// Looks at a request's head (method, path, headers; no body yet): an answer refuses it
    /// before its body is read (a wrong path or method), nothing lets it through.
    using HeadCheck = std::function<std::optional<HttpResponse>(const HttpRequest&)>;
    /// The body of an error the server itself gives (401, 411, 413, 431, 400 for bad framing),
    /// in the protocol's own format; the default is `{"error": message}` as JSON.
    using ErrorFormat =
        std::function<HttpResponse(int status, const QByteArray& message, const HttpRequest& head)>;

    explicit HttpServer(HttpServerOptions options, QObject* parent = nullptr);
    /// Stops listening and joins the thread.
    ~HttpServer() override;

    /// Set before start().
    void setHandler(Handler handler) { m_handler = std::move(handler); }
    void setHeadCheck(HeadCheck check) { m_headCheck = std::move(check); }
    void setErrorFormat(ErrorFormat format) { m_errorFormat = std::move(format); }

    /// Starts the thread and listens. Refuses a non-loopback address without a token. Gives
    /// the bound port.
    Result<quint16> start();
    void stop();
    quint16 port() const { return m_port; }
    const HttpServerOptions& options() const { return m_options; }

    /// The reason phrase of `status` ("Not Found").
    static const char* reason(int status);
    /// Whether the value of an `Authorization` header carries `token` with the Bearer scheme
    /// (the scheme's case does not matter, RFC 7235), compared in constant time. Pure.
    static bool bearerMatches(const QByteArray& authorization, const QByteArray& token);

Q_SIGNALS:
    /// Every answer that is not 2xx, with its message (queued to other threads).
    void requestRejected(int status, const QString& reason);

private:
    friend class HttpServerWorker;
    HttpServerOptions m_options;
    Handler m_handler;
    HeadCheck m_headCheck;
    ErrorFormat m_errorFormat;
    QThread* m_thread = nullptr;
    HttpServerEngine* m_worker = nullptr;
    quint16 m_port = 0;
};

} // namespace hako
