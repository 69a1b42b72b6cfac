// TraceDiffView and DiffLinks: the empty state, two trees aligned row for row with one
// selection (a block selected on one side selects its counterpart), the detail's word diff and
// deltas, next/previous difference, accessible names on every control, and DiffLinks comparing
// two files off the GUI thread into its dock (errors named by file, in the message bar).
#include "core/pdl/trace/tracediff.h"
#include "core/pdl/trace/tracediffmodel.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/messagebar.h"
#include "widgets/trace/tracediffview.h"
#include "widgets/workbench/difflinks.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeView>
#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

TracePtr leaf(BlockKind kind, const std::string& id, const std::string& result, int line)
{
    auto n = std::make_shared<TraceNode>();
    n->kind = kind;
    n->id = id;
    n->result = Value(result);
    n->hasResult = true;
    n->span.line = line;
    n->startNanos = 1'000'000;
    n->endNanos = 3'000'000;
    return n;
}

TracePtr textOf(std::vector<TracePtr> children)
{
    auto n = std::make_shared<TraceNode>();
    n->kind = BlockKind::Text;
    n->id = "text";
    std::string joined;
    for (TracePtr& c : children) {
        joined += c->result.toText();
        n->addChild("text", std::move(c));
    }
    n->result = Value(joined);
    n->hasResult = true;
    return n;
}

std::shared_ptr<const TraceDiff> sampleDiff()
{
    TracePtr a = textOf({leaf(BlockKind::Data, "text.0.data", "Hello ", 2),
                         leaf(BlockKind::Model, "text.1.model", "今日は晴れです", 3),
                         leaf(BlockKind::Data, "text.2.data", "bye", 5)});
    TracePtr b = textOf({leaf(BlockKind::Data, "text.0.data", "Hello ", 2),
                         leaf(BlockKind::Code, "text.1.code", "inserted", 3),
                         leaf(BlockKind::Model, "text.2.model", "今日は雨です", 4),
                         leaf(BlockKind::Data, "text.3.data", "bye", 6)});
    b->children[0].nodes[2]->endNanos = 9'000'000;
    return std::make_shared<const TraceDiff>(TraceDiff::compare(a, b));
}

} // namespace

class TestTraceDiffView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emptyStateSaysWhatToDo()
    {
        TraceDiffView view;
        view.show();
        QVERIFY(view.isEmptyStateShown());
        QCOMPARE(view.emptyStateText(), QStringLiteral("Choose two traces to compare"));
        QSignalSpy asked(&view, &TraceDiffView::compareRequested);
        auto* button = view.findChild<QAbstractButton*>();
        QVERIFY(button);
        bool found = false;
        for (QAbstractButton* b : view.findChildren<QAbstractButton*>()) {
            if (b->accessibleName() == QStringLiteral("Compare Traces")) {
                QTest::mouseClick(b, Qt::LeftButton);
                found = true;
            }
        }
        QVERIFY(found);
        QCOMPARE(asked.count(), 1);
    }

    void everyControlHasAnAccessibleName()
    {
        TraceDiffView view;
        view.setDiff(sampleDiff(), QStringLiteral("a.json"), QStringLiteral("b.json"));
        view.show();
        QVERIFY(!view.accessibleName().isEmpty());
        QStringList unnamed;
        for (QWidget* w : view.findChildren<QWidget*>()) {
            const bool control = qobject_cast<QAbstractButton*>(w) ||
                                 qobject_cast<QAbstractItemView*>(w) ||
                                 qobject_cast<QTextBrowser*>(w) || qobject_cast<MessageBar*>(w);
            if (control && w->accessibleName().isEmpty() && !w->inherits("QHeaderView") &&
                w->parentWidget() && !w->parentWidget()->inherits("MessageBar"))
                unnamed << QString::fromLatin1(w->metaObject()->className());
        }
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QLatin1String(", "))));
        QCOMPARE(view.leftTree()->accessibleName(), QStringLiteral("Left trace"));
        QCOMPARE(view.rightTree()->accessibleName(), QStringLiteral("Right trace"));
    }

    void treesAlignAndShareTheSelection()
    {
        TraceDiffView view;
        QAbstractItemModelTester tester(view.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.resize(900, 600);
        view.show();
        const auto diff = sampleDiff();
        view.setDiff(diff, QStringLiteral("a.json"), QStringLiteral("b.json"));
        QVERIFY(!view.isEmptyStateShown());
        QCOMPARE(view.leftTree()->selectionModel(), view.rightTree()->selectionModel());
        QCOMPARE(view.leftTree()->model(), view.rightTree()->model());

        // The first difference is selected: the root text (its result changed).
        QCOMPARE(view.currentDiffRow(), 0);

        // Select the inserted code block in the right tree: its (empty) left row is selected.
        const QModelIndex root = view.rightTree()->model()->index(0, 0);
        QCOMPARE(view.rightTree()->model()->rowCount(root), 4);
        const QModelIndex inserted =
            view.rightTree()->model()->index(1, TraceDiffModel::RightNameColumn, root);
        QCOMPARE(inserted.data().toString(), QStringLiteral("code"));
        QCOMPARE(inserted.siblingAtColumn(TraceDiffModel::LeftNameColumn).data().toString(),
                 QString());
        view.rightTree()->setCurrentIndex(inserted);
        const QModelIndex leftCurrent = view.leftTree()->currentIndex();
        QCOMPARE(leftCurrent.row(), 1);
        QCOMPARE(leftCurrent.parent(), root);
        QVERIFY(view.leftTree()->selectionModel()->isRowSelected(1, root));
        QVERIFY(view.detail()->toPlainText().contains(QStringLiteral("only in the right trace")));

        // Click the changed model block in the left tree: the right selects its counterpart, and
        // the detail shows the Japanese word diff and the duration delta.
        const QModelIndex changedLeft =
            view.leftTree()->model()->index(2, TraceDiffModel::LeftNameColumn, root);
        QCOMPARE(changedLeft.data().toString(), QStringLiteral("model"));
        view.leftTree()->scrollTo(changedLeft);
        QTest::mouseClick(view.leftTree()->viewport(), Qt::LeftButton, {},
                          view.leftTree()->visualRect(changedLeft).center());
        QCOMPARE(view.rightTree()->currentIndex().row(), 2);
        QCOMPARE(view.rightTree()
                     ->currentIndex()
                     .siblingAtColumn(TraceDiffModel::RightNameColumn)
                     .data()
                     .toString(),
                 QStringLiteral("model"));
        const int row = view.currentDiffRow();
        QCOMPARE(diff->node(row).status, TraceDiff::Status::Changed);
        QCOMPARE(diff->node(row).right->id, std::string("text.2.model"));
        const QString detail = view.detail()->toPlainText();
        QVERIFY2(detail.contains(QStringLiteral("今日は晴れ雨です")), qPrintable(detail));
        QVERIFY2(detail.contains(QStringLiteral("+6.0 ms")), qPrintable(detail));
        QVERIFY(view.detail()->toHtml().contains(QStringLiteral("line-through")));

        // Collapsing on one side collapses the other: rows stay aligned.
        view.leftTree()->collapse(root);
        QVERIFY(!view.rightTree()->isExpanded(root));
        view.rightTree()->expand(root);
        QVERIFY(view.leftTree()->isExpanded(root));
    }

    void nextAndPreviousDifference()
    {
        TraceDiffView view;
        const auto diff = sampleDiff();
        view.setDiff(diff, QStringLiteral("a"), QStringLiteral("b"));
        std::vector<int> visited;
        for (int i = 0; i < 4; ++i) {
            view.nextDifference();
            visited.push_back(view.currentDiffRow());
        }
        // root (0) → deleted model, inserted code, … and around again.
        for (int r : visited)
            QVERIFY(diff->node(r).status != TraceDiff::Status::Same);
        QCOMPARE(visited.size(), size_t(4));
        view.previousDifference();
        QCOMPARE(view.currentDiffRow(), visited[2]);
    }

    void sameRunsSaySo()
    {
        TraceDiffView view;
        TracePtr a = textOf({leaf(BlockKind::Data, "x", "1", 1)});
        TracePtr b = textOf({leaf(BlockKind::Data, "x", "1", 1)});
        b->children[0].nodes[0]->endNanos = 50'000'000;
        view.setDiff(std::make_shared<const TraceDiff>(TraceDiff::compare(a, b)), {}, {});
        bool said = false;
        for (QLabel* l : view.findChildren<QLabel*>())
            said = said || l->text().contains(QStringLiteral("the same"));
        QVERIFY(said);
        view.clear();
        QVERIFY(view.isEmptyStateShown());
    }

    void diffLinksComparesFilesIntoItsDock()
    {
        const QString reference =
            QStringLiteral(HAKO_SHARED_DIR "/data/traces/reference-demo.trace.json");
        if (!QFile::exists(reference))
            QSKIP("the shared trace corpus is absent");
        QTemporaryDir dir;
        QFile in(reference);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray fork = in.readAll();
        fork.replace("Hi there", "Hi friend");
        const QString forkPath = dir.filePath(QStringLiteral("fork.json"));
        QFile out(forkPath);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(fork);
        out.close();

        QMainWindow window;
        DiffLinks links(&window);
        QCOMPARE(links.actions().size(), 2);
        QCOMPARE(links.compareAction()->text().remove(QLatin1Char('&')),
                 QStringLiteral("Compare Traces…"));
        QSignalSpy compared(&links, &DiffLinks::compared);
        QSignalSpy failed(&links, &DiffLinks::failed);
        window.show();
        links.compareFiles(reference, forkPath);
        QTRY_COMPARE(compared.count(), 1);
        QVERIFY(links.dock()->isVisible());
        QVERIFY(!links.view()->isEmptyStateShown());
        const auto diff = links.view()->model()->diff();
        QVERIFY(diff && !diff->isSame());
        QVERIFY(links.view()->detail()->toPlainText().contains(QStringLiteral("therefriend")));

        links.compareFiles(reference, dir.filePath(QStringLiteral("missing.json")));
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("missing.json")));
        QVERIFY(links.view()->messageBar()->text().contains(QStringLiteral("missing.json")));

        // Without a context there is no shown trace to compare.
        links.compareCurrentWith(reference);
        QCOMPARE(failed.count(), 2);
    }

    void diffLinksComparesTheShownTrace()
    {
        const QString reference =
            QStringLiteral(HAKO_SHARED_DIR "/data/traces/reference-demo.trace.json");
        if (!QFile::exists(reference))
            QSKIP("the shared trace corpus is absent");
        Result<TraceLoadResult> loaded = readTraceFile(reference);
        QVERIFY(loaded.ok());
        TraceModel shown;
        shown.setTrace(loaded->root, reference);
        WorkbenchContext context;
        context.setTraceModel(&shown);
        QMainWindow window;
        DiffLinks links(&window, &context);
        QSignalSpy compared(&links, &DiffLinks::compared);
        links.compareCurrentWith(reference);
        QTRY_COMPARE(compared.count(), 1);
        const auto diff = links.view()->model()->diff();
        QVERIFY(diff);
        QVERIFY2(diff->isSame(), qPrintable(diff->report(QStringLiteral("shown"), reference)));
        QCOMPARE(links.view()
                     ->model()
                     ->headerData(TraceDiffModel::LeftNameColumn, Qt::Horizontal)
                     .toString(),
                 QStringLiteral("reference-demo.trace.json"));

        // The view's picture, for a person to look at (kept next to the test binary).
        TraceDiffView view;
        view.resize(1000, 600);
        view.setDiff(sampleDiff(), QStringLiteral("run.json"), QStringLiteral("fork.json"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.grab().save(QStringLiteral(HAKO_BINARY_DIR "/tracediffview.png"));
    }
};

QTEST_MAIN(TestTraceDiffView)
#include "tst_tracediffview.moc"
