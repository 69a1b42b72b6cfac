#include "core/util/httpserver.h"

#include "core/util/httpserverengine_p.h"
#include "core/util/ipaddress.h"
#include "core/util/siblingmodule.h"

#include <QThread>

#include <memory>

namespace hako {

QByteArray HttpRequest::header(const char* name) const
{
    auto it = headers.find(name);
    return it == headers.end() ? QByteArray() : it->second;
}

bool HttpServer::bearerMatches(const QByteArray& authorization, const QByteArray& token)
{
    const QByteArray value = authorization.trimmed();
    qsizetype gap = 0;
    while (gap < value.size() && value[gap] != ' ' && value[gap] != '\t')
        ++gap;
    if (value.left(gap).toLower() != "bearer")
        return false;
    const QByteArray given = value.mid(gap).trimmed();
    if (given.size() != token.size() || token.isEmpty())
        return false;
    // Every byte is looked at whatever the first difference: the time taken does not say
    // how much of a guess was right.
    unsigned char differ = 0;
    for (qsizetype i = 0; i < token.size(); ++i)
        differ |= static_cast<unsigned char>(given[i] ^ token[i]);
    return differ == 0;
}

const char* HttpServer::reason(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Content";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    }
    return "Error";
}

HttpServer::HttpServer(HttpServerOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options))
{}

HttpServer::~HttpServer()
{
    stop();
}

HttpServerEngine::~HttpServerEngine() = default;

namespace {

/// The module's factory, loaded on the first start() of the process.
HttpServerEngineFactory serverEngineFactory(QString* error)
{
    static QString loadError;
    static const auto factory = reinterpret_cast<HttpServerEngineFactory>(
        siblingModuleSymbol(reinterpret_cast<const void*>(&HttpServer::reason), kNetModuleFile,
                            kServerEngineEntry, &loadError));
    *error = loadError;
    return factory;
}

} // namespace

Result<quint16> HttpServer::start()
{
    if (m_thread)
        return m_port;
    if (!isLoopbackAddress(m_options.address) && m_options.bearerToken.isEmpty())
        return makeError(QStringLiteral("listening on %1 (beyond loopback) needs a bearer token")
                             .arg(m_options.address));
    QString why;
    const HttpServerEngineFactory factory = serverEngineFactory(&why);
    if (!factory)
        return makeError(
            QStringLiteral("cannot listen: the network module could not be loaded (%1)").arg(why));
    m_thread = new QThread;
    m_thread->setObjectName(m_options.threadName);
    HttpServerEngine* worker = factory(this);
    worker->moveToThread(m_thread);
    QObject::connect(m_thread, &QThread::finished, worker, &QObject::deleteLater);
    m_thread->start();
    m_worker = worker;
    Result<quint16> result = makeError(QStringLiteral("the server thread did not start"));
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

void HttpServer::stop()
{
    if (!m_thread)
        return;
    HttpServerEngine* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker] { worker->shutdown(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_worker = nullptr;
    m_port = 0;
}

} // namespace hako
