// The workbench context tells the prompt log's readers when calls were committed, however many
// batches land at once: one notice, never a storm of refreshes.
#include "core/promptlog/promptlog.h"
#include "core/workbench/workbenchcontext.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::promptlog;

class TestWorkbenchContext : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recordedCallsAreAnnounced()
    {
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<PromptLog> log =
            PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        WorkbenchContext context;
        context.setPromptLog(log);
        QSignalSpy committed(&context, &WorkbenchContext::promptLogCommitted);
        CallRecord call;
        call.promptName = QStringLiteral("遊び場");
        call.origin = CallOrigin::Playground;
        log->record(call);
        QTRY_COMPARE(committed.size(), 1);
    }

    void manyCommitsMakeOneNotice()
    {
        QTemporaryDir dir;
        std::shared_ptr<PromptLog> log = PromptLog::open(dir.filePath(QStringLiteral("l.sqlite")));
        QVERIFY(log);
        WorkbenchContext context;
        context.setPromptLog(log);
        QSignalSpy committed(&context, &WorkbenchContext::promptLogCommitted);
        // As the writer does while 10k calls arrive: a batch committed after another.
        for (int i = 0; i < 1000; ++i)
            Q_EMIT log->committed(10);
        QTRY_COMPARE(committed.size(), 1);
        // Every queued batch notice was handled before the coalesced one was emitted.
        QCOMPARE(committed.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestWorkbenchContext)
#include "tst_workbenchcontext.moc"
