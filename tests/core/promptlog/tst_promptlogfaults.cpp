// The prompt log's faults, against both stores (see promptlogstores.h): a store that cannot be
// written, a full one, a server stopped mid-run, a writer killed with SIGKILL mid-batch, a
// damaged full-text index, and a store of a newer schema.
#include "promptlogstores.h"

#include "core/promptlog/callexchange.h"
#include "core/promptlog/logsalvage.h"
#include "core/promptlog/promptlog.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

using namespace hako::promptlog;
using namespace promptlogtest;
using hako::Result;

namespace {

/// Runs `sql` on the SQLite file `path` with the sqlite3 command; false when it is not installed
/// or refuses.
bool runSqliteCommand(const QString& path, const QString& sql)
{
    QProcess sqlite;
    sqlite.start(QStringLiteral("sqlite3"), {path, sql});
    return sqlite.waitForFinished() && sqlite.exitStatus() == QProcess::NormalExit &&
           sqlite.exitCode() == 0;
}

// The writer child of killedWriterLosesNothingCommitted(): records calls with 2 KB messages as
// fast as it can and prints how many the writer has committed whenever that grows.
int writerChild(const QString& path, const QString& round)
{
    QString error;
    PromptLogOptions options;
    options.batchSize = 200;
    auto log = PromptLog::open(path, &error, options);
    if (!log || !error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const QString filler = QString(2000, QLatin1Char('x'));
    int64_t reported = 0;
    for (int i = 1;; ++i) {
        CallRecord c = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow);
        c.uid = QStringLiteral("%1-call-%2").arg(round).arg(i, 9, 10, QLatin1Char('0'));
        c.messages = chat(filler, QStringLiteral("call %1").arg(i));
        log->record(std::move(c));
        if (i % 50 == 0) {
            const int64_t written = log->writerState().written;
            if (written > reported) {
                reported = written;
                std::printf("committed %lld\n", static_cast<long long>(written));
                std::fflush(stdout);
            }
        }
        if (log->writerState().queued > 5000)
            QThread::msleep(5); // let the writer keep up; the point is a batch in progress
    }
}

} // namespace

class TestPromptLogFaults : public QObject, public PromptLogStores {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { startStores(); }

    // A store that cannot be created (its folder is a file): the caller hears it once, calls
    // wait in memory, and arrive when the folder can be made.
    void unwritableStoreWarnsOnceAndCatchesUp()
    {
        const QString blocker = m_dir.filePath(QStringLiteral("blocked"));
        QVERIFY(makeBlocker(blocker));
        PromptLogOptions options;
        options.retryIntervalMs = 50;
        options.batchIntervalMs = 10;
        options.maxBuffered = 40;
        QString error;
        auto log =
            PromptLog::open(blocker + QStringLiteral("/sub/promptlog.sqlite"), &error, options);
        QVERIFY(log);
        QVERIFY2(error.contains(QLatin1String("cannot")), qPrintable(error));
        QSignalSpy problems(log.get(), &PromptLog::problem);
        QSignalSpy recovered(log.get(), &PromptLog::recovered);
        for (int i = 0; i < 30; ++i)
            log->record(simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow + i));
        QTRY_VERIFY(log->writerState().failedAttempts >= 3);
        QCOMPARE(problems.count(), 0); // the open error was the warning
        QVERIFY(log->writerState().failing);
        QCOMPARE(log->writerState().queued, int64_t(30));
        QVERIFY(!log->list({}));
        // Beyond the buffer, calls are counted as dropped, and that is said once.
        for (int i = 0; i < 15; ++i)
            log->record(simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow + 100 + i));
        QCOMPARE(log->writerState().dropped, int64_t(5));
        QCOMPARE(problems.count(), 1);
        QVERIFY(problems.first().first().toString().contains(QLatin1String("dropped")));

        QVERIFY(QFile::remove(blocker));
        QVERIFY(QDir().mkpath(blocker));
        QTRY_COMPARE(log->writerState().written, int64_t(40));
        QTRY_COMPARE(recovered.count(), 1);
        QVERIFY(log->flush());
        QCOMPARE(*log->count({}), int64_t(40));
        QCOMPARE(problems.count(), 1);
    }

    // A full store (its size capped, as a full disk would): one warning, no crash, the calls
    // stay in memory, and close() gives up after its timeout saying how many it lost.
    void fullStoreWarnsOnce()
    {
        PromptLogOptions options;
        options.maxSizeBytes = 256 * 1024;
        options.retryIntervalMs = 50;
        options.batchIntervalMs = 10;
        options.batchSize = 10;
        QString error;
        auto log = PromptLog::open(m_dir.filePath(QStringLiteral("full.sqlite")), &error, options);
        QVERIFY(log);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSignalSpy problems(log.get(), &PromptLog::problem);
        const QString big = QString(20000, QLatin1Char('z'));
        for (int i = 0; i < 40; ++i) {
            CallRecord c = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow);
            c.reply = big + QString::number(i);
            log->record(c);
        }
        QTRY_VERIFY(log->writerState().failing);
        const int64_t failedSoFar = log->writerState().failedAttempts;
        QTRY_VERIFY(log->writerState().failedAttempts >= failedSoFar + 3);
        QCOMPARE(problems.count(), 1);
        const QString message = problems.first().first().toString();
        QVERIFY2(message.contains(QLatin1String("full")), qPrintable(message));
        const auto state = log->writerState();
        QVERIFY(state.written < 40);
        QCOMPARE(state.written + state.queued, int64_t(40));
        // What was committed is intact and readable meanwhile.
        QCOMPARE(*log->count({}), state.written);
        QCOMPARE(*log->integrityCheck(), QStringLiteral("ok"));
        QVERIFY(!log->flush(200));
        log->close(300);
        QCOMPARE(log->writerState().dropped, 40 - state.written);
    }

    void killedWriterLosesNothingCommitted()
    {
        const QString path = m_dir.filePath(QStringLiteral("killed.sqlite"));
        int64_t committed = 0;
        for (int round = 0; round < 2; ++round) {
            QProcess child;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("HAKO_PROMPTLOG_WRITER"), path);
            env.insert(QStringLiteral("HAKO_PROMPTLOG_ROUND"), QString::number(round));
            child.setProcessEnvironment(env);
            child.start(QCoreApplication::applicationFilePath(), {});
            QVERIFY(child.waitForStarted());
            QByteArray seen;
            int64_t last = 0;
            auto scan = [&] {
                for (const QByteArray& l : seen.split('\n')) {
                    if (l.startsWith("committed "))
                        last = std::max<int64_t>(last, l.mid(10).toLongLong());
                }
            };
            // A few batches in, the writer is killed in the middle of the next.
            while (last < 1000) {
                QVERIFY2(child.waitForReadyRead(60000), child.readAllStandardError().constData());
                seen += child.readAllStandardOutput();
                scan();
            }
            child.kill();
            QVERIFY(child.waitForFinished(10000));
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);
            seen += child.readAllStandardOutput();
            scan();

            auto log = PromptLog::open(path);
            QVERIFY(log);
            auto check = log->integrityCheck();
            QVERIFY2(check, check ? "" : qPrintable(check.error().message));
            QCOMPARE(*check, QStringLiteral("ok"));
            const int64_t count = *log->count({});
            // What the child reported committed this round are its first `last` calls.
            QVERIFY2(
                count >= committed + last,
                qPrintable(QStringLiteral("%1 < %2 + %3").arg(count).arg(committed).arg(last)));
            for (int64_t i : {int64_t(1), last / 2, last}) {
                auto c = log->find(
                    QStringLiteral("%1-call-%2").arg(round).arg(i, 9, 10, QLatin1Char('0')));
                QVERIFY2(c, c ? "" : qPrintable(c.error().message));
                QCOMPARE(c->messages.at(1).toObject().value(QLatin1String("content")).toString(),
                         QStringLiteral("call %1").arg(i));
            }
            CallFilter searched;
            searched.text = QStringLiteral("call %1").arg(last);
            QVERIFY(*log->count(searched) >= 1);
            committed = count;
        }
    }

    // The team's server goes away mid-run: one warning, the calls wait, and all of them arrive
    // when it is back.
    void serverOutageLosesNothing()
    {
        if (!m_pgUp)
            QSKIP(qPrintable(m_pgSkip));
        auto log = freshLog(QStringLiteral("postgresql"));
        QVERIFY2(log, qPrintable(m_lastError));
        QSignalSpy problems(log.get(), &PromptLog::problem);
        QSignalSpy recovered(log.get(), &PromptLog::recovered);
        for (int i = 0; i < 100; ++i)
            log->record(simpleCall(QStringLiteral("before"), QStringLiteral("m"), kNow));
        QVERIFY(log->flush());

        QVERIFY2(m_pg.stop(), qPrintable(m_pg.lastOutput()));
        for (int i = 0; i < 300; ++i)
            log->record(simpleCall(QStringLiteral("during"), QStringLiteral("m"), kNow));
        QTRY_VERIFY_WITH_TIMEOUT(log->writerState().failedAttempts >= 3, 30000);
        QCOMPARE(problems.count(), 1);
        QCOMPARE(log->writerState().queued, int64_t(300));
        QVERIFY(!log->count({}));

        QVERIFY2(m_pg.startServer(), qPrintable(m_pg.lastOutput()));
        for (int i = 0; i < 50; ++i)
            log->record(simpleCall(QStringLiteral("after"), QStringLiteral("m"), kNow));
        QTRY_COMPARE_WITH_TIMEOUT(log->writerState().written, int64_t(450), 60000);
        QTRY_COMPARE(recovered.count(), 1);
        QVERIFY(log->flush());
        QTRY_VERIFY(log->count({}).ok());
        QCOMPARE(*log->count({}), int64_t(450));
        auto rows = log->stats(StatsGroup::Prompt);
        QVERIFY(rows);
        QCOMPARE(rows->size(), 3);
        QCOMPARE(problems.count(), 1);
    }

    // A log whose full-text index is damaged, which the check before writing does not read (a
    // test suite's shared log was found so): the first write says the log is damaged and how to
    // save it, instead of "database disk image is malformed" (or, when the statement would not
    // even prepare, "not an error") and a retry at every write, and salvage copies every call
    // into a log that takes writes again. The index's pages are read when the sixteenth segment
    // makes FTS5 merge at a commit; its structure record when the write is prepared.
    void aDamagedFullTextIndexIsSaidAndSalvaged_data()
    {
        QTest::addColumn<QString>("rows");
        QTest::newRow("pages") << QStringLiteral("id > 10");
        QTest::newRow("structure") << QStringLiteral("id = 10");
    }

    void aDamagedFullTextIndexIsSaidAndSalvaged()
    {
        QFETCH(QString, rows);
        const QString path = m_dir.filePath(
            QStringLiteral("fts-damaged-%1.sqlite").arg(QLatin1String(QTest::currentDataTag())));
        {
            auto log = PromptLog::open(path);
            QVERIFY(log);
            // Fifteen commits: fifteen segments of the index, which the next commit must merge
            // (FTS5's crisis merge at sixteen).
            for (int i = 0; i < 15; ++i) {
                Result<int64_t> written = log->insertNow(
                    {simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow + i)});
                QVERIFY2(written && *written == 1,
                         qPrintable(written ? QString() : written.error().message));
            }
        }
        if (!runSqliteCommand(path, QStringLiteral("UPDATE call_fts_data SET block = "
                                                   "x'ffffffffffffffffffff' WHERE ") +
                                        rows))
            QSKIP("the sqlite3 command is not installed");
        QString error;
        auto log = PromptLog::open(path, &error);
        QVERIFY(log);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        Result<int64_t> refused =
            log->insertNow({simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow + 99)});
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QLatin1String("is damaged")) &&
                     refused.error().message.contains(QLatin1String("hako log salvage")),
                 qPrintable(refused.error().message));
        log.reset();

        const QString saved = m_dir.filePath(
            QStringLiteral("fts-saved-%1.sqlite").arg(QLatin1String(QTest::currentDataTag())));
        Result<SalvageReport> report = LogSalvage::salvage(path, saved);
        QVERIFY2(report, qPrintable(report ? QString() : report.error().message));
        QCOMPARE(report->copied, int64_t(15));
        auto again = PromptLog::open(saved);
        QVERIFY(again);
        QVERIFY(again->insertNow({simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow + 9)}));
        const Result<int64_t> calls = again->count({});
        QVERIFY(calls);
        QCOMPARE(*calls, int64_t(16));
    }

    void schemaVersionIsRecorded()
    {
        // A store written by a newer Hako is refused with a plain reason instead of misread.
        const QString path = m_dir.filePath(QStringLiteral("newer.sqlite"));
        {
            auto log = PromptLog::open(path);
            QVERIFY(log);
        }
        if (!runSqliteCommand(path, QStringLiteral("UPDATE meta SET value = '99' WHERE key = "
                                                   "'schema_version'")))
            QSKIP("the sqlite3 command is not installed");
        QString error;
        auto log = PromptLog::open(path, &error);
        QVERIFY(log);
        QVERIFY2(error.contains(QLatin1String("newer Hako")), qPrintable(error));
        QVERIFY(!log->count({}));
    }
};

int main(int argc, char** argv)
{
    const QByteArray writer = qgetenv("HAKO_PROMPTLOG_WRITER");
    QCoreApplication app(argc, argv);
    if (!writer.isEmpty())
        return writerChild(QString::fromLocal8Bit(writer),
                           QString::fromLocal8Bit(qgetenv("HAKO_PROMPTLOG_ROUND")));
    TestPromptLogFaults t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_promptlogfaults.moc"
