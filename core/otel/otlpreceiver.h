#pragma once

#include "core/otel/span.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

class QThread;

namespace hako {
class HttpServer;
}

namespace hako::otel {

/// Where and how an OtlpReceiver listens.
struct ReceiverOptions {
    /// An IP address ("127.0.0.1", "0.0.0.0", "::1") or "localhost".
    QString address = QStringLiteral("127.0.0.1");
    quint16 port = 4318; ///< 0 picks a free port (see OtlpReceiver::port())
    /// Required (non-empty) when `address` is not loopback; when set, every request must carry
    /// `Authorization: Bearer <token>` (else 401).
    QByteArray bearerToken;
    qint64 maxBodyBytes = 16 * 1024 * 1024;     ///< larger bodies get 413 (before being read)
    qint64 maxInflatedBytes = 64 * 1024 * 1024; ///< a gzip body inflating past this gets 413
    /// Slots, and what happens when they run out: see HttpServerOptions::maxConnections.
    int maxConnections = 64;
    /// A connection silent this long between requests is closed.
    int idleTimeoutMs = 30000;
    /// A request's head must be complete this long after its first byte (else 408).
    int headTimeoutMs = 10000;
    /// A body must arrive at this rate on average after `bodyGraceMs` (else 408).
    qint64 minBodyBytesPerSec = 16 * 1024;
    int bodyGraceMs = 10000;
};

/// The answer to one request, and what it carried.
struct ReceiverReply {
    int status = 200;
    QByteArray message; ///< why, for 4xx
    std::vector<Span> spans;
    QByteArray json; ///< the request's text (inflated) when it came as JSON; empty for protobuf
};

/// An OTLP/HTTP trace receiver: `POST /v1/traces` with `application/json` or
/// `application/x-protobuf` bodies, optionally `Content-Encoding: gzip`, Content-Length or
/// chunked, keep-alive. A request is all or nothing: malformed (400), too large (413), wrong
/// type (415), unauthorised (401), wrong path (404) or method (405) changes nothing.
///
/// "Accepted" (200) means: the request was well-formed and, when a storing sink is set, the
/// storing sink kept what it keeps of it (`hako serve`: every model call committed to the
/// prompt log) before the answer went out. When it could not, the request is answered 503 with
/// `Retry-After` (OTLP exporters send it again) and counts as not accepted.
///
/// The HTTP server runs on its own thread. The storing sink, then the sink, are called on that
/// thread with every well-formed request's spans (they must be thread-safe with respect to
/// their own state); spansReceived() is then emitted (queued to receivers on other threads).
class OtlpReceiver : public QObject {
    Q_OBJECT
public:
    using SpanSink = std::function<void(std::vector<Span>&&)>;
    /// Keeps a request's spans before it is answered: an empty string when kept, else why
    /// not (the request is then answered 503 and the sink is not called). Given the request's
    /// JSON text too when it came as JSON (empty for protobuf).
    using StoringSink = std::function<QString(const std::vector<Span>&, const QByteArray&)>;

    explicit OtlpReceiver(ReceiverOptions options = {}, QObject* parent = nullptr);
    /// Stops listening and joins the thread.
    ~OtlpReceiver() override;

    /// Set before start().
    void setSink(SpanSink sink);
    /// Set before start(): what must be kept before a request is answered 200.
    void setStoringSink(StoringSink sink);
    /// Starts the thread and listens. Refuses a non-loopback address without a token. Gives
    /// the bound port.
    Result<quint16> start();
    void stop();
    bool isListening() const { return m_port != 0; }
    quint16 port() const { return m_port; }
    const ReceiverOptions& options() const { return m_options; }

    struct Counters {
        std::atomic<qint64> requests{0};
        std::atomic<qint64> accepted{0};
        std::atomic<qint64> rejected{0}; ///< answered 4xx/5xx, `unstored` included
        std::atomic<qint64> unstored{0}; ///< well-formed, answered 503: the storing sink failed
        std::atomic<qint64> spans{0};    ///< of accepted requests
    };
    const Counters& counters() const { return *m_counters; }

    /// What the receiver does with one request's body (no socket involved): checks the
    /// content type and encoding, inflates gzip within `options.maxInflatedBytes`, decodes.
    /// Pure, any thread; what the server and the tests use.
    static ReceiverReply process(const QByteArray& contentType, const QByteArray& contentEncoding,
                                 const QByteArray& body, const ReceiverOptions& options);

Q_SIGNALS:
    void spansReceived(int count);
    void requestRejected(int status, const QString& reason);

private:
    ReceiverOptions m_options;
    SpanSink m_sink;
    StoringSink m_storingSink;
    HttpServer* m_server = nullptr;
    quint16 m_port = 0;
    std::shared_ptr<Counters> m_counters;
};

/// Inflates a gzip (or zlib) stream, every member of a multi-member gzip body one after the
/// other, failing past `maxBytes` of output in all (message "too large"). Pure.
Result<QByteArray> gunzip(const QByteArray& data, qint64 maxBytes);
/// Compresses `data` as gzip (what an exporter sends with `Content-Encoding: gzip`). Pure.
QByteArray gzipCompress(const QByteArray& data);

} // namespace hako::otel
