// A prompt log that stops answering never holds a run's exit: close() keeps to its bound with
// a PostgreSQL server frozen in the middle of a write, says how many calls it lost and why,
// and a log that could not be reached from the start costs one last attempt, not a wait.
#include "core/promptlog/promptlog.h"
#include "promptlogstores.h"
#include "tests/support/pgtestserver.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace hako::promptlog;
using promptlogtest::makeBlocker;

namespace {

CallRecord call(int i)
{
    CallRecord c;
    c.promptName = QStringLiteral("p");
    c.model = QStringLiteral("m");
    c.runId = QStringLiteral("run-stall");
    c.startedAt = 1700000000000 + i;
    c.messages =
        QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                               {QStringLiteral("content"), QStringLiteral("call %1").arg(i)}}};
    c.reply = QStringLiteral("ok");
    return c;
}

} // namespace

class TestPromptLogStall : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void frozenServerDoesNotHoldTheExit()
    {
        PgTestServer pg;
        if (!pg.start())
            QSKIP(qPrintable(pg.skipReason()));
        const QString url = pg.createDatabase(QStringLiteral("stall"));
        QVERIFY2(!url.isEmpty(), qPrintable(pg.lastOutput()));
        PromptLogOptions options;
        options.batchIntervalMs = 20;
        options.retryIntervalMs = 100;
        QString error;
        auto log = PromptLog::open(url, &error, options);
        QVERIFY2(log && error.isEmpty(), qPrintable(error));
        log->record(call(0));
        QVERIFY(log->flush());

        // Frozen with the writer's connection open: its next write gets no answer.
        QVERIFY(pg.pause());
        struct Thaw {
            PgTestServer& pg;
            ~Thaw() { pg.resume(); }
        } thaw{pg};
        for (int i = 1; i <= 10; ++i)
            log->record(call(i));
        QTRY_VERIFY(log->writerState().queued == 10 && !log->flush(50));

        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral(
                                               "prompt log .*: 10 calls not written within 2 s "
                                               "\\(server not answering\\); they are lost")));
        std::atomic<bool> closed{false};
        std::thread closer([&] {
            log->close(2000);
            closed = true;
        });
        // On a failure below, the server is thawed so that the closer can finish.
        auto joinCloser = qScopeGuard([&] {
            pg.resume();
            closer.join();
        });
        // Generous: the bound is 2 s; before, close() waited for as long as the server slept.
        QTRY_VERIFY_WITH_TIMEOUT(closed.load(), 20000);
        QCOMPARE(log->writerState().dropped, int64_t(10));
    }

    // A store that cannot be reached when the run starts (here a folder that is a file): the
    // exit makes one last attempt, it does not keep retrying until the close deadline.
    void unreachableLogCostsOneAttemptAtExit()
    {
        const QString blocker = m_dir.filePath(QStringLiteral("blocked"));
        QVERIFY(makeBlocker(blocker));
        PromptLogOptions options;
        options.retryIntervalMs = 50;
        options.batchIntervalMs = 10;
        QString error;
        auto log = PromptLog::open(blocker + QStringLiteral("/x/log.sqlite"), &error, options);
        QVERIFY(log);
        QVERIFY(!error.isEmpty());
        log->record(call(1));
        QTRY_VERIFY(log->writerState().failedAttempts >= 1);
        const int64_t before = log->writerState().failedAttempts;
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral("1 calls not written .*lost")));
        log->close(5000);
        QVERIFY2(log->writerState().failedAttempts <= before + 1,
                 qPrintable(QString::number(log->writerState().failedAttempts - before)));
        QCOMPARE(log->writerState().dropped, int64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestPromptLogStall)
#include "tst_promptlogstall.moc"
