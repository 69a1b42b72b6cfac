#include "core/otel/otlpdecode.h"
#include "core/otel/otlpreceiver.h"

#include <QFile>
#include <QTcpSocket>
#include <QtTest>

#include <atomic>
#include <mutex>

using namespace hako;
using namespace hako::otel;

namespace {

QByteArray fixture(const char* name)
{
    QFile f(QStringLiteral(HAKO_TEST_DATA_DIR "/otel/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// One request over a fresh connection; gives the status (0 when none came back).
int statusOf(const QByteArray& response)
{
    const QList<QByteArray> first = response.left(response.indexOf("\r\n")).split(' ');
    return first.size() >= 2 ? first[1].toInt() : 0;
}

QByteArray exchange(quint16 port, const QByteArray& request, int timeoutMs = 10000)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(timeoutMs))
        return {};
    s.write(request);
    s.waitForBytesWritten(timeoutMs);
    QByteArray response;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (!s.waitForReadyRead(200) && s.state() != QAbstractSocket::ConnectedState)
            break;
        response += s.readAll();
        const qsizetype end = response.indexOf("\r\n\r\n");
        if (end >= 0) {
            const qsizetype at = response.toLower().indexOf("content-length:");
            const qint64 len = response.mid(at + 15, response.indexOf("\r\n", at) - at - 15)
                                   .trimmed()
                                   .toLongLong();
            if (response.size() >= end + 4 + len)
                break;
        }
    }
    return response;
}

QByteArray post(const QByteArray& body, const QByteArray& type = "application/json",
                const QByteArray& extra = {})
{
    return "POST /v1/traces HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + type +
           "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n" + extra + "\r\n" +
           body;
}

} // namespace

class TestOtlpReceiver : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<OtlpReceiver> m_receiver;
    std::mutex m_mutex;
    std::vector<Span> m_spans;

    size_t received()
    {
        std::lock_guard lock(m_mutex);
        return m_spans.size();
    }

private Q_SLOTS:
    void init()
    {
        ReceiverOptions options;
        options.port = 0;
        m_receiver = std::make_unique<OtlpReceiver>(options);
        m_receiver->setSink([this](std::vector<Span>&& spans) {
            std::lock_guard lock(m_mutex);
            for (Span& s : spans)
                m_spans.push_back(std::move(s));
        });
        auto port = m_receiver->start();
        QVERIFY2(port.ok(), port.ok() ? "" : qPrintable(port.error().message));
        QVERIFY(*port > 0);
        std::lock_guard lock(m_mutex);
        m_spans.clear();
    }
    void cleanup() { m_receiver.reset(); }

    void acceptsJsonAndProtobufAndGzip()
    {
        const quint16 port = m_receiver->port();
        const QByteArray json = fixture("genai_agent.json");
        QByteArray r = exchange(port, post(json));
        QCOMPARE(statusOf(r), 200);
        QVERIFY(r.endsWith("{}"));
        QCOMPARE(received(), size_t(5));

        auto spans = decodeOtlpJson(json.toStdString());
        QVERIFY(spans.ok());
        const std::string proto = encodeOtlpProtobuf(*spans);
        r = exchange(port, post(QByteArray::fromStdString(proto), "application/x-protobuf"));
        QCOMPARE(statusOf(r), 200);
        QCOMPARE(received(), size_t(10));

        r = exchange(port,
                     post(gzipCompress(json), "application/json", "Content-Encoding: gzip\r\n"));
        QCOMPARE(statusOf(r), 200);
        QCOMPARE(received(), size_t(15));
        QCOMPARE(m_receiver->counters().accepted.load(), qint64(3));
    }

    void keepAliveAndChunked()
    {
        const QByteArray json = fixture("genai_agent.json");
        QByteArray chunked = "POST /v1/traces HTTP/1.1\r\nContent-Type: application/json\r\n"
                             "Transfer-Encoding: chunked\r\n\r\n";
        for (qsizetype at = 0; at < json.size(); at += 1000) {
            const QByteArray part = json.mid(at, 1000);
            chunked += QByteArray::number(part.size(), 16) + "\r\n" + part + "\r\n";
        }
        chunked += "0\r\n\r\n";
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_receiver->port());
        QVERIFY(s.waitForConnected(5000));
        s.write(post(json) + chunked);
        QByteArray all;
        QTRY_VERIFY_WITH_TIMEOUT((all += s.readAll(), all.count("HTTP/1.1 200") == 2), 10000);
        QCOMPARE(received(), size_t(10));
    }

    void refusesAndChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        const QByteArray json = fixture("genai_agent.json");
        auto spans = decodeOtlpJson(json.toStdString());
        const QByteArray proto = QByteArray::fromStdString(encodeOtlpProtobuf(*spans));
        QTest::newRow("wrong types")
            << post(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":7}]}]}]})") << 400;
        QTest::newRow("not json") << post("{\"resourceSpans\":[") << 400;
        QTest::newRow("truncated json") << post(json.left(json.size() / 2)) << 400;
        QTest::newRow("truncated protobuf")
            << post(proto.left(proto.size() - 7), "application/x-protobuf") << 400;
        QTest::newRow("garbage protobuf")
            << post(QByteArray(300, '\xff'), "application/x-protobuf") << 400;
        QTest::newRow("non-utf8") << post(QByteArray(json).replace("chat gpt-4o", "chat \xff\xfe"))
                                  << 400;
        QTest::newRow("bad gzip") << post("not gzip at all", "application/json",
                                          "Content-Encoding: gzip\r\n")
                                  << 400;
        QTest::newRow("text/plain") << post(json, "text/plain") << 415;
        QTest::newRow("wrong path")
            << QByteArray("POST /v1/logs HTTP/1.1\r\nContent-Length: 0\r\n\r\n") << 404;
        QTest::newRow("GET") << QByteArray("GET /v1/traces HTTP/1.1\r\n\r\n") << 405;
        QTest::newRow("no length")
            << QByteArray("POST /v1/traces HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{}")
            << 411;
        QTest::newRow("bad chunk")
            << QByteArray("POST /v1/traces HTTP/1.1\r\nContent-Type: "
                          "application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
            << 400;
        QTest::newRow("garbage request line") << QByteArray("\x01\x02\x03\r\n\r\n") << 400;
        // Two readers could disagree on where such a request ends: refused, not guessed.
        QTest::newRow("conflicting lengths")
            << QByteArray("POST /v1/traces HTTP/1.1\r\nContent-Type: application/json\r\n"
                          "Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}")
            << 400;
        QTest::newRow("CR inside a header")
            << QByteArray("POST /v1/traces HTTP/1.1\r\nContent-Type: application/json\rX: 1\r\n"
                          "Content-Length: 2\r\n\r\n{}")
            << 400;
        QTest::newRow("overflowing chunk size")
            << QByteArray("POST /v1/traces HTTP/1.1\r\nContent-Type: "
                          "application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "10000000000000002\r\n{}\r\n0\r\n\r\n")
            << 400;
    }
    void refusesAndChangesNothing()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        const QByteArray r = exchange(m_receiver->port(), request);
        QCOMPARE(statusOf(r), status);
        QCOMPARE(received(), size_t(0));
        QCOMPARE(m_receiver->counters().accepted.load(), qint64(0));
        // And the receiver still serves.
        QCOMPARE(statusOf(exchange(m_receiver->port(), post(fixture("genai_agent.json")))), 200);
    }

    void hugeBodyIsRefusedBeforeItIsRead()
    {
        // 100 MB announced: 413 comes back after the headers, without the body being sent.
        QByteArray head = "POST /v1/traces HTTP/1.1\r\nContent-Type: application/json\r\n"
                          "Content-Length: 104857600\r\n\r\n";
        QByteArray r = exchange(m_receiver->port(), head);
        QCOMPARE(statusOf(r), 413);
        // Chunked, 100 MB: the server answers once the limit (16 MB) is passed and closes, so
        // the client cannot hand all 100 MB to the kernel. Only what left the client's own
        // buffer counts; the kernel's buffers on both sides (up to tcp_rmem + tcp_wmem) may hold
        // more than the server read, so the bound is "not all of it", not a figure that depends
        // on how fast either side ran.
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_receiver->port());
        QVERIFY(s.waitForConnected(5000));
        s.write("POST /v1/traces HTTP/1.1\r\nContent-Type: application/json\r\n"
                "Transfer-Encoding: chunked\r\n\r\n");
        const QByteArray chunk = "100000\r\n" + QByteArray(0x100000, 'x') + "\r\n";
        const qint64 total = 100LL * 1024 * 1024;
        qint64 queued = 0;
        QByteArray response;
        while (queued < total && s.state() == QAbstractSocket::ConnectedState) {
            s.write(chunk);
            queued += chunk.size();
            // Wait until the chunk left Qt's buffer (or the server stopped taking it).
            while (s.bytesToWrite() > 0 && s.state() == QAbstractSocket::ConnectedState)
                if (!s.waitForBytesWritten(5000))
                    break;
            if (s.bytesToWrite() > 0)
                break;
            if (s.waitForReadyRead(5)) {
                response += s.readAll();
                if (response.contains("\r\n\r\n"))
                    break;
            }
        }
        const qint64 handedToKernel = queued - s.bytesToWrite();
        if (!response.contains("\r\n\r\n") && s.state() == QAbstractSocket::ConnectedState)
            s.waitForReadyRead(3000);
        // What arrived with the server's end of stream is still buffered after the socket
        // closed.
        response += s.readAll();
        QCOMPARE(statusOf(response), 413);
        QVERIFY2(handedToKernel < total, qPrintable(QString::number(handedToKernel)));
        QCOMPARE(received(), size_t(0));
    }

    void gzipBombIsBounded()
    {
        // 100 MB of zeros compress to ~100 KB; inflating stops at the limit.
        const QByteArray bomb = gzipCompress(QByteArray(100 * 1024 * 1024, '\0'));
        QVERIFY(bomb.size() < 1024 * 1024);
        const QByteArray r = exchange(m_receiver->port(),
                                      post(bomb, "application/json", "Content-Encoding: gzip\r\n"));
        QCOMPARE(statusOf(r), 413);
        QCOMPARE(received(), size_t(0));
    }

    void silentConnectionsAreClosed()
    {
        ReceiverOptions options;
        options.port = 0;
        options.idleTimeoutMs = 300;
        OtlpReceiver receiver(options);
        auto port = receiver.start();
        QVERIFY(port.ok());
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, *port);
        QVERIFY(s.waitForConnected(5000));
        s.write("POST /v1/traces HTTP/1.1\r\nContent-Type: appl"); // and then nothing
        s.flush();
        QTRY_COMPARE_WITH_TIMEOUT(s.state(), QAbstractSocket::UnconnectedState, 5000);
    }

    void tokenAndAddressRules()
    {
        ReceiverOptions open;
        open.address = QStringLiteral("0.0.0.0");
        open.port = 0;
        OtlpReceiver refused(open);
        QVERIFY(!refused.start().ok());

        ReceiverOptions withToken;
        withToken.port = 0;
        withToken.bearerToken = "s3cret";
        OtlpReceiver guarded(withToken);
        auto port = guarded.start();
        QVERIFY(port.ok());
        const QByteArray json = fixture("genai_agent.json");
        QCOMPARE(statusOf(exchange(*port, post(json))), 401);
        QCOMPARE(statusOf(exchange(
                     *port, post(json, "application/json", "Authorization: Bearer wrong\r\n"))),
                 401);
        QCOMPARE(statusOf(exchange(
                     *port, post(json, "application/json", "Authorization: Bearer s3cret\r\n"))),
                 200);
        QCOMPARE(guarded.counters().spans.load(), qint64(5));
    }
};

QTEST_GUILESS_MAIN(TestOtlpReceiver)
#include "tst_otlpreceiver.moc"
