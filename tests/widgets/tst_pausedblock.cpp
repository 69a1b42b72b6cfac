// A block a debugged run is paused at says "paused" (not "running…") in its box, and the
// workbench context tells the panes which block that is, and when the run goes on.
#include "core/pdl/trace/boxlayout.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/trace/boxpainter.h"

#include <QSignalSpy>
#include <QTest>

using namespace hako;

class TestPausedBlock : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runningBoxSaysPausedOnlyWhilePaused()
    {
        pdl::Box box;
        box.label = QStringLiteral("answer");
        box.kind = pdl::BlockKind::Model;
        box.flags = pdl::Box::Running;
        const QString running = BoxPainter::headerText(box, false);
        const QString paused = BoxPainter::headerText(box, true);
        QVERIFY2(running.contains(QStringLiteral("running")), qPrintable(running));
        QVERIFY2(paused.contains(QStringLiteral("paused")), qPrintable(paused));
        QVERIFY2(!paused.contains(QStringLiteral("running")), qPrintable(paused));
        // A finished box is never said to be paused.
        box.flags = 0;
        QVERIFY(!BoxPainter::headerText(box, true).contains(QStringLiteral("paused")));
    }

    void contextSaysWhichBlockIsPaused()
    {
        WorkbenchContext context;
        QSignalSpy changed(&context, &WorkbenchContext::pausedNodeChanged);
        QVERIFY(context.pausedNode().isEmpty());
        context.setPausedNode(QStringLiteral("text.1.model"));
        context.setPausedNode(QStringLiteral("text.1.model")); // the same: no second signal
        QCOMPARE(changed.count(), 1);
        QCOMPARE(context.pausedNode(), QStringLiteral("text.1.model"));
        context.setPausedNode(QString()); // resumed
        QCOMPARE(changed.count(), 2);
        QVERIFY(context.pausedNode().isEmpty());
    }
};

QTEST_MAIN(TestPausedBlock)
#include "tst_pausedblock.moc"
