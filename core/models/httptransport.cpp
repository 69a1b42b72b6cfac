#include "core/models/httptransport.h"

#include "core/models/httpclientengine_p.h"
#include "core/util/logging.h"
#include "core/util/siblingmodule.h"

#include <QThread>

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

QString headerProblem(const QByteArray& name, const QByteArray& value)
{
    if (name.isEmpty())
        return QStringLiteral("it has no name");
    static const QByteArray tokenSigns("!#$%&'*+-.^_`|~");
    for (const char ch : name) {
        const bool alnum =
            (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
        if (!alnum && !tokenSigns.contains(ch))
            return ch == '\r' || ch == '\n' || ch == '\0'
                       ? QStringLiteral("its name holds a line break or NUL")
                       : QStringLiteral("its name holds a character a name cannot "
                                        "have (only letters, digits and !#$%&'*+-.^_`|~)");
    }
    for (const char ch : value) {
        if (ch == '\r' || ch == '\n' || ch == '\0')
            return QStringLiteral("its value holds a line break (CR or LF) or NUL");
        if ((static_cast<unsigned char>(ch) < 0x20 && ch != '\t') || ch == 0x7f)
            return QStringLiteral("its value holds a control character");
    }
    return {};
}

HttpClientEngine::~HttpClientEngine() = default;

namespace {

/// The module's factory, loaded on the first request of the process.
HttpClientEngineFactory clientEngineFactory(QString* error)
{
    static QString loadError;
    static const auto factory = reinterpret_cast<HttpClientEngineFactory>(
        siblingModuleSymbol(reinterpret_cast<const void*>(&headerProblem), kNetModuleFile,
                            kClientEngineEntry, &loadError));
    *error = loadError;
    return factory;
}

} // namespace

HttpTransport::HttpTransport() = default;

HttpTransport::~HttpTransport()
{
    if (!m_thread)
        return;
    // The worker and its connections must die on their own thread; aborting first lets every
    // exchange still waiting see its end.
    bool deleted = false;
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, &deleted] {
            w->abortAll();
            delete w;
            deleted = true;
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    // A thread that no longer runs its event loop (stopped at the process's exit) drops the
    // call above unrun: its worker, with the connections it holds, goes here, now that nothing
    // runs on that thread any more.
    if (!deleted) {
        qCDebug(lcModels) << "the transport's thread had stopped; its worker is deleted here";
        delete m_worker;
    }
    delete m_thread;
}

bool HttpTransport::ensureStarted()
{
    std::call_once(m_started, [this] {
        const HttpClientEngineFactory factory = clientEngineFactory(&m_loadError);
        if (!factory)
            return;
        m_worker = factory();
        m_thread = new QThread;
        m_thread->setObjectName(QStringLiteral("hako-http"));
        m_worker->moveToThread(m_thread);
        m_thread->start();
    });
    return m_worker != nullptr;
}

std::shared_ptr<HttpExchange> HttpTransport::start(const Request& request)
{
    auto ex = std::make_shared<HttpExchange>();
    if (!ensureStarted()) {
        {
            std::lock_guard lock(ex->m_mutex);
            ex->m_finished = true;
            ex->m_error = QNetworkReply::UnknownNetworkError;
            ex->m_errorString =
                QStringLiteral("the network module could not be loaded (%1)").arg(m_loadError);
        }
        return ex;
    }
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, ex, request] { w->start(ex, request); }, Qt::QueuedConnection);
    return ex;
}

void HttpTransport::abort(const std::shared_ptr<HttpExchange>& exchange)
{
    if (!m_worker)
        return;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, exchange] { w->abort(exchange); }, Qt::QueuedConnection);
}

} // namespace hako::models
