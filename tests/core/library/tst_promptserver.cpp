// The prompt library served to applications: the list, a prompt by label or version with its
// rendered messages, only saved versions, answers refreshed when a version is saved or a label
// moves, the token beyond loopback, and a real HTTP exchange.

#include "core/library/promptserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace hako;
using namespace hako::library;

namespace {

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

QByteArray program(const QByteArray& greeting)
{
    return "# hako-prompt: 5e5e5e5e5e5e\n"
           "description: 挨拶\n"
           "text:\n"
           "- model: ollama/granite\n"
           "  input: \"" +
           greeting + " ${ name }\"\n";
}

HttpRequest get(const QByteArray& target)
{
    HttpRequest r;
    r.method = "GET";
    r.target = target;
    const qsizetype q = target.indexOf('?');
    r.path = q < 0 ? target : target.left(q);
    r.query = q < 0 ? QByteArray() : target.mid(q + 1);
    return r;
}

QJsonObject body(const HttpResponse& r)
{
    return QJsonDocument::fromJson(r.body).object();
}

} // namespace

class TestPromptServer : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_file;

private Q_SLOTS:
    void initTestCase()
    {
        if (!GitRepo::available())
            QSKIP("git is not installed");
        Result<PromptLibrary> lib = PromptLibrary::create(m_dir.path());
        QVERIFY(lib.ok());
        m_file = m_dir.filePath(QStringLiteral("greet.pdl"));
        write(m_file, program("こんにちは"));
        QVERIFY(lib->saveVersion(m_file, QStringLiteral("v1")).ok());
        write(m_file, program("Hello"));
        QVERIFY(lib->saveVersion(m_file, QStringLiteral("v2")).ok());
        QVERIFY(lib->setLabel(*lib->find(QStringLiteral("挨拶")), QStringLiteral("production"),
                              QStringLiteral("1"))
                    .ok());
    }

    void listAndGet()
    {
        PromptServer server(*PromptLibrary::open(m_dir.path()), {}, 0);
        const HttpResponse list = server.answer(get("/v1/prompts"));
        QCOMPARE(list.status, 200);
        const QJsonArray prompts = body(list).value(QLatin1String("prompts")).toArray();
        QCOMPARE(prompts.size(), 1);
        QCOMPARE(prompts[0].toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("挨拶"));
        QCOMPARE(prompts[0].toObject().value(QLatin1String("version")).toInt(), 2);
        QCOMPARE(prompts[0]
                     .toObject()
                     .value(QLatin1String("labels"))
                     .toObject()
                     .value(QLatin1String("production"))
                     .toInt(),
                 1);

        const QByteArray name = QUrl::toPercentEncoding(QStringLiteral("挨拶"));
        const QByteArray vars = QUrl::toPercentEncoding(QStringLiteral("{\"name\":\"花子\"}"));
        const HttpResponse prod =
            server.answer(get("/v1/prompts/" + name + "?label=production&variables=" + vars));
        QCOMPARE(prod.status, 200);
        const QJsonObject p = body(prod);
        QCOMPARE(
            p.value(QLatin1String("version")).toObject().value(QLatin1String("number")).toInt(), 1);
        QVERIFY(
            p.value(QLatin1String("program")).toString().contains(QStringLiteral("こんにちは")));
        const QJsonArray messages = p.value(QLatin1String("messages")).toArray();
        QCOMPARE(messages.last().toObject().value(QLatin1String("content")).toString(),
                 QStringLiteral("こんにちは 花子"));

        QCOMPARE(server.answer(get("/v1/prompts/" + name + "?version=2")).status, 200);
        // Form encoding, as Python's urlencode and browsers send it: `+` for a space.
        const HttpResponse form = server.answer(get(
            "/v1/prompts/" + name + "?label=production&variables=%7B%22name%22%3A+%22A+B%22%7D"));
        QCOMPARE(body(form)
                     .value(QLatin1String("messages"))
                     .toArray()
                     .last()
                     .toObject()
                     .value(QLatin1String("content")),
                 QJsonValue(QStringLiteral("こんにちは A B")));
        QCOMPARE(server.answer(get("/v1/prompts/" + name + "?label=canary")).status, 404);
        QCOMPARE(server.answer(get("/v1/prompts/nothing")).status, 404);
        QCOMPARE(server.answer(get("/v1/prompts/" + name + "?label=production&version=2")).status,
                 400);
    }

    // An edit is never served until it is saved as a version; a new version or label move is
    // served once saved.
    void onlySavedVersionsAndFresh()
    {
        PromptServer server(*PromptLibrary::open(m_dir.path()), {}, 0);
        const QByteArray target = "/v1/prompts/greet";
        QVERIFY(body(server.answer(get(target)))
                    .value(QLatin1String("program"))
                    .toString()
                    .contains(QLatin1String("Hello")));
        write(m_file, program("UNSAVED"));
        QVERIFY(!body(server.answer(get(target)))
                     .value(QLatin1String("program"))
                     .toString()
                     .contains(QLatin1String("UNSAVED")));
        PromptLibrary lib = *PromptLibrary::open(m_dir.path());
        QVERIFY(lib.saveVersion(m_file, QStringLiteral("v3")).ok());
        QVERIFY(body(server.answer(get(target)))
                    .value(QLatin1String("program"))
                    .toString()
                    .contains(QLatin1String("UNSAVED")));
        QVERIFY(lib.setLabel(*lib.find(QStringLiteral("greet")), QStringLiteral("production"),
                             QStringLiteral("3"))
                    .ok());
        QCOMPARE(body(server.answer(get(target + "?label=production")))
                     .value(QLatin1String("version"))
                     .toObject()
                     .value(QLatin1String("number"))
                     .toInt(),
                 3);
    }

    void renderByPost()
    {
        PromptServer server(*PromptLibrary::open(m_dir.path()), {}, 0);
        HttpRequest r;
        r.method = "POST";
        r.target = r.path = "/v1/prompts/greet/render";
        r.body = R"({"version": 1, "variables": {"name": "Ada"}})";
        const HttpResponse reply = server.answer(r);
        QCOMPARE(reply.status, 200);
        QCOMPARE(body(reply)
                     .value(QLatin1String("messages"))
                     .toArray()
                     .last()
                     .toObject()
                     .value(QLatin1String("content")),
                 QJsonValue(QStringLiteral("こんにちは Ada")));
        r.body = "not json";
        QCOMPARE(server.answer(r).status, 400);
    }

    void overTheNetwork()
    {
        HttpServerOptions options;
        options.bearerToken = "s3cret";
        PromptServer server(*PromptLibrary::open(m_dir.path()), options);
        Result<quint16> port = server.start();
        QVERIFY(port.ok());
        auto exchange = [&](const QByteArray& request) {
            QTcpSocket socket;
            socket.connectToHost(QStringLiteral("127.0.0.1"), *port);
            if (!socket.waitForConnected(5000))
                return QByteArray();
            socket.write(request);
            QByteArray reply;
            while (socket.waitForReadyRead(5000)) {
                reply += socket.readAll();
                if (reply.contains("\r\n\r\n") && reply.endsWith("}"))
                    break;
            }
            return reply;
        };
        QVERIFY(exchange("GET /v1/prompts HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .startsWith("HTTP/1.1 401"));
        const QByteArray ok = exchange("GET /v1/prompts HTTP/1.1\r\nHost: x\r\nAuthorization: "
                                       "Bearer s3cret\r\nConnection: close\r\n\r\n");
        QVERIFY2(ok.startsWith("HTTP/1.1 200"), ok.constData());
        QVERIFY(ok.contains("greet.pdl"));
        QVERIFY(exchange("DELETE /v1/prompts HTTP/1.1\r\nAuthorization: Bearer s3cret\r\n\r\n")
                    .startsWith("HTTP/1.1 405"));
        server.stop();
        // Beyond loopback without a token: refused.
        HttpServerOptions open;
        open.address = QStringLiteral("0.0.0.0");
        PromptServer exposed(*PromptLibrary::open(m_dir.path()), open);
        QVERIFY(!exposed.start().ok());
    }
};

QTEST_GUILESS_MAIN(TestPromptServer)
#include "tst_promptserver.moc"
