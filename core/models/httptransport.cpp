#include "core/models/httptransport.h"

#include <QNetworkAccessManager>
#include <QNetworkRequest>
#include <QThread>
#include <QTimer>

#include <chrono>
#include <cstring>

namespace hako::models {

HttpExchange::Event HttpExchange::next(QByteArray& bytes, const CancelToken& cancel)
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (!m_pending.isEmpty()) {
            bytes.clear();
            bytes.swap(m_pending);
            return Event::Data;
        }
        if (m_finished)
            return Event::Finished;
        if (cancel.isCancelled())
            return Event::Cancelled;
        m_cv.wait_for(lock, std::chrono::milliseconds(10));
    }
}

int HttpExchange::status() const
{
    std::lock_guard lock(m_mutex);
    return m_status;
}

QByteArray HttpExchange::header(const QByteArray& name) const
{
    std::lock_guard lock(m_mutex);
    for (const auto& h : m_headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

QNetworkReply::NetworkError HttpExchange::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

QString HttpExchange::errorString() const
{
    std::lock_guard lock(m_mutex);
    return m_errorString;
}

QString HttpExchange::timedOut() const
{
    std::lock_guard lock(m_mutex);
    return m_timedOut;
}

qint64 HttpExchange::received() const
{
    std::lock_guard lock(m_mutex);
    return m_received;
}

namespace {

/// A request body that can be read once: Qt's automatic re-send needs to rewind the body, which
/// this refuses, so only the caller ever sends a request again.
class OneShotBody : public QIODevice {
public:
    OneShotBody(QByteArray data, QObject* parent) : QIODevice(parent), m_data(std::move(data))
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }
    bool reset() override { return false; }
    bool seek(qint64) override { return false; }
    qint64 bytesAvailable() const override
    {
        return m_data.size() - m_pos + QIODevice::bytesAvailable();
    }

protected:
    qint64 readData(char* data, qint64 maxSize) override
    {
        const qint64 n = std::min<qint64>(maxSize, m_data.size() - m_pos);
        if (n <= 0)
            return m_pos >= m_data.size() ? -1 : 0;
        std::memcpy(data, m_data.constData() + m_pos, size_t(n));
        m_pos += n;
        return n;
    }
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    QByteArray m_data;
    qint64 m_pos = 0;
};

} // namespace

/// Lives on the transport's thread and owns the QNetworkAccessManager there.
class HttpWorker : public QObject {
public:
    QNetworkAccessManager* nam = nullptr;

    void start(const std::shared_ptr<HttpExchange>& ex, const HttpTransport::Request& r)
    {
        if (!nam)
            nam = new QNetworkAccessManager(this);
        if (ex->m_aborted) {
            finish(ex, QNetworkReply::OperationCanceledError, QStringLiteral("cancelled"));
            return;
        }
        QNetworkRequest request(r.url);
        for (const auto& h : r.headers)
            request.setRawHeader(h.first, h.second);
        // Redirects could carry the Authorization header elsewhere; an endpoint must be exact.
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                             QNetworkRequest::ManualRedirectPolicy);
        QNetworkReply* reply = nullptr;
        if (r.body.isNull() && r.verb == "GET") {
            reply = nam->get(request);
        } else {
            // Unbuffered and not rewindable: Qt cannot re-send it on its own (see the class
            // comment); it needs the length to stream it.
            request.setHeader(QNetworkRequest::ContentLengthHeader, qint64(r.body.size()));
            request.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
            auto* body = new OneShotBody(r.body, nullptr);
            reply = nam->sendCustomRequest(request, r.verb, body);
            body->setParent(reply);
        }
        ex->m_reply = reply;
        auto* timer = new QTimer(reply);
        timer->setSingleShot(true);
        timer->setProperty("phase", QStringLiteral("connect"));
        timer->start(r.connectTimeoutMs);
        const int idleMs = r.idleTimeoutMs;
        const qint64 maxBytes = r.maxReplyBytes;
        auto stop = [ex, reply](const QString& why) {
            {
                std::lock_guard lock(ex->m_mutex);
                if (ex->m_timedOut.isEmpty())
                    ex->m_timedOut = why;
            }
            reply->abort();
        };
        connect(timer, &QTimer::timeout, reply,
                [stop, timer] { stop(timer->property("phase").toString()); });
        auto* deadline = new QTimer(reply);
        deadline->setSingleShot(true);
        connect(deadline, &QTimer::timeout, reply, [stop] { stop(QStringLiteral("deadline")); });
        deadline->start(std::max(1, r.deadlineMs));
        connect(reply, &QNetworkReply::requestSent, timer, [timer, idleMs] {
            timer->setProperty("phase", QStringLiteral("idle"));
            timer->start(idleMs);
        });
        connect(reply, &QNetworkReply::metaDataChanged, reply, [ex, reply] {
            std::lock_guard lock(ex->m_mutex);
            ex->m_status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            ex->m_headers = reply->rawHeaderPairs();
        });
        connect(reply, &QNetworkReply::readyRead, reply,
                [ex, reply, timer, idleMs, maxBytes, stop] {
                    if (timer->property("phase").toString() == QLatin1String("connect"))
                        timer->setProperty("phase", QStringLiteral("idle"));
                    timer->start(idleMs);
                    // Never more than the limit in memory: read at most what is still allowed.
                    qint64 allowed = 0;
                    {
                        std::lock_guard lock(ex->m_mutex);
                        allowed = maxBytes - ex->m_received;
                    }
                    const QByteArray data = reply->read(std::max<qint64>(0, allowed));
                    if (!data.isEmpty()) {
                        {
                            std::lock_guard lock(ex->m_mutex);
                            ex->m_pending += data;
                            ex->m_received += data.size();
                        }
                        ex->m_cv.notify_all();
                    }
                    if (reply->bytesAvailable() > 0)
                        stop(QStringLiteral("size"));
                });
        connect(reply, &QNetworkReply::finished, this, [this, ex, reply, maxBytes] {
            {
                std::lock_guard lock(ex->m_mutex);
                if (reply->isOpen() && ex->m_timedOut.isEmpty()) {
                    const QByteArray rest =
                        reply->read(std::max<qint64>(0, maxBytes - ex->m_received));
                    ex->m_pending += rest;
                    ex->m_received += rest.size();
                    if (reply->bytesAvailable() > 0)
                        ex->m_timedOut = QStringLiteral("size");
                }
                if (ex->m_status == 0)
                    ex->m_status =
                        reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                if (ex->m_headers.isEmpty())
                    ex->m_headers = reply->rawHeaderPairs();
            }
            ex->m_reply = nullptr;
            finish(ex, reply->error(), reply->errorString());
            reply->deleteLater();
        });
    }

    void abort(const std::shared_ptr<HttpExchange>& ex)
    {
        ex->m_aborted = true;
        if (ex->m_reply)
            ex->m_reply->abort();
    }

    void finish(const std::shared_ptr<HttpExchange>& ex, QNetworkReply::NetworkError error,
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

HttpTransport::HttpTransport() : m_thread(new QThread), m_worker(new HttpWorker)
{
    m_thread->setObjectName(QStringLiteral("hako-http"));
    m_worker->moveToThread(m_thread);
    m_thread->start();
}

HttpTransport::~HttpTransport()
{
    // The worker and its QNetworkAccessManager must die on their own thread; aborting first
    // lets every exchange still waiting see its end.
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker] {
            if (w->nam) {
                for (QNetworkReply* reply : w->nam->findChildren<QNetworkReply*>())
                    reply->abort();
            }
            delete w;
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

std::shared_ptr<HttpExchange> HttpTransport::start(const Request& request)
{
    auto ex = std::make_shared<HttpExchange>();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, ex, request] { w->start(ex, request); }, Qt::QueuedConnection);
    return ex;
}

void HttpTransport::abort(const std::shared_ptr<HttpExchange>& exchange)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, exchange] { w->abort(exchange); }, Qt::QueuedConnection);
}

} // namespace hako::models
