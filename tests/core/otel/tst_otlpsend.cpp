// Sending a run to an OTLP/HTTP endpoint (`hako run --otel-endpoint`): the headers reach the
// named endpoint and nobody else — a redirect is reported, never followed — and a header that
// would inject others is refused before anything is sent.
#include "openaitestserver.h"

#include "core/otel/otlpwriter.h"

#include <QTest>

using namespace hako;
using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;

namespace {

pdl::TraceNode smallTrace()
{
    pdl::TraceNode root;
    root.kind = pdl::BlockKind::Text;
    root.id = "text";
    root.result = pdl::Value("Hello");
    root.hasResult = true;
    root.startNanos = 1'700'000'000'000'000'000;
    root.endNanos = root.startNanos + 1'000'000;
    return root;
}

const QStringList kHeaders = {QStringLiteral("Authorization=Bearer collector-secret-1234"),
                              QStringLiteral("X-Tenant=acme")};

} // namespace

class TestOtlpSend : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sendsToTheEndpointWithItsHeaders()
    {
        OpenAiTestServer collector;
        QVERIFY(collector.start());
        ScriptedReply ok;
        ok.body = "{}";
        collector.enqueue("/v1/traces", ok);
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(collector.port()));
        QString error;
        QVERIFY2(otel::postOtlp(smallTrace(), url, kHeaders, {}, &error), qPrintable(error));
        QCOMPARE(collector.requestCount(), 1);
        const testing::RecordedRequest r = collector.requests().first();
        QCOMPARE(r.method, QByteArray("POST"));
        QCOMPARE(r.header("authorization"), QByteArray("Bearer collector-secret-1234"));
        QCOMPARE(r.header("x-tenant"), QByteArray("acme"));
        QCOMPARE(r.header("content-encoding"), QByteArray("gzip"));
    }

    void redirectsAreReportedNotFollowed_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("sameServer");
        for (int status : {301, 302, 303, 307, 308}) {
            QTest::addRow("%d to another port", status) << status << false;
            QTest::addRow("%d on the same server", status) << status << true;
        }
    }
    void redirectsAreReportedNotFollowed()
    {
        QFETCH(int, status);
        QFETCH(bool, sameServer);
        OpenAiTestServer endpoint, elsewhere;
        QVERIFY(endpoint.start());
        QVERIFY(elsewhere.start());
        const QString target = QStringLiteral("http://127.0.0.1:%1/v1/traces")
                                   .arg(sameServer ? endpoint.port() : elsewhere.port());
        ScriptedReply redirect;
        redirect.status = status;
        redirect.headers = {{"Location", target.toUtf8()}};
        endpoint.enqueue("/v1/traces", redirect);
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(endpoint.port()));
        QString error;
        QVERIFY(!otel::postOtlp(smallTrace(), url, kHeaders, {}, &error));
        QVERIFY2(error.contains(QStringLiteral("redirected to %1; use that URL").arg(target)),
                 qPrintable(error));
        // The named endpoint got the headers once; the other server never heard of them.
        QCOMPARE(endpoint.requestCount(), 1);
        QCOMPARE(elsewhere.requestCount(), 0);
        for (const testing::RecordedRequest& r : elsewhere.requests())
            QVERIFY(r.header("authorization").isEmpty());
    }

    void injectingHeadersAreRefused_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("says");
        QTest::newRow("LF in value")
            << QStringLiteral("X-A=1\nX-Injected: 2")
            << QStringLiteral("header 'X-A': its value holds a line break");
        QTest::newRow("CRLF in value") << QStringLiteral("Authorization=Bearer t\r\nHost: evil")
                                       << QStringLiteral("header 'Authorization'");
        QTest::newRow("NUL in value")
            << QStringLiteral("X-A=a") + QChar(0) + QStringLiteral("b") << QStringLiteral("NUL");
        QTest::newRow("CRLF in name")
            << QStringLiteral("X-A\r\nX-B=1") << QStringLiteral("header 'X-A\\x0d\\x0aX-B'");
        QTest::newRow("space in name")
            << QStringLiteral("X A=1") << QStringLiteral("a character a name cannot have");
        QTest::newRow("colon in name")
            << QStringLiteral("X-A: b=1") << QStringLiteral("a character a name cannot have");
        QTest::newRow("no name") << QStringLiteral("=1") << QStringLiteral("has no name");
        QTest::newRow("escape in value")
            << QStringLiteral("X-A=\x1b[31m") << QStringLiteral("control character");
    }
    void injectingHeadersAreRefused()
    {
        QFETCH(QString, header);
        QFETCH(QString, says);
        auto parsed = otel::otlpHeaders({header});
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().message.contains(says), qPrintable(parsed.error().message));
        // The value (often a secret) is not repeated in the message.
        QVERIFY(!parsed.error().message.contains(QLatin1String("Injected")));
        QVERIFY(!parsed.error().message.contains(QLatin1String("evil")));

        OpenAiTestServer collector;
        QVERIFY(collector.start());
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(collector.port()));
        QString error;
        QVERIFY(!otel::postOtlp(smallTrace(), url, {header}, {}, &error));
        QCOMPARE(error, parsed.error().message);
        QCOMPARE(collector.requestCount(), 0);
    }

    void headersAreTrimmedAndMayHoldEquals()
    {
        auto parsed = otel::otlpHeaders({QStringLiteral(" X-Sig = a=b==\t")});
        QVERIFY(parsed);
        QCOMPARE(parsed->size(), 1);
        QCOMPARE(parsed->first().first, QByteArray("X-Sig"));
        QCOMPARE(parsed->first().second, QByteArray("a=b=="));
    }
};

QTEST_GUILESS_MAIN(TestOtlpSend)
#include "tst_otlpsend.moc"
