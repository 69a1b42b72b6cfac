// Quick Fix… in the editor: Ctrl+. opens the fixes of the cursor's line, the first one is
// applied as one undo step, and the menu says when there is nothing to fix.
#include "core/pdl/programcheck.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/editor/problemsview.h"
#include "widgets/editor/quickfixmenu.h"

#include <QAction>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace hako;

namespace {

void showReport(PdlEditor& editor)
{
    editor.setReport(std::make_shared<pdl::ProgramReport>(
        pdl::analyzeProgramText(editor.text().toUtf8(), QStringLiteral("p.pdl"))));
}

} // namespace

class TestQuickFixMenu : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fixTypoWithShortcut()
    {
        PdlEditor editor;
        QuickFixMenu quickFix(&editor);
        QCOMPARE(quickFix.action()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Period));
        QVERIFY(!quickFix.action()->text().isEmpty());
        editor.setDocumentText(QStringLiteral("# 箱\nmodel: m\ninptu: hi\n"));
        showReport(editor);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setFocus();
        editor.setCursorPosition(2, 1); // 0-based: the `inptu:` line

        QTest::keyClick(&editor, Qt::Key_Period, Qt::ControlModifier);
        QTRY_VERIFY(quickFix.menu() && quickFix.menu()->isVisible());
        QMenu* menu = quickFix.menu();
        QVERIFY(!menu->accessibleName().isEmpty());
        QCOMPARE(menu->actions().constFirst()->text(), QStringLiteral("Change to `input`"));
        menu->actions().constFirst()->trigger();
        menu->close();
        QCOMPARE(editor.text(), QStringLiteral("# 箱\nmodel: m\ninput: hi\n"));

        editor.setFocus();
        QTest::keyClick(&editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor.text(), QStringLiteral("# 箱\nmodel: m\ninptu: hi\n"));
    }

    void indentIsOneUndoStep()
    {
        PdlEditor editor;
        QuickFixMenu quickFix(&editor);
        const QString before = QStringLiteral("text:\n- model: m\ninput: |\n  a\n  b\n");
        editor.setDocumentText(before);
        showReport(editor);
        const QList<pdl::QuickFix> fixes = quickFix.fixesAt(3, 1);
        QVERIFY(!fixes.isEmpty());
        QCOMPARE(fixes.constFirst().kind, pdl::QuickFix::Kind::Indent);
        QCOMPARE(fixes.constFirst().edits.size(), 3);
        QVERIFY(quickFix.apply(fixes.constFirst()));
        QCOMPARE(editor.text(), QStringLiteral("text:\n- model: m\n  input: |\n    a\n    b\n"));
        editor.undo();
        QCOMPARE(editor.text(), before);
    }

    void staleReport()
    {
        // The shown report is a keystroke behind: the fixes follow the text as it is.
        PdlEditor editor;
        QuickFixMenu quickFix(&editor);
        editor.setDocumentText(QStringLiteral("model: m\ninptu: hi\n"));
        showReport(editor);
        editor.setDocumentText(QStringLiteral("# note\nmodel: m\ninptu: hi\n"));
        const QList<pdl::QuickFix> fixes = quickFix.fixesAt(3, 1);
        QVERIFY(!fixes.isEmpty());
        // Typed into since: the offsets would be wrong, nothing is applied.
        editor.insertAt(QStringLiteral("#"), 0, 0);
        QVERIFY(!quickFix.apply(fixes.constFirst()));
        QCOMPARE(editor.text(), QStringLiteral("## note\nmodel: m\ninptu: hi\n"));
        editor.undo();
        QVERIFY(quickFix.apply(fixes.constFirst()));
        QCOMPARE(editor.text(), QStringLiteral("# note\nmodel: m\ninput: hi\n"));
    }

    void modelNameAndNothing()
    {
        PdlEditor editor;
        QuickFixMenu quickFix(&editor);
        editor.setModelNames({QStringLiteral("ollama/"), QStringLiteral("ollama/granite3.3:8b")});
        editor.setDocumentText(QStringLiteral("model: ollama/granite3.3:8d\ninput: hi\n"));
        showReport(editor);
        const QList<pdl::QuickFix> fixes = quickFix.fixesAt(1, 10);
        QCOMPARE(fixes.size(), 1);
        QCOMPARE(fixes.constFirst().title, QStringLiteral("Change to `ollama/granite3.3:8b`"));

        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setCursorPosition(1, 0);
        quickFix.action()->trigger();
        QTRY_VERIFY(quickFix.menu() && quickFix.menu()->isVisible());
        QCOMPARE(quickFix.menu()->actions().size(), 1);
        QAction* none = quickFix.menu()->actions().constFirst();
        QCOMPARE(none->text(), QStringLiteral("No quick fixes here"));
        QVERIFY(!none->isEnabled());
        quickFix.menu()->close();
    }

    // A problem activated in the Problems list is named in the message bar, whose button is its
    // best fix.
    void problemsListOffersTheFix()
    {
        EditorPane pane(nullptr);
        pane.show();
        QSignalSpy checked(&pane, &EditorPane::diagnosticsChanged);
        pane.editor()->setText(QStringLiteral("model: m\ninptu: hi\n"));
        QTRY_VERIFY(pane.report() && pane.report()->errorCount() > 0);
        const Diagnostic problem = pane.report()->diagnostics.front();
        Q_EMIT pane.problemsView()->problemActivated(problem.span);
        MessageBar* bar = pane.messageBar();
        QCOMPARE(bar->text(), problem.message);
        auto* button = bar->findChild<QPushButton*>(QStringLiteral("messageBarAction"));
        QVERIFY(button && button->isVisibleTo(&pane));
        QVERIFY2(button->text().contains(QLatin1String("input")), qPrintable(button->text()));
        button->click();
        QCOMPARE(pane.editor()->text(), QStringLiteral("model: m\ninput: hi\n"));
        QVERIFY(bar->text().isEmpty());
    }
};

QTEST_MAIN(TestQuickFixMenu)
#include "tst_quickfixmenu.moc"
