// A damaged SQLite prompt log (bits flipped on disk) is refused when it is opened — nothing
// more is written into it, and the error names the file and the way out —, and `salvage`
// copies every call that can still be read into a new, sound log.
#include "core/promptlog/logsalvage.h"
#include "core/promptlog/promptlog.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hako::promptlog;

namespace {

constexpr int kCalls = 300;

CallRecord call(int i)
{
    CallRecord c;
    c.uid = QStringLiteral("call-%1").arg(i, 4, 10, QLatin1Char('0'));
    c.promptName = QStringLiteral("p");
    c.model = QStringLiteral("m");
    c.runId = QStringLiteral("run-damage");
    c.startedAt = 1700000000000 + i;
    c.messages =
        QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                               {QStringLiteral("content"), QStringLiteral("question %1").arg(i)}}};
    // Long enough that the calls spread over many pages.
    c.reply = QStringLiteral("answer %1 ").arg(i) + QString(1500, QLatin1Char('x'));
    return c;
}

QByteArray digest(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

} // namespace

class TestPromptLogDamage : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_damaged;

private Q_SLOTS:
    void initTestCase()
    {
        m_damaged = m_dir.filePath(QStringLiteral("damaged.sqlite"));
        {
            QString error;
            auto log = PromptLog::open(m_damaged, &error);
            QVERIFY2(log && error.isEmpty(), qPrintable(error));
            std::vector<CallRecord> calls;
            for (int i = 0; i < kCalls; ++i)
                calls.push_back(call(i));
            QCOMPARE(*log->insertNow(std::move(calls)), int64_t(kCalls));
        }
        // Flipped bits: every byte of three pages of the tables turned over, as a bad sector
        // or a faulty disk would leave them. The first page (the header, which gives the page
        // size at bytes 16–17) stays sound.
        QFile f(m_damaged);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const QByteArray header = f.read(100);
        QVERIFY(header.startsWith("SQLite format 3"));
        const qint64 pageSize = (qint64(uchar(header[16])) << 8) | qint64(uchar(header[17]));
        QVERIFY(pageSize >= 512);
        const qint64 pages = f.size() / pageSize;
        QVERIFY(pages > 30);
        for (qint64 page : {pages / 4, pages / 2, pages * 3 / 4}) {
            QVERIFY(f.seek(page * pageSize));
            QByteArray bytes = f.read(pageSize);
            for (char& b : bytes)
                b = char(~b);
            QVERIFY(f.seek(page * pageSize));
            QCOMPARE(f.write(bytes), pageSize);
        }
    }

    void damagedLogIsRefusedAndLeftAsItIs()
    {
        const QByteArray before = digest(m_damaged);
        PromptLogOptions options;
        options.retryIntervalMs = 50;
        options.batchIntervalMs = 10;
        QString error;
        auto log = PromptLog::open(m_damaged, &error, options);
        QVERIFY(log);
        QSignalSpy problems(log.get(), &PromptLog::problem);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("is damaged")));
        log->record(call(9999));
        QTRY_COMPARE(problems.count(), 1);
        // Said once, naming the file and the way out; the call is dropped, not kept for a
        // retry that cannot succeed.
        const QString message = problems.first().first().toString();
        QVERIFY2(message.contains(QLatin1String("is damaged")) && message.contains(m_damaged) &&
                     message.contains(QLatin1String("hako log salvage")),
                 qPrintable(message));
        QTRY_COMPARE(log->writerState().dropped, int64_t(1));
        // An import is refused the same way.
        hako::Result<int64_t> imported = log->insertNow({call(10000)});
        QVERIFY(!imported);
        QVERIFY(imported.error().message.contains(QLatin1String("is damaged")));
        log->close(1000);
        QCOMPARE(log->writerState().written, int64_t(0));
        QCOMPARE(digest(m_damaged), before);
    }

    void salvageCopiesWhatCanBeRead()
    {
        const QString out = m_dir.filePath(QStringLiteral("salvaged.sqlite"));
        hako::Result<SalvageReport> report = LogSalvage::salvage(m_damaged, out);
        QVERIFY2(report, report ? "" : qPrintable(report.error().message));
        qInfo("copied %lld (%lld without content), %lld unreadable", qlonglong(report->copied),
              qlonglong(report->withoutContent), qlonglong(report->unreadable));
        // Three bad pages cost a few calls, not the log.
        QVERIFY(report->copied >= kCalls / 2);
        QVERIFY(report->copied + report->unreadable <= kCalls);

        QString error;
        auto saved = PromptLog::open(out, &error);
        QVERIFY2(saved && error.isEmpty(), qPrintable(error));
        QCOMPARE(*saved->integrityCheck(), QStringLiteral("ok"));
        QCOMPARE(*saved->count({}), report->copied);
        CallFilter all;
        all.limit = 0;
        hako::Result<QList<CallRecord>> calls = saved->list(all, true);
        QVERIFY(calls);
        int whole = 0;
        for (const CallRecord& c : *calls) {
            const int i = c.uid.mid(5).toInt();
            QCOMPARE(c.uid, call(i).uid);
            QCOMPARE(c.startedAt, call(i).startedAt);
            if (c.reply == call(i).reply)
                ++whole;
        }
        QCOMPARE(int64_t(whole), report->copied - report->withoutContent);

        // A second salvage never overwrites a log.
        QVERIFY(!LogSalvage::salvage(m_damaged, out));
    }
};

QTEST_GUILESS_MAIN(TestPromptLogDamage)
#include "tst_promptlogdamage.moc"
