// BulkAllocationScope: while a large trace is read, the allocator takes new memory in huge pages;
// scopes nest and overlap across threads, and the setting comes back when the last one ends.
#include "core/util/bulkmemory.h"

#include <QFile>
#include <QtTest>

#include <cstring>
#include <memory>
#include <thread>
#include <vector>

using namespace hako;

namespace {

// The number after `key` (its first word) in the /proc file `path`, or -1.
long procFigure(const char* path, const QByteArray& key)
{
    QFile f(QString::fromLatin1(path));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toLong();
    return -1;
}

// Kilobytes of anonymous memory this process holds in transparent huge pages.
long anonHugeKb()
{
    return procFigure("/proc/self/smaps_rollup", "AnonHugePages:");
}

// The system's count of huge-page faults that fell back to small pages (all processes).
long hugePageFallbacks()
{
    return procFigure("/proc/vmstat", "thp_fault_fallback ");
}

bool kernelGivesHugePagesOnRequest()
{
    QFile f(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray mode = f.readAll();
    return mode.contains("[always]") || mode.contains("[madvise]");
}

} // namespace

class TestBulkMemory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scopesNestAndOverlapAcrossThreads()
    {
        if (!BulkAllocationScope::available())
            QSKIP("this process's allocator is not mimalloc (built without HAKO_MALLOC)");
        QVERIFY(!BulkAllocationScope::active());
        {
            BulkAllocationScope outer;
            QVERIFY(BulkAllocationScope::active());
            {
                BulkAllocationScope inner;
                QVERIFY(BulkAllocationScope::active());
            }
            QVERIFY(BulkAllocationScope::active()); // the outer one still holds
        }
        QVERIFY(!BulkAllocationScope::active());

        // Two loads on worker threads that overlap: on until both ended, in either order.
        auto a = std::make_unique<BulkAllocationScope>();
        std::unique_ptr<BulkAllocationScope> b;
        std::thread t([&b] { b = std::make_unique<BulkAllocationScope>(); });
        t.join();
        a.reset();
        QVERIFY(BulkAllocationScope::active());
        std::thread u([&b] { b.reset(); });
        u.join();
        QVERIFY(!BulkAllocationScope::active());
    }

    void bigAllocationsInsideAScopeUseHugePages()
    {
        if (!BulkAllocationScope::available())
            QSKIP("this process's allocator is not mimalloc (built without HAKO_MALLOC)");
        if (!kernelGivesHugePagesOnRequest())
            QSKIP("the kernel's transparent huge pages are off");
        const long before = anonHugeKb();
        const long fallbacksBefore = hugePageFallbacks();
        QVERIFY(before >= 0);
        std::vector<std::unique_ptr<char[]>> blocks;
        {
            BulkAllocationScope scope;
            // What a large trace's nodes look like to the allocator: many small objects.
            for (int i = 0; i < 200000; ++i) {
                blocks.emplace_back(new char[480]);
                std::memset(blocks.back().get(), i & 0xff, 480);
            }
        }
        const long after = anonHugeKb();
        // Asked for but not given (no free 2 MB of memory to be had): the kernel's choice.
        if (after - before < 2048 && hugePageFallbacks() > fallbacksBefore)
            QSKIP("the kernel had no free huge pages to give");
        QVERIFY2(after - before >= 2048,
                 qPrintable(QStringLiteral("huge pages %1 KB -> %2 KB").arg(before).arg(after)));
    }
};

QTEST_GUILESS_MAIN(TestBulkMemory)
#include "tst_bulkmemory.moc"
