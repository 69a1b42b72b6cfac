// What the Prompt Log pane shows for a filter, read in one go off the GUI thread: the first
// page and how many match, the whole log's count, statistics, series, tags; and the over-time
// charts made from a series.
#include "core/promptlog/logsnapshot.h"
#include "core/promptlog/promptlog.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace hako::promptlog;

namespace {

CallRecord call(const QString& uid, const QString& prompt, CallStatus status, int64_t startedAt,
                double latency, const QStringList& tags)
{
    CallRecord c;
    c.uid = uid;
    c.promptName = prompt;
    c.model = QStringLiteral("gpt-a");
    c.status = status;
    c.startedAt = startedAt;
    c.latencyMs = latency;
    c.promptTokens = 10;
    c.completionTokens = 5;
    c.tags = tags;
    c.reply = QStringLiteral("返事");
    return c;
}

} // namespace

class TestLogSnapshot : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsPageCountsStatsSeriesAndTags()
    {
        QTemporaryDir dir;
        QString error;
        std::unique_ptr<PromptLog> log =
            PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        const int64_t t0 = 1700000000000;
        std::vector<CallRecord> calls;
        for (int i = 0; i < 5; ++i)
            calls.push_back(call(QStringLiteral("u%1").arg(i),
                                 i < 3 ? QStringLiteral("要約") : QStringLiteral("翻訳"),
                                 i == 4 ? CallStatus::Failed : CallStatus::Ok, t0 + i * 1000, 100,
                                 {QStringLiteral("env:test")}));
        QVERIFY(log->insertNow(calls));

        CallFilter filter;
        filter.prompt = QStringLiteral("要約");
        const SeriesRange range = SeriesRange::ending(t0 + 10000, 3600 * 1000, 4);
        // A page smaller than the matches: the count comes from the store.
        LogSnapshot s = LogSnapshot::read(*log, filter, StatsGroup::Prompt, range, 2);
        QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
        QCOMPARE(s.calls.size(), qsizetype(2));
        QCOMPARE(s.matching, int64_t(3));
        QCOMPARE(s.total, int64_t(5));
        QCOMPARE(s.stats.size(), qsizetype(1));
        QCOMPARE(s.stats.first().calls, int64_t(3));
        QCOMPARE(s.overTime.calls.size(), size_t(4));
        QCOMPARE(s.overTime.calls.back(), int64_t(3));
        QCOMPARE(s.tags, QStringList{QStringLiteral("env:test")});

        // A call still in the writer's queue is in the next snapshot.
        log->record(
            call(QStringLiteral("u9"), QStringLiteral("要約"), CallStatus::Ok, t0 + 9000, 100, {}));
        s = LogSnapshot::read(*log, filter, StatsGroup::Prompt, range, 50);
        QCOMPARE(s.matching, int64_t(4));
        QCOMPARE(s.calls.size(), qsizetype(4));
    }

    void chartsPerBucket()
    {
        SeriesRange range;
        range.fromMs = QDateTime(QDate(2026, 1, 2), QTime(0, 0)).toMSecsSinceEpoch();
        range.bucketMs = 24 * 3600 * 1000;
        range.buckets = 2;
        TimeSeries series(QString(), 2);
        series.calls = {4, 0};
        series.okCalls = {3, 0};
        series.tokens = {40, 0};
        series.latencySumMs = {400, 0};
        series.latencyCount = {4, 0};
        const OverTimeCharts c = OverTimeCharts::from(series, range);
        QCOMPARE(c.labels,
                 (QStringList{QStringLiteral("2026-01-02"), QStringLiteral("2026-01-03")}));
        QCOMPARE(c.calls, (QList<double>{4, 0}));
        QCOMPARE(c.successPercent.first(), 75.0);
        QVERIFY(std::isnan(c.successPercent.last())); // no call: no rate, not 0%
        QCOMPARE(c.meanLatencyMs.first(), 100.0);
        QVERIFY(std::isnan(c.meanLatencyMs.last()));
        QCOMPARE(c.tokens, (QList<double>{40, 0}));

        range.bucketMs = 3600 * 1000; // shorter buckets carry the time
        QCOMPARE(OverTimeCharts::from(series, range).labels.first(),
                 QStringLiteral("2026-01-02 00:00"));
    }
};

QTEST_GUILESS_MAIN(TestLogSnapshot)
#include "tst_logsnapshot.moc"
