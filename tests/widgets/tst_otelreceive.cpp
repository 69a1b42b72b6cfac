// Traces › Receive OpenTelemetry in the window: spans POSTed over OTLP/HTTP (an agent of
// another framework, out of order) appear in the trace panes as one tree, and the LLM spans
// are calls in the prompt log; unchecking stops listening.
#include "core/pdl/trace/tracemodel.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/otelreceive.h"

#include <QAction>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

class TestOtelReceive : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;

    static int post(quint16 port, const QByteArray& body)
    {
        QNetworkAccessManager nam;
        QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(port)));
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
        QNetworkReply* reply = nam.post(request, body);
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!done.wait(20000))
            return -1;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->deleteLater();
        return status;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_otelreceive"));
        QVERIFY(m_settings->isValid());
    }

    void receivedSpansShowLiveAndLogTheirModelCalls()
    {
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<promptlog::PromptLog> log =
            promptlog::PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        MainWindow window;
        window.context()->setPromptLog(log);
        window.show();
        OtelReceive* receive = window.otelReceive();
        receive->setPort(0);
        receive->action()->setChecked(true);
        QVERIFY(receive->listeningPort() > 0);
        QCOMPARE(window.context()->traceModel(), receive->traceModel());

        // The fixture's requests, the last first (children before their parents).
        QFile f(QStringLiteral(HAKO_TEST_DATA_DIR "/otel/openinference_agent.jsonl"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = f.readAll().split('\n');
        lines.removeAll(QByteArray());
        QVERIFY(lines.size() >= 2);
        std::reverse(lines.begin(), lines.end());
        for (const QByteArray& line : lines)
            QCOMPARE(post(receive->listeningPort(), line), 200);
        // 200 means kept: the model calls are in the log when the answer comes (a window
        // killed the next moment loses none).
        {
            promptlog::CallFilter received;
            received.tags = {QStringLiteral("otel")};
            const auto kept = log->count(received);
            QVERIFY(kept && *kept >= 1);
        }
        // A malformed request is refused and changes nothing.
        QCOMPARE(post(receive->listeningPort(), QByteArray("{\"resourceSpans\": 7}")), 400);

        pdl::TraceModel* model = receive->traceModel();
        QTRY_VERIFY_WITH_TIMEOUT(model->root() != nullptr && model->itemCount() >= 4, 20000);
        // One tree: the agent's root holds the other spans.
        QCOMPARE(model->rowCount(), 1);
        promptlog::CallFilter otel;
        otel.tags = {QStringLiteral("otel")};
        auto logged = [&] {
            log->flush();
            const auto n = log->count(otel);
            return n ? *n : int64_t(0);
        };
        QTRY_VERIFY_WITH_TIMEOUT(logged() >= 1, 20000);
        const auto calls = log->list(otel, true);
        QVERIFY(calls);
        QVERIFY(calls->first().tags.contains(QStringLiteral("service:weather-app")));

        receive->action()->setChecked(false);
        QCOMPARE(receive->listeningPort(), quint16(0));
    }
};

QTEST_MAIN(TestOtelReceive)
#include "tst_otelreceive.moc"
