// Traces › Receive OpenTelemetry in the window: spans POSTed over OTLP/HTTP (an agent of
// another framework, out of order) appear in the trace panes as one tree, and the LLM spans
// are calls in the prompt log; unchecking stops listening.
#include "core/otel/otlpfile.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/otel/otelrunlist.h"
#include "widgets/trace/nodedetailhtml.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/otelreceive.h"
#include "widgets/workbench/tracedocks.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

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

    // Several runs arrive: the Runs dock lists every one (the receiver keeps them all) and
    // says where it listens, at the port of the setting; picking a run shows it. While a
    // child's parent is still running, the child waits under "waiting for span …".
    void liveRunsAreListedAndPicked()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        }
        QSettings().setValue(QLatin1String(OtelReceive::portSetting()), int(port));
        MainWindow window;
        window.show();
        OtelReceive* receive = window.otelReceive();
        receive->action()->setChecked(true);
        QCOMPARE(receive->listeningPort(), port);
        OtelRunList* runs = window.traceDocks()->runList();
        QVERIFY(window.traceDocks()->runsDock()->isVisible());
        const QString address = QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(port);
        QVERIFY2(runs->heading()->text().contains(address), qPrintable(runs->heading()->text()));
        QCOMPARE(runs->list()->topLevelItemCount(), 0);

        QFile f(QStringLiteral(HAKO_TEST_DATA_DIR "/otel/openinference_agent.jsonl"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = f.readAll().split('\n');
        lines.removeAll(QByteArray());
        // The first request's spans are children: their parent, the agent, comes later.
        QCOMPARE(post(port, lines.first()), 200);
        pdl::TraceModel* model = receive->traceModel();
        QTRY_VERIFY_WITH_TIMEOUT(model->root() != nullptr, 20000);
        QVERIFY(QString::fromStdString(model->root()->node.def)
                    .startsWith(QStringLiteral("waiting for span ")));
        for (int i = 1; i < lines.size(); ++i)
            QCOMPARE(post(port, lines[i]), 200);
        QFile g(QStringLiteral(HAKO_TEST_DATA_DIR "/otel/genai_agent.json"));
        QVERIFY(g.open(QIODevice::ReadOnly));
        QCOMPARE(post(port, g.readAll()), 200);
        QTRY_COMPARE_WITH_TIMEOUT(runs->list()->topLevelItemCount(), 3, 20000);
        QVERIFY(runs->heading()->text().contains(QStringLiteral("3 run")));
        // Pick each run in turn: the panes show it, and it stays when it is not the newest.
        for (int row = 0; row < 3; ++row) {
            const QString id = runs->traceIdAt(row);
            QTreeWidgetItem* item = runs->list()->topLevelItem(row);
            runs->list()->scrollToItem(item);
            QTest::mouseClick(runs->list()->viewport(), Qt::LeftButton, {},
                              QPoint(4, runs->list()->visualItemRect(item).center().y()));
            QTRY_VERIFY2(receive->traceModel()->source().contains(id),
                         qPrintable(receive->traceModel()->source()));
            QCOMPARE(window.context()->traceModel(), receive->traceModel());
        }
        receive->action()->setChecked(false);
        QSettings().remove(QLatin1String(OtelReceive::portSetting()));
    }

    // An OTLP file with several traces: every one is listed, and picking one opens it.
    void otlpFileListsEveryRun()
    {
        MainWindow window;
        window.show();
        window.openTrace(QStringLiteral(HAKO_TEST_DATA_DIR "/otel/openinference_agent.jsonl"));
        OtelRunList* runs = window.traceDocks()->runList();
        QTRY_COMPARE_WITH_TIMEOUT(runs->list()->topLevelItemCount(), 2, 20000);
        QVERIFY(window.traceDocks()->runsDock()->isVisible());
        pdl::TraceModel* model = window.traceDocks()->fileTraceModel();
        QTRY_VERIFY(model->root() != nullptr);
        const std::string first = model->root()->node.id;
        const int other = runs->list()->currentIndex().row() == 0 ? 1 : 0;
        QTreeWidgetItem* item = runs->list()->topLevelItem(other);
        runs->list()->scrollToItem(item);
        QTest::mouseClick(runs->list()->viewport(), Qt::LeftButton, {},
                          QPoint(4, runs->list()->visualItemRect(item).center().y()));
        QTRY_VERIFY(model->root() && model->root()->node.id != first);
        QCOMPARE(window.context()->traceModel(), model);
    }

    // The detail of an OpenInference span: its kind as a badge (AGENT, LLM…), and on the run's
    // root the tokens of every model call below it.
    void otelDetailShowsBadgesAndTotals()
    {
        auto loaded = otel::loadOtlpTrace(
            QStringLiteral(HAKO_TEST_DATA_DIR "/otel/openinference_agent.jsonl"));
        QVERIFY(loaded.ok());
        pdl::TraceModel model;
        model.setTrace(loaded->root);
        const pdl::TraceItem* root = model.root();
        QVERIFY(root);
        const QString html = nodeSummaryHtml(*root, &model, QPalette());
        QVERIFY2(html.contains(QLatin1String(">&nbsp;AGENT&nbsp;<")), qPrintable(html));
        QVERIFY2(html.contains(QLatin1String("tokens</b>")), qPrintable(html));
        std::vector<const pdl::TraceItem*> stack{root};
        int llms = 0;
        while (!stack.empty()) {
            const pdl::TraceItem* item = stack.back();
            stack.pop_back();
            for (const auto& c : item->children)
                stack.push_back(c.get());
            if (item->node.kind == pdl::BlockKind::Model)
                llms += nodeSummaryHtml(*item, &model, QPalette())
                            .contains(QLatin1String(">&nbsp;LLM&nbsp;<"));
        }
        QVERIFY(llms >= 1);
    }
};

QTEST_MAIN(TestOtelReceive)
#include "tst_otelreceive.moc"
