// Reliability: a writer killed with SIGKILL in the middle of a batch loses nothing it committed
// and leaves a store that opens and passes SQLite's integrity check. The writer is this same
// executable started again with HAKO_MEMORY_CRASH_WRITER set.
#include "core/memory/memorystore.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace hako::memory;

namespace {

constexpr int kBatch = 1000;
constexpr int kDim = 64;

QString textFor(int64_t n)
{
    return QStringLiteral("memory number %1").arg(n);
}

// Writes batches until killed, printing the committed total after each commit.
int writerMain(const QString& path)
{
    auto store = MemoryStore::open(path);
    if (!store) {
        std::fprintf(stderr, "%s\n", qPrintable(store.error().message));
        return 1;
    }
    int64_t next = (*store)->count(std::nullopt);
    for (int round = 0; round < 10000; ++round) {
        std::vector<MemoryRecord> batch;
        for (int i = 0; i < kBatch; ++i) {
            MemoryRecord r;
            r.text = textFor(next + i + 1);
            r.importance = int((next + i) % 10) + 1;
            r.embeddingModel = QStringLiteral("test");
            r.embedding.assign(kDim, float((next + i) % 7));
            r.embedding[0] = 1;
            batch.push_back(std::move(r));
        }
        auto ids = (*store)->addBatch(std::move(batch), {});
        if (!ids) {
            std::fprintf(stderr, "%s\n", qPrintable(ids.error().message));
            return 1;
        }
        next += kBatch;
        std::printf("committed %lld\n", static_cast<long long>(next));
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

class TestMemoryCrash : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void killedWriterLosesNothingCommitted()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("crash.hakomem"));
        int64_t committed = 0;
        for (int round = 0; round < 3; ++round) {
            QProcess child;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("HAKO_MEMORY_CRASH_WRITER"), path);
            child.setProcessEnvironment(env);
            child.start(QCoreApplication::applicationFilePath(), {});
            QVERIFY(child.waitForStarted());
            // Let it commit a few batches, then kill it while it is inside the next one.
            QByteArray seen;
            const int64_t target = committed + 3 * kBatch;
            int64_t last = committed;
            while (last < target) {
                QVERIFY2(child.waitForReadyRead(30000), child.readAllStandardError().constData());
                seen += child.readAllStandardOutput();
                const QList<QByteArray> lines = seen.split('\n');
                for (const QByteArray& l : lines) {
                    if (l.startsWith("committed "))
                        last = std::max<int64_t>(last, l.mid(10).toLongLong());
                }
            }
            child.kill(); // SIGKILL
            QVERIFY(child.waitForFinished(10000));
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);
            seen += child.readAllStandardOutput();
            for (const QByteArray& l : seen.split('\n')) {
                if (l.startsWith("committed "))
                    last = std::max<int64_t>(last, l.mid(10).toLongLong());
            }
            committed = last;

            auto store = MemoryStore::open(path);
            QVERIFY2(store.ok(), store.ok() ? "" : qPrintable(store.error().message));
            auto check = (*store)->integrityCheck();
            QVERIFY2(check.ok(), check.ok() ? "" : qPrintable(check.error().message));
            const int64_t count = (*store)->count(std::nullopt);
            // Every reported commit is there, and only whole batches are.
            QVERIFY2(count >= committed,
                     qPrintable(QStringLiteral("%1 < %2").arg(count).arg(committed)));
            QCOMPARE(count % kBatch, int64_t(0));
            committed = count;
            for (int64_t id : {int64_t(1), count / 2, count}) {
                auto r = (*store)->get(id, true);
                QVERIFY(r.ok());
                QCOMPARE(r->text, textFor(id));
                QCOMPARE(r->embedding.size(), size_t(kDim));
            }
            // Every add is journaled.
            int64_t adds = 0;
            const auto journal = (*store)->journal();
            QVERIFY(journal.ok());
            for (const JournalEntry& e : *journal)
                adds += e.op == QLatin1String("add");
            QCOMPARE(adds, count);
        }
    }
};

int main(int argc, char** argv)
{
    const QByteArray writer = qgetenv("HAKO_MEMORY_CRASH_WRITER");
    if (!writer.isEmpty()) {
        QCoreApplication app(argc, argv);
        return writerMain(QString::fromLocal8Bit(writer));
    }
    QCoreApplication app(argc, argv);
    TestMemoryCrash t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_memorycrash.moc"
