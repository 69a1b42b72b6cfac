// Debugging in the workbench: the RunController pauses a run on its worker and tells the GUI
// thread (which stays free) with a snapshot, sets variables, steps, answers a model call and
// stops a paused run; the editor's breakpoint margin; DebugLinks (F6 with a breakpoint from the
// margin highlights the paused line and fills the Debug pane, Continue finishes).
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/debug/debugpane.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/workbench/debuglinks.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/runactions.h"
#include "widgets/workbench/tracedocks.h"

#include <QAction>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace hako;

Q_DECLARE_METATYPE(hako::Diagnostic)

namespace {

const QByteArray kProgram = "text:\n"           // 1
                            "- def: x\n"        // 2
                            "  data: 1\n"       // 3
                            "- \"[${ x }]\"\n"  // 4
                            "- \"(${ x })\"\n"; // 5

QString valueOf(const RunController::DebugSnapshot& s, const char* name)
{
    const pdl::Value* v = s.variables.find(name);
    return v ? QString::fromStdString(v->json()) : QString();
}

// The parts of the window the debugger wires together: editor, trace docks, run actions.
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

} // namespace

class TestDebugLinks : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<hako::Diagnostic>();
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_debuglinks"));
        QVERIFY(m_settings->isValid());
    }

    void controllerPausesSetsStepsAndContinues()
    {
        RunController run;
        const QString path = m_dir.filePath(QStringLiteral("p.pdl"));
        QSignalSpy paused(&run, &RunController::paused);
        QSignalSpy finished(&run, &RunController::finished);
        run.setDebugging(true);
        run.setBreakpoints(path, {4});
        QVERIFY(run.start(kProgram, path));
        QTRY_COMPARE(paused.count(), 1);
        QVERIFY(run.isPaused());
        QCOMPARE(run.snapshot().location.span.line, 4);
        QCOMPARE(valueOf(run.snapshot(), "x"), QStringLiteral("1"));
        QCOMPARE(run.snapshot().context.size(), size_t(1));
        run.setVariable(QStringLiteral("x"), QStringLiteral("41"));
        QTRY_COMPARE(paused.count(), 2);
        QCOMPARE(valueOf(run.snapshot(), "x"), QStringLiteral("41"));
        run.stepOver();
        QVERIFY(!run.isPaused());
        QTRY_COMPARE(paused.count(), 3);
        QCOMPARE(run.snapshot().location.span.line, 5);
        run.continueRun();
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(finished[0][0].toBool());
        QCOMPARE(finished[0][1].toString(), QStringLiteral("1[41](41)"));
    }

    void stopWhilePausedEndsAtOnce()
    {
        RunController run;
        QSignalSpy paused(&run, &RunController::paused);
        QSignalSpy finished(&run, &RunController::finished);
        run.setDebugging(true);
        const QString path = m_dir.filePath(QStringLiteral("s.pdl"));
        run.setBreakpoints(path, {2});
        QVERIFY(run.start(kProgram, path));
        QTRY_COMPARE(paused.count(), 1);
        run.stop();
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(!finished[0][0].toBool());
        QVERIFY(run.wasStopped());
        QVERIFY(!run.isPaused());
    }

    void answerAModelCallByHand()
    {
        RunController run;
        QSignalSpy paused(&run, &RunController::paused);
        QSignalSpy finished(&run, &RunController::finished);
        run.setDebugging(true);
        run.setPauseBeforeModelCalls(true);
        QVERIFY(run.start("text:\n- \"Hi \"\n- model: ollama/none\n",
                          m_dir.filePath(QStringLiteral("m.pdl"))));
        QTRY_COMPARE(paused.count(), 1);
        QCOMPARE(run.snapshot().location.kind, pdl::BlockKind::Model);
        run.answerModelCall(QStringLiteral("there"));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][2].value<Diagnostic>().message));
        QCOMPARE(finished[0][1].toString(), QStringLiteral("Hi there"));
        QVERIFY(run.lastTrace()->children.front().nodes[1]->answeredByHand);
    }

    void editorMarginTogglesBreakpoints()
    {
        PdlEditor editor;
        editor.setText(QString::fromUtf8(kProgram));
        QSignalSpy changed(&editor, &PdlEditor::breakpointsChanged);
        editor.toggleBreakpoint(4);
        editor.toggleBreakpoint(2);
        QCOMPARE(editor.breakpointLines(), (QList<int>{2, 4}));
        editor.toggleBreakpoint(4);
        QCOMPARE(editor.breakpointLines(), QList<int>{2});
        QCOMPARE(changed.count(), 3);
        QCOMPARE(changed.last()[0].value<QList<int>>(), QList<int>{2});
        // A line added above moves the dot with its line.
        editor.insertAt(QStringLiteral("# comment\n"), 0, 0);
        QCOMPARE(editor.breakpointLines(), QList<int>{3});
        editor.setBreakpointLines({1, 5, 99});
        QCOMPARE(editor.breakpointLines(), (QList<int>{1, 5}));
    }

    void debugLinksRunsToTheMarginsBreakpoint()
    {
        Workbench w;
        WorkbenchContext& context = w.context;
        RunController& run = w.run;
        EditorPane* editor = w.editor;
        DebugLinks& links = w.links;
        links.setWorkbenchContext(&context);
        editor->editor()->setText(QString::fromUtf8(kProgram));
        editor->editor()->toggleBreakpoint(4);
        QSignalSpy paused(&run, &RunController::paused);
        QSignalSpy finished(&run, &RunController::finished);
        QVERIFY(!links.continueAction()->isEnabled());
        links.debugAction()->trigger();
        QTRY_COMPARE(paused.count(), 1);
        QVERIFY(links.continueAction()->isEnabled());
        QVERIFY(links.stepOverAction()->isEnabled());
        QVERIFY(editor->editor()->markersAtLine(3) & (1 << PdlEditor::PausedLineMarker));
        // The paused block (not started yet) is drawn through its enclosing box.
        QVERIFY(!context.currentNode().isEmpty());
        QVERIFY2(
            QString::fromStdString(run.snapshot().location.id).startsWith(context.currentNode()),
            qPrintable(context.currentNode()));
        QTreeWidget* vars = links.pane()->variablesView();
        QCOMPARE(vars->topLevelItemCount(), 1);
        QCOMPARE(vars->topLevelItem(0)->text(0), QStringLiteral("x"));
        QCOMPARE(links.pane()->contextView()->topLevelItemCount(), 1);
        links.continueAction()->trigger();
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(finished[0][0].toBool());
        QVERIFY(!(editor->editor()->markersAtLine(3) & (1 << PdlEditor::PausedLineMarker)));
        QVERIFY(!run.isDebugging());
        QVERIFY(!links.continueAction()->isEnabled());
        QVERIFY(links.debugAction()->isEnabled());
    }

    // Run › Breakpoint Condition…: the breakpoint pauses only in the iteration where the
    // condition holds; its condition follows the line when lines are added above.
    void conditionalBreakpointPausesOnlyWhenTrue()
    {
        Workbench w;
        RunController& run = w.run;
        EditorPane* editor = w.editor;
        DebugLinks& links = w.links;
        editor->editor()->setText(QStringLiteral("text:\n"               // 1
                                                 "- for:\n"              // 2
                                                 "    i: [1, 2, 3, 4]\n" // 3
                                                 "  repeat:\n"           // 4
                                                 "    \"<${ i }>\"\n")); // 5
        editor->editor()->setCursorPosition(4, 4);
        int askedLine = 0;
        QString asked = QStringLiteral("(not asked)");
        links.setConditionQuestion([&](int line, const QString& current) {
            askedLine = line;
            asked = current;
            return std::optional<QString>(QStringLiteral("i == 3"));
        });
        links.breakpointConditionAction()->trigger();
        QCOMPARE(askedLine, 5);
        QCOMPARE(asked, QString());
        QCOMPARE(editor->editor()->breakpointConditions(),
                 (QMap<int, QString>{{5, QStringLiteral("i == 3")}}));
        QVERIFY(editor->editor()->markersAtLine(4) & (1 << PdlEditor::ConditionalBreakpointMarker));

        QSignalSpy paused(&run, &RunController::paused);
        QSignalSpy finished(&run, &RunController::finished);
        links.debugAction()->trigger();
        QTRY_COMPARE(paused.count(), 1);
        QCOMPARE(valueOf(run.snapshot(), "i"), QStringLiteral("3"));
        links.continueAction()->trigger();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(paused.count(), 1);
        QCOMPARE(finished[0][1].toString(), QStringLiteral("<1><2><3><4>"));

        // The condition moves with its line; asking again shows it; an empty answer keeps a
        // breakpoint without a condition; toggling removes it.
        editor->editor()->insertAt(QStringLiteral("# a comment\n"), 0, 0);
        QCOMPARE(editor->editor()->breakpointCondition(6), QStringLiteral("i == 3"));
        QCOMPARE(editor->editor()->breakpointCondition(5), QString());
        editor->editor()->setCursorPosition(5, 0);
        QString shown;
        links.setConditionQuestion([&](int, const QString& current) {
            shown = current;
            return std::optional<QString>(QString());
        });
        links.breakpointConditionAction()->trigger();
        QCOMPARE(shown, QStringLiteral("i == 3"));
        QCOMPARE(editor->editor()->breakpointConditions(), (QMap<int, QString>{{6, QString()}}));
        links.toggleBreakpointAction()->trigger();
        QVERIFY(editor->editor()->breakpointLines().isEmpty());
    }

    // A breakpoint put in the margin on a line without a block of its own (a blank line
    // between two blocks) stops at the next block, as `break` in the console does; before, it
    // resolved to the enclosing list, which had already started, and the run never paused.
    void marginBreakpointOnABlankLineStopsAtTheNextBlock()
    {
        Workbench w;
        RunController& run = w.run;
        EditorPane* editor = w.editor;
        editor->editor()->setText(QStringLiteral("text:\n"             // 1
                                                 "- def: x\n"          // 2
                                                 "  data: 1\n"         // 3
                                                 "\n"                  // 4
                                                 "- \"[${ x }]\"\n")); // 5
        editor->editor()->toggleBreakpoint(4);
        QSignalSpy paused(&run, &RunController::paused);
        QSignalSpy finished(&run, &RunController::finished);
        w.links.debugAction()->trigger();
        QTRY_VERIFY(paused.count() == 1 || finished.count() == 1);
        QCOMPARE(paused.count(), 1);
        QCOMPARE(run.snapshot().location.span.line, 5);
        w.links.continueAction()->trigger();
        QTRY_COMPARE(finished.count(), 1);
    }

    // A condition that does not parse is refused where it is typed (the status bar says why)
    // and, given to the run controller directly, refused aloud at the start of the run instead
    // of being accepted silently.
    void unreadableConditionIsRefused()
    {
        Workbench w;
        EditorPane* editor = w.editor;
        DebugLinks& links = w.links;
        editor->editor()->setText(QString::fromUtf8(kProgram));
        editor->editor()->setCursorPosition(3, 0);
        links.setConditionQuestion(
            [](int, const QString&) { return std::optional<QString>(QStringLiteral("x ==")); });
        QSignalSpy status(&links, &DebugLinks::statusMessage);
        links.breakpointConditionAction()->trigger();
        QCOMPARE(status.count(), 1);
        QVERIFY2(status[0][0].toString().contains(QStringLiteral("x ==")),
                 qPrintable(status[0][0].toString()));
        QVERIFY(editor->editor()->breakpointLines().isEmpty());

        RunController run;
        QSignalSpy refused(&run, &RunController::debugError);
        QSignalSpy paused(&run, &RunController::paused);
        QSignalSpy finished(&run, &RunController::finished);
        const QString path = m_dir.filePath(QStringLiteral("c.pdl"));
        run.setDebugging(true);
        run.setBreakpoints(path, QMap<int, QString>{{4, QStringLiteral("x ==")}});
        QVERIFY(run.start(kProgram, path));
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(paused.count(), 0);
        QVERIFY(!refused.isEmpty());
        QVERIFY2(refused[0][0].toString().contains(QStringLiteral("line 4")),
                 qPrintable(refused[0][0].toString()));
    }

    // Paused, Run to Cursor goes on to the cursor's line; the context's message edited in the
    // Debug pane is what the paused run has.
    void runToCursorAndEditTheContext()
    {
        Workbench w;
        RunController& run = w.run;
        EditorPane* editor = w.editor;
        DebugLinks& links = w.links;
        editor->editor()->setText(QString::fromUtf8(kProgram));
        editor->editor()->toggleBreakpoint(2);
        QSignalSpy paused(&run, &RunController::paused);
        QSignalSpy finished(&run, &RunController::finished);
        links.debugAction()->trigger();
        QTRY_COMPARE(paused.count(), 1);
        QCOMPARE(run.snapshot().location.span.line, 2);
        editor->editor()->setCursorPosition(4, 0);
        QVERIFY(links.runToCursorAction()->isEnabled());
        links.runToCursorAction()->trigger();
        QTRY_COMPARE(paused.count(), 2);
        QCOMPARE(run.snapshot().location.span.line, 5);

        QTreeWidget* messages = links.pane()->contextView();
        QTRY_COMPARE(messages->topLevelItemCount(), 2);
        QCOMPARE(messages->topLevelItem(1)->text(1), QStringLiteral("[1]"));
        messages->topLevelItem(1)->setText(1, QStringLiteral("[edited]"));
        QTRY_COMPARE(paused.count(), 3);
        QCOMPARE(
            QString::fromStdString(run.snapshot().context[1].asDict().find("content")->asString()),
            QStringLiteral("[edited]"));
        links.continueAction()->trigger();
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(finished[0][0].toBool());
    }
};

QTEST_MAIN(TestDebugLinks)
#include "tst_debuglinks.moc"
