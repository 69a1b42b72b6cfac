// The trace tree, timeline, detail and variables panes over one WorkbenchContext: every shared
// trace opens into the model and the panes; selection moves between panes through the context;
// a model node's detail lists the messages it sent with links to their blocks; huge results
// are cut; variables come from the run's captured scope or are rebuilt from a trace file.
// With HAKO_SCREENSHOT_DIR set, `screenshots` saves a PNG of each pane there.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/trace/tracefeed.h"
#include "core/pdl/trace/tracefilterproxy.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracereader.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/pdl/trace/valuetreemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/messagebar.h"
#include "widgets/trace/nodedetailview.h"
#include "widgets/trace/timelinecanvas.h"
#include "widgets/trace/traceloadbar.h"
#include "widgets/trace/tracepanestyle.h"
#include "widgets/trace/tracetimelineview.h"
#include "widgets/trace/tracetreeview.h"
#include "widgets/trace/variablesview.h"

#include <QComboBox>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSaveFile>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QtConcurrent/QtConcurrentRun>

using namespace hako;
using namespace hako::pdl;

namespace {

const char* kProgram = R"(description: Panes demo
defs:
  name:
    data: World
text:
- def: greeting
  text: "Hello, ${ name }!\n"
- model: demo/model
  def: answer
  parameters:
    mock_response: "Hi there"
- "\n"
- for:
    i: [1, 2, 3]
  repeat:
    text: "${ i * 10 } "
- if: ${ name == "World" }
  then: "yes"
  else: "no"
)";

QStringList sharedTraces()
{
    QStringList files;
    const QString shared = QString::fromUtf8(HAKO_SHARED_DIR);
    for (const QString& dir : QStringList{shared + QStringLiteral("/data/traces"),
                                          shared + QStringLiteral("/conformance/pdl/traces")}) {
        QDirIterator it(dir, {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(it.next());
    }
    files.sort();
    return files;
}

QString sharedFile(const QString& relative)
{
    const QString path = QString::fromUtf8(HAKO_SHARED_DIR) + QLatin1Char('/') + relative;
    return QFileInfo::exists(path) ? path : QString();
}

void collect(const TraceItem* item, std::vector<const TraceItem*>& out)
{
    out.push_back(item);
    for (const auto& c : item->children)
        collect(c.get(), out);
}

// The four panes on one context, as the main window docks them.
struct Panes {
    WorkbenchContext context;
    TraceModel model;
    QWidget window;
    TraceTreeView* tree;
    TraceTimelineView* timeline;
    NodeDetailView* detail;
    VariablesView* variables;

    Panes()
    {
        context.setTraceModel(&model);
        auto* split = new QSplitter(&window);
        tree = new TraceTreeView(&context, split);
        timeline = new TraceTimelineView(&context, split);
        detail = new NodeDetailView(&context, split);
        variables = new VariablesView(&context, split);
        window.resize(1400, 600);
        split->resize(window.size());
    }

    // Runs kProgram live through a TraceFeed, as the workbench does.
    bool runProgram(const QString& dir)
    {
        const QString path = dir + QStringLiteral("/demo.pdl");
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return false;
        f.write(kProgram);
        if (!f.commit())
            return false;
        context.setCurrentProgram(path);
        TraceFeed feed(&model);
        model.beginLiveRun(path);
        RunOptions options;
        options.trace = true;
        options.captureScope = true;
        options.observer = &feed;
        options.writeStdout = [](std::string_view) {
        };
        auto future = QtConcurrent::run([options, path] {
            Interpreter interp(options);
            return interp.runFile(path);
        });
        while (!future.isFinished())
            QTest::qWait(5);
        RunResult result = future.result();
        feed.flush();
        model.endLiveRun(result.trace);
        if (!result.ok)
            qWarning() << result.error.message;
        return result.ok;
    }
};

} // namespace

class TestTracePanes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void openEverySharedTrace()
    {
        const QStringList files = sharedTraces();
        if (files.isEmpty())
            QSKIP("no shared traces (../shared/data/traces, ../shared/conformance/pdl/traces)");
        Panes p;
        p.window.show();
        int opened = 0;
        for (const QString& file : files) {
            auto r = readTraceFile(file);
            if (!r.ok())
                continue; // not a trace (licence files are .txt; none expected here)
            p.model.setTrace(r->root, file);
            ++opened;
            std::vector<const TraceItem*> items;
            collect(p.model.root(), items);
            // A spread of nodes (the 3 MB demo has thousands): each pane follows.
            const size_t step = std::max<size_t>(1, items.size() / 25);
            for (size_t i = 0; i < items.size(); i += step) {
                const TraceItem* item = items[i];
                const QString id = QString::fromStdString(item->node.id);
                if (id.isEmpty() || p.model.findById(id) != item)
                    continue;
                p.context.setCurrentNode(id);
                QCOMPARE(p.tree->selectedId(), id);
                QCOMPARE(p.timeline->canvas()->selectedItem(),
                         item->node.startNanos > 0 ? item : p.timeline->canvas()->selectedItem());
                QCOMPARE(p.detail->nodeId(), id);
                QVERIFY(!p.detail->summary()->toPlainText().isEmpty());
                QVERIFY(!p.detail->jsonText()->toPlainText().isEmpty());
                QVERIFY(!p.detail->sourceText()->toPlainText().isEmpty());
                QCOMPARE(p.variables->nodeId(), id);
            }
            // Painting every pane over the whole trace works.
            QVERIFY(!p.window.grab().isNull());
        }
        QVERIFY(opened > 0);
        if (QFileInfo::exists(sharedFile(QStringLiteral("data/traces/ibm-demo1.json"))))
            QVERIFY(opened >= 9);
    }

    void ibmDemosHaveTimelinesAndRebuiltSource()
    {
        Panes p;
        int found = 0;
        for (int i = 1; i <= 9; ++i) {
            const QString file = sharedFile(QStringLiteral("data/traces/ibm-demo%1.json").arg(i));
            if (file.isEmpty())
                continue;
            ++found;
            auto r = readTraceFile(file);
            QVERIFY2(r.ok(), qPrintable(file));
            p.model.setTrace(r->root, file);
            // One bar per node that carries pdl__timing (most do; some leaves have none).
            std::vector<const TraceItem*> items;
            collect(p.model.root(), items);
            const auto timed = std::count_if(items.begin(), items.end(), [](const TraceItem* i) {
                return i->node.startNanos > 0;
            });
            QVERIFY(timed > 0);
            QCOMPARE(p.timeline->canvas()->barCount(), int(timed));
            // No locations in these traces: the detail rebuilds the source from the trace.
            p.context.setCurrentNode(QString::fromStdString(p.model.root()->node.id));
            QVERIFY(p.detail->isSourceReconstructed());
            QVERIFY(!p.detail->sourceText()->toPlainText().contains(QStringLiteral("pdl__")));
        }
        if (!found)
            QSKIP("no ibm-demo traces in ../shared/data/traces");
    }

    void selectionMovesThroughTheContext()
    {
        QTemporaryDir dir;
        Panes p;
        p.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.window));
        QVERIFY(p.runProgram(dir.path()));
        const TraceItem* model = nullptr;
        std::vector<const TraceItem*> items;
        collect(p.model.root(), items);
        for (const TraceItem* item : items)
            if (item->node.kind == BlockKind::Model)
                model = item;
        QVERIFY(model);
        const QString modelId = QString::fromStdString(model->node.id);

        // Tree → context → the other panes.
        QSignalSpy changed(&p.context, &WorkbenchContext::currentNodeChanged);
        const QModelIndex proxyIndex = p.tree->filterProxy()->mapFromSource(p.model.indexOf(model));
        QVERIFY(proxyIndex.isValid());
        p.tree->treeView()->setCurrentIndex(proxyIndex);
        QCOMPARE(p.context.currentNode(), modelId);
        QCOMPARE(changed.last().at(1).value<QObject*>(), p.tree);
        QCOMPARE(p.timeline->canvas()->selectedItem(), model);
        QCOMPARE(p.detail->nodeId(), modelId);
        QCOMPARE(p.variables->nodeId(), modelId);

        // Timeline click → context → tree.
        const TraceItem* first = p.model.root()->children.front().get(); // defs: name
        p.timeline->canvas()->setRowMode(TimelineCanvas::RowMode::TreeOrder);
        p.timeline->canvas()->fit();
        const QRect bar = p.timeline->canvas()->barRect(first);
        QVERIFY(!bar.isNull());
        QCOMPARE(p.timeline->canvas()->itemAt(bar.center()), first);
        QTest::mouseClick(p.timeline->canvas()->viewport(), Qt::LeftButton, {}, bar.center());
        QCOMPARE(p.context.currentNode(), QString::fromStdString(first->node.id));
        QCOMPARE(p.tree->selectedId(), QString::fromStdString(first->node.id));
        QCOMPARE(p.detail->nodeId(), QString::fromStdString(first->node.id));

        // Every bar wide enough to aim at is found where it is drawn, in both row modes.
        for (auto mode : {TimelineCanvas::RowMode::Depth, TimelineCanvas::RowMode::TreeOrder}) {
            p.timeline->canvas()->setRowMode(mode);
            p.timeline->canvas()->fit();
            std::vector<const TraceItem*> all;
            collect(p.model.root(), all);
            int hits = 0;
            for (const TraceItem* item : all) {
                const QRect r = p.timeline->canvas()->barRect(item);
                if (r.isNull() || r.width() < 8)
                    continue;
                QCOMPARE(p.timeline->canvas()->itemAt(r.center()), item);
                ++hits;
            }
            QVERIFY2(hits >= 3, qPrintable(QString::number(hits)));
        }

        // Context (e.g. the box view) → every pane.
        p.context.setCurrentNode(modelId, this);
        QCOMPARE(p.tree->selectedId(), modelId);
        QCOMPARE(p.timeline->canvas()->selectedItem(), model);

        // The tree's search narrows to model blocks and keeps the selection.
        p.tree->setFilterText(QStringLiteral("kind:model"));
        QCOMPARE(p.tree->filterProxy()->kinds(), QSet<QString>{QStringLiteral("model")});
        QCOMPARE(p.tree->selectedId(), modelId);
        p.tree->setFilterText(QStringLiteral("no such block anywhere"));
        QCOMPARE(p.tree->filterProxy()->rowCount(), 0);
        p.tree->setFilterText({});
        QCOMPARE(p.tree->filterProxy()->rowCount(), 1);
    }

    void modelDetailListsMessagesWithDefsiteLinks()
    {
        QTemporaryDir dir;
        Panes p;
        QVERIFY(p.runProgram(dir.path()));
        std::vector<const TraceItem*> items;
        collect(p.model.root(), items);
        const TraceItem* model = nullptr;
        const TraceItem* greeting = nullptr;
        for (const TraceItem* item : items) {
            if (item->node.kind == BlockKind::Model)
                model = item;
            if (item->node.def == "greeting")
                greeting = item;
        }
        QVERIFY(model && greeting);
        p.context.setCurrentNode(QString::fromStdString(model->node.id));
        // One message: the greeting, contributed by the `greeting` block.
        const QStringList defsites = p.detail->messageDefsites();
        QCOMPARE(defsites.size(), 1);
        const TraceItem* site = p.model.findById(defsites.front());
        QVERIFY2(site, qPrintable(defsites.front()));
        // The defsite is the greeting block or a block inside it.
        bool inside = false;
        for (const TraceItem* a = site; a; a = a->parent)
            inside = inside || a == greeting;
        QVERIFY(inside);
        const QString summary = p.detail->summary()->toPlainText();
        QVERIFY2(summary.contains(QStringLiteral("Hello, World!")), qPrintable(summary));
        QVERIFY(summary.contains(QStringLiteral("demo/model")));
        QVERIFY(p.detail->summary()->toHtml().contains(QStringLiteral("node:")));
        // Following the link selects the block and asks the editor to show its source.
        QSignalSpy reveal(&p.context, &WorkbenchContext::revealSourceRequested);
        p.detail->activateLink(QUrl(QStringLiteral("node:") + defsites.front()));
        QCOMPARE(p.context.currentNode(), defsites.front());
        QCOMPARE(reveal.size(), 1);
        const auto span = reveal.first().at(0).value<SourceSpan>();
        QCOMPARE(span.line, site->node.span.line);
        QVERIFY(span.line >= 6 && span.line <= 7); // the greeting's lines in kProgram
        // Live runs have locations: the Source tab shows the program's lines.
        p.context.setCurrentNode(QString::fromStdString(model->node.id));
        QVERIFY(!p.detail->isSourceReconstructed());
        QVERIFY2(
            p.detail->sourceText()->toPlainText().contains(QStringLiteral("model: demo/model")),
            qPrintable(p.detail->sourceText()->toPlainText()));
    }

    void referenceTraceMessagesAndRebuiltScope()
    {
        const QString file = sharedFile(QStringLiteral("data/traces/reference-demo.trace.json"));
        if (file.isEmpty())
            QSKIP("no ../shared/data/traces/reference-demo.trace.json");
        Panes p;
        auto r = readTraceFile(file);
        QVERIFY(r.ok());
        p.model.setTrace(r->root, file);
        p.context.setCurrentNode(QStringLiteral("text.1.model"));
        QCOMPARE(p.detail->messageDefsites(), QStringList{QStringLiteral("text.0.data")});
        p.detail->activateLink(QUrl(QStringLiteral("node:text.0.data")));
        QCOMPARE(p.context.currentNode(), QStringLiteral("text.0.data"));
        // reference-demo.pdl: defs name = World and square; the model block is `answer`.
        // After it (the "\n" block, text.2) all three are in scope, rebuilt from the trace.
        const TraceItem* after = p.model.root()->children.back().get();
        p.context.setCurrentNode(QString::fromStdString(after->node.id));
        QVERIFY(p.variables->isReconstructed());
        QStringList names;
        auto* vm = p.variables->variablesModel();
        for (int i = 0; i < vm->rowCount(); ++i)
            names.append(vm->index(i, 0).data().toString());
        QVERIFY2(names.contains(QStringLiteral("name")), qPrintable(names.join(',')));
        QVERIFY2(names.contains(QStringLiteral("answer")), qPrintable(names.join(',')));
        const int nameRow = int(names.indexOf(QStringLiteral("name")));
        QCOMPARE(vm->index(nameRow, ValueTreeModel::ValueColumn).data().toString(),
                 QStringLiteral("\"World\""));
    }

    void capturedScopeInVariables()
    {
        QTemporaryDir dir;
        Panes p;
        QVERIFY(p.runProgram(dir.path()));
        std::vector<const TraceItem*> items;
        collect(p.model.root(), items);
        const TraceItem* model = nullptr;
        for (const TraceItem* item : items)
            if (item->node.kind == BlockKind::Model)
                model = item;
        QVERIFY(model && model->node.hasScope);
        p.context.setCurrentNode(QString::fromStdString(model->node.id));
        QVERIFY(!p.variables->isReconstructed());
        QStringList names;
        auto* vm = p.variables->variablesModel();
        for (int i = 0; i < vm->rowCount(); ++i)
            names.append(vm->index(i, 0).data().toString());
        QVERIFY2(names.contains(QStringLiteral("name")), qPrintable(names.join(',')));
        QVERIFY2(names.contains(QStringLiteral("greeting")), qPrintable(names.join(',')));
    }

    void hugeResultIsCut()
    {
        auto root = std::make_shared<TraceNode>();
        root->kind = BlockKind::Text;
        root->id = "text";
        auto big = std::make_shared<TraceNode>();
        big->kind = BlockKind::Data;
        big->id = "text.0";
        std::string text;
        text.reserve(10 * 1024 * 1024);
        while (text.size() < 10 * 1024 * 1024)
            text += "A long line of model output that goes on and on. ";
        big->result = Value(text);
        big->hasResult = true;
        root->addChild("text", big);
        root->result = Value(text);
        root->hasResult = true;
        Panes p;
        p.window.show();
        p.model.setTrace(root);
        p.context.setCurrentNode(QStringLiteral("text.0"));
        QVERIFY(p.detail->isResultElided());
        QVERIFY(p.detail->resultText()->toPlainText().size() <= NodeDetailView::kElideBytes);
        QVERIFY(p.detail->summary()->toPlainText().size() < 100000);
        QVERIFY(p.detail->jsonText()->toPlainText().size() < 100000);
        QVERIFY(!p.window.grab().isNull());
        QWidget* full = p.detail->openResultInFull();
        QVERIFY(full);
        auto* view = full->findChild<QPlainTextEdit*>();
        QVERIFY(view);
        // All of it, broken into display lines of at most 4,000 characters.
        QVERIFY(view->document()->characterCount() >= int(text.size()));
        full->close();
    }

    void truncatedFileShowsWhatItCan()
    {
        QTemporaryDir dir;
        Panes p;
        QVERIFY(p.runProgram(dir.path()));
        const QString tracePath = dir.filePath(QStringLiteral("run.json"));
        // Write a run's trace (Hako's writer), then cut it in half.
        QFile src(tracePath);
        RunOptions options;
        options.trace = true;
        options.writeStdout = [](std::string_view) {
        };
        Interpreter interp(options);
        RunResult rr = interp.runFile(dir.filePath(QStringLiteral("demo.pdl")));
        QVERIFY(rr.ok && rr.trace);
        QString error;
        QVERIFY(writeTraceFile(*rr.trace, tracePath, &error));
        QVERIFY(src.open(QIODevice::ReadOnly));
        const QByteArray all = src.readAll();
        src.close();
        {
            QSaveFile cut(tracePath);
            QVERIFY(cut.open(QIODevice::WriteOnly));
            cut.write(all.left(all.size() / 2));
            QVERIFY(cut.commit());
        }
        TraceLoader loader(&p.model);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        loader.load(tracePath);
        QVERIFY(loaded.wait(10000));
        QVERIFY(loaded.first().at(1).toString().contains(QStringLiteral("truncated")));
        QVERIFY(p.model.root() && p.model.root()->failed());
        p.context.setCurrentNode(QString::fromStdString(p.model.root()->node.id));
        QVERIFY(p.detail->summary()->toPlainText().contains(QStringLiteral("ends inside")));
        QVERIFY(p.timeline->canvas()->barCount() >= 1);
    }

    void loadBarShowsProgressProblemsAndCancel()
    {
        QTemporaryDir dir;
        auto root = std::make_shared<TraceNode>();
        root->kind = BlockKind::Text;
        root->id = "text";
        for (int i = 0; i < 40000; ++i) {
            auto n = std::make_shared<TraceNode>();
            n->kind = BlockKind::Data;
            n->id = "text." + std::to_string(i);
            n->result = Value("item " + std::to_string(i));
            n->hasResult = true;
            root->addChild("text", n);
        }
        const QString path = dir.filePath(QStringLiteral("t.json"));
        QString error;
        QVERIFY(writeTraceFile(*root, path, &error));
        TraceModel model;
        TraceLoader loader(&model);
        QWidget host;
        auto& bar = *new TraceLoadBar(&loader, &host);
        host.show();
        QSignalSpy loaded(&loader, &TraceLoader::loaded);

        // Cancel while loading: the bar says so, the model keeps what it had (nothing).
        loader.load(path);
        QVERIFY(bar.isVisible());
        QVERIFY(bar.progressBar()->isVisible());
        bar.cancelButton()->click();
        QVERIFY(!loader.isLoading());
        QVERIFY(bar.messageBar()->text().contains(QStringLiteral("cancelled")));
        QCOMPARE(model.itemCount(), 0);

        // An intact file: the bar goes away.
        loader.load(path);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(model.itemCount(), 40001);
        QVERIFY(!bar.isVisible());

        // A truncated one: a warning that says what is shown.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray all = f.readAll();
        f.close();
        const QString cut = dir.filePath(QStringLiteral("cut.json"));
        QFile c(cut);
        QVERIFY(c.open(QIODevice::WriteOnly));
        c.write(all.left(all.size() / 3));
        c.close();
        loader.load(cut);
        QVERIFY(loaded.wait(20000));
        QVERIFY(bar.isVisible());
        QCOMPARE(bar.messageBar()->kind(), MessageBar::Kind::Warning);
        QVERIFY2(bar.messageBar()->text().contains(QStringLiteral("truncated")),
                 qPrintable(bar.messageBar()->text()));
        QVERIFY(model.itemCount() > 1000 && model.itemCount() < 40001);

        // A missing file: an error, the model unchanged.
        QSignalSpy failed(&loader, &TraceLoader::failed);
        const int before = model.itemCount();
        loader.load(dir.filePath(QStringLiteral("missing.json")));
        QVERIFY(failed.wait(10000));
        QCOMPARE(bar.messageBar()->kind(), MessageBar::Kind::Error);
        QCOMPARE(model.itemCount(), before);
    }

    void screenshots()
    {
        const QString out = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (out.isEmpty())
            QSKIP("set HAKO_SCREENSHOT_DIR to save pane screenshots");
        QTemporaryDir dir;
        Panes p;
        p.window.show();
        QVERIFY(p.runProgram(dir.path()));
        std::vector<const TraceItem*> items;
        collect(p.model.root(), items);
        for (const TraceItem* item : items)
            if (item->node.kind == BlockKind::Model)
                p.context.setCurrentNode(QString::fromStdString(item->node.id));
        p.tree->treeView()->expandAll();
        auto shoot = [&](QWidget* w, const QString& name, QSize size = {700, 450}) {
            w->setParent(nullptr);
            w->resize(size);
            w->show();
            QTest::qWait(100);
            QVERIFY(w->grab().save(out + QLatin1Char('/') + name));
        };
        shoot(p.tree, QStringLiteral("tree.png"));
        shoot(p.timeline, QStringLiteral("timeline.png"), {900, 320});
        shoot(p.detail, QStringLiteral("detail-summary.png"), {700, 650});
        p.detail->tabs()->setCurrentIndex(NodeDetailView::SourceTab);
        shoot(p.detail, QStringLiteral("detail-source.png"), {700, 400});
        p.detail->tabs()->setCurrentIndex(NodeDetailView::JsonTab);
        shoot(p.detail, QStringLiteral("detail-json.png"), {700, 500});
        shoot(p.variables, QStringLiteral("variables.png"), {500, 300});
        const QString demo = sharedFile(QStringLiteral("data/traces/ibm-demo9.json"));
        if (!demo.isEmpty()) {
            auto r = readTraceFile(demo);
            QVERIFY(r.ok());
            p.model.setTrace(r->root, demo);
            p.timeline->rowModeBox()->setCurrentIndex(1);
            shoot(p.timeline, QStringLiteral("timeline-demo9.png"), {1000, 360});
            p.tree->setFilterText(QStringLiteral("kind:model"));
            shoot(p.tree, QStringLiteral("tree-demo9-filter.png"));
            std::vector<const TraceItem*> all;
            collect(p.model.root(), all);
            for (const TraceItem* item : all)
                if (item->node.kind == BlockKind::Model) {
                    p.context.setCurrentNode(QString::fromStdString(item->node.id));
                    break;
                }
            p.detail->tabs()->setCurrentIndex(NodeDetailView::SummaryTab);
            shoot(p.detail, QStringLiteral("detail-demo9-model.png"), {700, 700});
            p.detail->tabs()->setCurrentIndex(NodeDetailView::SourceTab);
            shoot(p.detail, QStringLiteral("detail-demo9-source.png"), {700, 500});
            p.detail->tabs()->setCurrentIndex(NodeDetailView::ResultTab);
            shoot(p.detail, QStringLiteral("detail-demo9-result.png"), {700, 400});
            shoot(p.variables, QStringLiteral("variables-demo9.png"), {500, 300});
        }
    }

    // A tree filter stays on across runs: after a new run the model blocks are found again and
    // counted ("1 of N blocks"), and loop iterations are numbered `#N` as in the boxes.
    void treeFilterFollowsNewRunsAndCounts()
    {
        QTemporaryDir dir;
        Panes p;
        p.window.show();
        p.tree->setFilterText(QStringLiteral("kind:model"));
        for (int run = 0; run < 2; ++run) {
            p.model.clear();
            QVERIFY(p.runProgram(dir.path()));
            const int blocks = p.model.itemCount();
            QVERIFY(blocks > 5);
            QTRY_VERIFY2(p.tree->statusLabel()->text().startsWith(
                             QStringLiteral("1 of %1 blocks").arg(blocks)),
                         qPrintable(p.tree->statusLabel()->text()));
            // The hit is shown (expanded to), not only counted.
            QAbstractItemModel* shown = p.tree->treeView()->model();
            QModelIndex hit = shown->index(0, 0);
            while (hit.isValid() && shown->rowCount(hit) > 0) {
                QVERIFY(p.tree->treeView()->isExpanded(hit));
                hit = shown->index(0, 0, hit);
            }
            QCOMPARE(hit.data(TraceModel::KindRole).toString(), QStringLiteral("model"));
        }
        p.tree->setFilterText(QString());
        QVERIFY(p.tree->statusLabel()->isHidden());
        std::vector<const TraceItem*> items;
        collect(p.model.root(), items);
        QStringList numbered;
        for (const TraceItem* item : items)
            if (iterationNumber(item) > 0)
                numbered << rowLabel(item);
        QCOMPARE(numbered, (QStringList{QStringLiteral("#1  text"), QStringLiteral("#2  text"),
                                        QStringLiteral("#3  text")}));
    }
};

QTEST_MAIN(TestTracePanes)
#include "tst_tracepanes.moc"
