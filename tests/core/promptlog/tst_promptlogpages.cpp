// The SQLite prompt log's page size: a new log is made of 16 KB pages, so that a call's content
// (a row of some 2 KB) no longer fills a 4 KB page alone and the file is about half empty space;
// a log capped below 16 MB, and any log made before, keep their pages and are written as before.
#include "core/promptlog/promptlog.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace hako::promptlog;

namespace {

const int64_t kStart = 1767225600000; // 2026-01-01

// The page size a SQLite file's header gives (bytes 16–17, big-endian; 1 means 65,536).
int headerPageSize(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray head = f.read(100);
    if (head.size() < 100 || !head.startsWith("SQLite format 3"))
        return 0;
    const int n = (int(uchar(head[16])) << 8) | int(uchar(head[17]));
    return n == 1 ? 65536 : n;
}

// About 2 KB of messages, as a chat call has: an English system prompt and a Japanese turn.
CallRecord chatCall(int i)
{
    QString system;
    while (system.size() < 1000)
        system += QStringLiteral("answer the question about the thread %1 ").arg(i);
    QString user;
    while (user.size() < 330)
        user += QStringLiteral("最近の出来事について返信して");
    CallRecord c;
    c.uid = QStringLiteral("call-%1").arg(i);
    c.runId = QStringLiteral("run-%1").arg(i / 10);
    c.promptName = QStringLiteral("reply");
    c.model = QStringLiteral("gpt-4o-mini");
    c.messages = QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                        {QStringLiteral("content"), system}},
                            QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                        {QStringLiteral("content"), user}}};
    c.reply = QStringLiteral("返信 %1 了").arg(i);
    c.promptTokens = 400;
    c.completionTokens = 20;
    c.startedAt = kStart + i;
    return c;
}

} // namespace

class TestPromptLogPages : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // Writes calls [from, to) to the log at `path` and closes it.
    static bool write(const QString& path, int from, int to, PromptLogOptions options = {})
    {
        QString error;
        auto log = PromptLog::open(path, &error, options);
        if (!log || !error.isEmpty())
            return false;
        for (int i = from; i < to; ++i)
            log->record(chatCall(i));
        const bool flushed = log->flush(60000);
        log->close(60000);
        return flushed;
    }
    static int64_t count(const QString& path, const QString& text = {})
    {
        auto log = PromptLog::open(path);
        if (!log)
            return -1;
        CallFilter f;
        f.text = text;
        auto n = log->count(f);
        return n ? *n : -1;
    }

private Q_SLOTS:
    // A new log: 16 KB pages, its calls and search as ever, and a file of about 5.5 KB a
    // 2 KB call (4 KB pages: about 9 KB, each content row alone on a page).
    void newLogHasLargePages()
    {
        const QString path = m_dir.filePath(QStringLiteral("new.sqlite"));
        QVERIFY(write(path, 0, 1000));
        QCOMPARE(headerPageSize(path), 16384);
        QCOMPARE(count(path), int64_t(1000));
        QCOMPARE(count(path, QStringLiteral("thread 417 ")), int64_t(1));
        QCOMPARE(count(path, QStringLiteral("了")), int64_t(1000));
        const double perCall = double(QFileInfo(path).size()) / 1000.0;
        QVERIFY2(perCall < 7000.0, qPrintable(QString::number(perCall)));
    }

    // A log capped below 16 MB keeps 4 KB pages: its empty schema alone would be some 40 large
    // pages. Opened again without the cap, it keeps them and is written as before.
    void smallAndExistingLogsKeepTheirPages()
    {
        const QString path = m_dir.filePath(QStringLiteral("capped.sqlite"));
        PromptLogOptions capped;
        capped.maxSizeBytes = 8 * 1024 * 1024;
        QVERIFY(write(path, 0, 100, capped));
        QCOMPARE(headerPageSize(path), 4096);
        QVERIFY(write(path, 100, 300));
        QCOMPARE(headerPageSize(path), 4096);
        QCOMPARE(count(path), int64_t(300));
        QCOMPARE(count(path, QStringLiteral("返信 250 了")), int64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestPromptLogPages)
#include "tst_promptlogpages.moc"
