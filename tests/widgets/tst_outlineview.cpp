// The Outline pane: rebuilt from analysis reports, a click or Enter selects the block in the
// editor, the cursor selects the item of the block it is in, and the empty state.
#include "core/pdl/analysis/outlinemodel.h"
#include "core/pdl/programcheck.h"
#include "widgets/editor/editoranalysis.h"
#include "widgets/editor/outlineview.h"
#include "widgets/editor/pdleditor.h"

#include <QHBoxLayout>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace hako;

namespace {

const QByteArray kProgram = "defs:\n"                       // 1
                            "  greet:\n"                    // 2
                            "    function:\n"               // 3
                            "      name: str\n"             // 4
                            "    return: Hello ${ name }\n" // 5
                            "text:\n"                       // 6
                            "- def: answer\n"               // 7
                            "  model: ollama/granite\n"     // 8
                            "- repeat:\n"                   // 9
                            "    call: ${ greet }\n"        // 10
                            "    args:\n"                   // 11
                            "      name: ${ x }\n"          // 12
                            "  for:\n"                      // 13
                            "    x: [a, b]\n";              // 14

std::shared_ptr<const pdl::ProgramReport> reportOf(const QByteArray& text)
{
    return std::make_shared<const pdl::ProgramReport>(
        pdl::analyzeProgramText(text, QStringLiteral("p.pdl")));
}

void putCursor(PdlEditor* editor, int line, int column)
{
    SourceSpan at;
    at.line = line;
    at.column = column;
    editor->selectSpan(at);
}

QModelIndex find(QAbstractItemModel* model, const QString& label, const QModelIndex& parent = {})
{
    for (int row = 0; row < model->rowCount(parent); ++row) {
        const QModelIndex i = model->index(row, 0, parent);
        if (i.data().toString() == label)
            return i;
        if (const QModelIndex below = find(model, label, i); below.isValid())
            return below;
    }
    return {};
}

} // namespace

class TestOutlineView : public QObject {
    Q_OBJECT

private:
    QWidget* m_window = nullptr;
    PdlEditor* m_editor = nullptr;
    OutlineView* m_view = nullptr;

private Q_SLOTS:
    void init()
    {
        m_window = new QWidget;
        auto* layout = new QHBoxLayout(m_window);
        m_editor = new PdlEditor(m_window);
        m_view = new OutlineView(m_editor, m_window);
        layout->addWidget(m_editor);
        layout->addWidget(m_view);
        m_window->resize(900, 600);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window));
        m_editor->setDocumentText(QString::fromUtf8(kProgram));
        m_view->setReport(reportOf(kProgram));
    }

    void cleanup()
    {
        delete m_window;
        m_window = nullptr;
    }

    void accessibleNames()
    {
        QVERIFY(!m_view->accessibleName().isEmpty());
        QVERIFY(!m_view->treeView()->accessibleName().isEmpty());
        for (QWidget* w : m_view->findChildren<QWidget*>()) {
            if (qobject_cast<QTreeView*>(w) || w->inherits("QLabel"))
                QVERIFY2(!w->accessibleName().isEmpty(), w->metaObject()->className());
        }
    }

    void clickSelectsTheBlock()
    {
        QVERIFY(!m_view->isShowingEmptyState());
        QTreeView* tree = m_view->treeView();
        const QModelIndex model = find(tree->model(), QStringLiteral("answer"));
        QVERIFY(model.isValid());
        tree->scrollTo(model);
        QSignalSpy activated(m_view, &OutlineView::blockActivated);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(model).center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(m_editor->selectedText(), QStringLiteral("def: answer\n  model: ollama/granite"));
        QCOMPARE(m_editor->cursorLineColumn(), qMakePair(7, 3));
        // The clicked item stays selected once the editor reports the cursor move (later).
        QTest::qWait(100);
        QCOMPARE(tree->currentIndex(), model);
    }

    void enterSelectsTheBlock()
    {
        QTreeView* tree = m_view->treeView();
        const QModelIndex call = find(tree->model(), QStringLiteral("call greet"));
        QVERIFY(call.isValid());
        tree->setFocus();
        tree->setCurrentIndex(call);
        QTest::keyClick(tree, Qt::Key_Return);
        QCOMPARE(m_editor->cursorLineColumn(), qMakePair(10, 5));
        QVERIFY(m_editor->selectedText().startsWith(QLatin1String("call: ${ greet }")));
    }

    void cursorSelectsTheItem()
    {
        QTreeView* tree = m_view->treeView();
        m_editor->setFocus();
        // QScintilla reports cursor moves when it updates its view, after the event loop runs.
        putCursor(m_editor, 12, 16);
        QTRY_COMPARE(tree->currentIndex().data().toString(), QStringLiteral("call greet"));
        QVERIFY(tree->selectionModel()->isSelected(tree->currentIndex()));
        putCursor(m_editor, 8, 10);
        QTRY_COMPARE(tree->currentIndex().data().toString(), QStringLiteral("answer"));
        putCursor(m_editor, 14, 8);
        QTRY_COMPARE(tree->currentIndex().data().toString(),
                     QStringLiteral("repeat for x in [\"a\", \"b\"]"));
        putCursor(m_editor, 4, 8);
        QTRY_COMPARE(tree->currentIndex().data().toString(), QStringLiteral("greet(name)"));
        QVERIFY(!tree->hasFocus());
    }

    void emptyStates()
    {
        m_view->setReport(nullptr);
        QVERIFY(m_view->isShowingEmptyState());
        QCOMPARE(m_view->emptyStateText(), QStringLiteral("No program yet."));
        m_view->setReport(reportOf("text: [unclosed\n"));
        QVERIFY(m_view->isShowingEmptyState());
        QVERIFY(m_view->emptyStateText().contains(QLatin1String("cannot be read")));
        QVERIFY(m_view->emptyStateText().contains(QLatin1String("Line ")));
        m_view->setReport(reportOf(kProgram));
        QVERIFY(!m_view->isShowingEmptyState());
    }

    void followsTheAnalysis()
    {
        EditorAnalysis analysis;
        analysis.setDelay(0);
        m_view->setAnalysis(&analysis);
        analysis.requestNow(
            QStringLiteral("lastOf:\n- def: only\n  data: 1\n- def: two\n  data: 2\n"),
            QStringLiteral("p.pdl"));
        QTRY_VERIFY(find(m_view->model(), QStringLiteral("two")).isValid());
        QVERIFY(!find(m_view->model(), QStringLiteral("answer")).isValid());
    }

    void collapsedItemsStayCollapsed()
    {
        QTreeView* tree = m_view->treeView();
        const QModelIndex repeat =
            find(tree->model(), QStringLiteral("repeat for x in [\"a\", \"b\"]"));
        QVERIFY(repeat.isValid());
        tree->collapse(repeat);
        m_view->setReport(reportOf(kProgram));
        const QModelIndex again =
            find(tree->model(), QStringLiteral("repeat for x in [\"a\", \"b\"]"));
        QVERIFY(!tree->isExpanded(again));
        QVERIFY(tree->isExpanded(again.parent()));
    }
};

QTEST_MAIN(TestOutlineView)
#include "tst_outlineview.moc"
