// The documents pane as a user drives it: open a file (indexed in the background), type a
// command, click a hit, step through hits with F3; plus a screenshot for looking at it.
#include "core/docs/documentsession.h"
#include "core/docs/hitlistmodel.h"
#include "widgets/docs/documentpane.h"
#include "widgets/docs/documentview.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSignalSpy>
#include <QTest>

using namespace hako;

class TestDocPane : public QObject {
    Q_OBJECT

    static QString ginga()
    {
        return QStringLiteral(HAKO_SHARED_DIR "/data/aozora/ginga_tetsudo_no_yoru.txt");
    }

private Q_SLOTS:
    void searchClickAndNavigate()
    {
        DocumentPane pane;
        pane.resize(1200, 700);
        pane.show();
        QAbstractItemModelTester hitTester(pane.hitModel());
        QAbstractItemModelTester transcriptTester(pane.transcriptModel());
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        pane.openDocument(QStringLiteral(HAKO_TEST_DATA_DIR "/docs/seed_small.txt"));
        QTRY_COMPARE(ready.count(), 1);
        QVERIFY(pane.commandLine()->isEnabled());
        QSignalSpy done(&pane, &DocumentPane::commandFinished);
        pane.commandLine()->setText(QStringLiteral("search 停車場")); // keyClicks is ASCII-only
        QTest::keyClick(pane.commandLine(), Qt::Key_Return);
        QTRY_COMPARE(done.count(), 1);
        QCOMPARE(pane.hitModel()->rowCount(), 2);
        QCOMPARE(pane.costLabel()->text(), QStringLiteral("Cost: 5"));
        QCOMPARE(pane.transcriptModel()->rowCount(), 1);
        // The first hit is selected and highlighted in the viewer.
        QCOMPARE(pane.view()->highlightedLine(), 1);
        // Clicking the second hit moves the highlight to its line.
        const QRect second = pane.hitList()->visualRect(pane.hitModel()->index(1));
        QTest::mouseClick(pane.hitList()->viewport(), Qt::LeftButton, {}, second.center());
        QCOMPARE(pane.view()->highlightedLine(), 3);
        pane.nextHit();
        QCOMPARE(pane.view()->highlightedLine(), 1);
        pane.previousHit();
        QCOMPARE(pane.view()->highlightedLine(), 3);
        // History: Up brings back the last command.
        QTest::keyClick(pane.commandLine(), Qt::Key_Up);
        QCOMPARE(pane.commandLine()->text(), QStringLiteral("search 停車場"));
    }

    void failedOpenShowsMessage()
    {
        DocumentPane pane;
        QSignalSpy failed(&pane, &DocumentPane::failed);
        pane.openDocument(QStringLiteral("/nonexistent/file.txt"));
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY(!pane.commandLine()->isEnabled());
    }

    void screenshotRealText()
    {
        if (!QFile::exists(ginga()))
            QSKIP("shared Aozora texts not present (../shared/data/aozora)");
        DocumentPane pane;
        pane.resize(1300, 700);
        pane.show();
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        pane.openDocument(ginga());
        QTRY_COMPARE(ready.count(), 1);
        QSignalSpy done(&pane, &DocumentPane::commandFinished);
        pane.runCommand(QStringLiteral("search 天の川"));
        QTRY_COMPARE(done.count(), 1);
        QCOMPARE(pane.hitModel()->rowCount(), 10);
        pane.selectHit(2); // line 126, written 天《あま》の川《がわ》
        QCOMPARE(pane.view()->highlightedLine(), 126);
        QTest::qWait(50);
        const QString out = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (!out.isEmpty())
            pane.grab().save(QDir(out).filePath(QStringLiteral("docpane.png")));
    }
};

QTEST_MAIN(TestDocPane)
#include "tst_docpane.moc"
