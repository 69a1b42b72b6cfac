// The Problems list as a prompt author reads it: each problem in plain words in the interface's
// language (what is wrong, what to do; the checker's wording on hover), and where it is — the
// line and column, or the card and field while the Prompt view is shown.
#include "core/pdl/analysis/quickfix.h"
#include "core/pdl/programcheck.h"
#include "isolatedsettings.h"
#include "widgets/common/languagemanager.h"
#include "widgets/editor/editoranalysis.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/editor/problemplaces.h"
#include "widgets/editor/problemsview.h"
#include "widgets/editor/quickfixmenu.h"
#include "widgets/promptview/promptview.h"

#include <QHeaderView>
#include <QTest>

using namespace hako;

namespace {

const QString kUnclosed =
    QStringLiteral("text:\n- def: summary\n  model: ollama/x\n  input: こんにちは ${ name\n");

QTreeWidgetItem* firstRow(ProblemsView* view)
{
    return view->topLevelItemCount() > 0 ? view->topLevelItem(0) : nullptr;
}

} // namespace

class TestProblemsView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_problems"));
        QVERIFY(m_settings->isValid());
    }

    void plainSentenceFirst()
    {
        EditorPane pane(nullptr);
        pane.editor()->setDocumentText(kUnclosed);
        pane.analysis()->requestNow(pane.editor()->text(), QString());
        ProblemsView* view = pane.problemsView();
        QTRY_COMPARE(view->topLevelItemCount(), 1);
        QTreeWidgetItem* row = firstRow(view);
        QCOMPARE(row->text(0), QStringLiteral("A `${` is not closed: end it with `}`, as in "
                                              "`${ name }`"));
        QCOMPARE(row->text(1), QStringLiteral("Line 4, column 23"));
        // The checker's own words are on hover, after the severity.
        QVERIFY2(row->toolTip(0).startsWith(QLatin1String("Error: A `${` is not closed")),
                 qPrintable(row->toolTip(0)));
        QVERIFY(row->toolTip(0).contains(QLatin1String("unexpected end of template")));
        QCOMPARE(view->headerItem()->text(1), QStringLiteral("Where"));
    }

    // While the Prompt view is shown, the place is the card and field; back in the YAML, the
    // line and column.
    void placeFollowsTheView()
    {
        EditorPane pane(nullptr);
        showPromptPlaces(&pane);
        pane.editor()->setDocumentText(kUnclosed);
        pane.analysis()->requestNow(pane.editor()->text(), QString());
        ProblemsView* view = pane.problemsView();
        QTRY_COMPARE(view->topLevelItemCount(), 1);
        QCOMPARE(firstRow(view)->text(1), QStringLiteral("Line 4, column 23"));
        pane.setPromptMode(true);
        pane.promptView()->refreshNow();
        QTRY_COMPARE(firstRow(view)->text(1), QStringLiteral("Model call “summary” › Input"));
        QCOMPARE(firstRow(view)->toolTip(1), QStringLiteral("In the YAML: Line 4, column 23"));
        pane.setPromptMode(false);
        QCOMPARE(firstRow(view)->text(1), QStringLiteral("Line 4, column 23"));
    }

    // In Japanese (the shipped translation): the sentence and the counts.
    void japanese()
    {
        qputenv("HAKO_LANGUAGE", "ja");
        auto language = std::make_unique<LanguageManager>();
        QVERIFY2(language->apply(), "the Japanese translation :/i18n/hako_ja.qm is missing");
        EditorPane pane(nullptr);
        pane.editor()->setDocumentText(kUnclosed);
        pane.analysis()->requestNow(pane.editor()->text(), QString());
        ProblemsView* view = pane.problemsView();
        QTRY_COMPARE(view->topLevelItemCount(), 1);
        QCOMPARE(
            firstRow(view)->text(0),
            QStringLiteral("`${` が閉じていません。`${ name }` のように `}` で閉じてください"));
        QCOMPARE(view->summary(), QStringLiteral("エラー 1 件、警告 0 件"));
        QCOMPARE(view->accessibleName(), QStringLiteral("問題"));
        language.reset();
        qunsetenv("HAKO_LANGUAGE");
    }

    // A language switch rebuilds the rows and headers in the new language.
    void languageChangeRebuilds()
    {
        ProblemsView view;
        view.setDiagnostics({makeError(QStringLiteral("unexpected end of template"),
                                       SourceSpan{QString(), 2, 5, 2, 5})});
        QCOMPARE(view.topLevelItem(0)->text(0).left(10), QStringLiteral("A `${` is "));
        qputenv("HAKO_LANGUAGE", "ja");
        auto language = std::make_unique<LanguageManager>();
        QVERIFY(language->apply());
        QTRY_VERIFY(view.topLevelItem(0)->text(0).startsWith(QStringLiteral("`${` が閉じて")));
        language.reset();
        qunsetenv("HAKO_LANGUAGE");
        QTRY_COMPARE(view.topLevelItem(0)->text(0).left(10), QStringLiteral("A `${` is "));
    }

    // Ctrl+. on the line of an unclosed `${` closes it.
    void quickFixCloses()
    {
        PdlEditor editor;
        QuickFixMenu quickFix(&editor);
        editor.setDocumentText(kUnclosed);
        editor.setReport(std::make_shared<const pdl::ProgramReport>(
            pdl::analyzeProgramText(kUnclosed.toUtf8(), QString())));
        const QList<pdl::QuickFix> fixes = quickFix.fixesAt(4, 20);
        QVERIFY(!fixes.isEmpty());
        QCOMPARE(fixes.constFirst().kind, pdl::QuickFix::Kind::Close);
        QVERIFY(quickFix.apply(fixes.constFirst()));
        QCOMPARE(editor.text(), QStringLiteral("text:\n- def: summary\n  model: ollama/x\n  "
                                               "input: こんにちは ${ name }\n"));
    }

private:
    std::unique_ptr<testing::IsolatedSettings> m_settings;
};

QTEST_MAIN(TestProblemsView)
#include "tst_problemsview.moc"
