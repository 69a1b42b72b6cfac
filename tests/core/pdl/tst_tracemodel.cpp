// The workbench's trace model: loaded traces (Hako's and the reference's, old and new field
// names), live runs fed by the interpreter's events, and source-position lookups.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/tracefeed.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracereader.h"
#include "core/pdl/trace/tracewriter.h"

#include <QAbstractItemModelTester>
#include <QDirIterator>
#include <QFile>
#include <QRandomGenerator>
#include <nlohmann/json.hpp>

#include <QFuture>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtConcurrent>
#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

QString sharedDir()
{
    return QStringLiteral(HAKO_SHARED_DIR);
}

// "kind(label)[child child]" — a compact picture of a tree's shape.
QString shape(const TraceItem* item)
{
    QString s = QString::fromLatin1(blockKindName(item->node.kind));
    if (!item->children.empty()) {
        s += QLatin1Char('[');
        for (size_t i = 0; i < item->children.size(); ++i) {
            if (i)
                s += QLatin1Char(' ');
            s += shape(item->children[i].get());
        }
        s += QLatin1Char(']');
    }
    return s;
}

int countNodes(const TraceNode& n)
{
    int c = 1;
    for (const auto& d : n.defs)
        if (d.second)
            c += countNodes(*d.second);
    for (const auto& g : n.children)
        for (const auto& x : g.nodes)
            if (x)
                c += countNodes(*x);
    return c;
}

int countRows(const QAbstractItemModel& m, const QModelIndex& parent = {})
{
    int c = 0;
    for (int r = 0; r < m.rowCount(parent); ++r)
        c += 1 + countRows(m, m.index(r, 0, parent));
    return c;
}

std::shared_ptr<const Program> parse(const QByteArray& text)
{
    ParseResult r = parseProgramText(text, QStringLiteral("/tmp/live.pdl"));
    return r.ok() ? r.program : nullptr;
}

// Runs `text` with a TraceFeed into `model`, processing events while it runs.
RunResult runLive(const QByteArray& text, TraceModel& model, RunOptions options = {})
{
    auto program = parse(text);
    if (!program)
        return {};
    TraceFeed feed(&model);
    model.beginLiveRun(QStringLiteral("/tmp/live.pdl"));
    options.trace = true;
    options.captureScope = true;
    options.observer = &feed;
    QFuture<RunResult> f = QtConcurrent::run([program, options] {
        Interpreter interp(options);
        return interp.run(program);
    });
    while (!f.isFinished())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    RunResult r = f.result();
    QCoreApplication::processEvents();
    feed.flush();
    model.endLiveRun(r.trace);
    return r;
}

// Every node with what a user sees of it (kind, label, id, the parent's field), in tree
// order, one per line: two trees are the same when these are equal.
QString picture(const TraceItem* item, int depth = 0)
{
    if (!item)
        return QStringLiteral("(none)");
    QString s =
        QString(depth * 2, QLatin1Char(' ')) +
        QStringLiteral("%1 %2 id=%3 field=%4\n")
            .arg(QString::fromLatin1(blockKindName(item->node.kind)), item->label(),
                 QString::fromStdString(item->node.id), QString::fromStdString(item->field));
    for (const auto& c : item->children)
        s += picture(c.get(), depth + 1);
    return s;
}

// Runs the program file `path` live into `model` (worker thread, events applied as they come)
// with `stdinText` as its input; `cancelAfterRows` > 0 stops the run once that many rows exist.
RunResult runLiveFile(const QString& path, TraceModel& model, const Dict& scope,
                      const QString& stdinText, int cancelAfterRows = 0)
{
    ParseResult parsed = parseProgram(path);
    if (!parsed.ok() || !parsed.program) {
        RunResult r;
        r.error.message = QStringLiteral("does not parse");
        return r;
    }
    TraceFeed feed(&model);
    model.beginLiveRun(path);
    RunOptions options;
    options.trace = true;
    options.observer = &feed;
    options.initialScope = scope;
    options.writeStdout = [](std::string_view) {
    };
    options.writeStderr = [](std::string_view) {
    };
    auto lines = std::make_shared<QStringList>(stdinText.split(QLatin1Char('\n')));
    options.readInput = [lines](const std::string&, bool multiline) -> std::optional<std::string> {
        if (lines->isEmpty() || (lines->size() == 1 && lines->front().isEmpty()))
            return std::nullopt;
        if (multiline) {
            const QString all = lines->join(QLatin1Char('\n'));
            lines->clear();
            return all.toStdString();
        }
        return lines->takeFirst().toStdString();
    };
    CancelToken cancel = options.cancel;
    auto program = parsed.program;
    QFuture<RunResult> f = QtConcurrent::run([program, options] {
        Interpreter interp(options);
        return interp.run(program);
    });
    while (!f.isFinished()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        if (cancelAfterRows > 0 && model.itemCount() >= cancelAfterRows)
            cancel.cancel();
    }
    RunResult r = f.result();
    QCoreApplication::processEvents();
    feed.flush();
    model.endLiveRun(r.trace);
    return r;
}

// Everything the panes read of every node, in tree order: two models show the same trace when
// these are equal.
QString details(const TraceItem* item, int depth = 0)
{
    const TraceNode& n = item->node;
    auto json = [](const Value& v) {
        return QString::fromStdString(v.toOrderedJson().dump());
    };
    QString s =
        QString(depth * 2, QLatin1Char(' ')) +
        QStringLiteral("%1 %2 id=%3 field=%4 def=%5 desc=%6 result=%7 t=%8-%9 err=%10 "
                       "out=%11/%12 score=%13 ctx=%14 in=%15 usage=%16 exprs=%17 line=%18\n")
            .arg(QString::fromLatin1(blockKindName(n.kind)), item->label(),
                 QString::fromStdString(n.id), QString::fromStdString(item->field),
                 QString::fromStdString(n.def), QString::fromStdString(n.description),
                 item->resultText())
            .arg(n.startNanos)
            .arg(n.endNanos)
            .arg(QString::fromStdString(n.error), QString::fromStdString(n.out),
                 QString::fromStdString(n.err),
                 n.score ? QString::number(*n.score) : QStringLiteral("-"), json(n.context),
                 json(n.modelInput), json(n.usage))
            .arg(n.exprs.size())
            .arg(n.span.line);
    for (const auto& c : item->children)
        s += details(c.get(), depth + 1);
    return s;
}
} // namespace

class TestTraceModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void loadsEveryConformanceTrace()
    {
        const QString dir = sharedDir() + QStringLiteral("/conformance/pdl/traces");
        if (!QFileInfo::exists(dir))
            QSKIP("../shared/conformance/pdl/traces is not here");
        int files = 0;
        QDirIterator it(dir, {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            Result<TracePtr> root = loadTraceFile(path);
            QVERIFY2(root.ok(), qPrintable(path));
            TraceModel model;
            QAbstractItemModelTester tester(&model,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
            model.setTrace(*root, path);
            QCOMPARE(model.rowCount(), 1);
            QCOMPARE(model.itemCount(), countNodes(**root));
            QCOMPARE(countRows(model), model.itemCount());
            // Every node with an id can be found, and its index leads back to it.
            const TraceItem* top = model.root();
            QVERIFY(top);
            if (!top->node.id.empty()) {
                const TraceItem* found = model.findById(QString::fromStdString(top->node.id));
                QCOMPARE(found, top);
                QCOMPARE(model.itemAt(model.indexOf(found)), found);
            }
            // The window's loader gives the model the tree it read (takeTrace): the panes show
            // exactly what a copy shows, and the given tree is gone.
            Result<TracePtr> given = loadTraceFile(path);
            QVERIFY2(given.ok(), qPrintable(path));
            TracePtr tree = std::move(given).value();
            TraceModel taken;
            QAbstractItemModelTester takenTester(
                &taken, QAbstractItemModelTester::FailureReportingMode::QtTest);
            taken.takeTrace(std::move(tree), path);
            QVERIFY(!tree);
            QCOMPARE(taken.itemCount(), model.itemCount());
            QCOMPARE(details(taken.root()), details(model.root()));
            ++files;
        }
        QVERIFY(files >= 50);
    }

    // The id index in one array finds what a multimap finds through 200,000 random inserts,
    // lookups and removals, with hashes made to collide and runs that wrap around the end.
    void idIndexAgreesWithAMultimap()
    {
        struct Item {
            int id = 0;
        };
        std::vector<Item> items(5000);
        for (int i = 0; i < int(items.size()); ++i)
            items[size_t(i)].id = i;
        ItemIndex<Item> index;
        std::unordered_multimap<size_t, Item*> oracle;
        QRandomGenerator random(48);
        // Few distinct hashes, some differing only above the table's mask.
        auto hashOf = [](const Item& item) {
            return size_t(item.id % 97) * 0x10000001ULL;
        };
        for (int step = 0; step < 200000; ++step) {
            Item& item = items[random.bounded(int(items.size()))];
            const size_t hash = hashOf(item);
            const bool there = std::any_of(oracle.begin(), oracle.end(),
                                           [&item](const auto& e) { return e.second == &item; });
            switch (random.bounded(3)) {
            case 0:
                if (!there) {
                    index.insert(hash, &item);
                    oracle.emplace(hash, &item);
                }
                break;
            case 1:
                QCOMPARE(index.erase(hash, &item), there ? &item : nullptr);
                if (there)
                    oracle.erase(std::find_if(oracle.begin(), oracle.end(), [&item](const auto& e) {
                        return e.second == &item;
                    }));
                break;
            default:
                QCOMPARE(index.find(hash, [&item](const Item* i) { return i == &item; }),
                         there ? &item : nullptr);
            }
            QCOMPARE(index.size(), oracle.size());
            if (step % 20000 == 0)
                for (const auto& [h, i] : oracle)
                    QCOMPARE(index.find(h, [i = i](const Item* x) { return x == i; }), i);
        }
    }

    void aNodeFitsTheAllocatorsSmallerSizeClass()
    {
        // A million-span trace holds a million nodes, each made with its shared_ptr count
        // (16 bytes): up to 640 bytes together the allocator (mimalloc) serves them from its
        // 640-byte class, beyond that from the 768-byte one: 128 MB more per million nodes.
        QVERIFY2(sizeof(TraceNode) + 16 <= 640, qPrintable(QString::number(sizeof(TraceNode))));
    }

    void takeLeavesNodesHeldElsewhereIntact()
    {
        // A subtree someone else still holds (a diff's other side, a run archive) is copied,
        // not emptied: that holder still reads all of it afterwards.
        auto leaf = [](const std::string& id, const std::string& text) {
            auto n = std::make_shared<TraceNode>();
            n->kind = BlockKind::Data;
            n->id = id;
            n->result = Value(text);
            n->hasResult = true;
            return n;
        };
        auto root = std::make_shared<TraceNode>();
        root->kind = BlockKind::Text;
        root->id = "text";
        auto shared = std::make_shared<TraceNode>();
        shared->kind = BlockKind::Text;
        shared->id = "text.1";
        shared->def = "答え";
        shared->addChild("text", leaf("text.1.0", "内側"));
        root->addChild("text", leaf("text.0", "一つ目"));
        root->addChild("text", shared);
        root->score = 0.25; // a factor block's score reaches the panes, copied or taken
        TraceModel model;
        model.takeTrace(std::move(root), QStringLiteral("mem"));
        QCOMPARE(model.itemCount(), 4);
        QCOMPARE(model.root()->node.score.value_or(-1), 0.25);
        const TraceItem* second = model.root()->children.at(1).get();
        QCOMPARE(second->label(), QStringLiteral("答え"));
        QCOMPARE(second->children.at(0)->resultText(), QStringLiteral("内側"));
        // What the other holder sees is unchanged.
        QCOMPARE(shared->def, std::string("答え"));
        QCOMPARE(shared->children.size(), size_t(1));
        QCOMPARE(shared->children[0].nodes.at(0)->result.toText(), std::string("内側"));
        // And a copy keeps the score too.
        auto again = std::make_shared<TraceNode>();
        again->kind = BlockKind::Text;
        again->score = 0.5;
        TraceModel copy;
        copy.setTrace(again);
        QCOMPARE(copy.root()->node.score.value_or(-1), 0.5);
        QCOMPARE(again->score.value_or(-1), 0.5);
    }

    void loadsOldReferenceTraces()
    {
        const QString dir = sharedDir() + QStringLiteral("/data/traces");
        if (!QFileInfo::exists(dir))
            QSKIP("../shared/data/traces is not here");
        for (int i = 1; i <= 9; ++i) {
            const QString path = dir + QStringLiteral("/ibm-demo%1.json").arg(i);
            if (!QFileInfo::exists(path))
                continue;
            Result<TracePtr> root = loadTraceFile(path);
            QVERIFY2(root.ok(), qPrintable(path));
            TraceModel model;
            QAbstractItemModelTester tester(&model,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
            model.setTrace(*root, path);
            QVERIFY(model.itemCount() > 1);
            // Results of the old format (`result` without the prefix) are shown.
            bool anyResult = false;
            std::vector<const TraceItem*> stack{model.root()};
            while (!stack.empty()) {
                const TraceItem* t = stack.back();
                stack.pop_back();
                anyResult = anyResult || !t->resultText().isEmpty();
                // Every model block names its model, whether recorded as an expression
                // record or (older traces) as the plain string.
                if (t->node.kind == BlockKind::Model) {
                    bool named = false;
                    for (const auto& [field, value] : t->node.exprs)
                        named = named ||
                                (field == "model" && value.isString() && !value.asString().empty());
                    QVERIFY2(named, qPrintable(path + QStringLiteral(": ") +
                                               QString::fromStdString(t->node.id)));
                }
                for (const auto& c : t->children)
                    stack.push_back(c.get());
            }
            QVERIFY2(anyResult, qPrintable(path));
        }
    }

    void liveRunBuildsTheSameTreeAsTheFinishedTrace()
    {
        const QByteArray program = "description: live\n"
                                   "text:\n"
                                   "- def: greeting\n"
                                   "  text: Hello\n"
                                   "- \"\\n\"\n"
                                   "- repeat:\n"
                                   "    text: \"${ i }\"\n"
                                   "  for:\n"
                                   "    i: [1, 2, 3]\n"
                                   "  join:\n"
                                   "    with: \",\"\n"
                                   "- if: ${ greeting == 'Hello' }\n"
                                   "  then: done\n";
        TraceModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        RunResult r = runLive(program, model);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QVERIFY(r.trace);
        QVERIFY(inserted.count() > 0);

        TraceModel loaded;
        loaded.setTrace(r.trace);
        QCOMPARE(model.itemCount(), loaded.itemCount());
        QCOMPARE(shape(model.root()), shape(loaded.root()));
        QCOMPARE(countRows(model), model.itemCount());

        // Nothing is left running; results and fields are filled in.
        const TraceItem* root = model.root();
        QCOMPARE(root->resultText(), QStringLiteral("Hello\n1,2,3done"));
        QVERIFY(!root->running);
        const TraceItem* greeting = root->children.front().get();
        QCOMPARE(greeting->label(), QStringLiteral("greeting"));
        QCOMPARE(greeting->field.str(), std::string("text"));
        // The scope captured at the `if` knows the variable defined before it.
        const TraceItem* ifItem = root->children.back().get();
        QCOMPARE(ifItem->node.kind, BlockKind::If);
        QVERIFY(ifItem->node.hasScope);
        QVERIFY(ifItem->node.scope.find("greeting"));
        // Ids match between the live and the finished tree.
        QCOMPARE(model.findById(QStringLiteral("text.2.repeat")) != nullptr,
                 loaded.findById(QStringLiteral("text.2.repeat")) != nullptr);
    }

    // What a run shows while it goes is what its trace file shows when opened: for every
    // conformance program (those that fail too), the live tree and the tree read back from the
    // written trace have the same nodes, labels, ids and fields.
    void liveTreeIsTheWrittenTree_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("input");
        const QString dir = sharedDir() + QStringLiteral("/conformance/pdl");
        QFile f(dir + QStringLiteral("/cases.json"));
        if (!f.open(QIODevice::ReadOnly)) {
            QTest::newRow("no-shared-corpus") << QString() << QString() << QString();
            return;
        }
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).array();
        for (const QJsonValue& v : cases) {
            const QJsonObject c = v.toObject();
            const QString program = c.value(QStringLiteral("program")).toString();
            const QJsonValue scope = c.value(QStringLiteral("scope"));
            QTest::newRow(qPrintable(program))
                << dir + QStringLiteral("/programs/") + program
                << (scope.isObject()
                        ? QString::fromUtf8(
                              QJsonDocument(scope.toObject()).toJson(QJsonDocument::Compact))
                        : QString())
                << c.value(QStringLiteral("stdin")).toString();
        }
    }

    void liveTreeIsTheWrittenTree()
    {
        QFETCH(QString, program);
        QFETCH(QString, scope);
        QFETCH(QString, input);
        if (program.isEmpty())
            QSKIP("../shared/conformance/pdl is not present");
        Dict vars;
        if (!scope.isEmpty())
            vars = Value::fromJson(nlohmann::ordered_json::parse(scope.toStdString())).asDict();
        TraceModel live;
        QAbstractItemModelTester tester(&live,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunResult r = runLiveFile(program, live, vars, input);
        if (!r.trace)
            QSKIP(qPrintable(QStringLiteral("no trace: %1").arg(r.error.message)));
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("run_trace.json"));
        QString error;
        QVERIFY2(writeTraceFile(*r.trace, file, &error), qPrintable(error));
        Result<TracePtr> read = loadTraceFile(file);
        QVERIFY2(read.ok(), qPrintable(read.ok() ? QString() : read.error().message));
        TraceModel written;
        written.setTrace(*read, file);
        QCOMPARE(live.rowCount(), 1); // one root: nothing of the run hangs outside it
        QCOMPARE(picture(live.root()), picture(written.root()));
        QCOMPARE(live.itemCount(), written.itemCount());
    }

    // The body of a called function is the call block's child, live as in the trace (it used
    // to be a second top-level row, and the call's box stayed empty).
    void calledFunctionBodyIsUnderTheCall()
    {
        const QByteArray program = "defs:\n"
                                   "  greet:\n"
                                   "    function:\n"
                                   "      name: string\n"
                                   "    return:\n"
                                   "      text: Hello ${ name }\n"
                                   "text:\n"
                                   "- call: ${ greet }\n"
                                   "  args:\n"
                                   "    name: Ana\n"
                                   "- ${ greet('Bo') }\n";
        TraceModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunResult r = runLive(program, model);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(model.rowCount(), 1);
        const TraceItem* call = nullptr;
        std::vector<const TraceItem*> stack{model.root()};
        while (!stack.empty()) {
            const TraceItem* t = stack.back();
            stack.pop_back();
            if (t->node.kind == BlockKind::Call)
                call = t;
            for (const auto& c : t->children)
                stack.push_back(c.get());
        }
        QVERIFY(call);
        QCOMPARE(int(call->children.size()), 1);
        QCOMPARE(call->children.front()->resultText(), QStringLiteral("Hello Ana"));
        TraceModel finished;
        finished.setTrace(r.trace);
        QCOMPARE(picture(model.root()), picture(finished.root()));
    }

    // A retried block shows only its last attempt's children, as the trace keeps them.
    void retriedBlockShowsItsLastAttempt()
    {
        const QByteArray program = "text:\n"
                                   "- text:\n"
                                   "  - first\n"
                                   "  - ${ 1 / 0 }\n"
                                   "  retry: 2\n"
                                   "  fallback: recovered\n";
        TraceModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunResult r = runLive(program, model);
        QVERIFY(r.trace);
        TraceModel finished;
        finished.setTrace(r.trace);
        QCOMPARE(picture(model.root()), picture(finished.root()));
        QCOMPARE(model.itemCount(), finished.itemCount());
        // Every block is found by its id, in the live model as in the loaded one; the retried
        // block also by the id it had before it was retried.
        auto ids = [](const TraceItem* root) {
            std::vector<std::string> out;
            std::vector<const TraceItem*> stack{root};
            while (!stack.empty()) {
                const TraceItem* t = stack.back();
                stack.pop_back();
                out.push_back(t->node.id);
                for (const auto& c : t->children)
                    stack.push_back(c.get());
            }
            return out;
        };
        for (const std::string& id : ids(finished.root())) {
            const TraceItem* live = model.findById(QString::fromStdString(id));
            QVERIFY2(live, id.c_str());
            QCOMPARE(live->node.id, id);
            QCOMPARE(finished.findById(QString::fromStdString(id))->node.id, id);
        }
        const TraceItem* retried = model.findById(QStringLiteral("text.0.text.retry2"));
        QVERIFY(retried);
        QCOMPARE(model.findById(QStringLiteral("text.0.text")), retried);
        QCOMPARE(model.findById(QStringLiteral("text.0.text.retry1")), retried);
        QVERIFY(!model.findById(QStringLiteral("text.0.text.retry3")));
    }

    // Stopping a run leaves no block "running": the unfinished ones end as cancelled.
    void stoppedRunLeavesNothingRunning()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("loop.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text:\n"
                "- repeat:\n"
                "    text: \"${ i }\"\n"
                "  for:\n"
                "    i: ${ range(1000000) }\n");
        f.close();
        TraceModel model;
        RunResult r = runLiveFile(path, model, {}, {}, 50);
        QVERIFY(!r.ok);
        QVERIFY(model.itemCount() >= 50);
        int cancelled = 0;
        std::vector<const TraceItem*> stack{model.root()};
        while (!stack.empty()) {
            const TraceItem* t = stack.back();
            stack.pop_back();
            QVERIFY2(!t->running, qPrintable(QString::fromStdString(t->node.id)));
            QVERIFY(!model.data(model.indexOf(t), TraceModel::RunningRole).toBool());
            if (t->cancelled) {
                ++cancelled;
                QCOMPARE(model.data(model.indexOf(t, TraceModel::DurationColumn)).toString(),
                         QStringLiteral("stopped"));
            }
            for (const auto& c : t->children)
                stack.push_back(c.get());
        }
        QVERIFY(cancelled >= 2); // at least the root and the loop
    }

    void liveRowsAppearBeforeTheRunEnds()
    {
        // The run waits for input in the middle: the blocks before the read must be rows by then.
        const QByteArray program = "text:\n"
                                   "- def: first\n"
                                   "  text: before\n"
                                   "- read:\n"
                                   "  message: \"? \"\n"
                                   "- after\n";
        auto parsed = parse(program);
        QVERIFY(parsed);
        TraceModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        TraceFeed feed(&model);
        model.beginLiveRun(QStringLiteral("/tmp/live.pdl"));
        QSemaphore asked, answered;
        RunOptions options;
        options.trace = true;
        options.observer = &feed;
        options.writeStdout = [](std::string_view) {
        };
        options.readInput = [&](const std::string&, bool) -> std::optional<std::string> {
            asked.release();
            answered.acquire();
            return std::string("typed");
        };
        QFuture<RunResult> f = QtConcurrent::run([parsed, options] {
            Interpreter interp(options);
            return interp.run(parsed);
        });
        QTRY_VERIFY(asked.available() == 1 || f.isFinished());
        QTRY_VERIFY(model.findById(QStringLiteral("text.0.text")) != nullptr &&
                    model.indexOf(model.findById(QStringLiteral("text.0.text"))).isValid());
        const TraceItem* first = model.findById(QStringLiteral("text.0.text"));
        QCOMPARE(first->resultText(), QStringLiteral("before"));
        QVERIFY(model.root()->running);
        QVERIFY(!f.isFinished());
        asked.acquire();
        answered.release();
        while (!f.isFinished())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        RunResult r = f.result();
        QVERIFY(r.ok);
        QCoreApplication::processEvents();
        feed.flush();
        model.endLiveRun(r.trace);
        QVERIFY(!model.root()->running);
        QCOMPARE(model.root()->resultText(), QStringLiteral("beforetypedafter"));
    }

    void itemsAtSourceFindsEveryIteration()
    {
        const QByteArray program = "lastOf:\n"
                                   "- repeat:\n"
                                   "    text: \"${ i }\"\n"
                                   "  for:\n"
                                   "    i: [1, 2, 3, 4]\n";
        TraceModel model;
        RunResult r = runLive(program, model);
        QVERIFY(r.ok);
        // Line 3 holds the loop body: one box per iteration.
        std::vector<const TraceItem*> hits =
            model.itemsAtSource(QStringLiteral("/tmp/live.pdl"), 3, 12);
        QCOMPARE(int(hits.size()), 4);
        QStringList results;
        for (const TraceItem* h : hits)
            results << h->resultText();
        QCOMPARE(results, (QStringList{"1", "2", "3", "4"}));
        // Line 4 (`for:`) belongs to the repeat block itself.
        hits = model.itemsAtSource(QStringLiteral("/tmp/live.pdl"), 4, 3);
        QCOMPARE(int(hits.size()), 1);
        QCOMPARE(hits.front()->node.kind, BlockKind::Repeat);
        // Another file matches nothing.
        QVERIFY(model.itemsAtSource(QStringLiteral("/tmp/other.pdl"), 3, 12).empty());
    }

    void failedBlockIsMarked()
    {
        TraceModel model;
        RunResult r = runLive("text:\n- ok\n- ${ 1 / 0 }\n", model);
        QVERIFY(!r.ok);
        bool failed = false;
        std::vector<const TraceItem*> stack{model.root()};
        while (!stack.empty()) {
            const TraceItem* t = stack.back();
            stack.pop_back();
            if (t->failed()) {
                failed = true;
                QVERIFY(model.data(model.indexOf(t), TraceModel::FailedRole).toBool());
                QVERIFY(!t->resultText().isEmpty());
            }
            for (const auto& c : t->children)
                stack.push_back(c.get());
        }
        QVERIFY(failed);
    }

    void listsShowTheirCharacters()
    {
        // The program prints a list as JSON with \uXXXX escapes (as the reference does); the
        // trace shows the characters a Japanese author wrote.
        TraceModel model;
        RunResult r = runLive("lastOf:\n- def: labels\n  data: [褒め言葉, 苦情]\n"
                              "- data:\n    ラベル: ${ labels }\n",
                              model);
        QVERIFY(r.ok);
        QVERIFY(QString::fromStdString(r.result.toText()).contains(QLatin1String("\\u82e6")));
        QStringList shown;
        std::vector<const TraceItem*> stack{model.root()};
        while (!stack.empty()) {
            const TraceItem* t = stack.back();
            stack.pop_back();
            shown << t->resultText();
            for (const auto& c : t->children)
                stack.push_back(c.get());
        }
        QVERIFY(shown.contains(QStringLiteral("[\"褒め言葉\",\"苦情\"]")));
        QVERIFY(shown.contains(QStringLiteral("{\"ラベル\":[\"褒め言葉\",\"苦情\"]}")));
        for (const QString& s : shown)
            QVERIFY2(!s.contains(QLatin1String("\\u")), qPrintable(s));
    }
};

QTEST_GUILESS_MAIN(TestTraceModel)
#include "tst_tracemodel.moc"
