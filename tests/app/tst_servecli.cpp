#include "hakoprocess.h"
#include "openaitestserver.h"

#include "core/otel/otlpdecode.h"
#include "core/otel/otlpfile.h"
#include "core/pdl/trace/traceloader.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/filekind.h"

#include <QFile>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace hako;

namespace {

QByteArray fixture(const char* name)
{
    QFile f(QStringLiteral(HAKO_TEST_DATA_DIR "/otel/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int postTo(quint16 port, const QByteArray& body, const QByteArray& type)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(5000))
        return 0;
    s.write("POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: " + type +
            "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    QByteArray response;
    while (!response.contains("\r\n\r\n") && s.waitForReadyRead(5000))
        response += s.readAll();
    return response.split(' ').value(1).toInt();
}

} // namespace

// `hako serve --otlp`: spans posted to it become calls of the prompt log; `hako run --otel`
// writes OTLP that the trace readers open again.
class TestServeCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void serveWritesLlmSpansToThePromptLog()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("log.sqlite"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
        p.setProcessEnvironment(env);
        p.start(hakoBinary(), {QStringLiteral("serve"), QStringLiteral("--otlp"),
                               QStringLiteral("127.0.0.1:0"), QStringLiteral("--log"), db});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        static const QRegularExpression listening(QStringLiteral(":(\\d+)/v1/traces"));
        QRegularExpressionMatch m;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError(),
                                  m = listening.match(QString::fromUtf8(err)), m.hasMatch()),
                                 15000);
        const quint16 port = quint16(m.captured(1).toUInt());
        QCOMPARE(postTo(port, fixture("genai_agent.json"), "application/json"), 200);
        // Protobuf too: the OpenInference fixture's first line.
        const QByteArray line = fixture("openinference_agent.jsonl").split('\n').first();
        auto spans = otel::decodeOtlpJson(line.toStdString());
        QVERIFY(spans.ok());
        QCOMPARE(postTo(port, QByteArray::fromStdString(otel::encodeOtlpProtobuf(*spans)),
                        "application/x-protobuf"),
                 200);
        QCOMPARE(postTo(port, "{\"resourceSpans\": 5}", "application/json"), 400);
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(15000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        err += p.readAllStandardError();
        QVERIFY2(err.contains("3 model call(s) logged"), err.constData());

        QString error;
        auto log = promptlog::PromptLog::open(db, &error);
        QVERIFY2(log, qPrintable(error));
        auto calls = log->list({}, true);
        QVERIFY(calls.ok());
        QCOMPARE(calls->size(), 3);
        int genai = 0;
        for (const promptlog::CallRecord& c : *calls) {
            QVERIFY(c.tags.contains(QStringLiteral("otel")));
            if (c.tags.contains(QStringLiteral("service:weather-genai"))) {
                ++genai;
                QCOMPARE(c.model, QStringLiteral("gpt-4o"));
                QVERIFY(c.promptTokens.has_value());
            } else {
                QVERIFY(c.tags.contains(QStringLiteral("service:weather-app")));
                QCOMPARE(c.model, QStringLiteral("gpt-4o-mini"));
            }
        }
        QCOMPARE(genai, 2);
    }

    void serveRefusesOpenAddressWithoutToken()
    {
        QTemporaryDir dir;
        const HakoOutcome o = runHakoAsGiven({QStringLiteral("serve"), QStringLiteral("--otlp"),
                                              QStringLiteral("0.0.0.0:0"), QStringLiteral("--log"),
                                              dir.filePath(QStringLiteral("log.sqlite"))});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QLatin1String("bearer token")), qPrintable(o.err));
    }

    void runSendsItsSpansToAnEndpoint()
    {
        QTemporaryDir dir;
        QProcess serve;
        serve.start(hakoBinary(), {QStringLiteral("serve"), QStringLiteral("--otlp"),
                                   QStringLiteral("127.0.0.1:0"), QStringLiteral("--token"),
                                   QStringLiteral("tok"), QStringLiteral("--log"),
                                   dir.filePath(QStringLiteral("log.sqlite"))});
        QVERIFY(serve.waitForStarted());
        QByteArray err;
        static const QRegularExpression listening(QStringLiteral(":(\\d+)/v1/traces"));
        QRegularExpressionMatch m;
        QTRY_VERIFY_WITH_TIMEOUT((err += serve.readAllStandardError(),
                                  m = listening.match(QString::fromUtf8(err)), m.hasMatch()),
                                 15000);
        const QString url = QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(m.captured(1));
        const QString program = dir.filePath(QStringLiteral("hello.pdl"));
        QFile f(program);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text:\n- def: greeting\n  text: Hello\n- \", world\"\n");
        f.close();
        HakoOutcome o = runHako({QStringLiteral("run"), QStringLiteral("--no-log"),
                                 QStringLiteral("--otel-endpoint"), url, program});
        QCOMPARE(o.exitCode, 1); // no token: 401
        QVERIFY2(o.err.contains(QLatin1String("401")), qPrintable(o.err));
        o = runHako({QStringLiteral("run"), QStringLiteral("--no-log"),
                     QStringLiteral("--otel-endpoint"), url, QStringLiteral("--otel-header"),
                     QStringLiteral("Authorization=Bearer tok"), program});
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        ::kill(pid_t(serve.processId()), SIGTERM);
        QVERIFY(serve.waitForFinished(15000));
        const QByteArray out = serve.readAllStandardOutput();
        QVERIFY2(out.contains("received 4 span(s), 0 model call(s)"), out.constData());
    }

    // An --otel-header that would add headers of its own is a usage error naming the header
    // (never repeating its value), before the program runs.
    void runRefusesInjectingOtelHeaders_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("says");
        QTest::newRow("CRLF in value")
            << QStringLiteral("Authorization=Bearer tok\r\nX-Injected: 1")
            << QStringLiteral("--otel-header: header 'Authorization': its value holds a line "
                              "break");
        QTest::newRow("LF in value") << QStringLiteral("X-Tenant=acme\nX-Injected: 1")
                                     << QStringLiteral("header 'X-Tenant'");
        QTest::newRow("CRLF in name") << QStringLiteral("X-Injected: 1\r\nX-Tenant=acme")
                                      << QStringLiteral("header 'X-Injected: 1\\x0d\\x0aX-Tenant'");
    }
    void runRefusesInjectingOtelHeaders()
    {
        QFETCH(QString, header);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString program = dir.filePath(QStringLiteral("hello.pdl"));
        QFile f(program);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text:\n- Hello\n");
        f.close();
        const HakoOutcome o = runHako({QStringLiteral("run"), QStringLiteral("--no-log"),
                                       QStringLiteral("--otel-endpoint"),
                                       QStringLiteral("http://127.0.0.1:9/v1/traces"),
                                       QStringLiteral("--otel-header"), header, program});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(says), qPrintable(o.err));
        QVERIFY2(!o.err.contains(QLatin1String("X-Injected: 1\n")), qPrintable(o.err));
        QVERIFY(!o.out.contains(QLatin1String("Hello"))); // refused before the run
    }

    // A redirecting endpoint is reported with where it points; the other server gets nothing.
    void runReportsARedirectingEndpoint()
    {
        testing::OpenAiTestServer endpoint, elsewhere;
        QVERIFY(endpoint.start());
        QVERIFY(elsewhere.start());
        const QString target =
            QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(elsewhere.port());
        testing::ScriptedReply redirect;
        redirect.status = 308;
        redirect.headers = {{"Location", target.toUtf8()}};
        endpoint.enqueue("/v1/traces", redirect);
        QTemporaryDir dir;
        const QString program = dir.filePath(QStringLiteral("hello.pdl"));
        QFile f(program);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text:\n- Hello\n");
        f.close();
        const HakoOutcome o = runHako(
            {QStringLiteral("run"), QStringLiteral("--no-log"), QStringLiteral("--otel-endpoint"),
             QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(endpoint.port()),
             QStringLiteral("--otel-header"), QStringLiteral("Authorization=Bearer collector-tok"),
             program});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QStringLiteral("redirected to %1; use that URL").arg(target)),
                 qPrintable(o.err));
        QCOMPARE(endpoint.requestCount(), 1);
        QCOMPARE(elsewhere.requestCount(), 0);
    }

    void runWritesOtlpThatOpensAsATrace()
    {
        QTemporaryDir dir;
        const QString program = dir.filePath(QStringLiteral("hello.pdl"));
        QFile f(program);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("description: hello\ntext:\n- def: greeting\n  text: Hello\n- \", world\"\n");
        f.close();
        const QString out = dir.filePath(QStringLiteral("hello.otlp.json"));
        const HakoOutcome o =
            runHako({QStringLiteral("run"), QStringLiteral("--no-log"), QStringLiteral("--otel"),
                     out, QStringLiteral("--otel-content"), program});
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(detectFileKind(out), FileKind::Trace);
        auto loaded = pdl::readTraceFile(out); // through the registered OTLP format
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().message));
        QCOMPARE(loaded->root->kind, pdl::BlockKind::Text);
        QCOMPARE(loaded->root->result.asString(), std::string("Hello, world"));
        QCOMPARE(loaded->root->children.front().nodes.front()->def, std::string("greeting"));
        QVERIFY(loaded->root->span.isValid());
    }
};

QTEST_GUILESS_MAIN(TestServeCli)
#include "tst_servecli.moc"
