// Several programs open at once: each in its tab with its own editor, run, console and trace;
// two side by side in the split view. Driven through the window as a person would (keys,
// menus, focus), read back from the panes.
//
// With HAKO_SCREENSHOT_DIR set, saves the split view and the tabs.

#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/common/messagebar.h"
#include "widgets/console/consolepane.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/tracedocks.h"

#include <QAbstractButton>
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QMenuBar>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

namespace {

void saveShot(QWidget* w, const QString& name)
{
    const QString dir = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QCoreApplication::processEvents(); // the layout after the last change
    w->grab().save(dir + QLatin1Char('/') + name);
}

// A program that waits for a line of input: its run goes on until the test answers.
const char* const kWaiting = "text:\n"
                             "- read:\n"
                             "  message: \"Name? \"\n"
                             "  def: name\n"
                             "- \"hello ${ name }\"\n";

} // namespace

class TestProgramTabs : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;
    std::unique_ptr<QTemporaryDir> m_dir;

    QString write(const QString& name, const QByteArray& text)
    {
        const QString path = m_dir->filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write a program");
        f.write(text);
        return path;
    }
    static QString tabText(QTabWidget* group, EditorPane* editor)
    {
        return group->tabText(group->indexOf(editor));
    }

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<hako::Diagnostic>();
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_programtabs"));
        QVERIFY(m_settings->isValid());
    }
    void init()
    {
        QSettings().clear();
        m_dir = std::make_unique<QTemporaryDir>();
    }

    // One program waits for input while another runs to its end; each keeps its own trace,
    // console and state, and the panes show the current one's.
    void twoProgramsRunAtOnce()
    {
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        ProgramTabs* tabs = window.programTabs();

        QVERIFY(window.openFile(write(QStringLiteral("a.pdl"), kWaiting)));
        EditorPane* a = window.editorPane();
        RunController* runA = window.runController();
        ConsolePane* consoleA = window.consolePane();
        QVERIFY(window.runProgram());
        QTRY_VERIFY(runA->isWaitingForInput());
        QVERIFY(tabText(tabs->group(0), a).startsWith(QStringLiteral("▶ ")));

        QVERIFY(window.openFile(write(QStringLiteral("b.pdl"), "text: from b\n")));
        EditorPane* b = window.editorPane();
        RunController* runB = window.runController();
        QVERIFY(b != a && runB != runA);
        QCOMPARE(tabs->count(), 2);
        // B's panes: nothing runs here, so Run is available although A runs.
        QVERIFY(!window.context()->isRunning());
        QVERIFY(window.consolePane() != consoleA);
        QSignalSpy finishedB(runB, &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finishedB.count(), 1);
        QCOMPARE(finishedB[0][1].toString(), QStringLiteral("from b"));
        QCOMPARE(window.context()->traceModel(), runB->traceModel());
        QCOMPARE(window.traceDocks()->traceDock()->windowTitle(),
                 QStringLiteral("Trace — run of b.pdl"));
        QVERIFY(runA->isRunning()); // still waiting, in its own tab
        QVERIFY(window.consolePane()->text().contains(QLatin1String("from b")));
        QVERIFY(!consoleA->text().contains(QLatin1String("from b")));

        // Back to A (Ctrl+PgUp): its run, its trace, its console asking for the name.
        QTest::keyClick(window.editorPane()->editor(), Qt::Key_PageUp, Qt::ControlModifier);
        QCOMPARE(window.editorPane(), a);
        QCOMPARE(window.runController(), runA);
        QCOMPARE(window.context()->traceModel(), runA->traceModel());
        QVERIFY(window.context()->isRunning());
        QCOMPARE(window.consolePane(), consoleA);
        QVERIFY(consoleA->isAskingForInput());
        QCOMPARE(window.windowTitle(), QStringLiteral("a.pdl[*] — Hako"));

        // A ends while B is in view: the status bar names it, its card gets the reply.
        QTest::keyClick(window.editorPane()->editor(), Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(window.editorPane(), b);
        QSignalSpy finishedA(runA, &RunController::finished);
        consoleA->submitInput(QStringLiteral("Ada"));
        QTRY_COMPARE(finishedA.count(), 1);
        QCOMPARE(finishedA[0][1].toString(),
                 QStringLiteral("Adahello Ada")); // the read's value, then the text
        QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("a.pdl: Run finished"));
        QCOMPARE(window.context()->traceModel(), runB->traceModel()); // B is still shown
        QTRY_VERIFY(!tabText(tabs->group(0), a).startsWith(QStringLiteral("▶ ")));
    }

    // Closing a program asks about its changes only; a running one is stopped and goes.
    void closingAProgram()
    {
        MainWindow window;
        window.show();
        QStringList asked;
        MainWindow::SaveChoice answer = MainWindow::SaveChoice::Cancel;
        window.setSaveQuestion([&](const QString& name) {
            asked << name;
            return answer;
        });
        ProgramTabs* tabs = window.programTabs();
        QVERIFY(window.openFile(write(QStringLiteral("a.pdl"), kWaiting)));
        QPointer<RunController> runA = window.runController();
        QVERIFY(window.runProgram());
        QTRY_VERIFY(runA->isWaitingForInput());
        QVERIFY(window.openFile(write(QStringLiteral("b.pdl"), "text: b\n")));
        EditorPane* b = window.editorPane();
        b->editor()->append(QStringLiteral("# more\n"));
        QVERIFY(tabText(tabs->group(0), b).endsWith(QStringLiteral(" ●")));

        // Ctrl+W on the edited B: asked, Cancel keeps it.
        QTest::keyClick(b->editor(), Qt::Key_W, Qt::ControlModifier);
        QCOMPARE(asked, QStringList{QStringLiteral("b.pdl")});
        QCOMPARE(tabs->count(), 2);
        // Its tab's close button (as a click would) with Discard: gone, A comes forward.
        answer = MainWindow::SaveChoice::Discard;
        auto* close = qobject_cast<QAbstractButton*>(
            tabs->group(0)->tabBar()->tabButton(tabs->group(0)->indexOf(b), QTabBar::RightSide));
        QVERIFY(close);
        QCOMPARE(close->accessibleName(), QStringLiteral("Close b.pdl"));
        close->click();
        QCOMPARE(tabs->count(), 1);
        QCOMPARE(asked.size(), 2);
        QCOMPARE(window.editorPane()->filePath(),
                 QFileInfo(m_dir->filePath("a.pdl")).absoluteFilePath());
        QCOMPARE(window.context()->traceModel(), runA->traceModel());

        // A runs and has no changes: it closes without a question, its run stops and goes;
        // a blank program takes its place.
        QTest::keyClick(window.editorPane()->editor(), Qt::Key_W, Qt::ControlModifier);
        QCOMPARE(asked.size(), 2);
        QCOMPARE(tabs->count(), 1);
        QVERIFY(ProgramTabs::isBlank(window.editorPane()));
        QTRY_VERIFY(runA.isNull());
        QCOMPARE(window.context()->traceModel(), window.runController()->traceModel());
        QVERIFY(!window.context()->isRunning());
    }

    // The split view: two programs side by side, the focused one is current; View › Split View
    // (Ctrl+\) turns it on and off.
    void splitViewComparesTwoPrograms()
    {
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        ProgramTabs* tabs = window.programTabs();
        QVERIFY(window.openFile(write(QStringLiteral("left.pdl"), "text: left\n")));
        EditorPane* left = window.editorPane();
        QVERIFY(window.openFile(write(QStringLiteral("right.pdl"), "text: right\n")));
        EditorPane* right = window.editorPane();

        QTest::keyClick(right->editor(), Qt::Key_Backslash, Qt::ControlModifier);
        QVERIFY(tabs->isSplit());
        QVERIFY(tabs->splitAction()->isChecked());
        QCOMPARE(tabs->sideOf(right), 1);
        QCOMPARE(tabs->sideOf(left), 0);
        QTRY_VERIFY(left->isVisible() && right->isVisible());
        QVERIFY(left->mapTo(&window, QPoint()).x() + left->width() <=
                right->mapTo(&window, QPoint()).x());
        QCOMPARE(window.editorPane(), right);

        // Each side runs its own program; focus decides which one the panes show.
        QSignalSpy finishedRight(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finishedRight.count(), 1);
        left->editor()->setFocus();
        QTRY_COMPARE(window.editorPane(), left);
        QCOMPARE(window.windowTitle(), QStringLiteral("left.pdl[*] — Hako"));
        QSignalSpy finishedLeft(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE(finishedLeft.count(), 1);
        QCOMPARE(finishedLeft[0][1].toString(), QStringLiteral("left"));
        QCOMPARE(window.traceDocks()->traceDock()->windowTitle(),
                 QStringLiteral("Trace — run of left.pdl"));
        right->editor()->setFocus();
        QTRY_COMPARE(window.editorPane(), right);
        QCOMPARE(window.traceDocks()->traceDock()->windowTitle(),
                 QStringLiteral("Trace — run of right.pdl"));
        saveShot(&window, QStringLiteral("split-view.png"));

        // Off: both programs are tabs of one group again, the current one in view.
        QTest::keyClick(right->editor(), Qt::Key_Backslash, Qt::ControlModifier);
        QVERIFY(!tabs->isSplit());
        QVERIFY(!tabs->group(1)->isVisible());
        QCOMPARE(tabs->group(0)->count(), 2);
        QCOMPARE(tabs->group(0)->currentWidget(), right);
        QCOMPARE(window.editorPane(), right);
        saveShot(&window, QStringLiteral("program-tabs.png"));
    }

    // With one program, the split view opens a blank one beside it; closing the right side's
    // last program ends the split.
    void splitWithOneProgram()
    {
        MainWindow window;
        window.show();
        ProgramTabs* tabs = window.programTabs();
        QVERIFY(window.openFile(write(QStringLiteral("only.pdl"), "text: only\n")));
        EditorPane* only = window.editorPane();
        tabs->splitAction()->trigger();
        QVERIFY(tabs->isSplit());
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(tabs->sideOf(only), 0);
        QVERIFY(ProgramTabs::isBlank(window.editorPane()));
        QCOMPARE(tabs->sideOf(window.editorPane()), 1);
        tabs->closeAction()->trigger();
        QVERIFY(!tabs->isSplit());
        QCOMPARE(tabs->count(), 1);
        QCOMPARE(window.editorPane(), only);
        // Move to Other Side with one group splits too.
        tabs->moveAction()->trigger();
        QVERIFY(tabs->isSplit());
    }

    // The Edit and View commands act on the current program: its undo history, its view.
    void commandsActOnTheCurrentProgram()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openFile(write(QStringLiteral("a.pdl"), "text: a\n")));
        EditorPane* a = window.editorPane();
        QVERIFY(window.openFile(write(QStringLiteral("b.pdl"), "text: b\n")));
        EditorPane* b = window.editorPane();
        b->editor()->setFocus();
        QTest::keyClicks(b->editor(), QStringLiteral("x"));
        QVERIFY(b->isModified());
        // Ctrl+Shift+Y: B's Prompt view, A stays YAML.
        QTest::keyClick(b->editor(), Qt::Key_Y, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(b->isPromptMode());
        QVERIFY(!a->isPromptMode());
        QAction* promptMode = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Y))
                promptMode = action;
        QVERIFY(promptMode);
        QVERIFY(promptMode->isChecked());
        window.programTabs()->setCurrentEditor(a);
        QVERIFY(!promptMode->isChecked()); // the menu shows A's view
        promptMode->trigger();
        QVERIFY(a->isPromptMode());
        QTest::keyClick(b->editor(), Qt::Key_Y, Qt::ControlModifier | Qt::ShiftModifier);
        // Undo in A does not touch B's edit.
        window.programTabs()->setCurrentEditor(a);
        a->setPromptMode(false);
        a->editor()->setFocus();
        QTest::keyClick(a->editor(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(a->editor()->text(), QStringLiteral("text: a\n"));
        QVERIFY(b->editor()->text().contains(QLatin1Char('x')));
    }

    // An untitled program written in the Prompt view is saved and opened again in the Prompt
    // view; the View menu's entry says so.
    void savingKeepsThePromptView()
    {
        const QString path = m_dir->filePath(QStringLiteral("saved-in-prompt-view.pdl"));
        {
            MainWindow window;
            window.show();
            QVERIFY(window.newFile());
            EditorPane* pane = window.editorPane();
            pane->editor()->setText(
                QStringLiteral("text:\n- model: default\n  input: こんにちは\n"));
            pane->setPromptMode(true);
            QVERIFY(pane->saveAs(path));
            QVERIFY(pane->isPromptMode());
            QVERIFY(pane->promptModeAction()->isChecked());
        }
        MainWindow again;
        again.show();
        QVERIFY(again.openFile(path));
        QVERIFY(again.editorPane()->isPromptMode());
        QVERIFY(again.editorPane()->promptModeAction()->isChecked());
    }

    // Settings › Language rebuilds the window with every program, its side and its edits.
    void languageChangeKeepsEveryProgram()
    {
        auto* window = new MainWindow;
        window->show();
        QVERIFY(window->openFile(write(QStringLiteral("a.pdl"), "text: a\n")));
        window->editorPane()->editor()->append(QStringLiteral("# edited\n"));
        QVERIFY(window->openFile(write(QStringLiteral("b.pdl"), "text: b\n")));
        window->programTabs()->moveToOtherSide();
        QVERIFY(window->newFile());
        window->editorPane()->editor()->setText(QStringLiteral("text: unsaved\n"));
        window->setSaveQuestion([](const QString&) { return MainWindow::SaveChoice::Discard; });

        MainWindow* next = MainWindow::rebuild(window);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        ProgramTabs* tabs = next->programTabs();
        QCOMPARE(tabs->count(), 3);
        const QList<EditorPane*> programs = tabs->editors();
        QCOMPARE(programs[0]->displayName(), QStringLiteral("a.pdl"));
        QVERIFY(programs[0]->isModified());
        QCOMPARE(programs[0]->editor()->text(), QStringLiteral("text: a\n# edited\n"));
        QCOMPARE(tabs->sideOf(programs[0]), 0);
        QCOMPARE(tabs->sideOf(programs[1]), 1);
        QCOMPARE(tabs->sideOf(programs[2]), 1);
        QCOMPARE(programs[2]->editor()->text(), QStringLiteral("text: unsaved\n"));
        QCOMPARE(next->editorPane(), programs[2]);
        next->setSaveQuestion([](const QString&) { return MainWindow::SaveChoice::Discard; });
        next->close();
        delete next;
    }
};

QTEST_MAIN(TestProgramTabs)
#include "tst_programtabs.moc"
