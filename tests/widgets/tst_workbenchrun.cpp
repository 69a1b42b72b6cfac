// Running programs from the workbench window: F5 runs without blocking the window, output and
// stdin prompts go through the Console, Stop ends a run, failures show in the message bar, code
// from untrusted folders asks first, and examples open as editable copies and run.
#include "core/docs/documentsession.h"
#include "core/docs/hitlistmodel.h"
#include "core/memory/memorystore.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/run/runenvironment.h"
#include "core/run/runtrust.h"
#include "core/workbench/recoverystore.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/common/messagebar.h"
#include "widgets/console/consolepane.h"
#include "widgets/docs/documentpane.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/memory/memoryinspector.h"
#include "widgets/trace/boxview.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/runactions.h"
#include "widgets/workbench/trustdialog.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <QAbstractButton>
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

class TestWorkbenchRun : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;
    std::unique_ptr<QTemporaryDir> m_files;

    QString writeProgram(const QString& name, const QByteArray& text)
    {
        const QString path = m_files->filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write");
        f.write(text);
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_workbenchrun"));
        QVERIFY(m_settings->isValid());
    }
    void init()
    {
        QSettings().clear();
        m_files = std::make_unique<QTemporaryDir>();
    }

    void f5RunsAndTheConsoleAnswersARead()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(writeProgram(
            QStringLiteral("ask.pdl"),
            "text:\n- read:\n  message: \"Your name? \"\n  def: name\n- \"Hi ${ name }\"\n")));
        QSignalSpy finished(window.runController(), &RunController::finished);
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.editorPane()->editor()->setFocus();
        // F5 through the action's shortcut.
        QTest::keyClick(window.editorPane()->editor(), Qt::Key_F5);
        QTRY_VERIFY(window.context()->isRunning());
        ConsolePane* console = window.consolePane();
        QTRY_VERIFY(console->isAskingForInput());
        QCOMPARE(console->prompt(), QStringLiteral("Your name?"));
        // While the program waits, the window stays responsive: a second run is refused.
        QVERIFY(!window.runProgram());
        QTest::keyClicks(console->inputLine(), QStringLiteral("Ada"));
        QTest::keyClick(console->inputLine(), Qt::Key_Return);
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(finished[0][0].toBool());
        QCOMPARE(finished[0][1].toString(), QStringLiteral("AdaHi Ada"));
        QVERIFY(console->text().contains(QStringLiteral("Your name? Ada")));
        // The result streamed into the Console as it was produced, once: not again at the end.
        QVERIFY2(console->text().contains(QStringLiteral("AdaHi Ada\n■ Finished")),
                 qPrintable(console->text()));
        QCOMPARE(console->text().count(QStringLiteral("Hi Ada")), 1);
        QVERIFY(!window.context()->isRunning());
        // The trace of the run is the one every pane shows.
        QCOMPARE(window.context()->traceModel(), window.runController()->traceModel());
        QVERIFY(window.context()->traceModel()->itemCount() >= 3);
    }

    void failureShowsInTheMessageBarAndRevealsTheBlock()
    {
        MainWindow window;
        window.show();
        const QString path =
            writeProgram(QStringLiteral("fail.pdl"), "text:\n- fine\n- \"${ 1 / 0 }\"\n");
        QVERIFY(window.openFile(path));
        QSignalSpy reveal(window.context(), &WorkbenchContext::revealSourceRequested);
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(!finished[0][0].toBool());
        MessageBar* bar = window.editorPane()->messageBar();
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->kind(), MessageBar::Kind::Error);
        QVERIFY2(bar->text().contains(QStringLiteral("Line 3")), qPrintable(bar->text()));
        QCOMPARE(reveal.count(), 1);
        QCOMPARE(reveal[0][0].value<SourceSpan>().line, 3);
        QVERIFY(window.consolePane()->text().contains(QStringLiteral("Failed")));
    }

    // A misspelt name fails in plain words, with the name it is close to; the interpreter's
    // wording is folded under Details.
    void undefinedNameSaysDidYouMean()
    {
        MainWindow window;
        window.show();
        const QString path =
            writeProgram(QStringLiteral("typo.pdl"),
                         "defs:\n  article: The cat sat.\ntext:\n- \"Summary of ${ artcle }\"\n");
        QVERIFY(window.openFile(path));
        // The editor's analysis (which knows the definitions) is in before the run.
        QTRY_VERIFY(window.editorPane()->editor()->report() != nullptr);
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 1);
        MessageBar* bar = window.editorPane()->messageBar();
        QTRY_VERIFY(bar->isVisible());
        QCOMPARE(bar->text(), QStringLiteral("Line 4, column 18: `artcle` is not an input or a "
                                             "defined name — did you mean `article`?"));
        QVERIFY2(bar->detail().contains(QStringLiteral("'artcle' is undefined")),
                 qPrintable(bar->detail()));
        QVERIFY(!bar->isDetailShown());
    }

    void stopEndsARun()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(writeProgram(
            QStringLiteral("long.pdl"), "repeat:\n  text: \"${ i }\"\nindex: i\nmaxIterations: "
                                        "100000000\njoin:\n  as: lastOf\n")));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_VERIFY(window.context()->isRunning());
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(window.editorPane()->editor(), Qt::Key_F5, Qt::ShiftModifier);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QVERIFY(!finished[0][0].toBool());
        QVERIFY(!window.context()->isRunning());
    }

    void untrustedCodeAsksFirstAndTrustIsRemembered()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(
            writeProgram(QStringLiteral("code.pdl"), "lang: command\ncode: echo trusted\n")));
        QStringList asked;
        MainWindow::TrustChoice answer = MainWindow::TrustChoice::Cancel;
        window.setTrustQuestion([&](const QString& file, const QString&) {
            asked << file;
            return answer;
        });
        QSignalSpy finished(window.runController(), &RunController::finished);
        QSignalSpy declined(window.runActions(), &RunActions::runDeclined);
        // The program is parsed and judged on a worker; the question comes once that is done.
        QVERIFY(window.runProgram());
        QTRY_COMPARE(declined.count(), 1);
        QVERIFY(!window.runActions()->isPreparing());
        QCOMPARE(asked.size(), 1);
        QCOMPARE(finished.count(), 0);
        QVERIFY(!window.context()->isRunning());

        answer = MainWindow::TrustChoice::TrustFolder;
        QVERIFY(window.runProgram());
        QTRY_COMPARE(asked.size(), 2);
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][2].value<Diagnostic>().message));
        QCOMPARE(finished[0][1].toString().trimmed(), QStringLiteral("trusted"));
        // The folder is trusted now: no question the second time.
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 2);
        QCOMPARE(asked.size(), 2);

        // A program without code never asks (it runs in its own tab, with its own run).
        QVERIFY(window.openFile(writeProgram(QStringLiteral("plain.pdl"), "text: hi\n")));
        QSettings().remove(QStringLiteral("codeTrust"));
        QSignalSpy plainFinished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(plainFinished.count(), 1);
        QCOMPARE(asked.size(), 2);
    }

    // The workbench applies core's trust rule (checkRunTrust), as `hako run` does: a model
    // block sending requests to a server of its own choosing asks too, sandbox or not.
    void foreignHostAsksFirst()
    {
        MainWindow window;
        QVERIFY(window.openFile(writeProgram(QStringLiteral("host.pdl"),
                                             "model: openai/gpt-4o\nparameters:\n  base_url: "
                                             "http://collector.invalid:9/v1\n")));
        int asked = 0;
        window.setTrustQuestion([&](const QString&, const QString&) {
            ++asked;
            return MainWindow::TrustChoice::Cancel;
        });
        QSignalSpy finished(window.runController(), &RunController::finished);
        QSignalSpy declined(window.runActions(), &RunActions::runDeclined);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(declined.count(), 1);
        QCOMPARE(asked, 1);
        QCOMPARE(finished.count(), 0);
        QVERIFY(!window.context()->isRunning());
    }

    // The dialog says what the program would do, as core found it; an unsaved program cannot
    // trust its folder.
    void trustDialogListsWhatTheProgramWouldDo()
    {
        RunTrustCheck check;
        check.folder = m_files->path();
        pdl::code::CodeSite site{pdl::code::CodeSite::Kind::Python, {}, {}};
        site.span.file = m_files->filePath(QStringLiteral("p.pdl"));
        site.span.line = 3;
        check.sites = {site};
        TrustDialog named(site.span.file, check);
        QVERIFY(named.informativeText().contains(QStringLiteral("Python code at p.pdl:3")));
        QStringList buttons;
        for (QAbstractButton* b : named.buttons())
            if (b->isEnabled())
                buttons << b->text().remove(QLatin1Char('&'));
        QVERIFY2(buttons.contains(QStringLiteral("Run Once")) &&
                     buttons.contains(QStringLiteral("Trust Folder and Run")) &&
                     buttons.contains(QStringLiteral("Cancel")),
                 qPrintable(buttons.join(QLatin1Char(','))));
        TrustDialog unsaved(QString(), check);
        for (QAbstractButton* b : unsaved.buttons())
            if (b->text().contains(QLatin1String("Trust Folder")))
                QVERIFY(!b->isEnabled());
    }

    void unsavedBufferOfAKilledSessionIsOffered()
    {
        // A session that was killed left a recovery copy behind: its writer pid is dead.
        const QString path = writeProgram(QStringLiteral("lost.pdl"), "text: original\n");
        RecoveryStore store;
        const QString id = RecoveryStore::newBufferId();
        QVERIFY(store.save(id, path, QStringLiteral("text: typed before the crash\n")).ok());
        QProcess gone;
        gone.start(QStringLiteral("true"), {});
        QVERIFY(gone.waitForFinished());
        const qint64 deadPid = gone.processId() ? gone.processId() : 999999;
        QFile copy(QDir(store.directory()).filePath(id + QStringLiteral(".json")));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(copy.readAll()).object();
        copy.close();
        o.insert(QStringLiteral("pid"), deadPid > 0 ? deadPid : 999999);
        QVERIFY(copy.open(QIODevice::WriteOnly | QIODevice::Truncate));
        copy.write(QJsonDocument(o).toJson());
        copy.close();

        MainWindow window;
        window.show();
        QStringList offered;
        window.setRecoveryQuestion([&](const QStringList& names) {
            offered = names;
            return true;
        });
        QCOMPARE(window.offerRecovery(), 1);
        QCOMPARE(offered.size(), 1);
        QVERIFY(offered.front().endsWith(QStringLiteral("lost.pdl")));
        QCOMPARE(window.editorPane()->editor()->text(),
                 QStringLiteral("text: typed before the crash\n"));
        QVERIFY(window.editorPane()->isModified());
        QCOMPARE(window.editorPane()->filePath(), QFileInfo(path).absoluteFilePath());
        // Saving makes the copy go away.
        QVERIFY(window.save());
        QTRY_VERIFY(
            !QFileInfo::exists(QDir(store.directory()).filePath(id + QStringLiteral(".json"))));
    }

    void boxesAndEditorAreLinkedBothWays()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(
            window.openFile(writeProgram(QStringLiteral("linked.pdl"), "text:\n"
                                                                       "- def: greeting\n"
                                                                       "  text: Hello\n"
                                                                       "- \" and \"\n"
                                                                       "- for:\n"
                                                                       "    x: [1, 2, 3]\n"
                                                                       "  repeat: \"${ x }\"\n")));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(finished[0][0].toBool());
        BoxView* boxes = window.boxView();
        QTRY_VERIFY(!boxes->isLayoutPending());
        pdl::TraceModel* model = window.context()->traceModel();
        const pdl::TraceItem* greeting = model->findById(QStringLiteral("text.0.text"));
        QVERIFY(greeting);
        QTRY_VERIFY(boxes->viewportRectOf(greeting).isValid());

        // Click the box: the editor selects exactly the block's source.
        const QRect r = boxes->viewportRectOf(greeting);
        QTest::mouseClick(boxes->viewport(), Qt::LeftButton, {}, r.topLeft() + QPoint(6, 6));
        QCOMPARE(window.context()->currentNode(), QStringLiteral("text.0.text"));
        PdlEditor* editor = window.editorPane()->editor();
        QTRY_COMPARE(editor->selectedText(), QStringLiteral("def: greeting\n  text: Hello"));

        // Move the cursor into the loop body: every iteration lights up.
        editor->setCursorPosition(6, 12);
        QTRY_COMPARE(int(boxes->highlightedItems().size()), 3);
        for (const pdl::TraceItem* item : boxes->highlightedItems())
            QCOMPARE(item->parent->node.kind, pdl::BlockKind::Repeat);
    }

    void tracesOpenFromFiles()
    {
        const QString dir = QStringLiteral(HAKO_SHARED_DIR "/data/traces");
        if (!QFileInfo::exists(dir))
            QSKIP("../shared/data/traces is not here");
        MainWindow window;
        window.show();
        for (const QString& name : QDir(dir).entryList({QStringLiteral("ibm-demo*.json")})) {
            QSignalSpy loaded(window.traceLoader(), &pdl::TraceLoader::loaded);
            window.openTrace(QDir(dir).filePath(name));
            QTRY_COMPARE(loaded.count(), 1);
            QCOMPARE(window.context()->traceModel(), window.fileTraceModel());
            QVERIFY2(window.fileTraceModel()->itemCount() > 1, qPrintable(name));
            QTRY_VERIFY(!window.boxView()->isLayoutPending());
            QVERIFY(window.boxView()->viewportRectOf(window.fileTraceModel()->root()).isValid());
        }
        // A run switches the panes back to the run's trace.
        QVERIFY(window.openFile(writeProgram(QStringLiteral("p.pdl"), "text: hi\n")));
        QVERIFY(window.runProgram());
        QTRY_COMPARE(window.context()->traceModel(), window.runController()->traceModel());
        QSignalSpy finished(window.runController(), &RunController::finished);
        QTRY_COMPARE(finished.count(), 1);
        // And its trace can be saved and opened again.
        const QString saved = m_files->filePath(QStringLiteral("p_trace.json"));
        QVERIFY(window.saveTrace(saved));
        QSignalSpy loaded(window.traceLoader(), &pdl::TraceLoader::loaded);
        window.openTrace(saved);
        QTRY_COMPARE(loaded.count(), 1);
        QCOMPARE(window.fileTraceModel()->root()->resultText(), QStringLiteral("hi"));
    }

    void programsSeeTheOpenDocument()
    {
        MainWindow window;
        window.show();
        QSignalSpy ready(window.documentPane(), &DocumentPane::documentReady);
        window.documentPane()->openDocument(
            QStringLiteral(HAKO_TEST_DATA_DIR "/docs/seed_small.txt"));
        QTRY_COMPARE(ready.count(), 1);
        QVERIFY(window.openFile(
            writeProgram(QStringLiteral("doc.pdl"), "text: \"${ doc.search('swan') }\"\n")));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][2].value<Diagnostic>().message));
        QVERIFY2(finished[0][1].toString().contains(QStringLiteral("line2")),
                 qPrintable(finished[0][1].toString()));
    }

    // A program's doc.* commands run in the Documents pane's session, and the pane shows them
    // as if typed there: the hits in its hit list, the commands in its transcript, the cost.
    void programDocCommandsReachTheDocumentsPane()
    {
        MainWindow window;
        window.show();
        DocumentPane* pane = window.documentPane();
        QSignalSpy ready(pane, &DocumentPane::documentReady);
        QVERIFY(window.openPath(QStringLiteral(HAKO_TEST_DATA_DIR "/docs/seed_small.txt")));
        QTRY_COMPARE(ready.count(), 1);
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.openFile(
            writeProgram(QStringLiteral("search.pdl"), "text: \"${ doc.search('swan') }\"\n")));
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][2].value<Diagnostic>().message));
        QTRY_COMPARE(pane->transcriptModel()->rowCount(), 1);
        QCOMPARE(pane->transcriptModel()->index(0, docs::TranscriptModel::Input).data().toString(),
                 QStringLiteral("search swan"));
        QTRY_COMPARE(pane->hitModel()->rowCount(), 1);
        QVERIFY2(pane->hitModel()->index(0).data().toString().startsWith(QLatin1String("line2")),
                 qPrintable(pane->hitModel()->index(0).data().toString()));
        QCOMPARE(pane->costLabel()->text(), QStringLiteral("Cost: 5"));

        // The next command replaces the hits, as a typed one would.
        QVERIFY(window.openFile(
            writeProgram(QStringLiteral("show.pdl"), "text: \"${ doc.show(3) }\"\n")));
        QSignalSpy showFinished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(showFinished.count(), 1);
        QVERIFY2(showFinished[0][0].toBool(),
                 qPrintable(showFinished[0][2].value<Diagnostic>().message));
        QTRY_COMPARE(pane->transcriptModel()->rowCount(), 2);
        QCOMPARE(pane->transcriptModel()->index(1, docs::TranscriptModel::Input).data().toString(),
                 QStringLiteral("show 3"));
        QTRY_VERIFY2(
            pane->hitModel()->index(0).data().toString().startsWith(QLatin1String("line3")),
            qPrintable(pane->hitModel()->index(0).data().toString()));
        QCOMPARE(pane->costLabel()->text(), QStringLiteral("Cost: 6"));
    }

    void runTagsReachTheRunAndAreRemembered()
    {
        qunsetenv("HAKO_TAGS");
        {
            MainWindow window;
            // Run › Run Tags… takes spaces or commas; a repeated tag counts once.
            window.runActions()->setRunTags(
                QStringLiteral("prompt:summary, env:test  prompt:summary"));
            QCOMPARE(window.runActions()->runTags(),
                     (QStringList{QStringLiteral("prompt:summary"), QStringLiteral("env:test")}));
        }
        MainWindow window;
        window.show();
        QCOMPARE(window.runActions()->runTags(),
                 (QStringList{QStringLiteral("prompt:summary"), QStringLiteral("env:test")}));
        QVERIFY(window.openFile(writeProgram(QStringLiteral("tagged.pdl"), "text: hi\n")));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(window.runController()->environment().runLog.tags,
                 (QStringList{QStringLiteral("prompt:summary"), QStringLiteral("env:test")}));
        QVERIFY(window.runController()->environment().promptLog);
    }

    void programsUseTheOpenMemoryStore()
    {
        MainWindow window;
        window.show();
        auto store = memory::MemoryStore::open(m_files->filePath(QStringLiteral("agent.hakomem")));
        QVERIFY(store.ok());
        window.memoryInspector()->setStore(*store);
        QVERIFY(window.openFile(
            writeProgram(QStringLiteral("mem.pdl"),
                         "text:\n- def: id\n  data: \"${ memory.add('The sky was blue today') }\"\n"
                         "- \"${ memory.recent(5)[0].text }\"\n")));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][2].value<Diagnostic>().message));
        QVERIFY2(finished[0][1].toString().endsWith(QStringLiteral("The sky was blue today")),
                 qPrintable(finished[0][1].toString()));
        QCOMPARE((*store)->count(), 1);
    }

    void screenshot()
    {
        // HAKO_SCREENSHOT_DIR=DIR writes what a user sees after running an example.
        const QString dir = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set HAKO_SCREENSHOT_DIR to write a screenshot");
        MainWindow window;
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openExample(QStringLiteral("loops.pdl")));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 1);
        QTRY_VERIFY(!window.boxView()->isLayoutPending());
        window.context()->setCurrentNode(QStringLiteral("text.1.repeat"));
        QTest::qWait(300);
        QVERIFY(window.grab().save(dir + QStringLiteral("/workbench.png")));
    }

    void examplesOpenAsCopiesAndRun()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.openExample(QStringLiteral("data.pdl")));
        const QString path = window.editorPane()->filePath();
        QVERIFY(path.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
        QVERIFY(QFileInfo::exists(QFileInfo(path).dir().filePath(QStringLiteral("team.json"))));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][2].value<Diagnostic>().message));
        QVERIFY(finished[0][1].toString().contains(QStringLiteral("Roles: engineer, admiral")));
    }
};

QTEST_MAIN(TestWorkbenchRun)
#include "tst_workbenchrun.moc"
