// The receiver under hostile load and unusual but valid requests: clients that send a byte now
// and then cannot keep a slot or hold every slot, the token is checked before anything else,
// the Bearer scheme in any case, gzip bodies of several members, and a request whose spans
// could not be stored is not answered 200.
#include "core/otel/otlpreceiver.h"

#include <QFile>
#include <QTcpSocket>
#include <QTimer>
#include <QtTest>

#include <atomic>
#include <memory>

using namespace hako;
using namespace hako::otel;

namespace {

QByteArray fixture(const char* name)
{
    QFile f(QStringLiteral(HAKO_TEST_DATA_DIR "/otel/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int statusOf(const QByteArray& response)
{
    const QList<QByteArray> first = response.left(response.indexOf("\r\n")).split(' ');
    return first.size() >= 2 ? first[1].toInt() : 0;
}

QByteArray post(const QByteArray& body, const QByteArray& extra = {},
                const QByteArray& path = "/v1/traces")
{
    return "POST " + path +
           " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
           "Content-Length: " +
           QByteArray::number(body.size()) + "\r\n" + extra + "\r\n" + body;
}

// Sends `request` on a fresh connection and reads until the whole answer (head and body by its
// Content-Length) is in, or the server closes.
QByteArray exchange(quint16 port, const QByteArray& request)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(5000))
        return {};
    s.write(request);
    QByteArray response;
    while (s.waitForReadyRead(10000) || s.bytesAvailable() > 0) {
        response += s.readAll();
        const qsizetype end = response.indexOf("\r\n\r\n");
        if (end < 0)
            continue;
        const qsizetype at = response.toLower().indexOf("content-length:");
        const qint64 len = at < 0 ? 0
                                  : response.mid(at + 15, response.indexOf("\r\n", at) - at - 15)
                                        .trimmed()
                                        .toLongLong();
        if (response.size() >= end + 4 + len)
            break;
    }
    return response + s.readAll();
}

// A client that sends `data` one byte every 50 ms (each byte keeps the connection from being
// idle) and collects what comes back.
struct Trickle {
    QTcpSocket socket;
    QTimer timer;
    QByteArray data;
    QByteArray received;
    qsizetype sent = 0;

    Trickle(quint16 port, QByteArray bytes) : data(std::move(bytes))
    {
        socket.connectToHost(QHostAddress::LocalHost, port);
        QObject::connect(&socket, &QTcpSocket::readyRead, [this] { received += socket.readAll(); });
        QObject::connect(&timer, &QTimer::timeout, [this] {
            if (sent < data.size() && socket.state() == QAbstractSocket::ConnectedState)
                socket.write(data.mid(sent++, 1));
        });
        timer.start(50);
    }
    bool closed() const { return socket.state() == QAbstractSocket::UnconnectedState; }
};

} // namespace

class TestOtlpReceiverLoad : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void headSentByteByByteIsCut()
    {
        ReceiverOptions o;
        o.port = 0;
        o.idleTimeoutMs = 60000;
        o.headTimeoutMs = 500;
        OtlpReceiver receiver(o);
        QVERIFY(receiver.start().ok());
        Trickle slow(receiver.port(), post(fixture("genai_agent.json")));
        // Long before the head is complete (over 100 bytes at 20 a second).
        QTRY_VERIFY_WITH_TIMEOUT(slow.closed(), 20000);
        QVERIFY2(slow.sent < 100, qPrintable(QString::number(slow.sent)));
        QCOMPARE(statusOf(slow.received), 408);
    }

    void bodySentByteByByteIsCut()
    {
        ReceiverOptions o;
        o.port = 0;
        o.idleTimeoutMs = 60000;
        o.bodyGraceMs = 300;
        o.minBodyBytesPerSec = 1000;
        OtlpReceiver receiver(o);
        QVERIFY(receiver.start().ok());
        const QByteArray body = fixture("genai_agent.json");
        const QByteArray head = "POST /v1/traces HTTP/1.1\r\nContent-Type: application/json\r\n"
                                "Content-Length: " +
                                QByteArray::number(body.size()) + "\r\n\r\n";
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, receiver.port());
        QVERIFY(s.waitForConnected(5000));
        s.write(head);
        // One byte of the body every 50 ms: 20 bytes a second.
        QTimer trickle;
        qsizetype at = 0;
        QByteArray response;
        QObject::connect(&trickle, &QTimer::timeout, [&] {
            if (at < body.size() && s.state() == QAbstractSocket::ConnectedState)
                s.write(body.mid(at++, 1));
        });
        trickle.start(50);
        QObject::connect(&s, &QTcpSocket::readyRead, [&] { response += s.readAll(); });
        QTRY_VERIFY_WITH_TIMEOUT(s.state() == QAbstractSocket::UnconnectedState, 20000);
        QVERIFY(at < body.size());
        QCOMPARE(statusOf(response), 408);
        QCOMPARE(receiver.counters().accepted.load(), qint64(0));
    }

    void slowClientsCannotHoldEverySlot()
    {
        ReceiverOptions o;
        o.port = 0;
        o.maxConnections = 4;
        OtlpReceiver receiver(o);
        QVERIFY(receiver.start().ok());
        // Every slot taken by a client that has sent a part of its head and waits.
        std::vector<std::unique_ptr<QTcpSocket>> slow;
        for (int i = 0; i < 4; ++i) {
            auto s = std::make_unique<QTcpSocket>();
            s->connectToHost(QHostAddress::LocalHost, receiver.port());
            QVERIFY(s->waitForConnected(5000));
            s->write("POST /v1/traces HTTP/1.1\r\nContent-Ty");
            QVERIFY(s->waitForBytesWritten(5000));
            slow.push_back(std::move(s));
        }
        // A real exporter still gets in, again and again.
        for (int i = 0; i < 3; ++i)
            QCOMPARE(statusOf(exchange(receiver.port(), post(fixture("genai_agent.json")))), 200);
        QCOMPARE(receiver.counters().accepted.load(), qint64(3));
    }

    void tokenComesFirstAndSchemeIgnoresCase()
    {
        ReceiverOptions o;
        o.port = 0;
        o.bearerToken = "s3cret";
        OtlpReceiver receiver(o);
        QVERIFY(receiver.start().ok());
        const QByteArray json = fixture("genai_agent.json");
        // Without the token nothing else is told: not which paths exist.
        QCOMPARE(statusOf(exchange(receiver.port(), post(json, {}, "/elsewhere"))), 401);
        // Refused on the head, the body never sent.
        QCOMPARE(statusOf(exchange(receiver.port(),
                                   "POST /v1/traces HTTP/1.1\r\nContent-Type: application/json\r\n"
                                   "Content-Length: 1000000\r\n\r\n")),
                 401);
        for (const QByteArray scheme : {"Bearer", "bearer", "BEARER"})
            QCOMPARE(statusOf(exchange(receiver.port(),
                                       post(json, "Authorization: " + scheme + " s3cret\r\n"))),
                     200);
        QCOMPARE(statusOf(exchange(receiver.port(), post(json, "Authorization: Basic s3cret\r\n"))),
                 401);
        QCOMPARE(statusOf(exchange(receiver.port(), post(json, "Authorization: bearer s3cre\r\n"))),
                 401);
        QCOMPARE(receiver.counters().accepted.load(), qint64(3));
    }

    void gzipOfSeveralMembersIsReadWhole()
    {
        const QByteArray json = fixture("genai_agent.json");
        const qsizetype half = json.size() / 2;
        const QByteArray twoMembers = gzipCompress(json.left(half)) + gzipCompress(json.mid(half));
        ReceiverReply reply = OtlpReceiver::process("application/json", "gzip", twoMembers, {});
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.spans.size(), size_t(5));
        // The limit holds for the members together.
        ReceiverOptions small;
        small.maxInflatedBytes = half + 10;
        reply = OtlpReceiver::process("application/json", "gzip", twoMembers, small);
        QCOMPARE(reply.status, 413);
        // Something after a member that is not gzip is damage.
        reply =
            OtlpReceiver::process("application/json", "gzip", gzipCompress(json) + "garbage", {});
        QCOMPARE(reply.status, 400);
    }

    void unstoredRequestIsNotAnswered200()
    {
        ReceiverOptions o;
        o.port = 0;
        OtlpReceiver receiver(o);
        auto failing = std::make_shared<std::atomic<bool>>(true);
        auto sunk = std::make_shared<std::atomic<int>>(0);
        receiver.setStoringSink([failing](const std::vector<Span>&, const QByteArray&) {
            return *failing ? QStringLiteral("the disk is full") : QString();
        });
        receiver.setSink([sunk](std::vector<Span>&&) { ++*sunk; });
        QVERIFY(receiver.start().ok());
        const QByteArray json = fixture("genai_agent.json");
        const QByteArray refused = exchange(receiver.port(), post(json));
        QCOMPARE(statusOf(refused), 503);
        QVERIFY(refused.contains("Retry-After: 5"));
        QVERIFY(refused.contains("the disk is full"));
        QCOMPARE(receiver.counters().accepted.load(), qint64(0));
        QCOMPARE(receiver.counters().unstored.load(), qint64(1));
        QCOMPARE(receiver.counters().spans.load(), qint64(0));
        QCOMPARE(sunk->load(), 0);
        // The exporter's retry, once the store is back.
        *failing = false;
        QCOMPARE(statusOf(exchange(receiver.port(), post(json))), 200);
        QCOMPARE(receiver.counters().accepted.load(), qint64(1));
        QCOMPARE(sunk->load(), 1);
    }
};

QTEST_GUILESS_MAIN(TestOtlpReceiverLoad)
#include "tst_otlpreceiverload.moc"
