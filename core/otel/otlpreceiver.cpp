#include "core/otel/otlpreceiver.h"

#include "core/otel/otlpdecode.h"
#include "core/util/httpserver.h"

#include <QPointer>

#include <zlib.h>

#include <memory>

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
    while (true) {
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
        if (rc == Z_STREAM_END) {
            // A gzip file may be several members one after another (RFC 1952 2.2), as
            // `cat a.gz b.gz` or a streaming compressor makes it: each is inflated in turn,
            // all of them under the one size limit.
            if (zs.avail_in == 0)
                break;
            if (inflateReset(&zs) != Z_OK) {
                inflateEnd(&zs);
                return makeError(QStringLiteral("malformed gzip body"));
            }
            continue;
        }
        if (produced == 0 && zs.avail_in == 0) {
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
        data = std::move(inflated).value();
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
    reply.spans = std::move(spans).value(); // not *spans: that copies
    if (json)
        reply.json = data; // shared, not copied
    return reply;
}

namespace {

// OTLP's error body: google.rpc.Status {code = 3 (INVALID_ARGUMENT), message}, as JSON or
// protobuf like the request.
HttpResponse statusReply(int status, const QByteArray& message, bool protobuf)
{
    HttpResponse r;
    r.status = status;
    r.message = message;
    r.contentType = protobuf ? "application/x-protobuf" : "application/json";
    if (status == 200) {
        r.body = protobuf ? QByteArray() : QByteArray("{}");
    } else if (protobuf) {
        r.body.append(char(0x08)).append(char(3));
        QByteArray m = message.left(1000);
        r.body.append(char(0x12));
        quint64 n = quint64(m.size());
        while (n >= 0x80) {
            r.body.append(char(uchar(n) | 0x80));
            n >>= 7;
        }
        r.body.append(char(n));
        r.body.append(m);
    } else {
        r.body = "{\"code\":3,\"message\":" +
                 QByteArray::fromStdString(
                     nlohmann::json(message.left(1000).toStdString())
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) +
                 "}";
    }
    return r;
}

bool wantsProtobuf(const HttpRequest& r)
{
    return r.header("content-type").contains("protobuf");
}

} // namespace

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

void OtlpReceiver::setStoringSink(StoringSink sink)
{
    m_storingSink = std::move(sink);
}

Result<quint16> OtlpReceiver::start()
{
    if (m_server)
        return m_port;
    HttpServerOptions o;
    o.address = m_options.address;
    o.port = m_options.port;
    o.bearerToken = m_options.bearerToken;
    o.maxBodyBytes = m_options.maxBodyBytes;
    o.maxConnections = m_options.maxConnections;
    o.idleTimeoutMs = m_options.idleTimeoutMs;
    o.headTimeoutMs = m_options.headTimeoutMs;
    o.minBodyBytesPerSec = m_options.minBodyBytesPerSec;
    o.bodyGraceMs = m_options.bodyGraceMs;
    o.threadName = QStringLiteral("otlp-receiver");
    m_server = new HttpServer(o, this);
    m_server->setHeadCheck([](const HttpRequest& r) -> std::optional<HttpResponse> {
        if (r.path != "/v1/traces")
            return statusReply(404, "only /v1/traces is served", wantsProtobuf(r));
        if (r.method != "POST")
            return statusReply(405, "POST only", wantsProtobuf(r));
        return std::nullopt;
    });
    m_server->setErrorFormat([](int status, const QByteArray& message, const HttpRequest& r) {
        return statusReply(status, message, wantsProtobuf(r));
    });
    const ReceiverOptions options = m_options;
    const SpanSink sink = m_sink;
    const StoringSink storingSink = m_storingSink;
    const std::shared_ptr<Counters> counters = m_counters;
    QPointer<OtlpReceiver> self(this);
    m_server->setHandler([options, sink, storingSink, counters, self](const HttpRequest& r) {
        ++counters->requests;
        ReceiverReply reply = OtlpReceiver::process(r.header("content-type"),
                                                    r.header("content-encoding"), r.body, options);
        if (reply.status == 200 && storingSink) {
            const QString why = storingSink(reply.spans, reply.json);
            if (!why.isEmpty()) {
                ++counters->unstored;
                HttpResponse busy = statusReply(503, why.toUtf8(), wantsProtobuf(r));
                busy.headers << "Retry-After: 5";
                return busy;
            }
        }
        if (reply.status == 200) {
            ++counters->accepted;
            const int count = int(reply.spans.size());
            counters->spans += count;
            if (sink && count > 0)
                sink(std::move(reply.spans));
            if (self)
                QMetaObject::invokeMethod(self.data(), [self, count] {
                    if (self)
                        Q_EMIT self->spansReceived(count);
                });
        }
        return statusReply(reply.status, reply.message, wantsProtobuf(r));
    });
    // Counted on the server's thread, as the answer goes out; reported on this one.
    QObject::connect(m_server, &HttpServer::requestRejected,
                     [counters](int, const QString&) { ++counters->rejected; });
    QObject::connect(m_server, &HttpServer::requestRejected, this, &OtlpReceiver::requestRejected);
    Result<quint16> result = m_server->start();
    if (!result) {
        delete m_server;
        m_server = nullptr;
        return result;
    }
    m_port = *result;
    return result;
}

void OtlpReceiver::stop()
{
    if (!m_server)
        return;
    m_server->stop();
    delete m_server;
    m_server = nullptr;
    m_port = 0;
}

} // namespace hako::otel
