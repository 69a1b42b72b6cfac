#include "core/models/httptransport.h"

#include <QNetworkAccessManager>
#include <QNetworkRequest>
#include <QThread>
#include <QTimer>

#include <chrono>

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
        QNetworkReply* reply = r.body.isNull() && r.verb == "GET"
                                   ? nam->get(request)
                                   : nam->sendCustomRequest(request, r.verb, r.body);
        ex->m_reply = reply;
        auto* timer = new QTimer(reply);
        timer->setSingleShot(true);
        timer->setProperty("phase", QStringLiteral("connect"));
        timer->start(r.connectTimeoutMs);
        const int idleMs = r.idleTimeoutMs;
        connect(timer, &QTimer::timeout, reply, [ex, reply, timer] {
            {
                std::lock_guard lock(ex->m_mutex);
                ex->m_timedOut = timer->property("phase").toString();
            }
            reply->abort();
        });
        connect(reply, &QNetworkReply::requestSent, timer, [timer, idleMs] {
            timer->setProperty("phase", QStringLiteral("idle"));
            timer->start(idleMs);
        });
        connect(reply, &QNetworkReply::metaDataChanged, reply, [ex, reply] {
            std::lock_guard lock(ex->m_mutex);
            ex->m_status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            ex->m_headers = reply->rawHeaderPairs();
        });
        connect(reply, &QNetworkReply::readyRead, reply, [ex, reply, timer, idleMs] {
            if (timer->property("phase").toString() == QLatin1String("connect"))
                timer->setProperty("phase", QStringLiteral("idle"));
            timer->start(idleMs);
            const QByteArray data = reply->readAll();
            if (data.isEmpty())
                return;
            {
                std::lock_guard lock(ex->m_mutex);
                ex->m_pending += data;
            }
            ex->m_cv.notify_all();
        });
        connect(reply, &QNetworkReply::finished, this, [this, ex, reply] {
            const QByteArray rest = reply->isOpen() ? reply->readAll() : QByteArray();
            {
                std::lock_guard lock(ex->m_mutex);
                ex->m_pending += rest;
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
