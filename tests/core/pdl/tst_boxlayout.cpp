// The nested-box layout of a trace: containment, iteration boxes, collapsed loops with their
// expander, dimmed blocks, text wrapping and elision, toggles, hit-testing and the visible-box
// query, checked on traces of real runs.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/boxlayout.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracereader.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QTest>

using namespace hako;
using namespace hako::pdl;

namespace {

// Runs `program` with tracing and loads the trace into `model`.
bool runInto(TraceModel& model, const QByteArray& program)
{
    ParseResult parsed = parseProgramText(program, QStringLiteral("t.pdl"));
    if (!parsed.ok()) {
        for (const auto& d : parsed.diagnostics)
            qWarning() << d.toString();
        return false;
    }
    RunOptions options;
    options.trace = true;
    Interpreter interp(std::move(options));
    RunResult r = interp.run(parsed.program);
    if (!r.ok)
        qWarning() << r.error.message;
    model.setTrace(r.trace, QStringLiteral("t.pdl"));
    return r.ok && model.root();
}

std::vector<int> iterationBoxes(const BoxLayout& layout, int loop)
{
    std::vector<int> out;
    for (int c : layout.children(loop))
        if (layout.boxes[c].item->field != "defs" || layout.boxes[c].has(Box::Expander))
            out.push_back(c);
    return out;
}

int findBox(const BoxLayout& layout, BlockKind kind, int after = -1)
{
    for (int i = after + 1; i < int(layout.boxes.size()); ++i)
        if (layout.boxes[i].kind == kind && !layout.boxes[i].has(Box::Expander))
            return i;
    return -1;
}

// The deepest box containing p, by brute force.
int innermost(const BoxLayout& layout, QPointF p)
{
    int best = -1;
    for (int i = 0; i < int(layout.boxes.size()); ++i)
        if (layout.boxes[i].rect.contains(p) &&
            (best < 0 || layout.boxes[i].depth > layout.boxes[best].depth))
            best = i;
    return best;
}

const QByteArray kNested = "description: nested\n"
                           "text:\n"
                           "- Hello\n"
                           "- def: name\n"
                           "  text:\n"
                           "  - data: World\n"
                           "  - lastOf:\n"
                           "    - '!'\n"
                           "    - '?'\n"
                           "- for:\n"
                           "    i: [1, 2, 3]\n"
                           "  repeat: '${ i }'\n";

} // namespace

class TestBoxLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void emptyTrace();
    void nestingAndContainment();
    void iterationBoxes_();
    void longLoopCollapses();
    void expanderFoundForHiddenItem();
    void longBlockCollapses();
    void dimmedBlocks();
    void modelOutputFlagged();
    void longTextElided();
    void toggles();
    void hitTesting();
    void visibleQueryMatchesBruteForce();
    void thousandIterations();
    void referenceLoopTrace();
    void deepNestingKeepsWidth();
    void wrapText_data();
    void wrapText();
};

void TestBoxLayout::emptyTrace()
{
    const BoxLayout layout = layoutTrace(nullptr, {});
    QVERIFY(layout.isEmpty());
    QCOMPARE(layout.boxAt({1, 1}), -1);
    QVERIFY(layout.boxesIn(QRectF(0, 0, 100, 100)).empty());
}

void TestBoxLayout::nestingAndContainment()
{
    TraceModel model;
    QVERIFY(runInto(model, kNested));
    BoxLayoutParams params;
    const BoxLayout layout = layoutTrace(model.root(), params);
    // Every trace node has a box (nothing is collapsed in so small a trace).
    QCOMPARE(int(layout.boxes.size()), model.itemCount());
    QCOMPARE(layout.boxes[0].item, model.root());
    QCOMPARE(layout.size, layout.boxes[0].rect.size());
    QCOMPARE(layout.boxes[0].rect.width(), params.width);
    double lastTop = -1;
    for (int i = 0; i < int(layout.boxes.size()); ++i) {
        const Box& b = layout.boxes[i];
        QVERIFY2(b.rect.top() >= lastTop, "pre-order is ascending top edge");
        lastTop = b.rect.top();
        QVERIFY(b.rect.width() > 0 && b.rect.height() > 0);
        QCOMPARE(layout.indexOf(b.item), i);
        if (b.parent >= 0) {
            const Box& p = layout.boxes[b.parent];
            QVERIFY2(p.rect.contains(b.rect), qPrintable(b.label));
            QCOMPARE(b.depth, p.depth + 1);
            QCOMPARE(b.item->parent, p.item);
        }
        // Siblings stack downwards without overlapping.
        const auto kids = layout.children(i);
        for (size_t k = 1; k < kids.size(); ++k)
            QVERIFY(layout.boxes[kids[k - 1]].rect.bottom() <= layout.boxes[kids[k]].rect.top());
        QCOMPARE(int(kids.size()), int(b.item->children.size()));
    }
    // The def name labels its box; other boxes carry the kind.
    const int named = findBox(layout, BlockKind::Text, 0);
    QVERIFY(named > 0);
    QCOMPARE(layout.boxes[named].label, QStringLiteral("name"));
    QCOMPARE(layout.boxes[0].label, QStringLiteral("text"));
    // Leaves carry their result text; the first literal says Hello.
    const int hello = layout.children(0)[0];
    QCOMPARE(layout.boxes[hello].lineCount, 1);
    QCOMPARE(layout.lineText(layout.boxes[hello], 0).toString(), QStringLiteral("Hello"));
    // Blocks with children show them, not their text.
    QCOMPARE(layout.boxes[0].lineCount, 0);
    QVERIFY(layout.boxes[0].has(Box::HasChildren));
}

void TestBoxLayout::iterationBoxes_()
{
    TraceModel model;
    QVERIFY(runInto(model, kNested));
    const BoxLayout layout = layoutTrace(model.root(), {});
    const int loop = findBox(layout, BlockKind::Repeat);
    QVERIFY(loop > 0);
    QVERIFY(layout.boxes[loop].has(Box::Loop));
    const auto kids = iterationBoxes(layout, loop);
    QCOMPARE(int(kids.size()), 3);
    for (int k = 0; k < 3; ++k) {
        const Box& b = layout.boxes[kids[k]];
        QVERIFY(b.has(Box::Iteration));
        QCOMPARE(b.iteration, k + 1);
        QCOMPARE(layout.lineText(b, 0).toString(), QString::number(k + 1));
    }
}

void TestBoxLayout::longLoopCollapses()
{
    TraceModel model;
    QVERIFY(runInto(model, "defs:\n  n: 0\nrepeat:\n  def: n\n  data: ${ n + 1 }\n"
                           "maxIterations: 100\n"));
    BoxLayoutParams params;
    params.collapseAbove = 20;
    params.loopHead = 10;
    params.loopTail = 3;
    BoxLayout layout = layoutTrace(model.root(), params);
    int loop = findBox(layout, BlockKind::Repeat);
    QVERIFY(loop >= 0);
    auto kids = iterationBoxes(layout, loop);
    QCOMPARE(int(kids.size()), 10 + 1 + 3);
    const Box& expander = layout.boxes[kids[10]];
    QVERIFY(expander.has(Box::Expander));
    QCOMPARE(expander.hidden, 87);
    QCOMPARE(expander.item, layout.boxes[loop].item);
    QCOMPARE(layout.indexOf(expander.item), loop); // the loop, not the expander
    QCOMPARE(layout.boxes[kids[9]].iteration, 10);
    QCOMPARE(layout.boxes[kids[11]].iteration, 98);
    QCOMPARE(layout.boxes[kids[13]].iteration, 100);
    QCOMPARE(layout.lineText(layout.boxes[kids[13]], 0).toString(), QStringLiteral("100"));

    // Expanded: every iteration, in order.
    params.expandedBlocks.insert(layout.boxes[loop].item);
    layout = layoutTrace(model.root(), params);
    loop = findBox(layout, BlockKind::Repeat);
    kids = iterationBoxes(layout, loop);
    QCOMPARE(int(kids.size()), 100);
    for (int k = 0; k < 100; ++k)
        QCOMPARE(layout.boxes[kids[k]].iteration, k + 1);

    // A loop at the threshold stays open.
    params.expandedBlocks.clear();
    params.collapseAbove = 100;
    layout = layoutTrace(model.root(), params);
    QCOMPARE(int(iterationBoxes(layout, findBox(layout, BlockKind::Repeat)).size()), 100);
}

void TestBoxLayout::expanderFoundForHiddenItem()
{
    TraceModel model;
    QVERIFY(runInto(model, "repeat:\n  text:\n  - a\n  - b\nmaxIterations: 50\n"));
    const BoxLayout layout = layoutTrace(model.root(), {});
    const int loop = findBox(layout, BlockKind::Repeat);
    const TraceItem* loopItem = layout.boxes[loop].item;
    // Iteration 20's inner literal is hidden behind the expander.
    const TraceItem* hidden = loopItem->children[19]->children[0].get();
    QCOMPARE(layout.indexOf(hidden), -1);
    const int e = layout.expanderHiding(hidden);
    QVERIFY(e >= 0);
    QVERIFY(layout.boxes[e].has(Box::Expander));
    // A shown item is hidden by nothing.
    const TraceItem* shown = loopItem->children[0]->children[0].get();
    QVERIFY(layout.indexOf(shown) >= 0);
    QCOMPARE(layout.expanderHiding(shown), -1);
}

// A block with hundreds of children (a session's calls, a span's children) draws the first
// and the last around an expander; one picked in the tree is drawn among them.
void TestBoxLayout::longBlockCollapses()
{
    QByteArray program = "text:\n";
    for (int i = 0; i < 500; ++i)
        program += "- 'line " + QByteArray::number(i) + "'\n";
    TraceModel model;
    QVERIFY(runInto(model, program));
    BoxLayoutParams params;
    BoxLayout layout = layoutTrace(model.root(), params);
    QCOMPARE(int(layout.children(0).size()), 100 + 1 + 20);
    const Box& expander = layout.boxes[layout.children(0)[100]];
    QVERIFY(expander.has(Box::Expander) && expander.has(Box::Children));
    QCOMPARE(expander.hidden, 380);
    QCOMPARE(expander.item, model.root());
    QCOMPARE(layout.lineText(layout.boxes[layout.children(0)[99]], 0).toString(),
             QStringLiteral("line 99"));
    QCOMPARE(layout.lineText(layout.boxes[layout.children(0)[101]], 0).toString(),
             QStringLiteral("line 480"));
    const TraceItem* picked = model.root()->children[250].get();
    QCOMPARE(layout.indexOf(picked), -1);
    QCOMPARE(layout.expanderHiding(picked), layout.children(0)[100]);
    QCOMPARE(layout.drawnAndHidden(), std::pair(121, 380));

    // Picked: drawn between two expanders, the rest still hidden.
    params.revealed.insert(picked);
    layout = layoutTrace(model.root(), params);
    auto kids = layout.children(0);
    QCOMPARE(int(kids.size()), 100 + 1 + 1 + 1 + 20);
    QCOMPARE(layout.boxes[kids[100]].hidden, 150);
    QCOMPARE(layout.boxes[kids[101]].item, picked);
    QCOMPARE(layout.boxes[kids[102]].hidden, 229);
    QVERIFY(layout.indexOf(picked) >= 0);

    // Its expander clicked: the next ones drawn, the picked one still among them.
    params.childrenShown.insert(model.root(), 300);
    layout = layoutTrace(model.root(), params);
    kids = layout.children(0);
    QCOMPARE(int(kids.size()), 300 + 1 + 20);
    QCOMPARE(layout.boxes[kids[300]].hidden, 180);
    QCOMPARE(layout.boxes[kids[250]].item, picked);
    params.childrenShown.insert(model.root(), 480);
    QCOMPARE(int(layoutTrace(model.root(), params).children(0).size()), 500); // nothing hidden

    // Expanded: all 500; a block at the threshold stays open.
    params.expandedBlocks.insert(model.root());
    QCOMPARE(int(layoutTrace(model.root(), params).children(0).size()), 500);
    params = {};
    params.collapseChildrenAbove = 500;
    QCOMPARE(int(layoutTrace(model.root(), params).children(0).size()), 500);
}

void TestBoxLayout::dimmedBlocks()
{
    TraceModel model;
    QVERIFY(runInto(model, "text:\n"
                           "- def: hidden\n"
                           "  contribute: [context]\n"
                           "  text:\n"
                           "  - secret\n"
                           "- shown\n"));
    const BoxLayout layout = layoutTrace(model.root(), {});
    const auto top = layout.children(0);
    QCOMPARE(int(top.size()), 2);
    const Box& hidden = layout.boxes[top[0]];
    QCOMPARE(hidden.label, QStringLiteral("hidden"));
    QVERIFY(hidden.has(Box::Dimmed));
    // What lies inside a dimmed block is dimmed with it.
    for (int c : layout.children(top[0]))
        QVERIFY(layout.boxes[c].has(Box::Dimmed));
    QVERIFY(!layout.boxes[top[1]].has(Box::Dimmed));
    QVERIFY(!layout.boxes[0].has(Box::Dimmed));
}

void TestBoxLayout::modelOutputFlagged()
{
    TraceModel model;
    QVERIFY(runInto(model, "text:\n"
                           "- Say hi\n"
                           "- model: test/model\n"
                           "  parameters:\n"
                           "    mock_response: Hi there\n"));
    const BoxLayout layout = layoutTrace(model.root(), {});
    const int m = findBox(layout, BlockKind::Model);
    QVERIFY(m > 0);
    QVERIFY(layout.boxes[m].has(Box::ModelOutput));
    QCOMPARE(layout.lineText(layout.boxes[m], layout.boxes[m].lineCount - 1).toString(),
             QStringLiteral("Hi there"));
    // The label row names the model.
    QVERIFY2(layout.boxes[m].detail.contains(QLatin1String("test/model")),
             qPrintable(layout.boxes[m].detail));
    // The literal beside it is not model output.
    QVERIFY(!layout.boxes[layout.children(0)[0]].has(Box::ModelOutput));
}

void TestBoxLayout::longTextElided()
{
    TraceModel model;
    // 10 MB in one node.
    QVERIFY(runInto(model, "lastOf:\n- def: s\n  data: 'abcdefghij '\n"
                           "- ${ s * 1000000 }\n"));
    BoxLayoutParams params;
    params.maxTextLines = 4;
    const BoxLayout layout = layoutTrace(model.root(), params);
    const Box& big = layout.boxes[layout.children(0)[1]];
    QVERIFY(big.has(Box::Elided));
    QCOMPARE(big.lineCount, 4);
    QVERIFY(layout.texts[big.textIndex].size() <= params.maxTextChars);
    // The full text is still there for whoever asks the item.
    QCOMPARE(big.item->resultText().size(), qsizetype(11000000));
    // A short result is not elided.
    const Box& small = layout.boxes[layout.children(0)[0]];
    QVERIFY(!small.has(Box::Elided));
}

void TestBoxLayout::toggles()
{
    TraceModel model;
    QVERIFY(runInto(model, kNested));
    BoxLayoutParams params;
    const BoxLayout before = layoutTrace(model.root(), params);
    const int named = findBox(before, BlockKind::Text, 0);
    const int leaf = before.children(0)[0];
    params.toggled.insert(before.boxes[named].item);
    params.toggled.insert(before.boxes[leaf].item);
    const BoxLayout after = layoutTrace(model.root(), params);
    const Box& rendered = after.boxes[after.indexOf(before.boxes[named].item)];
    QVERIFY(rendered.has(Box::Rendered));
    QVERIFY(after.children(after.indexOf(rendered.item)).empty());
    QCOMPARE(after.lineText(rendered, 0).toString(), QStringLiteral("World?"));
    const Box& collapsed = after.boxes[after.indexOf(before.boxes[leaf].item)];
    QVERIFY(collapsed.has(Box::Collapsed));
    QCOMPARE(collapsed.lineCount, 0);
    QVERIFY(collapsed.rect.height() < before.boxes[leaf].rect.height());
    QCOMPARE(int(after.boxes.size()), int(before.boxes.size()) - 4);
}

void TestBoxLayout::hitTesting()
{
    TraceModel model;
    QVERIFY(runInto(model, kNested));
    const BoxLayout layout = layoutTrace(model.root(), {});
    // Just inside each box's top-left corner lies that box and none of its children.
    for (int i = 0; i < int(layout.boxes.size()); ++i) {
        const QPointF p = layout.boxes[i].rect.topLeft() + QPointF(1, 1);
        QCOMPARE(layout.boxAt(p), i);
    }
    QCOMPARE(layout.boxAt({-1, 5}), -1);
    QCOMPARE(layout.boxAt({5, layout.size.height() + 1}), -1);
    // Random points agree with brute force.
    QRandomGenerator rng(7);
    for (int k = 0; k < 2000; ++k) {
        const QPointF p(rng.bounded(layout.size.width()), rng.bounded(layout.size.height()));
        QCOMPARE(layout.boxAt(p), innermost(layout, p));
    }
}

void TestBoxLayout::visibleQueryMatchesBruteForce()
{
    TraceModel model;
    QVERIFY(runInto(model, "repeat:\n  text:\n  - a\n  - lastOf: [b, c]\nmaxIterations: 30\n"));
    BoxLayoutParams params;
    params.collapseAbove = 1000;
    const BoxLayout layout = layoutTrace(model.root(), params);
    QRandomGenerator rng(11);
    for (int k = 0; k < 200; ++k) {
        const QRectF r(rng.bounded(layout.size.width()), rng.bounded(layout.size.height()),
                       rng.bounded(300.0), rng.bounded(400.0));
        std::vector<int> expected;
        for (int i = 0; i < int(layout.boxes.size()); ++i)
            if (layout.boxes[i].rect.intersects(r))
                expected.push_back(i);
        std::vector<int> got = layout.boxesIn(r);
        // Paint order: a parent comes before its children.
        for (size_t j = 0; j < got.size(); ++j)
            if (layout.boxes[got[j]].parent >= 0)
                QVERIFY(std::find(got.begin(), got.begin() + j, layout.boxes[got[j]].parent) !=
                        got.begin() + j);
        std::sort(got.begin(), got.end());
        QCOMPARE(got, expected);
    }
    // Boxes under the minimum size are skipped together with what they contain.
    const double leafHeight = 2 * params.padding + params.headerHeight + params.lineHeight;
    const std::vector<int> big = layout.boxesIn(QRectF(QPointF(0, 0), layout.size), leafHeight + 1);
    for (int i : big)
        QVERIFY(layout.boxes[i].rect.height() >= leafHeight + 1);
    QVERIFY(big.size() < layout.boxes.size());
}

void TestBoxLayout::thousandIterations()
{
    TraceModel model;
    QVERIFY(runInto(model, "index: i\nrepeat:\n  text:\n  - 'item ${ i }'\n"
                           "maxIterations: 1000\n"));
    BoxLayoutParams params;
    BoxLayout layout = layoutTrace(model.root(), params);
    int loop = findBox(layout, BlockKind::Repeat);
    // Collapsed: head + expander + tail, each iteration a text box with its literal.
    QCOMPARE(int(layout.children(loop).size()), params.loopHead + 1 + params.loopTail);
    QVERIFY(int(layout.boxes.size()) < 100);
    const Box& lastIteration = layout.boxes[layout.children(loop).back()];
    QCOMPARE(lastIteration.iteration, 1000);
    QCOMPARE(
        layout.lineText(layout.boxes[layout.children(layout.indexOf(lastIteration.item))[0]], 0)
            .toString(),
        QStringLiteral("item 999"));

    params.expandedBlocks.insert(layout.boxes[loop].item);
    layout = layoutTrace(model.root(), params);
    loop = findBox(layout, BlockKind::Repeat);
    QCOMPARE(int(layout.children(loop).size()), 1000);
    QCOMPARE(int(layout.boxes.size()), model.itemCount());
    // Every point of the last iteration hits inside it.
    const Box& last = layout.boxes[layout.children(loop).back()];
    QCOMPARE(layout.boxAt(last.rect.topLeft() + QPointF(2, 2)), layout.children(loop).back());
    QVERIFY(layout.boxes[0].rect.contains(last.rect));
}

void TestBoxLayout::referenceLoopTrace()
{
    const QString path = QStringLiteral(
        HAKO_SHARED_DIR "/conformance/pdl/traces/examples/demo/11-repeat.trace.json");
    if (!QFileInfo::exists(path))
        QSKIP("the conformance traces under ../shared are absent");
    auto loaded = loadTraceFile(path);
    QVERIFY(loaded.ok());
    TraceModel model;
    model.setTrace(loaded.value(), path);
    const BoxLayout layout = layoutTrace(model.root(), {});
    QCOMPARE(layout.boxes[0].kind, BlockKind::Repeat);
    // Four executed iterations (Bob, Carol, David, Ernest), numbered; the loop body as written
    // in the program (`repeat`) is not drawn beside them.
    QStringList iterations;
    for (int c : layout.children(0)) {
        const Box& b = layout.boxes[c];
        QVERIFY(b.item->field != "repeat");
        if (b.has(Box::Iteration)) {
            QCOMPARE(b.iteration, iterations.size() + 1);
            iterations << layout.lineText(layout.boxes[layout.children(c)[0]], 0).toString();
        } else {
            QCOMPARE(b.detail.section(QLatin1Char(' '), 0, 0),
                     QString::fromStdString(b.item->field));
        }
    }
    QCOMPARE(iterations, (QStringList{"Bob's number is 1", "Carol's number is 2",
                                      "David's number is 3", "Ernest's number is 4"}));
}

void TestBoxLayout::deepNestingKeepsWidth()
{
    // 60 nested text blocks: the layout widens so the innermost keeps a usable width.
    QByteArray program = "text:\n";
    for (int i = 1; i < 60; ++i)
        program += QByteArray(2 * (i - 1), ' ') + "- text:\n";
    program += QByteArray(2 * 59, ' ') + "- deep\n";
    TraceModel model;
    QVERIFY(runInto(model, program));
    BoxLayoutParams params;
    params.width = 400;
    const BoxLayout layout = layoutTrace(model.root(), params);
    const Box& deepest = layout.boxes.back();
    QCOMPARE(deepest.depth, 60);
    QVERIFY(deepest.rect.width() >= params.minInnerWidth);
    QVERIFY(layout.size.width() > params.width);
    QCOMPARE(layout.lineText(deepest, 0).toString(), QStringLiteral("deep"));
}

void TestBoxLayout::wrapText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("columns");
    QTest::addColumn<int>("maxLines");
    QTest::addColumn<QStringList>("lines");
    QTest::addColumn<bool>("elided");
    QTest::newRow("fits") << "hello" << 10 << 5 << QStringList{"hello"} << false;
    QTest::newRow("word wrap") << "hello world again" << 11 << 5
                               << QStringList{"hello ", "world again"} << false;
    QTest::newRow("long word broken")
        << "abcdefghij" << 4 << 5 << QStringList{"abcd", "efgh", "ij"} << false;
    QTest::newRow("newlines") << "a\n\nb\n" << 10 << 5 << QStringList{"a", "", "b"} << false;
    QTest::newRow("crlf") << "a\r\nb" << 10 << 5 << QStringList{"a", "b"} << false;
    QTest::newRow("elided") << "1\n2\n3\n4" << 10 << 2 << QStringList{"1", "2"} << true;
    QTest::newRow("trailing newline not elided") << "1\n2\n"
                                                 << 10 << 2 << QStringList{"1", "2"} << false;
    // Wide characters take two columns: four fit in eight.
    QTest::newRow("cjk") << QString::fromUtf8("天の川の停車場") << 8 << 5
                         << QStringList{QString::fromUtf8("天の川の"), QString::fromUtf8("停車場")}
                         << false;
    QTest::newRow("empty") << "" << 10 << 5 << QStringList{} << false;
}

void TestBoxLayout::wrapText()
{
    QFETCH(QString, text);
    QFETCH(int, columns);
    QFETCH(int, maxLines);
    QFETCH(QStringList, lines);
    QFETCH(bool, elided);
    bool gotElided = !elided;
    const auto got = hako::pdl::wrapText(text, columns * 7.0, 7.0, maxLines, &gotElided);
    QStringList gotLines;
    for (const TextLine& l : got)
        gotLines << text.mid(l.start, l.length);
    QCOMPARE(gotLines, lines);
    QCOMPARE(gotElided, elided);
}

QTEST_GUILESS_MAIN(TestBoxLayout)
#include "tst_boxlayout.moc"
