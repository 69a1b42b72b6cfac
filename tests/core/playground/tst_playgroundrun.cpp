// PlaygroundRun against the local OpenAI-compatible test server through the real provider:
// every request carries its cell's rendered messages, concurrency stays within the limit (the
// server counts requests in flight), cancel leaves every cell final, repeats make N calls, and a
// failing server gives error cells. The results grid is checked with QAbstractItemModelTester.
#include "core/models/openaiprovider.h"
#include "core/playground/playgroundresultmodel.h"
#include "core/playground/playgroundrun.h"

#include "openaitestserver.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace hako;
using namespace hako::playground;
using testing::OpenAiTestServer;
using testing::ScriptedReply;

namespace {

std::shared_ptr<models::IModelProvider> providerFor(const OpenAiTestServer& server)
{
    models::EndpointConfig config;
    config.name = QStringLiteral("test");
    config.baseUrl = server.baseUrl();
    config.maxRetries = 0;
    return std::make_shared<models::OpenAiProvider>(config);
}

PlaygroundPrompt prompt(const QString& model, const QString& userText)
{
    PlaygroundPrompt p;
    p.model = model;
    p.messages = {{QStringLiteral("system"), QStringLiteral("Be brief (${ lang }).")},
                  {QStringLiteral("user"), userText}};
    p.parameters.temperature = 0;
    return p;
}

QList<QJsonObject> rows(int n)
{
    QList<QJsonObject> out;
    for (int i = 0; i < n; ++i)
        out << QJsonObject{
            {QStringLiteral("name"), QStringLiteral("name%1").arg(i)},
            {QStringLiteral("lang"), i % 2 ? QStringLiteral("日本語") : QStringLiteral("en")}};
    return out;
}

} // namespace

class TestPlaygroundRun : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyCellSendsItsRenderedMessages()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        PlaygroundRun run(providerFor(server));
        run.setVariants({prompt(QStringLiteral("m-a"), QStringLiteral("Hello ${ name }")),
                         prompt(QStringLiteral("m-b"), QStringLiteral("Bonjour ${ name }!"))});
        run.setInputs(rows(3));
        PlaygroundResultModel model;
        QAbstractItemModelTester tester(&model);
        model.attach(&run, {QStringLiteral("A"), QStringLiteral("B")});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 2);
        QSignalSpy finished(&run, &PlaygroundRun::finished);
        QSignalSpy progress(&run, &PlaygroundRun::progress);
        QHash<QString, QString> streamed; // "row/variant" → deltas
        connect(&run, &PlaygroundRun::cellDelta, this, [&streamed](CellKey k, const QString& d) {
            streamed[QStringLiteral("%1/%2").arg(k.row).arg(k.variant)] += d;
        });
        run.start();
        QVERIFY(run.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(!run.isRunning());
        QCOMPARE(progress.last().at(0).toInt(), 6);
        QCOMPARE(progress.last().at(1).toInt(), 6);

        // The server saw each cell's messages exactly as rendered.
        QSet<QString> expected;
        for (int row = 0; row < 3; ++row) {
            const QString lang = row % 2 ? QStringLiteral("日本語") : QStringLiteral("en");
            expected << QStringLiteral("m-a|Be brief (%1).|Hello name%2").arg(lang).arg(row)
                     << QStringLiteral("m-b|Be brief (%1).|Bonjour name%2!").arg(lang).arg(row);
        }
        QSet<QString> seen;
        const auto requests = server.requests();
        QCOMPARE(requests.size(), 6);
        for (const auto& r : requests) {
            const QJsonObject body = QJsonDocument::fromJson(r.body).object();
            const QJsonArray messages = body.value(QLatin1String("messages")).toArray();
            QCOMPARE(messages.size(), 2);
            QCOMPARE(messages[0][QLatin1String("role")].toString(), QStringLiteral("system"));
            seen << body.value(QLatin1String("model")).toString() + QLatin1Char('|') +
                        messages[0][QLatin1String("content")].toString() + QLatin1Char('|') +
                        messages[1][QLatin1String("content")].toString();
            QCOMPARE(body.value(QLatin1String("temperature")).toDouble(), 0.0);
        }
        QCOMPARE(seen, expected);

        // Each cell holds the echo, streamed in, with usage and latency.
        for (int row = 0; row < 3; ++row) {
            for (int variant = 0; variant < 2; ++variant) {
                const CellResult& r = run.result({row, variant, 0});
                QCOMPARE(r.state, CellResult::State::Done);
                const QString want = variant == 0
                                         ? QStringLiteral("echo: Hello name%1").arg(row)
                                         : QStringLiteral("echo: Bonjour name%1!").arg(row);
                QCOMPARE(r.reply, want);
                QCOMPARE(streamed.value(QStringLiteral("%1/%2").arg(row).arg(variant)), want);
                QVERIFY(r.latencyMs.has_value());
                QCOMPARE(r.promptTokens.value_or(-1), 5);
                QCOMPARE(model.index(row, variant).data().toString(), want);
                QVERIFY(model.index(row, variant)
                            .data(Qt::ToolTipRole)
                            .toString()
                            .contains(QLatin1String("Tokens: 5 in")));
            }
        }
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("A"));
        QCOMPARE(model.headerData(2, Qt::Vertical).toString(), QStringLiteral("Row 3"));
    }

    void concurrencyStaysWithinTheLimit_data()
    {
        QTest::addColumn<int>("limit");
        QTest::newRow("1") << 1;
        QTest::newRow("2") << 2;
        QTest::newRow("4") << 4;
    }

    void concurrencyStaysWithinTheLimit()
    {
        QFETCH(int, limit);
        OpenAiTestServer server;
        QVERIFY(server.start());
        server.setDefaultDelayMs(60);
        PlaygroundRun run(providerFor(server));
        run.setVariants({prompt(QStringLiteral("a"), QStringLiteral("x ${ name }")),
                         prompt(QStringLiteral("b"), QStringLiteral("y ${ name }")),
                         prompt(QStringLiteral("c"), QStringLiteral("z ${ name }"))});
        run.setInputs(rows(4));
        run.setConcurrency(limit);
        QSignalSpy finished(&run, &PlaygroundRun::finished);
        run.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QCOMPARE(server.requestCount(), 12);
        QVERIFY2(server.peakRequestsInFlight() <= limit,
                 qPrintable(QString::number(server.peakRequestsInFlight())));
        QVERIFY(server.peakRequestsInFlight() >= 1);
        QVERIFY(run.peakConcurrency() <= limit);
        for (int row = 0; row < 4; ++row)
            for (int v = 0; v < 3; ++v)
                QCOMPARE(run.result({row, v, 0}).state, CellResult::State::Done);
    }

    void cancelEndsWithEveryCellFinal()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        server.setDefaultDelayMs(5000);
        PlaygroundRun run(providerFor(server));
        run.setVariants({prompt(QStringLiteral("a"), QStringLiteral("x ${ name }")),
                         prompt(QStringLiteral("b"), QStringLiteral("y ${ name }"))});
        run.setInputs(rows(5));
        run.setConcurrency(2);
        PlaygroundResultModel model;
        QAbstractItemModelTester tester(&model);
        model.attach(&run, {});
        QSignalSpy finished(&run, &PlaygroundRun::finished);
        QSignalSpy cellFinished(&run, &PlaygroundRun::cellFinished);
        run.start();
        QTRY_COMPARE_WITH_TIMEOUT(server.requestCount(), 2, 30000);
        run.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(cellFinished.count(), 10);
        QVERIFY(server.requestCount() < 10);
        int cancelled = 0;
        for (int row = 0; row < 5; ++row) {
            for (int v = 0; v < 2; ++v) {
                const CellResult& r = run.result({row, v, 0});
                QVERIFY(r.isFinal());
                cancelled += r.state == CellResult::State::Cancelled;
                QCOMPARE(model.index(row, v).data(PlaygroundResultModel::StateRole).toInt(),
                         int(r.state));
            }
        }
        QCOMPARE(cancelled, 10);
        QCOMPARE(model.index(4, 1).data().toString(), QStringLiteral("Cancelled"));
    }

    void repeatMakesNCallsPerCell()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        PlaygroundRun run(providerFor(server));
        run.setVariants({prompt(QStringLiteral("a"), QStringLiteral("x ${ name }")),
                         prompt(QStringLiteral("b"), QStringLiteral("y ${ name }"))});
        run.setInputs(rows(2));
        run.setRepeat(3);
        PlaygroundResultModel model;
        QAbstractItemModelTester tester(&model);
        model.attach(&run, {});
        QSignalSpy finished(&run, &PlaygroundRun::finished);
        run.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(run.total(), 12);
        QCOMPARE(server.requestCount(), 12);
        QHash<QString, int> perCell;
        for (const auto& r : server.requests()) {
            const QJsonObject body = QJsonDocument::fromJson(r.body).object();
            perCell[body.value(QLatin1String("model")).toString() +
                    body.value(QLatin1String("messages"))
                        .toArray()[1][QLatin1String("content")]
                        .toString()]++;
        }
        QCOMPARE(perCell.size(), 4);
        for (int n : std::as_const(perCell))
            QCOMPARE(n, 3);
        QCOMPARE(model.index(1, 1).data().toString(), QStringLiteral("1 distinct of 3"));
        QCOMPARE(model.index(1, 1).data(PlaygroundResultModel::DistinctRole).toInt(), 1);
        QCOMPARE(model.index(1, 1).data(PlaygroundResultModel::RepliesRole).toStringList().size(),
                 3);
    }

    void summaryCountsDistinctReplies()
    {
        std::vector<CellResult> repeats(5);
        const QStringList replies = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("a"),
                                     QStringLiteral("c"), QStringLiteral("b")};
        for (int i = 0; i < 5; ++i) {
            repeats[size_t(i)].state = CellResult::State::Done;
            repeats[size_t(i)].reply = replies[i];
        }
        QCOMPARE(PlaygroundResultModel::summaryText(repeats), QStringLiteral("3 distinct of 5"));
        repeats[4].state = CellResult::State::Running;
        QCOMPARE(PlaygroundResultModel::summaryText(repeats), QStringLiteral("4 of 5 done"));
    }

    void failingServerGivesErrorCells()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueueChat(ScriptedReply::error(500, QStringLiteral("the server broke")));
        server.enqueueChat(ScriptedReply::badJson());
        ScriptedReply garbage;
        garbage.raw = {QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{{{{{")};
        server.enqueueChat(garbage);
        PlaygroundRun run(providerFor(server));
        run.setVariants({prompt(QStringLiteral("a"), QStringLiteral("x ${ name }"))});
        run.setInputs(rows(5));
        run.setConcurrency(1); // the scripted failures go to the first three cells
        QSignalSpy finished(&run, &PlaygroundRun::finished);
        run.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        int failed = 0;
        for (int row = 0; row < 5; ++row) {
            const CellResult& r = run.result({row, 0, 0});
            QVERIFY(r.isFinal());
            if (r.state == CellResult::State::Failed) {
                ++failed;
                QVERIFY(!r.error.isEmpty());
            } else {
                QCOMPARE(r.state, CellResult::State::Done);
            }
        }
        QCOMPARE(failed, 3);
        QVERIFY(run.result({0, 0, 0}).error.contains(QLatin1String("the server broke")));
    }

    void templateErrorFailsTheCellWithoutACall()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        PlaygroundRun run(providerFor(server));
        run.setVariants({prompt(QStringLiteral("a"), QStringLiteral("x ${ missing }"))});
        run.setInputs(rows(1));
        QSignalSpy finished(&run, &PlaygroundRun::finished);
        run.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(run.result({0, 0, 0}).state, CellResult::State::Failed);
        QVERIFY(run.result({0, 0, 0}).error.contains(QLatin1String("missing")));
        QCOMPARE(server.requestCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestPlaygroundRun)
#include "tst_playgroundrun.moc"
