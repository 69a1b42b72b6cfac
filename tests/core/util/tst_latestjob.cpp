// "The newest request wins": the one helper every pane uses to drop a slow answer that arrives
// after a newer request.
#include "core/util/latestjob.h"

#include <QFuture>
#include <QPromise>
#include <QTest>
#include <QThread>
#include <QtConcurrent>

using namespace hako;

class TestLatestJob : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void newestTicketWins()
    {
        LatestJob job;
        const auto first = job.start();
        QVERIFY(job.isCurrent(first));
        const auto second = job.start();
        QVERIFY(!job.isCurrent(first));
        QVERIFY(job.isCurrent(second));
    }

    void invalidateMakesEveryTicketStale()
    {
        LatestJob job;
        const auto t = job.start();
        job.invalidate();
        QVERIFY(!job.isCurrent(t));
        QVERIFY(job.isCurrent(job.current()));
        QVERIFY(!job.isCurrent(LatestJob::Ticket()));
    }

    void currentIsStaleAfterTheNextStart()
    {
        LatestJob job;
        const auto page = job.current();
        QVERIFY(job.isCurrent(page));
        job.start();
        QVERIFY(!job.isCurrent(page));
    }

    // A tracker that replaced another (an entry removed and made again) never takes the old
    // one's answers.
    void ticketsAreUniqueAcrossTrackers()
    {
        auto a = std::make_unique<LatestJob>();
        const auto fromA = a->start();
        a = std::make_unique<LatestJob>();
        a->start();
        QVERIFY(!a->isCurrent(fromA));
    }

    // The slow answer of the first request arrives after the second's: only the second shows.
    void slowAnswerAfterNewerRequestIsDropped()
    {
        LatestJob job;
        QStringList shown;
        int answered = 0;
        QPromise<void> releaseSlow;
        QFuture<void> gate = releaseSlow.future();
        releaseSlow.start();
        auto request = [&](const QString& answer, bool slow) {
            const LatestJob::Ticket ticket = job.start();
            QtConcurrent::run([gate, slow, answer] {
                if (slow)
                    QFuture<void>(gate).waitForFinished();
                return answer;
            }).then(this, [&, ticket](const QString& a) {
                ++answered;
                if (job.isCurrent(ticket))
                    shown << a;
            });
        };
        request(QStringLiteral("古い答え"), true);
        request(QStringLiteral("new"), false);
        QTRY_COMPARE(shown, QStringList{QStringLiteral("new")});
        releaseSlow.finish();
        QTRY_COMPARE(answered, 2);
        QCOMPARE(shown, QStringList{QStringLiteral("new")});
    }
};

QTEST_GUILESS_MAIN(TestLatestJob)
#include "tst_latestjob.moc"
