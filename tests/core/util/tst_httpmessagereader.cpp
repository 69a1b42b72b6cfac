// The one HTTP/1.1 message reader (requests for the server, responses for the model client):
// messages cut at every byte offset, fed a byte at a time or all at once, oversized heads, bad
// and overflowing chunk sizes, duplicate and conflicting Content-Length, CR or LF where a
// header value must not have one, body limits, and pipelined requests.
#include "core/util/httpmessagereader.h"

#include <QRandomGenerator>
#include <QTest>

using namespace hako;
using Kind = HttpMessageReader::Kind;
using State = HttpMessageReader::State;

namespace {

struct Outcome {
    State state = State::Head;
    QByteArray body;
    QString error;
    int errorStatus = 0;
    qsizetype used = 0;
    bool operator==(const Outcome&) const = default;
};

HttpReaderLimits serverLimits()
{
    HttpReaderLimits l;
    l.maxChunkLineBytes = 1024;
    l.maxBodyBytes = 1000;
    return l;
}

// Reads `bytes` as one message given in pieces of `step` bytes (0: all at once), stopping at
// its end like the server does.
Outcome readAll(Kind kind, const QByteArray& bytes, qsizetype step, bool close = false)
{
    HttpMessageReader r(kind, kind == Kind::Request ? serverLimits() : HttpReaderLimits{});
    Outcome out;
    qsizetype pos = 0;
    while (pos < bytes.size() && r.state() != State::Done && r.state() != State::Failed) {
        const qsizetype n = step == 0 ? bytes.size() - pos : std::min(step, bytes.size() - pos);
        QByteArrayView piece = QByteArrayView(bytes).sliced(pos, n);
        // The reader may stop early (after the head); the rest of the piece is fed again.
        while (!piece.isEmpty() && r.state() != State::Done && r.state() != State::Failed) {
            const qsizetype used = r.read(piece, out.body);
            pos += used;
            piece = piece.sliced(used);
        }
    }
    if (close)
        r.endOfStream();
    out.state = r.state();
    out.error = r.error();
    out.errorStatus = r.errorStatus();
    out.used = pos;
    return out;
}

const QByteArray kChunked = "POST /v1/traces HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n"
                            "\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n";
const QByteArray kLength = "POST /v1/traces?x=1 HTTP/1.1\r\nContent-Length: 11\r\n"
                           "Content-Type: application/json\r\n\r\nhello world";

} // namespace

class TestHttpMessageReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void requestHead()
    {
        HttpMessageReader r(Kind::Request);
        QByteArray body;
        const QByteArray bytes = kLength + "GET / HTTP/1.1\r\n\r\n";
        // It stops after the head: the caller looks at it before any body is read.
        const qsizetype head = r.read(bytes, body);
        QCOMPARE(head, kLength.indexOf("hello"));
        QVERIFY(r.headersComplete());
        QCOMPARE(r.state(), State::Body);
        QCOMPARE(r.method(), QByteArray("POST"));
        QCOMPARE(r.target(), QByteArray("/v1/traces?x=1"));
        QCOMPARE(r.header("content-type"), QByteArray("application/json"));
        QVERIFY(body.isEmpty());
        // Then the body, and not a byte of the pipelined request behind it.
        QCOMPARE(r.read(QByteArrayView(bytes).sliced(head), body), qsizetype(11));
        QCOMPARE(r.state(), State::Done);
        QCOMPARE(body, QByteArray("hello world"));
    }

    void everyMessageAlikeInAnyPieces_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("length") << int(Kind::Request) << kLength << QByteArray("hello world");
        QTest::newRow("chunked") << int(Kind::Request) << kChunked << QByteArray("hello world");
        QTest::newRow("GET") << int(Kind::Request) << QByteArray("GET /x HTTP/1.1\r\nA: b\r\n\r\n")
                             << QByteArray();
        QTest::newRow("bare LF") << int(Kind::Request)
                                 << QByteArray("POST / HTTP/1.1\nContent-Length: 2\n\nok")
                                 << QByteArray("ok");
        QTest::newRow("response, interim first")
            << int(Kind::Response)
            << QByteArray(
                   "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            << QByteArray("ok");
        QTest::newRow("response, chunked")
            << int(Kind::Response)
            << QByteArray(
                   "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")
            << QByteArray("ok");
    }
    // Fed a byte at a time, in pieces of every size, or all at once: the same message; cut
    // short at any byte it is never complete, and an end of stream there is an error.
    void everyMessageAlikeInAnyPieces()
    {
        QFETCH(int, kind);
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, body);
        const Kind k = Kind(kind);
        const Outcome whole = readAll(k, bytes, 0);
        QCOMPARE(whole.state, State::Done);
        QCOMPARE(whole.body, body);
        QCOMPARE(whole.used, bytes.size());
        for (qsizetype step = 1; step <= bytes.size(); ++step)
            QCOMPARE(readAll(k, bytes, step), whole);
        for (qsizetype cut = 0; cut < bytes.size(); ++cut) {
            const Outcome part = readAll(k, bytes.first(cut), 1, true);
            const QByteArray where = "cut at " + QByteArray::number(cut);
            QVERIFY2(part.state == State::Failed, where.constData());
            QVERIFY2(!part.error.isEmpty(), where.constData());
        }
    }

    // The head ends at the blank line whose last LF comes first ("\n\n" or "\r\n\r\n"), in
    // generated requests mixing CRLF, bare LF and stray CR between their lines, read whole or in
    // pieces; checked against that definition written out (the first of each form found).
    void headEndsAtTheFirstBlankLine()
    {
        const QList<QByteArray> breaks = {"\r\n",   "\n",     "\r\n\r\n", "\n\n",
                                          "\n\r\n", "\r\n\n", "\r"};
        auto definition = [](const QByteArray& bytes) {
            const qsizetype crlf = bytes.indexOf("\r\n\r\n");
            const qsizetype lf = bytes.indexOf("\n\n");
            if (lf >= 0 && (crlf < 0 || lf + 1 < crlf + 3))
                return lf + 2;
            return crlf < 0 ? qsizetype(-1) : crlf + 4;
        };
        QRandomGenerator rng(20261130);
        int ended = 0;
        for (int i = 0; i < 2000; ++i) {
            QByteArray bytes = "GET / HTTP/1.1";
            for (int line = 0; line < 3; ++line)
                bytes += breaks.at(rng.bounded(int(breaks.size()))) + "A" +
                         QByteArray::number(line) + ": b";
            bytes += breaks.at(rng.bounded(int(breaks.size()))) + "\n\ntail";
            const Outcome whole = readAll(Kind::Request, bytes, 0);
            for (qsizetype step : {1, 2, 3, 7})
                QCOMPARE(readAll(Kind::Request, bytes, step), whole);
            if (whole.state == State::Done) {
                QCOMPARE(whole.used, definition(bytes));
                ++ended;
            }
        }
        QVERIFY(ended > 500); // most of them are requests the reader takes
    }

    void malformedRequests_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("says");
        const QByteArray post = "POST / HTTP/1.1\r\n";
        QTest::newRow("garbage request line") << QByteArray("\x01\x02\x03\r\n\r\n") << 400
                                              << QStringLiteral("malformed request line");
        QTest::newRow("headers too large") << post + "X: " + QByteArray(70 * 1024, 'a') << 431
                                           << QStringLiteral("request headers too large");
        QByteArray many = post;
        for (int i = 0; i < 300; ++i)
            many += "X-" + QByteArray::number(i) + ": 1\r\n";
        QTest::newRow("too many headers") << many + "\r\n"
                                          << 431 << QStringLiteral("too many request headers");
        QTest::newRow("no length")
            << post + "\r\n{}" << 411 << QStringLiteral("Content-Length required");
        QTest::newRow("length over the limit") << post + "Content-Length: 1001\r\n\r\n"
                                               << 413 << QStringLiteral("over the limit");
        QTest::newRow("conflicting lengths")
            << post + "Content-Length: 2\r\nContent-Length: 3\r\n\r\nabc" << 400
            << QStringLiteral("conflicting Content-Length");
        QTest::newRow("conflicting length list")
            << post + "Content-Length: 2, 3\r\n\r\nabc" << 400 << QStringLiteral("conflicting");
        QTest::newRow("signed length") << post + "Content-Length: +2\r\n\r\nab" << 400
                                       << QStringLiteral("invalid Content-Length");
        QTest::newRow("overflowing length")
            << post + "Content-Length: 99999999999999999999999\r\n\r\n"
            << 400 << QStringLiteral("invalid Content-Length");
        QTest::newRow("CR inside a header value")
            << post + "X-A: one\rX-B: two\r\nContent-Length: 0\r\n\r\n"
            << 400 << QStringLiteral("malformed request header");
        QTest::newRow("header without colon") << post + "broken\r\n\r\n"
                                              << 400 << QStringLiteral("malformed request header");
        QTest::newRow("space before colon") << post + "Content-Length : 1\r\n\r\nx" << 400
                                            << QStringLiteral("malformed request header");
        const QByteArray chunked = post + "Transfer-Encoding: chunked\r\n\r\n";
        QTest::newRow("bad chunk size") << chunked + "zz\r\n"
                                        << 400 << QStringLiteral("malformed chunk size");
        QTest::newRow("negative chunk size") << chunked + "-1\r\n"
                                             << 400 << QStringLiteral("malformed chunk size");
        QTest::newRow("overflowing chunk size") << chunked + "10000000000000000\r\n"
                                                << 400 << QStringLiteral("malformed chunk size");
        QTest::newRow("chunk over the limit") << chunked + "3E9\r\n"
                                              << 413 << QStringLiteral("over the limit");
        QTest::newRow("chunks adding up over the limit")
            << chunked + "1F4\r\n" + QByteArray(500, 'a') + "\r\n1F5\r\n"
            << 413 << QStringLiteral("over the limit");
        QTest::newRow("chunk line too long")
            << chunked + QByteArray(2000, '1') << 400 << QStringLiteral("malformed chunk");
        QTest::newRow("no line end after a chunk")
            << chunked + "1\r\nab" << 400 << QStringLiteral("malformed chunk");
        QTest::newRow("unknown transfer coding")
            << post + "Transfer-Encoding: gzip\r\nContent-Length: 1\r\n\r\nx" << 400
            << QStringLiteral("Transfer-Encoding");
    }
    void malformedRequests()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, status);
        QFETCH(QString, says);
        for (qsizetype step : {qsizetype(0), qsizetype(1)}) {
            const Outcome o = readAll(Kind::Request, bytes, step);
            QCOMPARE(o.state, State::Failed);
            QCOMPARE(o.errorStatus, status);
            QVERIFY2(o.error.contains(says), qPrintable(o.error));
        }
    }

    void repeatedEqualLengthsAreOne()
    {
        const Outcome o =
            readAll(Kind::Request,
                    "POST / HTTP/1.1\r\nContent-Length: 2\r\ncontent-length: 2, 2\r\n\r\nok", 0);
        QCOMPARE(o.state, State::Done);
        QCOMPARE(o.body, QByteArray("ok"));
    }

    void chunkedWinsOverLength()
    {
        const Outcome o = readAll(Kind::Request,
                                  "POST / HTTP/1.1\r\nContent-Length: 50\r\nTransfer-Encoding: "
                                  "chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
                                  0);
        QCOMPARE(o.state, State::Done);
        QCOMPARE(o.body, QByteArray("ok"));
    }

    void foldedHeaderJoinsThePrevious()
    {
        HttpMessageReader r(Kind::Response);
        QByteArray body;
        QVERIFY(
            r.feed("HTTP/1.1 200 OK\r\nX-Long: one\r\n  two\r\nContent-Length: 0\r\n\r\n", body));
        QCOMPARE(r.header("x-long"), QByteArray("one two"));
        QCOMPARE(r.state(), State::Done);
    }

    void responseUntilCloseAndTruncation()
    {
        const QByteArray untilClose = "HTTP/1.1 200 OK\r\n\r\nall of it";
        HttpMessageReader r(Kind::Response);
        QByteArray body;
        QVERIFY(r.feed(untilClose, body));
        QCOMPARE(r.state(), State::Body);
        QVERIFY(r.endOfStream());
        QCOMPARE(body, QByteArray("all of it"));
        QVERIFY(!r.reusable());
        // A response whose length is known is an error when cut anywhere.
        const QByteArray sized = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcd";
        for (qsizetype cut = 0; cut < sized.size(); ++cut) {
            HttpMessageReader p(Kind::Response);
            QByteArray b;
            p.feed(sized.first(cut), b);
            QVERIFY(!p.endOfStream());
            QVERIFY(p.error().startsWith(QLatin1String("the server closed the connection")));
        }
    }
};

QTEST_GUILESS_MAIN(TestHttpMessageReader)
#include "tst_httpmessagereader.moc"
