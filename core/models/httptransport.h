#pragma once

#include "core/util/cancel.h"

#include <QByteArray>
#include <QList>
#include <QNetworkReply>
#include <QPair>
#include <QString>
#include <QUrl>

#include <condition_variable>
#include <memory>
#include <mutex>

class QThread;

namespace hako::models {

class HttpWorker;
class HttpClientEngine;
class HttpTransport;

/// One HTTP exchange in flight: the network thread appends the body as it arrives, the
/// calling thread takes it with next(). Thread-safe; shared by both sides.
class HttpExchange {
public:
    enum class Event { Data, Finished, Cancelled };

    /// Blocks until body bytes arrive (moved into `bytes`), the reply finishes, or `cancel` is
    /// set (polled every few milliseconds). Call from the thread that started the exchange.
    Event next(QByteArray& bytes, const CancelToken& cancel);

    /// After the first Data or Finished event: the HTTP status (0 when no response arrived).
    int status() const;
    /// A response header (case-insensitive name), e.g. `retry-after`.
    QByteArray header(const QByteArray& name) const;
    /// After Finished: the transport error (NoError when the body arrived whole).
    QNetworkReply::NetworkError error() const;
    QString errorString() const;
    /// After Finished: why Hako aborted the exchange: "connect" or "idle" (a timeout),
    /// "deadline" (the whole exchange took too long) or "size" (the reply outgrew its limit);
    /// "" otherwise.
    QString timedOut() const;
    /// Body bytes received so far.
    qint64 received() const;

private:
    friend class HttpWorker;
    friend class HttpCall;
    friend class HttpTransport;

    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    QByteArray m_pending;
    bool m_finished = false;
    int m_status = 0;
    QList<QPair<QByteArray, QByteArray>> m_headers;
    QNetworkReply::NetworkError m_error = QNetworkReply::NoError;
    QString m_errorString;
    QString m_timedOut;
    qint64 m_received = 0;
    // Network-thread side only.
    QObject* m_call = nullptr;
    bool m_aborted = false;
};

/// Why `name: value` cannot be sent as an HTTP header, or "" when it can: the name must be an
/// RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~), the value must hold no CR, LF, NUL or
/// other control character but tab (a line break would end the header and start one the caller
/// never meant: header injection). The reason names neither the name nor the value. Pure.
QString headerProblem(const QByteArray& name, const QByteArray& value);

/// An HTTP/1.1 client with its own thread: its connections (plain or TLS sockets) live there and
/// every request is posted to it, so callers on worker threads block on their exchange rather
/// than spinning an event loop. Hako speaks HTTP itself rather than through
/// QNetworkAccessManager, whose own HTTP thread re-sends a POST by itself when a kept-alive
/// connection closes or a status line is garbled (for a model server, paying twice), and reads a
/// chunked body that arrives faster than it parses without ever returning to its event loop (a
/// flooding server kept it at full CPU after the reply was stopped, and every later request of
/// the manager waited). Here a request is sent exactly once, reading is bounded per event, and
/// a stop closes the connection at once. The sockets (QtNetwork) are in the module libhako_net,
/// loaded with the thread on the first request, so that a run that calls no model does not
/// load QtNetwork; when it cannot be loaded, every exchange finishes at once with
/// UnknownNetworkError saying why. Connections are kept alive briefly between requests to
/// the same server; no cookies are kept, no redirect is followed (a 3xx is the caller's answer, so
/// no header, Authorization included, ever reaches a server the caller did not name). A request
/// with a header headerProblem() refuses is not sent: its exchange finishes at once with
/// ProtocolInvalidOperationError. Safe to use from any number of
/// threads; the object itself must outlive its exchanges' use of next() (the destructor aborts
/// whatever is in flight).
class HttpTransport {
public:
    struct Request {
        QUrl url;
        QByteArray verb = "GET";
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body;
        /// Until the request is sent (DNS, TCP, TLS).
        int connectTimeoutMs = 10000;
        /// Longest silence between two pieces of the response after the request was sent.
        int idleTimeoutMs = 120000;
        /// The whole exchange, from start to the last byte (a server that drips a byte now
        /// and then never trips the idle timeout).
        int deadlineMs = 600000;
        /// The most body bytes accepted; a longer reply (or a stream that never ends) is
        /// aborted rather than buffered.
        qint64 maxReplyBytes = 64LL * 1024 * 1024;
    };

    HttpTransport();
    ~HttpTransport();
    HttpTransport(const HttpTransport&) = delete;
    HttpTransport& operator=(const HttpTransport&) = delete;

    std::shared_ptr<HttpExchange> start(const Request& request);
    /// Aborts the exchange (closing its connection); harmless when it already finished.
    void abort(const std::shared_ptr<HttpExchange>& exchange);

private:
    /// Loads the sockets' module and starts the thread, on the first request.
    bool ensureStarted();

    std::once_flag m_started;
    QString m_loadError;
    QThread* m_thread = nullptr;
    HttpClientEngine* m_worker = nullptr;
};

} // namespace hako::models
