// `hako serve --otlp`: what it answered 200 is in the prompt log, even when the server is killed
// (kill -9) the moment the answer is out, and its stop message counts what was logged.
#include "hakoprocess.h"

#include "core/promptlog/promptlog.h"

#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace hako;

namespace {

// `count` OpenInference LLM spans of one trace, as OTLP/JSON.
QByteArray llmSpans(int count, int first = 0)
{
    QByteArray spans;
    for (int i = first; i < first + count; ++i) {
        if (!spans.isEmpty())
            spans += ',';
        spans += "{\"traceId\":\"0af7651916cd43dd8448eb211c80319c\",\"spanId\":\"" +
                 QByteArray::number(0x1000 + i, 16).rightJustified(16, '0') +
                 "\",\"name\":\"chat\",\"startTimeUnixNano\":\"" +
                 QByteArray::number(1700000000000000000LL + i) + "\",\"endTimeUnixNano\":\"" +
                 QByteArray::number(1700000000000001000LL + i) +
                 "\",\"attributes\":["
                 "{\"key\":\"openinference.span.kind\",\"value\":{\"stringValue\":\"LLM\"}},"
                 "{\"key\":\"llm.model_name\",\"value\":{\"stringValue\":\"m\"}},"
                 "{\"key\":\"llm.input_messages.0.message.role\",\"value\":{\"stringValue\":"
                 "\"user\"}},"
                 "{\"key\":\"llm.input_messages.0.message.content\",\"value\":{\"stringValue\":"
                 "\"question " +
                 QByteArray::number(i) + "\"}}]}";
    }
    return "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[" + spans + "]}]}]}";
}

int post(quint16 port, const QByteArray& body)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(5000))
        return 0;
    s.write("POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: " +
            QByteArray::number(body.size()) + "\r\n\r\n" + body);
    QByteArray response;
    while (!response.contains("\r\n\r\n") && s.waitForReadyRead(30000))
        response += s.readAll();
    return response.split(' ').value(1).toInt();
}

struct Server {
    QProcess process;
    quint16 port = 0;
    QByteArray err;

    bool start(const QTemporaryDir& dir, const QString& db)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
        process.setProcessEnvironment(env);
        process.setReadChannel(QProcess::StandardError);
        process.start(hakoBinary(), {QStringLiteral("serve"), QStringLiteral("--otlp"),
                                     QStringLiteral("127.0.0.1:0"), QStringLiteral("--log"), db,
                                     QStringLiteral("--quiet")});
        if (!process.waitForStarted())
            return false;
        static const QRegularExpression listening(QStringLiteral(":(\\d+)/v1/traces"));
        QRegularExpressionMatch m;
        while (!(m = listening.match(QString::fromUtf8(err))).hasMatch()) {
            if (!process.waitForReadyRead(15000))
                return false;
            err += process.readAllStandardError();
        }
        port = quint16(m.captured(1).toUInt());
        return true;
    }
};

qint64 callsIn(const QString& db)
{
    auto log = promptlog::PromptLog::open(db);
    if (!log)
        return -1;
    Result<int64_t> n = log->count({});
    return n ? *n : -1;
}

} // namespace

class TestServeDurable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void answeredCallsSurviveKill9()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("log.sqlite"));
        Server server;
        QVERIFY2(server.start(dir, db), server.err.constData());
        QCOMPARE(post(server.port, llmSpans(40)), 200);
        QCOMPARE(post(server.port, llmSpans(25, 40)), 200);
        // No time to write anything after the answer.
        ::kill(pid_t(server.process.processId()), SIGKILL);
        QVERIFY(server.process.waitForFinished(15000));
        QCOMPARE(callsIn(db), qint64(65));
    }

    void stopMessageCountsWhatWasLogged()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("log.sqlite"));
        Server server;
        QVERIFY2(server.start(dir, db), server.err.constData());
        QCOMPARE(post(server.port, llmSpans(30)), 200);
        // An exporter's retry of the same spans adds nothing twice, and is said so.
        QCOMPARE(post(server.port, llmSpans(10)), 200);
        ::kill(pid_t(server.process.processId()), SIGTERM);
        QVERIFY(server.process.waitForFinished(15000));
        QCOMPARE(server.process.exitCode(), 0);
        const QString err = QString::fromUtf8(server.err + server.process.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("2 request(s) accepted with 40 span(s), 30 model "
                                             "call(s) logged (10 more sent again, already in "
                                             "the log)")),
                 qPrintable(err));
        QCOMPARE(callsIn(db), qint64(30));
    }
};

QTEST_GUILESS_MAIN(TestServeDurable)
#include "tst_servedurable.moc"
