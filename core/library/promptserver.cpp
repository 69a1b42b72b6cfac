#include "core/library/promptserver.h"

#include "core/library/promptrender.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <QUrlQuery>

namespace hako::library {

struct PromptServer::State {
    State(PromptLibrary lib, int refresh) : library(std::move(lib)), refreshMs(refresh) {}
    PromptLibrary library;
    int refreshMs = 500;
    QString head;
    QElapsedTimer sinceCheck;
    QHash<QByteArray, HttpResponse> cache;
    /// Lookups (NAME@LABEL → the version and its text) at `head`: rendering for new variables
    /// then runs only the interpreter, not git.
    QHash<QString, ResolvedPrompt> resolved;
    std::atomic<qint64> requests{0};
};

namespace {

constexpr qsizetype kMaxCacheEntries = 4096;

HttpResponse json(int status, const QJsonObject& body)
{
    HttpResponse r;
    r.status = status;
    r.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    if (status >= 300)
        r.message = body.value(QLatin1String("error")).toString().toUtf8();
    r.headers << "Cache-Control: no-cache";
    return r;
}

HttpResponse error(int status, const QString& message)
{
    return json(status, QJsonObject{{QStringLiteral("error"), message}});
}

QJsonObject versionJson(const PromptVersion& v)
{
    return {{QStringLiteral("number"), v.number},
            {QStringLiteral("commit"), v.commit},
            {QStringLiteral("author"), v.author},
            {QStringLiteral("time"),
             QDateTime::fromSecsSinceEpoch(v.time, Qt::UTC).toString(Qt::ISODate)},
            {QStringLiteral("message"), v.message}};
}

HttpResponse listPrompts(const PromptLibrary& lib)
{
    Result<QList<LibraryPrompt>> prompts = lib.prompts();
    if (!prompts)
        return error(500, prompts.error().message);
    QJsonArray out;
    for (const LibraryPrompt& p : *prompts) {
        Result<QList<PromptVersion>> h = lib.history(p);
        QJsonObject labels;
        const QMap<QString, QString> named = lib.labels(p);
        for (auto it = named.begin(); it != named.end(); ++it)
            for (const PromptVersion& v : h ? *h : QList<PromptVersion>())
                if (v.commit == it.value())
                    labels.insert(it.key(), v.number);
        out.append(
            QJsonObject{{QStringLiteral("name"), p.name},
                        {QStringLiteral("id"), p.id},
                        {QStringLiteral("path"), p.path},
                        {QStringLiteral("version"), h && !h->isEmpty() ? h->first().number : 0},
                        {QStringLiteral("labels"), labels}});
    }
    return json(200, QJsonObject{{QStringLiteral("prompts"), out}});
}

HttpResponse onePrompt(const PromptLibrary& lib, QHash<QString, ResolvedPrompt>& resolved,
                       const QString& name, const QString& label, const QString& version,
                       const QJsonValue& variables)
{
    if (!label.isEmpty() && !version.isEmpty())
        return error(400, QStringLiteral("ask for a label or a version, not both"));
    const QString which = !label.isEmpty() ? label : version;
    const QString spec = which.isEmpty() ? name : name + QLatin1Char('@') + which;
    if (!resolved.contains(spec)) {
        Result<ResolvedPrompt> found = lib.get(spec);
        if (!found)
            return error(404, found.error().message);
        resolved.insert(spec, *found);
    }
    const ResolvedPrompt* r = &resolved[spec];
    if (!label.isEmpty() && r->label != label)
        return error(404, QStringLiteral("%1 has no label %2").arg(r->prompt.name, label));
    QJsonObject labels;
    for (auto it = r->labels.begin(); it != r->labels.end(); ++it)
        labels.insert(it.key(), it.value());
    QJsonObject out{{QStringLiteral("name"), r->prompt.name},
                    {QStringLiteral("id"), r->prompt.id},
                    {QStringLiteral("path"), r->version.path},
                    {QStringLiteral("label"), r->label},
                    {QStringLiteral("version"), versionJson(r->version)},
                    {QStringLiteral("labels"), labels},
                    {QStringLiteral("program"), QString::fromUtf8(r->text)}};
    if (!variables.isUndefined()) {
        if (!variables.isObject())
            return error(400, QStringLiteral("variables must be a JSON object"));
        Result<QJsonArray> calls = renderPromptMessages(
            r->text, QDir(lib.root()).filePath(r->version.path), variables.toObject());
        if (!calls)
            return error(422, calls.error().toString());
        out.insert(QStringLiteral("calls"), *calls);
        if (!calls->isEmpty())
            out.insert(QStringLiteral("messages"),
                       calls->at(0).toObject().value(QLatin1String("messages")));
    }
    return json(200, out);
}

} // namespace

PromptServer::PromptServer(PromptLibrary library, HttpServerOptions options, int refreshMs,
                           QObject* parent)
    : QObject(parent), m_state(std::make_shared<State>(std::move(library), refreshMs))
{
    options.threadName = QStringLiteral("prompt-server");
    m_server = new HttpServer(std::move(options), this);
    m_server->setHeadCheck([](const HttpRequest& r) -> std::optional<HttpResponse> {
        if (!r.path.startsWith("/v1/prompts"))
            return error(404, QStringLiteral("only /v1/prompts is served"));
        if (r.method != "GET" && r.method != "POST")
            return error(405, QStringLiteral("GET or POST"));
        return std::nullopt;
    });
    m_server->setHandler([this](const HttpRequest& r) { return answer(r); });
    connect(m_server, &HttpServer::requestRejected, this, &PromptServer::requestRejected);
}

PromptServer::~PromptServer()
{
    stop();
}

Result<quint16> PromptServer::start()
{
    return m_server->start();
}

void PromptServer::stop()
{
    m_server->stop();
}

qint64 PromptServer::requests() const
{
    return m_state->requests.load();
}

quint16 PromptServer::port() const
{
    return m_server->port();
}

HttpResponse PromptServer::answer(const HttpRequest& request)
{
    State& s = *m_state;
    ++s.requests;
    // A new commit (a saved version, a moved label) empties the cache.
    if (!s.sinceCheck.isValid() || s.sinceCheck.elapsed() >= s.refreshMs) {
        const QString head = s.library.git().head();
        if (head != s.head) {
            s.cache.clear();
            s.resolved.clear();
            s.head = head;
        }
        s.sinceCheck.start();
    }
    const QByteArray key = request.method + ' ' + request.target + '\n' + request.body;
    if (auto it = s.cache.constFind(key); it != s.cache.constEnd())
        return *it;

    const QByteArray path = request.path;
    // Form encoding (what most clients send): `+` is a space.
    const QUrlQuery query(QString::fromUtf8(QByteArray(request.query).replace('+', "%20")));
    HttpResponse r;
    if (path == "/v1/prompts" || path == "/v1/prompts/") {
        r = listPrompts(s.library);
    } else {
        QString name = QUrl::fromPercentEncoding(path.mid(int(qstrlen("/v1/prompts/"))));
        if (request.method == "POST") {
            if (!name.endsWith(QLatin1String("/render")))
                return error(405, QStringLiteral("POST /v1/prompts/NAME/render"));
            name.chop(int(qstrlen("/render")));
            QJsonParseError parseError;
            const QJsonDocument doc = QJsonDocument::fromJson(request.body, &parseError);
            if (parseError.error != QJsonParseError::NoError || !doc.isObject())
                return error(400, QStringLiteral("the body must be a JSON object: %1")
                                      .arg(parseError.errorString()));
            const QJsonObject o = doc.object();
            r = onePrompt(s.library, s.resolved, name, o.value(QLatin1String("label")).toString(),
                          o.value(QLatin1String("version")).toVariant().toString(),
                          o.contains(QLatin1String("variables"))
                              ? o.value(QLatin1String("variables"))
                              : QJsonValue(QJsonObject()));
        } else {
            QJsonValue variables = QJsonValue::Undefined;
            if (query.hasQueryItem(QStringLiteral("variables"))) {
                const QByteArray text =
                    query.queryItemValue(QStringLiteral("variables"), QUrl::FullyDecoded).toUtf8();
                const QJsonDocument doc = QJsonDocument::fromJson(text);
                variables =
                    doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(QJsonValue::Null);
            }
            r = onePrompt(s.library, s.resolved, name,
                          query.queryItemValue(QStringLiteral("label"), QUrl::FullyDecoded),
                          query.queryItemValue(QStringLiteral("version"), QUrl::FullyDecoded),
                          variables);
        }
    }
    if (r.status < 500) {
        if (s.cache.size() >= kMaxCacheEntries) {
            s.cache.clear();
            s.resolved.clear();
        }
        s.cache.insert(key, r);
    }
    return r;
}

} // namespace hako::library
