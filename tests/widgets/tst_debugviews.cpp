// The Debug pane's call stack, watch expressions and breakpoints list, the editor's value
// hover and the Debug toolbar: a breakpoint inside a function called from a loop shows the
// frames from the root to it; picking the caller's frame shows its variables and moves the
// editor there; watches are evaluated in the selected frame, show their errors, and are kept
// for the next start; the list turns breakpoints off and makes logpoints that write to the
// Console instead of pausing.
#include "core/run/debugsession.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/debug/debugpane.h"
#include "widgets/debug/debugviews.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/workbench/debuglinks.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/runactions.h"
#include "widgets/workbench/tracedocks.h"

#include <QAction>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QToolBar>
#include <QTreeWidget>

using namespace hako;

Q_DECLARE_METATYPE(hako::Diagnostic)

namespace {

const QString kCalls = QStringLiteral("defs:\n"                    // 1
                                      "  square:\n"                // 2
                                      "    function:\n"            // 3
                                      "      n: int\n"             // 4
                                      "    return:\n"              // 5
                                      "      lastOf:\n"            // 6
                                      "      - def: r\n"           // 7
                                      "        data: ${ n * n }\n" // 8
                                      "      - ${ r }\n"           // 9
                                      "text:\n"                    // 10
                                      "- for:\n"                   // 11
                                      "    i: [1, 2, 3]\n"         // 12
                                      "  repeat:\n"                // 13
                                      "    call: ${ square }\n"    // 14
                                      "    args:\n"                // 15
                                      "      n: ${ i }\n"          // 16
                                      "  join: {with: \",\"}\n");  // 17

struct Workbench {
    QMainWindow window;
    WorkbenchContext context;
    ProgramTabs* tabs = new ProgramTabs(&context, &window);
    EditorPane* editor = tabs->currentEditor();
    RunController& run = *tabs->currentRun();
    TraceDocks traces{&window, &context, &run};
    QSettings settings;
    RunActions actions{&context, tabs, &traces, &settings, &window};
    DebugLinks links{tabs, &actions};
    Workbench() { window.setCentralWidget(tabs); }
};

QStringList column(const QTreeWidget* view, int c)
{
    QStringList out;
    for (int i = 0; i < view->topLevelItemCount(); ++i)
        out << view->topLevelItem(i)->text(c);
    return out;
}

int rowStartingWith(const QTreeWidget* view, const QString& prefix)
{
    for (int i = 0; i < view->topLevelItemCount(); ++i)
        if (view->topLevelItem(i)->text(0).startsWith(prefix))
            return i;
    return -1;
}

} // namespace

class TestDebugViews : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<hako::Diagnostic>();
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_debugviews"));
        QVERIFY(m_settings->isValid());
    }

    void init() { QSettings().clear(); }

    void callStackFramesAndWatches()
    {
        Workbench w;
        w.editor->editor()->setText(kCalls);
        w.editor->editor()->setBreakpointSpec(9, {QStringLiteral("n == 2"), QString(), true});
        WatchView* watches = w.links.pane()->watchView();
        watches->addLine()->setText(QStringLiteral("n * 10"));
        QTest::keyClick(watches->addLine(), Qt::Key_Return);
        watches->addExpression(QStringLiteral("i"));
        watches->addExpression(QStringLiteral("n +"));
        QCOMPARE(watches->expressions(), QStringList({QStringLiteral("n * 10"), QStringLiteral("i"),
                                                      QStringLiteral("n +")}));
        QCOMPARE(w.run.watchExpressions(), watches->expressions());

        QSignalSpy paused(&w.run, &RunController::paused);
        QSignalSpy finished(&w.run, &RunController::finished);
        w.links.debugAction()->trigger();
        QTRY_COMPARE(paused.count(), 1);
        CallStackView* stack = w.links.pane()->callStackView();
        const QStringList where = column(stack, 1);
        QVERIFY2(where.size() >= 4, qPrintable(where.join(QLatin1Char('|'))));
        QVERIFY(where.first().endsWith(QStringLiteral(":9")));
        QVERIFY(where.last().endsWith(QStringLiteral(":1")));
        const int call = rowStartingWith(stack, QStringLiteral("call square"));
        QVERIFY2(call > 0, qPrintable(column(stack, 0).join(QLatin1Char('|'))));
        QCOMPARE(stack->currentItem(), stack->topLevelItem(0));
        QTreeWidget* list = watches->list();
        QCOMPARE(list->topLevelItem(0)->text(1), QStringLiteral("20"));
        QVERIFY(list->topLevelItem(2)->text(1).startsWith(QStringLiteral("cannot be evaluated")));

        // The caller's frame: its variables (the loop's i), the watches there, the editor on it.
        stack->setCurrentItem(stack->topLevelItem(call));
        QTRY_COMPARE(w.run.snapshot().frame, call);
        QTRY_COMPARE(list->topLevelItem(1)->text(1), QStringLiteral("2"));
        QCOMPARE(stack->currentItem(), stack->topLevelItem(call));
        QVERIFY(column(w.links.pane()->variablesView(), 0).contains(QStringLiteral("i")));
        QCOMPARE(w.editor->editor()->cursorLineColumn().first, 14);
        QVERIFY(list->topLevelItem(0)->text(1).startsWith(QStringLiteral("cannot be evaluated")));

        // A watch added while paused is evaluated at once, in the selected frame.
        watches->addExpression(QStringLiteral("i + 100"));
        QTRY_COMPARE(list->topLevelItem(3)->text(1), QStringLiteral("102"));

        w.links.continueAction()->trigger();
        QTRY_COMPARE(finished.count(), 1);
        // One pause (n == 2), told again for the frame picked and for the watch added.
        QCOMPARE(paused.count(), 3);
        QCOMPARE(finished[0][1].toString(), QStringLiteral("1,4,9"));
        QCOMPARE(stack->topLevelItemCount(), 0);
        QCOMPARE(list->topLevelItem(0)->text(1), QString());
    }

    void watchesAreKeptForTheNextStart()
    {
        {
            Workbench w;
            w.links.pane()->watchView()->addExpression(QStringLiteral("answer.score"));
            w.links.pane()->watchView()->addExpression(QStringLiteral("i * 2"));
            w.links.pane()->watchView()->list()->setCurrentItem(
                w.links.pane()->watchView()->list()->topLevelItem(0));
            w.links.pane()->watchView()->removeSelected();
        }
        Workbench again;
        QCOMPARE(again.links.pane()->watchView()->expressions(),
                 QStringList({QStringLiteral("i * 2")}));
        QCOMPARE(again.run.watchExpressions(), QStringList({QStringLiteral("i * 2")}));
    }

    void breakpointsListDisablesAndMakesLogpoints()
    {
        Workbench w;
        PdlEditor* editor = w.editor->editor();
        editor->setText(kCalls);
        editor->toggleBreakpoint(9);
        editor->toggleBreakpoint(14);
        BreakpointsView* view = w.links.pane()->breakpointsView();
        QTreeWidget* list = view->list();
        QCOMPARE(list->topLevelItemCount(), 2);
        QVERIFY(list->topLevelItem(0)->text(0).endsWith(QStringLiteral(":9")));
        QCOMPARE(list->topLevelItem(0)->checkState(0), Qt::Checked);

        // Off: the margin shows a ring, the run passes it.
        list->topLevelItem(1)->setCheckState(0, Qt::Unchecked);
        QTRY_VERIFY(!editor->breakpointSpec(14).enabled);
        QVERIFY(editor->markersAtLine(13) & (1 << PdlEditor::DisabledBreakpointMarker));
        // A logpoint: a square in the margin, its message in the Console, no pause.
        list->topLevelItem(0)->setText(2, QStringLiteral("n is ${ n }"));
        QTRY_COMPARE(editor->breakpointSpec(9).logMessage, QStringLiteral("n is ${ n }"));
        QVERIFY(editor->markersAtLine(8) & (1 << PdlEditor::LogpointMarker));
        // A condition that does not parse is refused and the row shows the old one.
        QSignalSpy status(&w.links, &DebugLinks::statusMessage);
        list->topLevelItem(0)->setText(1, QStringLiteral("n =="));
        QTRY_COMPARE(status.count(), 1);
        QCOMPARE(editor->breakpointSpec(9).condition, QString());
        QCOMPARE(list->topLevelItem(0)->text(1), QString());
        QCOMPARE(editor->breakpointSpec(9).logMessage, QStringLiteral("n is ${ n }"));
        list->topLevelItem(0)->setText(1, QStringLiteral("n >= 2"));
        QTRY_COMPARE(editor->breakpointSpec(9).condition, QStringLiteral("n >= 2"));

        QSignalSpy paused(&w.run, &RunController::paused);
        QSignalSpy finished(&w.run, &RunController::finished);
        QString console;
        connect(&w.run, &RunController::output, this,
                [&](const QString& text, bool) { console += text; });
        w.links.debugAction()->trigger();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(paused.count(), 0);
        // Each message on a line of its own, amid the program's output.
        QVERIFY2(console.contains(QStringLiteral("n is 2\n")), qPrintable(console));
        QVERIFY2(console.contains(QStringLiteral("n is 3\n")), qPrintable(console));
        QVERIFY2(console.indexOf(QStringLiteral("n is 2")) <
                     console.indexOf(QStringLiteral("n is 3")),
                 qPrintable(console));
        QVERIFY2(!console.contains(QStringLiteral("n is 1")), qPrintable(console));

        // A click on a row goes to its line; Remove All clears the margin and the list.
        list->setCurrentItem(list->topLevelItem(1));
        QCOMPARE(editor->cursorLineColumn().first, 14);
        view->removeButton()->click();
        QCOMPARE(editor->breakpointLines(), QList<int>({9}));
        view->removeAllButton()->click();
        QVERIFY(editor->breakpointLines().isEmpty());
        QCOMPARE(list->topLevelItemCount(), 0);
    }

    void hoverShowsAVariablesValueWhilePaused()
    {
        Workbench w;
        PdlEditor* editor = w.editor->editor();
        editor->setText(QStringLiteral("text:\n"
                                       "- def: x\n"
                                       "  data: {a: 1}\n"
                                       "- \"[${ x }]\"\n"));
        editor->toggleBreakpoint(4);
        QCOMPARE(editor->valueHoverAt(4, 8), QString());
        QSignalSpy paused(&w.run, &RunController::paused);
        QSignalSpy finished(&w.run, &RunController::finished);
        w.links.debugAction()->trigger();
        QTRY_COMPARE(paused.count(), 1);
        QCOMPARE(editor->valueHoverAt(4, 8), QStringLiteral("x = {\"a\": 1}"));
        QCOMPARE(editor->valueHoverAt(4, 4), QString()); // `[` is no name
        QCOMPARE(editor->valueHoverAt(1, 2), QString()); // `text` is no variable
        w.links.continueAction()->trigger();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(editor->valueHoverAt(4, 8), QString());
    }

    void valuesKeepTheirCharacters()
    {
        // Watches, hover, variables and `print` show Japanese as it is written.
        pdl::Dict d;
        d.set("labels", pdl::Value(pdl::List{pdl::Value("苦情"), pdl::Value("要望")}));
        d.set("n", pdl::Value(int64_t(2)));
        QCOMPARE(DebugSession::valueText(pdl::Value(std::move(d))),
                 QStringLiteral("{\"labels\": [\"苦情\", \"要望\"], \"n\": 2}"));
        QCOMPARE(DebugSession::valueText(pdl::Value("改行\nあり 😀 \\u3042")),
                 QStringLiteral("\"改行\\nあり 😀 \\\\u3042\""));
        // Too deep to render here: still a text, not a crash.
        pdl::Value deep(pdl::List{});
        for (int i = 0; i < 200; ++i)
            deep = pdl::Value(pdl::List{deep});
        QVERIFY(DebugSession::valueText(deep).startsWith(QLatin1Char('[')));
    }

    void toolbarHasTheStepsWithTheirKeys()
    {
        Workbench w;
        QToolBar* bar = w.links.toolBar();
        QVERIFY(bar);
        QVERIFY(bar->actions().contains(w.links.continueAction()));
        QVERIFY(bar->actions().contains(w.links.stepOverAction()));
        QVERIFY(bar->actions().contains(w.links.stepIntoAction()));
        QVERIFY(bar->actions().contains(w.links.stepOutAction()));
        QVERIFY(bar->actions().contains(w.links.stopAction()));
        QVERIFY(w.links.continueAction()->shortcuts().contains(QKeySequence(Qt::Key_F5)));
        QCOMPARE(w.links.stepOverAction()->shortcut(), QKeySequence(Qt::Key_F10));
        QCOMPARE(w.links.stepIntoAction()->shortcut(), QKeySequence(Qt::Key_F11));
        QCOMPARE(w.links.stepOutAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F11));
        QVERIFY(!w.links.stopAction()->isEnabled());
        QVERIFY(!w.links.continueAction()->isEnabled());
        // Not debugging: the row is the editor's and the trace's.
        QVERIFY(bar->isHidden());
    }
};

QTEST_MAIN(TestDebugViews)
#include "tst_debugviews.moc"
