// The documents pane as a user drives it: open a file (indexed in the background), type a
// command, click a hit, step through hits with F3; plus a screenshot for looking at it.
#include "core/docs/documentindex.h"
#include "core/docs/documentsession.h"
#include "core/docs/hitlistmodel.h"
#include "core/docs/rubyline.h"
#include "widgets/docs/documentpane.h"
#include "widgets/docs/documentview.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMainWindow>
#include <QSignalSpy>
#include <QStringListModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QToolButton>

using namespace hako;

class TestDocPane : public QObject {
    Q_OBJECT

    static void writeFile(const QString& path, const QByteArray& bytes)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bytes), bytes.size());
    }

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
        pane.modeBox()->setCurrentIndex(pane.modeBox()->findData(int(docs::OutputMode::Context)));
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

    // The hit list and transcript read an Aozora text as the view does: readings hidden (the
    // header's examples of the notation kept as written), and long hits wrap instead of
    // running off the pane.
    void hitsAndTranscriptHideRubyAndWrap()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("aozora.txt"));
        QString body;
        for (int i = 0; i < 30; ++i)
            body += QStringLiteral("ぼくは天《あま》の川《がわ》を長いあいだ見ていた。");
        writeFile(path,
                  (QStringLiteral("銀河鉄道の夜\n"
                                  "-------------------------------------------------------\n"
                                  "【テキスト中に現れる記号について】\n《》：ルビ\n"
                                  "［＃］：入力者注\n"
                                  "-------------------------------------------------------\n") +
                   body + QStringLiteral("\n\n底本：「銀河鉄道の夜」\n"))
                      .toUtf8());
        DocumentPane pane;
        pane.resize(500, 500);
        pane.show();
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        pane.openDocument(path);
        QTRY_COMPARE(ready.count(), 1);
        QVERIFY(pane.view()->rubyShown());
        pane.modeBox()->setCurrentIndex(pane.modeBox()->findData(int(docs::OutputMode::Context)));
        QSignalSpy done(&pane, &DocumentPane::commandFinished);
        pane.runCommand(QStringLiteral("search の川"));
        QTRY_COMPARE(done.count(), 1);
        QTRY_VERIFY(pane.hitModel()->rowCount() >= 1);
        const QString hit = pane.shownHitText(0);
        QVERIFY2(hit.contains(QStringLiteral("天の川")) && !hit.contains(QStringLiteral("《")),
                 qPrintable(hit));
        QTRY_COMPARE(pane.transcriptModel()->rowCount(), 1);
        const QString out = pane.shownTranscriptOutput(0);
        QVERIFY2(!out.contains(QStringLiteral("《")), qPrintable(out));
        // A long hit takes several lines of a narrow list, not one cut line.
        const int lineHeight = pane.hitList()->fontMetrics().height();
        QTRY_VERIFY(pane.hitList()->visualRect(pane.hitModel()->index(0, 0)).height() >
                    2 * lineHeight);
        // Raw text asked for: the markup is shown.
        pane.rubyBox()->setChecked(false);
        QVERIFY(pane.shownHitText(0).contains(QStringLiteral("天《あま》の川")));
        pane.rubyBox()->setChecked(true);
        // The header's notation examples are not notes: they stay as written.
        QCOMPARE(docs::layoutRubyLine(u"［＃］：入力者注").text,
                 QStringLiteral("［＃］：入力者注"));
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

    void unitsChangeKeepsTranscriptAndLabelsHitsByUnit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("story.txt"));
        writeFile(path,
                  "一つ目の文。白鳥の停車場の文。\n次の段落の行\n続きの白鳥\n\n最後の段落。\n");
        DocumentPane pane;
        pane.resize(1000, 500);
        pane.show();
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        QSignalSpy done(&pane, &DocumentPane::commandFinished);
        pane.openDocument(path);
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(pane.fileLabel()->text(), QStringLiteral("story.txt"));
        pane.runCommand(QStringLiteral("search 白鳥"));
        QTRY_COMPARE(done.count(), 1);
        QTRY_COMPARE(pane.costLabel()->text(), QStringLiteral("Cost: 5"));
        // Sentences: the session goes on, with its transcript and cost.
        pane.unitsBox()->setCurrentIndex(pane.unitsBox()->findText(QStringLiteral("Sentences")));
        QTRY_COMPARE(ready.count(), 2);
        QTRY_COMPARE(pane.transcriptModel()->rowCount(), 2);
        QCOMPARE(pane.costLabel()->text(), QStringLiteral("Cost: 5"));
        pane.runCommand(QStringLiteral("search 白鳥"));
        QTRY_COMPARE(done.count(), 2);
        // Hits carry their own unit numbers, the numbers `show` takes.
        QCOMPARE(pane.hitModel()->index(0).data().toString(),
                 QStringLiteral("sentence2 (line 1): 白鳥の停車場の文。"));
        QCOMPARE(pane.hitModel()->index(1).data(docs::HitListModel::LabelRole).toString(),
                 QStringLiteral("sentence4 (line 3)"));
        // The viewer numbers the units starting on each line.
        QCOMPARE(pane.view()->unitLabelForLine(1), QStringLiteral("§1–2"));
        QCOMPARE(pane.view()->unitLabelForLine(3), QStringLiteral("§4"));
        QTRY_COMPARE(pane.costLabel()->text(), QStringLiteral("Cost: 10"));
        // Paragraphs: `show` highlights the whole unit, over its three lines.
        pane.setUnits(docs::UnitKind::Paragraphs);
        QTRY_COMPARE(ready.count(), 3);
        pane.runCommand(QStringLiteral("show 1"));
        QTRY_COMPARE(done.count(), 3);
        QCOMPARE(pane.view()->highlightedLine(), 1);
        QCOMPARE(pane.view()->highlightedLastLine(), 3);
        QVERIFY(!pane.view()->highlightRect(2).isEmpty());
        QTRY_COMPARE(pane.costLabel()->text(), QStringLiteral("Cost: 11"));
        QCOMPARE(pane.transcriptModel()->rowCount(), 5);
    }

    void transcriptShowsBoldNotMarkers()
    {
        DocumentPane pane;
        pane.show();
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        pane.openDocument(QStringLiteral(HAKO_TEST_DATA_DIR "/docs/seed_small.txt"));
        QTRY_COMPARE(ready.count(), 1);
        QSignalSpy done(&pane, &DocumentPane::commandFinished);
        pane.runCommand(QStringLiteral("search 停車場"));
        QTRY_COMPARE(done.count(), 1);
        QVERIFY(done.at(0).at(0).toString().contains(QStringLiteral("**停車場**")));
        QTRY_COMPARE(pane.transcriptModel()->rowCount(), 1);
        const QModelIndex out = pane.transcriptModel()->index(0, docs::TranscriptModel::Output);
        const QString shown = out.data().toString();
        QVERIFY2(!shown.contains(QStringLiteral("**")), qPrintable(shown));
        QCOMPARE(shown, QStringLiteral("line1: 白鳥の停車場……"));
        const QVariantList bold = out.data(docs::TranscriptModel::BoldRole).toList();
        QCOMPARE(bold.size(), 1);
        QCOMPARE(shown.mid(bold[0].toPoint().x(), bold[0].toPoint().y() - bold[0].toPoint().x()),
                 QStringLiteral("停車場"));
        QVERIFY(!out.data(Qt::ToolTipRole).toString().contains(QStringLiteral("**")));
    }

    void modeSwitchAndExport()
    {
        DocumentPane pane;
        pane.show();
        QVERIFY(!pane.exportButton()->isEnabled());
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        pane.openDocument(QStringLiteral(HAKO_TEST_DATA_DIR "/docs/seed_small.txt"));
        QTRY_COMPARE(ready.count(), 1);
        QVERIFY(pane.exportButton()->isEnabled());
        QSignalSpy done(&pane, &DocumentPane::commandFinished);
        pane.modeBox()->setCurrentIndex(pane.modeBox()->findData(int(docs::OutputMode::Context)));
        QCOMPARE(pane.session()->options().mode, docs::OutputMode::Context);
        pane.runCommand(QStringLiteral("search 停車場"));
        QTRY_COMPARE(done.count(), 1);
        QVERIFY2(done.at(0).at(0).toString().endsWith(QStringLiteral("[page1/1] 2 hits")),
                 qPrintable(done.at(0).at(0).toString()));
        QTRY_COMPARE(pane.transcriptModel()->rowCount(), 1);
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("t.json"));
        const QString md = dir.filePath(QStringLiteral("t.md"));
        QVERIFY(pane.exportTranscript(json, DocumentPane::ExportFormat::Json));
        QVERIFY(pane.exportTranscript(md, DocumentPane::ExportFormat::Markdown));
        QFile jf(json);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(jf.readAll()).object();
        QCOMPARE(root.value(QStringLiteral("mode")).toString(), QStringLiteral("context"));
        QCOMPARE(root.value(QStringLiteral("totalCost")).toInt(), 5);
        QCOMPARE(root.value(QStringLiteral("entries")).toArray().size(), 1);
        QFile mf(md);
        QVERIFY(mf.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(mf.readAll()).contains(QStringLiteral("`search 停車場`")));
        // A folder that does not exist: a message, no file.
        QString error;
        QVERIFY(!pane.exportTranscript(dir.filePath(QStringLiteral("no/such/t.json")),
                                       DocumentPane::ExportFormat::Json, &error));
        QVERIFY(!error.isEmpty());
    }

    void programCommandsReachTheTranscript()
    {
        // A workbench run executes doc.* on a worker thread against the pane's session.
        DocumentPane pane;
        pane.show();
        QSignalSpy ready(&pane, &DocumentPane::documentReady);
        pane.openDocument(QStringLiteral(HAKO_TEST_DATA_DIR "/docs/seed_small.txt"));
        QTRY_COMPARE(ready.count(), 1);
        std::shared_ptr<docs::DocumentSession> session = pane.session();
        QThread* worker = QThread::create([session] {
            session->execute(QStringLiteral("search 停車場"));
            session->execute(QStringLiteral("show 2"));
        });
        worker->start();
        QVERIFY(worker->wait(10000));
        delete worker;
        QTRY_COMPARE(pane.transcriptModel()->rowCount(), 2);
        QCOMPARE(pane.transcriptModel()->index(1, docs::TranscriptModel::Input).data().toString(),
                 QStringLiteral("show 2"));
        QTRY_COMPARE(pane.costLabel()->text(), QStringLiteral("Cost: 6"));
    }

    void openingBringsTheDockForwardAndEveryControlIsNamed()
    {
        QMainWindow window;
        auto* other = new QDockWidget(QStringLiteral("Other"), &window);
        other->setWidget(new QLabel(QStringLiteral("other pane")));
        auto* dock = new QDockWidget(QStringLiteral("Documents"), &window);
        auto* pane = new DocumentPane;
        dock->setWidget(pane);
        window.addDockWidget(Qt::BottomDockWidgetArea, other);
        window.addDockWidget(Qt::BottomDockWidgetArea, dock);
        window.resize(1000, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The user closed the dock earlier: opening a document brings it back.
        dock->close();
        QTRY_VERIFY(!pane->isVisible());
        QSignalSpy ready(pane, &DocumentPane::documentReady);
        pane->openDocument(QStringLiteral(HAKO_TEST_DATA_DIR "/docs/seed_small.txt"));
        QTRY_VERIFY(pane->isVisible());
        QVERIFY(other->isVisible());
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Documents"));
        for (QWidget* w : pane->findChildren<QWidget*>()) {
            const bool interactive = qobject_cast<QAbstractButton*>(w) ||
                                     qobject_cast<QComboBox*>(w) || qobject_cast<QLineEdit*>(w) ||
                                     qobject_cast<QAbstractItemView*>(w) ||
                                     w == static_cast<QWidget*>(pane->view());
            // Parts of other controls (a table's header, a combo box's list) are theirs.
            bool part = w->window() != pane->window();
            for (QWidget* up = w->parentWidget(); up && up != pane && !part;
                 up = up->parentWidget())
                part = qobject_cast<QAbstractItemView*>(up) || qobject_cast<QComboBox*>(up);
            if (!interactive || part)
                continue;
            QVERIFY2(!w->accessibleName().isEmpty(), w->metaObject()->className());
        }
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
