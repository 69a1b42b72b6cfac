// View › <pane> brings the pane to the front: a pane behind another tab is raised (not closed,
// as Qt's own toggle does), a closed pane opens, and a pane already in front closes.
#include "widgets/common/dockviewaction.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QTest>

using namespace hako;

class TestDockViewAction : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void raisesAPaneBehindATabOpensAndCloses()
    {
        QMainWindow window;
        window.setCentralWidget(new QLabel(QStringLiteral("editor")));
        auto* log = new QDockWidget(QStringLiteral("Prompt Log"), &window);
        log->setObjectName(QStringLiteral("promptLogDock"));
        log->setWidget(new QLabel(QStringLiteral("calls")));
        auto* console = new QDockWidget(QStringLiteral("Console"), &window);
        console->setObjectName(QStringLiteral("consoleDock"));
        console->setWidget(new QLabel(QStringLiteral("output")));
        window.addDockWidget(Qt::BottomDockWidgetArea, log);
        window.addDockWidget(Qt::BottomDockWidgetArea, console);
        window.tabifyDockWidget(log, console);
        window.resize(800, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        console->raise();
        QTRY_VERIFY(console->isVisible());
        // Behind a tab, Qt keeps a pane "visible" and moves it out of sight.
        auto inFront = [](QDockWidget* d) {
            return d->isVisible() && !d->visibleRegion().isEmpty();
        };
        QTRY_VERIFY(!inFront(log));

        QAction* showLog = dockViewAction(log);
        QCOMPARE(showLog->text(), QStringLiteral("Prompt Log"));
        QVERIFY(showLog->isChecked());
        // Behind the Console's tab: the entry raises it, it stays open.
        showLog->trigger();
        QTRY_VERIFY(inFront(log));
        QVERIFY(showLog->isChecked());
        QTRY_VERIFY(!inFront(console));
        // In front: the entry closes it.
        showLog->trigger();
        QTRY_VERIFY(log->isHidden());
        QVERIFY(!showLog->isChecked());
        // Closed: the entry opens it in front.
        showLog->trigger();
        QTRY_VERIFY(inFront(log));
        QVERIFY(showLog->isChecked());
        // Closed by its own close button: the entry follows.
        log->close();
        QTRY_VERIFY(!showLog->isChecked());
    }
};

QTEST_MAIN(TestDockViewAction)
#include "tst_dockviewaction.moc"
