// The documents pane as a user drives it: open a file (indexed in the background), type a
// command, click a hit, step through hits with F3; plus a screenshot for looking at it.
#include "core/docs/documentindex.h"
#include "core/docs/documentsession.h"
#include "core/docs/hitlistmodel.h"
#include "widgets/docs/documentpane.h"
#include "widgets/docs/documentview.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSignalSpy>
#include <QStringListModel>
#include <QTemporaryDir>
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

    void commandsTypedWhileIndexingRunAfterwards()
    {
        // A few MB: the first screen appears before the index, and a command given meanwhile
        // waits for the index instead of being lost.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.txt"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray chunk;
            for (int i = 0; i < 2000; ++i)
                chunk += "ジョバンニは走りました。カムパネルラも走りました。\n";
            for (int i = 0; i < 40; ++i)
                f.write(chunk);
            f.write("もうじき白鳥の停車場だねえ。\n");
        }
        DocumentPane pane;
        pane.resize(900, 600);
        pane.show();
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        QSignalSpy done(&pane, &DocumentPane::commandFinished);
        pane.openDocument(path);
        pane.runCommand(QStringLiteral("search 白鳥の停車場"));
        QTRY_COMPARE(ready.count(), 1);
        QTRY_COMPARE(done.count(), 1);
        QCOMPARE(done.at(0).at(0).toString(),
                 QStringLiteral("line80001: もうじき**白鳥の停車場**だねえ。……\n[page1/1]"));
        QVERIFY(!pane.view()->document()->isPartial());
        QCOMPARE(pane.view()->document()->lineCount(), 80001);
        QCOMPARE(pane.view()->highlightedLine(), 80001);
    }

    void rubyAboveTheBaseText()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("aozora.txt"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("銀河鉄道の夜\n"
                    "-------------------------------------------------------\n"
                    "【テキスト中に現れる記号について】\n《》：ルビ\n"
                    "-------------------------------------------------------\n"
                    "ぼくは天《あま》の川《がわ》を見た。\n"
                    "｜勢《いきおい》よく走った。\n\n"
                    "底本：「銀河鉄道の夜」\n");
        }
        DocumentPane pane;
        pane.resize(900, 500);
        pane.show();
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        pane.openDocument(path);
        QTRY_COMPARE(ready.count(), 1);
        QVERIFY(pane.view()->rubyShown());
        QSignalSpy done(&pane, &DocumentPane::commandFinished);
        pane.runCommand(QStringLiteral("search の川"));
        QTRY_COMPARE(done.count(), 1);
        QCOMPARE(pane.view()->highlightedLine(), 6);
        // With readings above the text the markup is hidden, so the hit sits right after
        // ぼくは天; shown raw, after ぼくは天《あま》.
        const QFontMetrics fm(pane.view()->font());
        const QRect withRuby = pane.view()->highlightRect();
        QCOMPARE(withRuby.width(), fm.horizontalAdvance(QStringLiteral("の川")));
        pane.rubyBox()->setChecked(false);
        QVERIFY(!pane.view()->rubyShown());
        const QRect raw = pane.view()->highlightRect();
        QCOMPARE(raw.left() - withRuby.left(),
                 fm.horizontalAdvance(QStringLiteral("ぼくは天《あま》")) -
                     fm.horizontalAdvance(QStringLiteral("ぼくは天")));
        // Readings take room above each line: the base text moves down.
        QVERIFY(withRuby.top() > raw.top());
        pane.rubyBox()->setChecked(true);
        const QString out = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (!out.isEmpty())
            pane.grab().save(QDir(out).filePath(QStringLiteral("docpane_ruby.png")));
    }

    void sentenceUnitsAndCompletion()
    {
        DocumentPane pane;
        pane.resize(900, 500);
        pane.show();
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        pane.openDocument(QStringLiteral(HAKO_TEST_DATA_DIR "/docs/seed_small.txt"));
        QTRY_COMPARE(ready.count(), 1);
        QSignalSpy done(&pane, &DocumentPane::commandFinished);
        pane.commandLine()->setText(QStringLiteral("search 停車場 存在しない語"));
        QTest::keyClick(pane.commandLine(), Qt::Key_Return);
        QTRY_COMPARE(done.count(), 1);
        QCOMPARE(done.at(0).at(0).toString(), QStringLiteral("Not found."));
        // Completion offers what was typed and the search that would have matched.
        const QStringList items = pane.completions()->stringList();
        QCOMPARE(items.first(), QStringLiteral("search 停車場 存在しない語"));
        QVERIFY2(items.contains(QStringLiteral("search 停車場")), qPrintable(items.join(u'|')));
        QVERIFY(items.contains(QStringLiteral("show ")));
        // Sentences as units: the pane re-indexes and numbers sentences.
        pane.unitsBox()->setCurrentIndex(pane.unitsBox()->findText(QStringLiteral("Sentences")));
        QTRY_COMPARE(ready.count(), 2);
        QCOMPARE(pane.session()->index()->options().units, docs::UnitKind::Sentences);
        pane.runCommand(QStringLiteral("search 停車場"));
        QTRY_COMPARE(done.count(), 2);
        QVERIFY2(done.at(1).at(0).toString().startsWith(QStringLiteral("sentence")),
                 qPrintable(done.at(1).at(0).toString()));
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
