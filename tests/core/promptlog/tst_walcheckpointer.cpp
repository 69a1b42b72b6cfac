// The prompt log's write-ahead log is copied into the database off the writer's thread, and
// still reaches the database when that thread cannot do it.
#include "core/promptlog/walcheckpointer_p.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <memory>

using namespace hako::promptlog;

namespace {

constexpr qint64 kBlob = 6 * 1024 * 1024; // past kBackgroundBytes

struct Db {
    sqlite3* db = nullptr;
    explicit Db(const QString& path) { sqlite3_open(path.toUtf8().constData(), &db); }
    ~Db() { sqlite3_close_v2(db); }
    bool exec(const QByteArray& sql)
    {
        return sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    // One commit of `bytes` of new pages.
    bool writeBlob(qint64 bytes)
    {
        return exec("INSERT INTO t(b) VALUES (randomblob(" + QByteArray::number(bytes) + "))");
    }
    QString walMode()
    {
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA wal_autocheckpoint", -1, &s, nullptr);
        QString v =
            sqlite3_step(s) == SQLITE_ROW
                ? QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)))
                : QString();
        sqlite3_finalize(s);
        return v;
    }
};

} // namespace

class TestWalCheckpointer : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString freshDatabase(const QString& name, std::unique_ptr<Db>& db, int pageSize = 4096)
    {
        const QString path = m_dir.filePath(name);
        db = std::make_unique<Db>(path);
        if (!db->exec("PRAGMA page_size=" + QByteArray::number(pageSize)) ||
            !db->exec("PRAGMA journal_mode=WAL") || !db->exec("CREATE TABLE t(b BLOB)"))
            return {};
        return path;
    }

private Q_SLOTS:
    // A large commit's pages reach the database through the second connection, without the
    // writer doing anything more.
    void copiesOnItsOwnThread()
    {
        std::unique_ptr<Db> writer;
        const QString path = freshDatabase(QStringLiteral("a.sqlite"), writer);
        QVERIFY(!path.isEmpty());
        WalCheckpointer checkpointer(writer->db, path);
        QVERIFY(writer->writeBlob(kBlob));
        QTRY_VERIFY_WITH_TIMEOUT(checkpointer.backgroundCheckpoints() >= 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(path).size() >= kBlob, 30000);
        // A small commit asks for nothing.
        const int before = checkpointer.backgroundCheckpoints();
        QVERIFY(writer->writeBlob(1000));
        QCOMPARE(checkpointer.backgroundCheckpoints(), before);
    }

    // The thresholds are bytes, not pages: a log of 16 KB pages is copied past the same
    // 4 MB (6 MB is 384 of its pages, far below SQLite's 1,000).
    void largePagesAreCopiedAsSoon()
    {
        std::unique_ptr<Db> writer;
        const QString path = freshDatabase(QStringLiteral("d.sqlite"), writer, 16384);
        QVERIFY(!path.isEmpty());
        WalCheckpointer checkpointer(writer->db, path);
        QVERIFY(writer->writeBlob(kBlob));
        QTRY_VERIFY_WITH_TIMEOUT(checkpointer.backgroundCheckpoints() >= 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(path).size() >= kBlob, 30000);
    }

    // When the second connection cannot be opened, the writer checkpoints as SQLite itself
    // would: the pages are in the database when the commit returns.
    void theWriterCopiesWhenTheThreadCannot()
    {
        std::unique_ptr<Db> writer;
        const QString path = freshDatabase(QStringLiteral("b.sqlite"), writer);
        QVERIFY(!path.isEmpty());
        WalCheckpointer checkpointer(writer->db, m_dir.filePath(QStringLiteral("no/such.sqlite")));
        QVERIFY(writer->writeBlob(kBlob)); // starts the thread, which cannot open its connection
        qint64 size = 0;
        for (int i = 0; i < 50 && size < kBlob; ++i) {
            QVERIFY(writer->writeBlob(kBlob));
            size = QFileInfo(path).size(); // read as the commit returns: no wait
            if (size < kBlob)
                QTest::qWait(20); // the thread has not given up yet: the next commit will see
        }
        QVERIFY(size >= kBlob);
        QCOMPARE(checkpointer.backgroundCheckpoints(), 0);
    }

    // Once it is gone, the connection checkpoints by itself again.
    void givesTheConnectionBack()
    {
        std::unique_ptr<Db> writer;
        const QString path = freshDatabase(QStringLiteral("c.sqlite"), writer);
        QVERIFY(!path.isEmpty());
        QVERIFY(writer->exec("PRAGMA wal_autocheckpoint=123"));
        {
            WalCheckpointer checkpointer(writer->db, path);
            QCOMPARE(writer->walMode(), QStringLiteral("0")); // the hook replaced it
        }
        QCOMPARE(writer->walMode(), QStringLiteral("1000"));
        QVERIFY(writer->writeBlob(kBlob));
        QVERIFY(QFileInfo(path).size() >= kBlob);
    }
};

QTEST_GUILESS_MAIN(TestWalCheckpointer)
#include "tst_walcheckpointer.moc"
