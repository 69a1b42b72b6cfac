#pragma once

#include "core/otel/span.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QHostAddress>
#include <QObject>

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
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 4318; ///< 0 picks a free port (see OtlpReceiver::port())
    /// Required (non-empty) when `address` is not loopback; when set, every request must carry
    /// `Authorization: Bearer <token>` (else 401).
    QByteArray bearerToken;
    qint64 maxBodyBytes = 16 * 1024 * 1024;     ///< larger bodies get 413 (before being read)
    qint64 maxInflatedBytes = 64 * 1024 * 1024; ///< a gzip body inflating past this gets 413
    int maxConnections = 64;
    /// A connection silent this long (mid-request or between requests) is closed, so that
    /// slow or stuck clients cannot hold every slot.
    int idleTimeoutMs = 30000;
};

/// The answer to one request, and what it carried.
struct ReceiverReply {
    int status = 200;
    QByteArray message; ///< why, for 4xx
    std::vector<Span> spans;
};

/// An OTLP/HTTP trace receiver: `POST /v1/traces` with `application/json` or
/// `application/x-protobuf` bodies, optionally `Content-Encoding: gzip`, Content-Length or
/// chunked, keep-alive. A request is all or nothing: malformed (400), too large (413), wrong
/// type (415), unauthorised (401), wrong path (404) or method (405) changes nothing.
///
/// The HTTP server runs on its own thread. The sink is called on that thread with every
/// accepted request's spans (it must be thread-safe with respect to its own state);
/// spansReceived() is then emitted (queued to receivers on other threads).
class OtlpReceiver : public QObject {
    Q_OBJECT
public:
    using SpanSink = std::function<void(std::vector<Span>&&)>;

    explicit OtlpReceiver(ReceiverOptions options = {}, QObject* parent = nullptr);
    /// Stops listening and joins the thread.
    ~OtlpReceiver() override;

    /// Set before start().
    void setSink(SpanSink sink);
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
        std::atomic<qint64> rejected{0};
        std::atomic<qint64> spans{0};
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
    HttpServer* m_server = nullptr;
    quint16 m_port = 0;
    std::shared_ptr<Counters> m_counters;
};

/// Inflates a gzip (or zlib) stream, failing past `maxBytes` of output (message "too large").
/// Pure.
Result<QByteArray> gunzip(const QByteArray& data, qint64 maxBytes);
/// Compresses `data` as gzip (what an exporter sends with `Content-Encoding: gzip`). Pure.
QByteArray gzipCompress(const QByteArray& data);

} // namespace hako::otel
