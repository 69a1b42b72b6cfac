// Hako's HTTP/1.1 client: the response parser, fed in every possible split of the bytes (a
// server's writes arrive in any pieces), its errors, and the transport over TLS.

#include "openaitestserver.h"

#include "core/models/httptransport.h"
#include "core/util/httpmessagereader.h"

#include <QFile>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTest>
#include <QThread>

using namespace hako;
using namespace hako::models;

namespace {

struct Parsed {
    HttpMessageReader::State state = HttpMessageReader::State::Head;
    int status = 0;
    QByteArray body;
    QByteArray contentType;
    bool reusable = false;
    QString error;
};

Parsed parse(const QList<QByteArray>& pieces, bool closeAtEnd, bool head = false)
{
    HttpMessageReader p(HttpMessageReader::Kind::Response, {}, head);
    Parsed out;
    for (const QByteArray& piece : pieces)
        p.feed(piece, out.body);
    if (closeAtEnd)
        p.endOfStream();
    out.state = p.state();
    out.status = p.status();
    out.contentType = p.header("content-type");
    out.reusable = p.reusable();
    out.error = p.error();
    return out;
}

/// Serves one fixed reply over TLS with the test certificate, on its own thread.
class TlsServer : public QObject {
public:
    QThread thread;
    quint16 port = 0;

    bool start()
    {
        QFile crt(QStringLiteral(HAKO_TEST_DATA_DIR "/models/localhost-test.crt"));
        QFile key(QStringLiteral(HAKO_TEST_DATA_DIR "/models/localhost-test.key"));
        if (!crt.open(QIODevice::ReadOnly) || !key.open(QIODevice::ReadOnly))
            return false;
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setLocalCertificate(QSslCertificate(crt.readAll()));
        config.setPrivateKey(QSslKey(key.readAll(), QSsl::Rsa));
        moveToThread(&thread);
        thread.start();
        QMetaObject::invokeMethod(
            this,
            [this, config] {
                auto* server = new QSslServer(this);
                server->setSslConfiguration(config);
                connect(server, &QTcpServer::pendingConnectionAvailable, this, [server] {
                    while (QTcpSocket* s = server->nextPendingConnection()) {
                        QObject::connect(s, &QIODevice::readyRead, s, [s] {
                            if (s->property("answered").toBool())
                                return;
                            QByteArray seen = s->property("seen").toByteArray() + s->readAll();
                            s->setProperty("seen", seen);
                            if (!seen.contains("\r\n\r\n"))
                                return;
                            s->setProperty("answered", true);
                            s->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                                     "Transfer-Encoding: chunked\r\n\r\n"
                                     "5\r\nhello\r\n6\r\n, tls!\r\n0\r\n\r\n");
                        });
                        QObject::connect(s, &QAbstractSocket::disconnected, s,
                                         &QObject::deleteLater);
                    }
                });
                server->listen(QHostAddress::LocalHost);
                port = server->serverPort();
            },
            Qt::BlockingQueuedConnection);
        return port != 0;
    }

    ~TlsServer()
    {
        QMetaObject::invokeMethod(
            this, [this] { qDeleteAll(children()); }, Qt::BlockingQueuedConnection);
        thread.quit();
        thread.wait();
    }
};

/// Runs one GET to the end: the status, the body and the error string.
struct Outcome {
    int status = 0;
    QByteArray body;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
};

Outcome get(HttpTransport& transport, const QUrl& url,
            const QList<QPair<QByteArray, QByteArray>>& headers = {})
{
    HttpTransport::Request r;
    r.url = url;
    r.headers = headers;
    r.connectTimeoutMs = 20000;
    const auto ex = transport.start(r);
    Outcome out;
    QByteArray chunk;
    while (ex->next(chunk, CancelToken()) == HttpExchange::Event::Data)
        out.body += chunk;
    out.status = ex->status();
    out.error = ex->error();
    out.errorString = ex->errorString();
    return out;
}

} // namespace

class TestHttpTransport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everySplitParsesAlike_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("closeAtEnd");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("reusable");
        QTest::newRow("content-length")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                          "Content-Length: 11\r\n\r\n{\"a\": true}")
            << false << 200 << QByteArray("{\"a\": true}") << true;
        QTest::newRow("chunked, extensions, trailers")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "4;note=x\r\ndata\r\nA\r\n: {\"x\":1}\n\r\n0\r\nX-Trailer: t\r\n\r\n")
            << false << 200 << QByteArray("data: {\"x\":1}\n") << true;
        QTest::newRow("until close") << QByteArray("HTTP/1.1 200 OK\r\n\r\nall of it") << true
                                     << 200 << QByteArray("all of it") << false;
        QTest::newRow("interim 100 first")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\n"
                          "Content-Length: 2\r\n\r\nok")
            << false << 201 << QByteArray("ok") << true;
        QTest::newRow("204 has no body")
            << QByteArray("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n") << false << 204
            << QByteArray() << true;
        QTest::newRow("connection close")
            << QByteArray("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx")
            << false << 200 << QByteArray("x") << false;
        QTest::newRow("HTTP/1.0") << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\ny")
                                  << false << 200 << QByteArray("y") << false;
        QTest::newRow("bare line feeds")
            << QByteArray("HTTP/1.1 404 Not Found\nContent-Length: 3\n\nnot") << false << 404
            << QByteArray("not") << true;
    }
    void everySplitParsesAlike()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, closeAtEnd);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, reusable);
        for (qsizetype a = 0; a <= bytes.size(); ++a) {
            for (qsizetype b = a; b <= bytes.size(); b += 3) {
                const Parsed p =
                    parse({bytes.first(a), bytes.mid(a, b - a), bytes.mid(b)}, closeAtEnd);
                const QByteArray where = "split at " + QByteArray::number(a) + "," +
                                         QByteArray::number(b) + ": " + p.error.toUtf8();
                QVERIFY2(p.state == HttpMessageReader::State::Done, where.constData());
                QCOMPARE(p.status, status);
                QCOMPARE(p.body, body);
                QCOMPARE(p.reusable, reusable);
            }
        }
    }

    void headerValuesAreReadCaseInsensitively()
    {
        const Parsed p = parse({"HTTP/1.1 200 OK\r\ncontent-TYPE:   text/event-stream  \r\n"
                                "Content-Length: 0\r\n\r\n"},
                               false);
        QCOMPARE(p.contentType, QByteArray("text/event-stream"));
    }

    void extraBytesMakeTheConnectionUnusable()
    {
        const Parsed p = parse({"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxSURPRISE"}, false);
        QCOMPARE(p.state, HttpMessageReader::State::Done);
        QVERIFY(!p.reusable);
    }

    void headRepliesHaveNoBody()
    {
        const Parsed p = parse({"HTTP/1.1 200 OK\r\nContent-Length: 999\r\n\r\n"}, false, true);
        QCOMPARE(p.state, HttpMessageReader::State::Done);
        QVERIFY(p.reusable);
    }

    void malformedRepliesAreErrors_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("closeAtEnd");
        QTest::addColumn<QString>("says");
        QTest::newRow("garbled status")
            << QByteArray("HTTP/1.1 2x0 OK\r\n\r\n") << false << QStringLiteral("garbled");
        QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n") << false
                                  << QStringLiteral("not HTTP");
        QTest::newRow("bad chunk size")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") << false
            << QStringLiteral("chunk size");
        QTest::newRow("no CRLF after chunk")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab") << false
            << QStringLiteral("no line end");
        QTest::newRow("bad content-length")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n") << false
            << QStringLiteral("Content-Length");
        QTest::newRow("unknown transfer encoding")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n") << false
            << QStringLiteral("transfer encoding");
        QTest::newRow("header without colon")
            << QByteArray("HTTP/1.1 200 OK\r\nbroken header\r\n\r\n") << false
            << QStringLiteral("headers are malformed");
        QTest::newRow("closed without reply")
            << QByteArray() << true << QStringLiteral("without a reply");
        QTest::newRow("closed mid-headers") << QByteArray("HTTP/1.1 200 OK\r\nContent-Ty") << true
                                            << QStringLiteral("middle of the reply headers");
        QTest::newRow("truncated body")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc") << true
            << QStringLiteral("before the reply was complete");
    }
    void malformedRepliesAreErrors()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, closeAtEnd);
        QFETCH(QString, says);
        const Parsed p = parse({bytes}, closeAtEnd);
        QCOMPARE(p.state, HttpMessageReader::State::Failed);
        QVERIFY2(p.error.contains(says), qPrintable(p.error));
    }

    void headersAreBounded()
    {
        HttpMessageReader p(HttpMessageReader::Kind::Response);
        QByteArray body;
        QByteArray line = "X-Filler: " + QByteArray(1000, 'a') + "\r\n";
        bool ok = p.feed("HTTP/1.1 200 OK\r\n", body);
        for (int i = 0; ok && i < 200; ++i)
            ok = p.feed(line, body);
        QVERIFY(!ok);
        QVERIFY2(p.error().contains(QLatin1String("larger than 64 KB")), qPrintable(p.error()));
    }

    // An https endpoint whose certificate is not trusted is refused in the handshake; once
    // trusted, the same server's reply arrives.
    void tlsVerifiesTheServer()
    {
        if (!QSslSocket::supportsSsl())
            QSKIP("no TLS backend on this system");
        TlsServer server;
        QVERIFY(server.start());
        const QUrl url(QStringLiteral("https://localhost:%1/v1/models").arg(server.port));
        {
            HttpTransport transport;
            const Outcome refused = get(transport, url);
            QCOMPARE(refused.error, QNetworkReply::SslHandshakeFailedError);
            QCOMPARE(refused.status, 0);
            QVERIFY(refused.body.isEmpty());
        }
        QFile crt(QStringLiteral(HAKO_TEST_DATA_DIR "/models/localhost-test.crt"));
        QVERIFY(crt.open(QIODevice::ReadOnly));
        const QSslConfiguration saved = QSslConfiguration::defaultConfiguration();
        QSslConfiguration trusting = saved;
        trusting.addCaCertificate(QSslCertificate(crt.readAll()));
        QSslConfiguration::setDefaultConfiguration(trusting);
        HttpTransport transport;
        const Outcome ok = get(transport, url);
        QSslConfiguration::setDefaultConfiguration(saved);
        QVERIFY2(ok.error == QNetworkReply::NoError, qPrintable(ok.errorString));
        QCOMPARE(ok.status, 200);
        QCOMPARE(ok.body, QByteArray("hello, tls!"));
    }

    // A 3xx is handed back as it came: the Authorization meant for one server never reaches
    // the one a redirect names.
    void redirectsAreNotFollowed()
    {
        testing::OpenAiTestServer server, elsewhere;
        QVERIFY(server.start());
        QVERIFY(elsewhere.start());
        testing::ScriptedReply redirect;
        redirect.status = 307;
        redirect.headers = {
            {"Location", QStringLiteral("%1/models").arg(elsewhere.baseUrl()).toUtf8()}};
        server.enqueue("/v1/models", redirect);
        HttpTransport transport;
        const Outcome o = get(transport, QUrl(server.baseUrl() + QStringLiteral("/models")),
                              {{"Authorization", "Bearer sk-meant-for-one-server"}});
        QCOMPARE(o.status, 307);
        QCOMPARE(server.requestCount(), 1);
        QCOMPARE(server.requests().first().header("authorization"),
                 QByteArray("Bearer sk-meant-for-one-server"));
        QCOMPARE(elsewhere.requestCount(), 0);
    }

    void headerProblems_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("says"); // "" = fine
        QTest::newRow("plain") << QByteArray("Authorization") << QByteArray("Bearer a.b-c=")
                               << QString();
        QTest::newRow("token signs")
            << QByteArray("X-A!#$%&'*+.^_`|~1") << QByteArray("v") << QString();
        QTest::newRow("tab and UTF-8")
            << QByteArray("X-A") << QByteArray("a\tb \xe3\x81\x82") << QString();
        QTest::newRow("empty value") << QByteArray("X-A") << QByteArray() << QString();
        QTest::newRow("LF") << QByteArray("X-A") << QByteArray("a\nX-B: c")
                            << QStringLiteral("line break");
        QTest::newRow("CR") << QByteArray("X-A") << QByteArray("a\rb")
                            << QStringLiteral("line break");
        QTest::newRow("NUL") << QByteArray("X-A") << QByteArray("a\0b", 3) << QStringLiteral("NUL");
        QTest::newRow("DEL") << QByteArray("X-A") << QByteArray("a\x7f")
                             << QStringLiteral("control character");
        QTest::newRow("no name") << QByteArray() << QByteArray("v") << QStringLiteral("no name");
        QTest::newRow("colon in name")
            << QByteArray("X-A:") << QByteArray("v") << QStringLiteral("cannot have");
        QTest::newRow("LF in name")
            << QByteArray("X-A\nX-B") << QByteArray("v") << QStringLiteral("line break");
    }
    void headerProblems()
    {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        QFETCH(QString, says);
        const QString problem = headerProblem(name, value);
        if (says.isEmpty())
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        else
            QVERIFY2(problem.contains(says), qPrintable(problem));
    }

    // A request the caller let through with a line break in a header is not sent at all.
    void injectingHeadersAreNotSent()
    {
        testing::OpenAiTestServer server;
        QVERIFY(server.start());
        HttpTransport transport;
        const Outcome o = get(transport, QUrl(server.baseUrl() + QStringLiteral("/models")),
                              {{"X-A", "1\r\nX-Injected: 2"}});
        QCOMPARE(o.error, QNetworkReply::ProtocolInvalidOperationError);
        QVERIFY2(o.errorString.contains(QLatin1String("line break")), qPrintable(o.errorString));
        QCOMPARE(o.status, 0);
        QCOMPARE(server.requestCount(), 0);
    }

    void refusedConnectionIsAConnectError()
    {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        HttpTransport transport;
        const Outcome o = get(transport, QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)));
        QCOMPARE(o.error, QNetworkReply::ConnectionRefusedError);
        QVERIFY2(o.errorString.contains(QLatin1String("refused")), qPrintable(o.errorString));
    }
};

QTEST_GUILESS_MAIN(TestHttpTransport)
#include "tst_httptransport.moc"
