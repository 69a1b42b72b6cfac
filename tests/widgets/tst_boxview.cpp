// The nested-box trace view offscreen: clicking a box selects the node and reveals its source,
// the editor cursor lights up every execution of a block, a live run shows boxes before it
// ends, keyboard and zoom, expanders and toggles, the ibm-demo traces; screenshots on request.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/tracefeed.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracereader.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/trace/boxview.h"

#include <QDir>
#include <QDirIterator>
#include <QImage>
#include <QPainter>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

using namespace hako;
using namespace hako::pdl;

namespace {

const QString kFile = QStringLiteral("/tmp/boxview-test.pdl");

TracePtr runTrace(const QByteArray& program)
{
    ParseResult parsed = parseProgramText(program, kFile);
    if (!parsed.ok())
        return nullptr;
    RunOptions options;
    options.trace = true;
    Interpreter interp(std::move(options));
    return interp.run(parsed.program).trace;
}

const QByteArray kProgram = "description: boxes\n"
                            "text:\n"
                            "- Hello\n"
                            "- def: name\n"
                            "  text:\n"
                            "  - data: World\n"
                            "  - '!'\n"
                            "- for:\n"
                            "    i: [1, 2, 3]\n"
                            "  repeat:\n"
                            "    text:\n"
                            "    - 'item ${ i }'\n";

// The first item (tree order) whose result text is `text` and that has no children.
const TraceItem* leafWithText(const TraceItem* root, const QString& text)
{
    if (root->children.empty() && root->resultText() == text)
        return root;
    for (const auto& c : root->children)
        if (const TraceItem* hit = leafWithText(c.get(), text))
            return hit;
    return nullptr;
}

void collectWithSpan(const TraceItem* item, const SourceSpan& span,
                     std::vector<const TraceItem*>& out)
{
    if (item->node.span == span)
        out.push_back(item);
    for (const auto& c : item->children)
        collectWithSpan(c.get(), span, out);
}

struct Fixture {
    WorkbenchContext context;
    TraceModel model;
    std::unique_ptr<BoxView> view;

    explicit Fixture(const TracePtr& trace)
    {
        model.setTrace(trace, kFile);
        context.setTraceModel(&model);
        view = std::make_unique<BoxView>(&context);
        view->resize(900, 700);
        view->show();
    }
    bool waitLayout()
    {
        return QTest::qWaitFor([&] { return view->boxLayout() && !view->isLayoutPending(); }, 5000);
    }
};

} // namespace

class TestBoxView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void clickSelectsAndRevealsSource();
    void followsCurrentNode();
    void sourceCursorHighlightsEveryIteration();
    void keyboardNavigation();
    void zoomAndFit();
    void expanderAndToggle();
    void selectingHiddenIterationExpandsLoop();
    void longBlockOpensWhereClicked();
    void liveRunShowsBoxesBeforeItEnds();
    void ibmDemoTraces();
    void screenshots();
};

void TestBoxView::clickSelectsAndRevealsSource()
{
    Fixture f(runTrace(kProgram));
    QVERIFY(f.waitLayout());
    const TraceItem* world = leafWithText(f.model.root(), QStringLiteral("World"));
    QVERIFY(world);
    QVERIFY(world->node.span.isValid());
    const QRect r = f.view->viewportRectOf(world);
    QVERIFY(!r.isEmpty());
    QVERIFY(f.view->viewport()->rect().contains(r.topLeft()));
    QSignalSpy reveal(&f.context, &WorkbenchContext::revealSourceRequested);
    QSignalSpy current(&f.context, &WorkbenchContext::currentNodeChanged);
    QTest::mouseClick(f.view->viewport(), Qt::LeftButton, {}, r.topLeft() + QPoint(4, 4));
    QCOMPARE(f.context.currentNode(), QString::fromStdString(world->node.id));
    QCOMPARE(current.count(), 1);
    QCOMPARE(current.at(0).at(1).value<QObject*>(), f.view.get());
    QCOMPARE(reveal.count(), 1);
    const SourceSpan span = reveal.at(0).at(0).value<SourceSpan>();
    QCOMPARE(span, world->node.span);
    // The span is the `data: World` block: line 6 of the program.
    QCOMPARE(span.line, 6);
    QCOMPARE(f.view->currentItem(), world);
    // A click outside every box changes nothing.
    QTest::mouseClick(f.view->viewport(), Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(reveal.count(), 1);
}

void TestBoxView::followsCurrentNode()
{
    Fixture f(runTrace(kProgram));
    QVERIFY(f.waitLayout());
    const TraceItem* bang = leafWithText(f.model.root(), QStringLiteral("!"));
    QVERIFY(bang);
    QSignalSpy reveal(&f.context, &WorkbenchContext::revealSourceRequested);
    f.context.setCurrentNode(QString::fromStdString(bang->node.id), nullptr);
    QCOMPARE(f.view->currentItem(), bang);
    // Following someone else's selection is not a request to reveal source again.
    QCOMPARE(reveal.count(), 0);
    f.context.setCurrentNode(QString(), nullptr);
    QCOMPARE(f.view->currentItem(), nullptr);
}

void TestBoxView::sourceCursorHighlightsEveryIteration()
{
    Fixture f(runTrace(kProgram));
    QVERIFY(f.waitLayout());
    // The cursor on `'item ${ i }'` (line 12, inside the quotes).
    SourceSpan cursor;
    cursor.file = kFile;
    cursor.line = 12;
    cursor.column = 10;
    f.context.setSourceCursor(cursor, nullptr);
    const auto lit = f.view->highlightedItems();
    QCOMPARE(int(lit.size()), 3);
    QStringList texts;
    for (const TraceItem* item : lit) {
        texts << item->resultText();
        QVERIFY(!f.view->viewportRectOf(item).isEmpty()); // each has a box
        QCOMPARE(item->node.span.line, 12);
    }
    QCOMPARE(texts, (QStringList{"item 1", "item 2", "item 3"}));
    // Every node produced by that span, and nothing else.
    std::vector<const TraceItem*> expected;
    collectWithSpan(f.model.root(), lit.front()->node.span, expected);
    QCOMPARE(lit, expected);
    // Moving to the `Hello` line lights that one box only.
    cursor.line = 3;
    cursor.column = 4;
    f.context.setSourceCursor(cursor, nullptr);
    QCOMPARE(int(f.view->highlightedItems().size()), 1);
    QCOMPARE(f.view->highlightedItems().front()->resultText(), QStringLiteral("Hello"));
}

void TestBoxView::keyboardNavigation()
{
    Fixture f(runTrace(kProgram));
    QVERIFY(f.waitLayout());
    const TraceItem* root = f.model.root();
    f.view->setFocus();
    QSignalSpy reveal(&f.context, &WorkbenchContext::revealSourceRequested);
    f.view->selectItem(root, false);
    QTest::keyClick(f.view.get(), Qt::Key_Right);
    QCOMPARE(f.view->currentItem(), root->children[0].get());
    QTest::keyClick(f.view.get(), Qt::Key_Down);
    QCOMPARE(f.view->currentItem(), root->children[1].get());
    QTest::keyClick(f.view.get(), Qt::Key_Up);
    QCOMPARE(f.view->currentItem(), root->children[0].get());
    QTest::keyClick(f.view.get(), Qt::Key_Left);
    QCOMPARE(f.view->currentItem(), root);
    reveal.clear();
    QTest::keyClick(f.view.get(), Qt::Key_Return);
    QCOMPARE(reveal.count(), 1);
    QCOMPARE(reveal.at(0).at(0).value<SourceSpan>(), root->node.span);
}

void TestBoxView::zoomAndFit()
{
    Fixture f(runTrace("repeat:\n  text:\n  - a\n  - b\nmaxIterations: 20\n"));
    QVERIFY(f.waitLayout());
    const double z0 = f.view->zoom();
    f.view->setFocus();
    QTest::keyClick(f.view.get(), Qt::Key_Equal, Qt::ControlModifier);
    QVERIFY(f.view->zoom() > z0);
    QTest::keyClick(f.view.get(), Qt::Key_Minus, Qt::ControlModifier);
    QTest::keyClick(f.view.get(), Qt::Key_Minus, Qt::ControlModifier);
    QVERIFY(f.view->zoom() < z0);
    QTest::keyClick(f.view.get(), Qt::Key_0, Qt::ControlModifier);
    const QSizeF size = f.view->boxLayout()->size * f.view->zoom();
    QVERIFY(size.width() <= f.view->viewport()->width());
    QVERIFY(size.height() <= f.view->viewport()->height());
    // The whole trace is in view: the last box too.
    const QRect last = f.view->viewportRectOf(f.view->boxLayout()->boxes.back().item);
    QVERIFY(f.view->viewport()->rect().contains(last.center()));
}

void TestBoxView::expanderAndToggle()
{
    Fixture f(runTrace("repeat:\n  text:\n  - a\n  - b\nmaxIterations: 60\n"));
    QVERIFY(f.waitLayout());
    auto layout = f.view->boxLayout();
    const int loop = 0;
    QVERIFY(layout->boxes[loop].has(Box::Loop));
    int expander = -1;
    for (int c : layout->children(loop))
        if (layout->boxes[c].has(Box::Expander))
            expander = c;
    QVERIFY(expander >= 0);
    f.view->fitToView();
    const QRectF er = layout->boxes[expander].rect;
    const QPoint at =
        (er.topLeft() * f.view->zoom() + QPointF(14, 14) -
         QPointF(f.view->horizontalScrollBar()->value(), f.view->verticalScrollBar()->value()))
            .toPoint();
    QCOMPARE(f.view->itemAt(at), layout->boxes[loop].item);
    QSignalSpy updated(f.view.get(), &BoxView::layoutUpdated);
    QTest::mouseClick(f.view->viewport(), Qt::LeftButton, {}, at);
    QTRY_VERIFY(updated.count() >= 1 && !f.view->isLayoutPending());
    layout = f.view->boxLayout();
    QCOMPARE(int(layout->children(0).size()), 60);

    // Double click: the first iteration shows its output ("ab") instead of two boxes.
    const TraceItem* first = f.model.root()->children[0].get();
    const QRect r = f.view->viewportRectOf(first);
    QVERIFY(!r.isEmpty());
    QTest::mouseDClick(f.view->viewport(), Qt::LeftButton, {}, r.topLeft() + QPoint(3, 3));
    QTRY_VERIFY(f.view->boxLayout() != layout && !f.view->isLayoutPending());
    layout = f.view->boxLayout();
    const Box& toggled = layout->boxes[layout->indexOf(first)];
    QVERIFY(toggled.has(Box::Rendered));
    QCOMPARE(layout->lineText(toggled, 0).toString(), QStringLiteral("ab"));
}

void TestBoxView::selectingHiddenIterationExpandsLoop()
{
    Fixture f(runTrace("repeat:\n  text:\n  - a\nmaxIterations: 80\n"));
    QVERIFY(f.waitLayout());
    const TraceItem* hidden = f.model.root()->children[40].get();
    QCOMPARE(f.view->boxLayout()->indexOf(hidden), -1);
    f.context.setCurrentNode(QString::fromStdString(hidden->node.id), nullptr);
    QTRY_VERIFY(f.view->boxLayout()->indexOf(hidden) >= 0 && !f.view->isLayoutPending());
    // Scrolled to it.
    QVERIFY(f.view->viewport()->rect().intersects(f.view->viewportRectOf(hidden)));
}

// A block of 2,500 children: a child picked in the tree is drawn between two "more" boxes; a
// click on the second draws the ones after the picked child, a click on the first the ones
// after the first hundred.
void TestBoxView::longBlockOpensWhereClicked()
{
    QByteArray program = "text:\n";
    for (int i = 0; i < 2500; ++i)
        program += "- 'c" + QByteArray::number(i) + "'\n";
    Fixture f(runTrace(program));
    QVERIFY(f.waitLayout());
    const TraceItem* root = f.model.root();
    const TraceItem* picked = root->children[1500].get();
    f.context.setCurrentNode(QString::fromStdString(picked->node.id), nullptr);
    QTRY_VERIFY(f.view->boxLayout()->indexOf(picked) >= 0 && !f.view->isLayoutPending());
    auto expanders = [&f] {
        std::vector<int> out;
        const auto layout = f.view->boxLayout();
        for (int c : layout->children(0))
            if (layout->boxes[c].has(Box::Expander))
                out.push_back(c);
        return out;
    };
    QCOMPARE(int(expanders().size()), 2);
    QVERIFY(f.view->accessibleDescription().contains(QLatin1String("2,379")));
    auto click = [&f](int box) {
        const auto layout = f.view->boxLayout();
        const QRectF r = layout->boxes[box].rect;
        f.view->verticalScrollBar()->setValue(int(r.top() * f.view->zoom()) - 10);
        const QPoint at =
            (r.topLeft() * f.view->zoom() + QPointF(14, 14) -
             QPointF(f.view->horizontalScrollBar()->value(), f.view->verticalScrollBar()->value()))
                .toPoint();
        if (f.view->itemAt(at) != layout->boxes[box].item)
            return false;
        QSignalSpy updated(f.view.get(), &BoxView::layoutUpdated);
        QTest::mouseClick(f.view->viewport(), Qt::LeftButton, {}, at);
        return QTest::qWaitFor([&] { return updated.count() >= 1 && !f.view->isLayoutPending(); });
    };
    QVERIFY(
        click(expanders()[1])); // after the picked child: 1501-2479 drawn, nothing left behind it
    QVERIFY(f.view->boxLayout()->indexOf(root->children[1501].get()) >= 0);
    QVERIFY(f.view->boxLayout()->indexOf(root->children[2479].get()) >= 0);
    QCOMPARE(int(expanders().size()), 1);
    QCOMPARE(f.view->boxLayout()->boxes[expanders()[0]].hidden, 1400);
    QVERIFY(click(expanders()[0])); // the first: the next 1,000 after the first hundred
    QVERIFY(f.view->boxLayout()->indexOf(root->children[1099].get()) >= 0);
    QCOMPARE(f.view->boxLayout()->boxes[expanders()[0]].hidden, 400);
}

void TestBoxView::liveRunShowsBoxesBeforeItEnds()
{
    ParseResult parsed = parseProgramText("text:\n"
                                          "- Before\n"
                                          "- read:\n"
                                          "  message: 'Name? '\n"
                                          "- After\n",
                                          kFile);
    QVERIFY(parsed.ok());
    WorkbenchContext context;
    TraceModel model;
    context.setTraceModel(&model);
    BoxView view(&context);
    view.resize(800, 500);
    view.show();
    TraceFeed feed(&model);
    model.beginLiveRun(kFile);

    QSemaphore answer;
    RunOptions options;
    options.trace = true;
    options.captureScope = true;
    options.observer = &feed;
    options.readInput = [&answer](const std::string&, bool) -> std::optional<std::string> {
        answer.acquire();
        return std::string("Ada");
    };
    options.writeStdout = [](std::string_view) {
    };
    QFuture<RunResult> run = QtConcurrent::run([options, program = parsed.program]() mutable {
        Interpreter interp(std::move(options));
        return interp.run(program);
    });
    // Should a check fail while the read waits, let the run finish rather than hang the test.
    auto unblock = qScopeGuard([&] {
        if (!run.isFinished())
            answer.release();
        run.waitForFinished();
    });

    // While the read waits: the root and the first literal are boxes, the read is running.
    auto hasBox = [&](auto pred) {
        auto layout = view.boxLayout();
        if (!layout)
            return false;
        return std::any_of(layout->boxes.begin(), layout->boxes.end(), pred);
    };
    QTRY_VERIFY_WITH_TIMEOUT(
        hasBox([](const Box& b) { return b.kind == BlockKind::Read && b.has(Box::Running); }),
        5000);
    QVERIFY(hasBox([&](const Box& b) { return b.item->resultText() == QLatin1String("Before"); }));
    QVERIFY(!hasBox([&](const Box& b) { return b.item->resultText() == QLatin1String("After"); }));
    QVERIFY(!run.isFinished());

    answer.release();
    QTRY_VERIFY_WITH_TIMEOUT(run.isFinished(), 5000);
    feed.flush();
    const RunResult result = run.result();
    QVERIFY(result.ok);
    model.endLiveRun(result.trace);
    QTRY_VERIFY(!view.isLayoutPending() && hasBox([](const Box& b) {
        return b.item->resultText() == QLatin1String("After");
    }));
    QVERIFY(!hasBox([](const Box& b) { return b.has(Box::Running); }));
    QVERIFY(hasBox([](const Box& b) {
        return b.kind == BlockKind::Read && b.item->resultText() == QLatin1String("Ada");
    }));
}

void TestBoxView::ibmDemoTraces()
{
    const QDir dir(QStringLiteral(HAKO_SHARED_DIR "/data/traces"));
    const QStringList files = dir.entryList({QStringLiteral("ibm-demo*.json")}, QDir::Files);
    if (files.isEmpty())
        QSKIP("no ibm-demo traces under ../shared/data/traces");
    for (const QString& name : files) {
        auto loaded = loadTraceFile(dir.filePath(name));
        QVERIFY2(loaded.ok(), qPrintable(name));
        Fixture f(loaded.value());
        QVERIFY2(f.waitLayout(), qPrintable(name));
        auto layout = f.view->boxLayout();
        QVERIFY2(layout->boxes.size() > 1, qPrintable(name));
        QCOMPARE(layout->boxes[0].item, f.model.root());
        // Every box belongs to an item of this model, contained in its parent's box.
        for (const Box& b : layout->boxes)
            if (b.parent >= 0)
                QVERIFY(layout->boxes[b.parent].rect.contains(b.rect));
        QImage image(f.view->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
        QPainter painter(&image);
        f.view->render(painter, image.rect());
    }
}

void TestBoxView::screenshots()
{
    const QString out = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
    if (out.isEmpty())
        QSKIP("set HAKO_SCREENSHOT_DIR to write PNGs of the box view");
    QDir().mkpath(out);
    QStringList traces = {
        QStringLiteral(HAKO_SHARED_DIR "/data/traces/ibm-demo2.json"),
        QStringLiteral(HAKO_SHARED_DIR "/data/traces/ibm-demo4.json"),
        QStringLiteral(HAKO_SHARED_DIR
                       "/conformance/pdl/traces/examples/demo/11-repeat.trace.json"),
    };
    int n = 0;
    for (const QString& path : traces) {
        auto loaded = loadTraceFile(path);
        if (!loaded.ok())
            continue;
        for (bool dark : {false, true}) {
            Fixture f(loaded.value());
            if (dark) {
                QPalette p;
                p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2e));
                p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x20));
                p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
                p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
                p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xf0));
                p.setColor(QPalette::Mid, QColor(0x55, 0x55, 0x5a));
                f.view->setPalette(p);
            }
            f.view->resize(1100, 800);
            QVERIFY(f.waitLayout());
            QTest::qWait(200);
            if (f.model.root()->children.size() > 2)
                f.view->selectItem(f.model.root()->children[1].get(), false);
            const QImage shot = f.view->grab().toImage();
            const QString file = QStringLiteral("%1/boxes-%2-%3.png")
                                     .arg(out, QFileInfo(path).baseName(),
                                          dark ? QStringLiteral("dark") : QStringLiteral("light"));
            QVERIFY(shot.save(file));
            ++n;
        }
    }
    // A Hako run: a dimmed block, model output, a collapsed loop, boxes lit by the cursor.
    {
        Fixture f(runTrace("description: showcase\n"
                           "text:\n"
                           "- def: instructions\n"
                           "  contribute: [context]\n"
                           "  text:\n"
                           "  - 'You are a terse assistant.'\n"
                           "- 'Name three rivers.'\n"
                           "- model: ollama/granite3.2:2b\n"
                           "  parameters:\n"
                           "    mock_response: 'Nile, Amazon and Yangtze — the three longest.'\n"
                           "- index: i\n"
                           "  repeat:\n"
                           "    text:\n"
                           "    - 'line ${ i }: '\n"
                           "    - data: ${ i * i }\n"
                           "  maxIterations: 40\n"));
        f.view->resize(1100, 800);
        QVERIFY(f.waitLayout());
        SourceSpan cursor;
        cursor.file = kFile;
        cursor.line = 14;
        cursor.column = 8;
        f.context.setSourceCursor(cursor, nullptr);
        const QImage shot = f.view->grab().toImage();
        QVERIFY(shot.save(out + QStringLiteral("/boxes-hako-run.png")));
        f.view->verticalScrollBar()->setValue(f.view->verticalScrollBar()->maximum());
        QVERIFY(f.view->grab().toImage().save(out + QStringLiteral("/boxes-hako-run-end.png")));
    }
    QVERIFY(n > 0);
}

QTEST_MAIN(TestBoxView)
#include "tst_boxview.moc"
