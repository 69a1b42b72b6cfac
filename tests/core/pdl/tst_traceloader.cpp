// Loading trace files: intact files as the reader reads them, truncated and corrupt files
// partially with a located message, progress and cancel, the asynchronous loader with
// auto-reload, every shared trace; plus the trace helpers the panes use (source snippets,
// rebuilt source, reconstructed scope) and the value tree.
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracereader.h"
#include "core/pdl/trace/tracesource.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/pdl/trace/valuetreemodel.h"

#include <QAbstractItemModelTester>
#include <QDirIterator>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

TracePtr leaf(std::string id, std::string text, std::string def = {})
{
    auto n = std::make_shared<TraceNode>();
    n->kind = BlockKind::Data;
    n->id = std::move(id);
    n->def = std::move(def);
    n->exprs.emplace_back("data", Value(text));
    n->result = Value(std::move(text));
    n->hasResult = true;
    n->startNanos = 1000;
    n->endNanos = 2000;
    return n;
}

// text with children text.0 … text.<n-1>, each a data block "item i".
TraceLoadResult parsePrefixOrFail(const QByteArray& head)
{
    auto r = parseTracePrefix(head, QStringLiteral("big.json"));
    if (!r)
        qFatal("prefix unreadable: %s", qPrintable(r.error().message));
    return std::move(r).value();
}

TracePtr flatTrace(int n)
{
    auto root = std::make_shared<TraceNode>();
    root->kind = BlockKind::Text;
    root->id = "text";
    root->startNanos = 500;
    root->endNanos = 5000;
    std::string all;
    for (int i = 0; i < n; ++i) {
        root->addChild("text", leaf("text." + std::to_string(i), "item " + std::to_string(i)));
        all += "item " + std::to_string(i);
    }
    root->result = Value(all);
    root->hasResult = true;
    return root;
}

int countNodes(const TraceItem* item)
{
    int n = 1;
    for (const auto& c : item->children)
        n += countNodes(c.get());
    return n;
}

QString sharedDir()
{
    return QString::fromUtf8(HAKO_SHARED_DIR);
}

QStringList sharedTraces()
{
    QStringList files;
    const QString shared = sharedDir();
    for (const QString& dir : QStringList{shared + QStringLiteral("/data/traces"),
                                          shared + QStringLiteral("/conformance/pdl/traces")}) {
        QDirIterator it(dir, {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(it.next());
    }
    files.sort();
    return files;
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QSaveFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size() && f.commit();
}

} // namespace

class TestTraceLoader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void intactTraceLoadsWhole()
    {
        const QByteArray json = QByteArray::fromStdString(traceToString(*flatTrace(10)));
        auto r = parseTraceData(json, QStringLiteral("t.json"));
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QVERIFY(!r->partial);
        QCOMPARE(r->blocks, 11);
        QCOMPARE(r->root->children.front().nodes.size(), size_t(10));
        QCOMPARE(r->root->children.front().nodes[3]->result, Value("item 3"));
    }

    void truncatedTraceKeepsCompleteBlocks_data()
    {
        QTest::addColumn<QByteArray>("cutAfter"); // cut a few bytes after this text
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("complete"); // complete children expected
        QTest::newRow("inside text.5's id") << QByteArray("\"pdl__id\": \"text.5") << 0 << 5;
        QTest::newRow("inside text.5's result string")
            << QByteArray("\"pdl__result\": \"item 5") << -2 << 5;
        QTest::newRow("between text.7 and text.8")
            << QByteArray("\"pdl__id\": \"text.8\"") << -36 << 8;
        QTest::newRow("inside the root's result")
            << QByteArray("\"pdl__result\": \"item 0item") << 0 << 10;
    }

    void truncatedTraceKeepsCompleteBlocks()
    {
        QFETCH(QByteArray, cutAfter);
        QFETCH(int, offset);
        QFETCH(int, complete);
        const QByteArray json = QByteArray::fromStdString(traceToString(*flatTrace(10)));
        const qsizetype at = json.indexOf(cutAfter);
        QVERIFY(at > 0);
        const QByteArray cut = json.left(at + cutAfter.size() + offset);
        auto r = parseTraceData(cut, QStringLiteral("/tmp/cut.json"));
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QVERIFY(r->partial);
        QVERIFY(r->truncated);
        // The root is incomplete: it is kept, marked, with what it contained.
        QVERIFY(r->root->error.find("ends inside") != std::string::npos);
        QCOMPARE(r->root->id, std::string("text"));
        TraceModel model;
        model.setTrace(r->root);
        int intact = 0;
        for (const auto& c : model.root()->children) {
            if (c->failed())
                continue;
            QCOMPARE(c->node.result,
                     Value("item " + std::to_string(intact))); // in order, nothing skipped
            ++intact;
        }
        QCOMPARE(intact, complete);
        // The message names the place: right after the last character (single-line ASCII
        // file: line 1, column = bytes + 1).
        QCOMPARE(r->problem.span.line, 1);
        QCOMPARE(r->problem.span.column, int(cut.size()) + 1);
        QVERIFY2(r->problem.message.contains(QStringLiteral("truncated")),
                 qPrintable(r->problem.message));
        QVERIFY(
            r->problem.message.contains(QStringLiteral("line 1, column %1").arg(cut.size() + 1)));
    }

    void corruptTraceIsLocated()
    {
        QByteArray json = QByteArray::fromStdString(traceToString(*flatTrace(6)));
        // Pretty-print-like line breaks so that the line number is meaningful.
        json.replace("}, {", "},\n{");
        const qsizetype at = json.indexOf("\"pdl__id\": \"text.3\"");
        json[at - 2] = '#';
        auto r = parseTraceData(json, QStringLiteral("bad.json"));
        QVERIFY(r.ok());
        QVERIFY(r->partial);
        QVERIFY(!r->truncated);
        QCOMPARE(r->problem.span.line, 4);    // text.3 starts the fourth line
        QCOMPARE(r->problem.span.column, 16); // `{"kind": "data"#`: the 16th character
        QVERIFY2(r->problem.message.contains(QStringLiteral("damaged")),
                 qPrintable(r->problem.message));
        TraceModel model;
        model.setTrace(r->root);
        // text.0 … text.2 intact; text.3, damaged after its kind, kept and marked.
        QCOMPARE(model.root()->children.size(), size_t(4));
        QVERIFY(!model.root()->children[2]->failed());
        QVERIFY(model.root()->children[3]->failed());
        QCOMPARE(model.root()->children[3]->node.kind, BlockKind::Data);
        QVERIFY(model.root()->children[3]->node.id.empty()); // damaged before its id
    }

    void unusableInputFails_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("hello") << "not a JSON trace";
        QTest::newRow("json, not a trace") << QByteArray("{\"a\": 1}") << "not a PDL trace";
        QTest::newRow("array") << QByteArray("[1, 2]") << "not a PDL trace";
        QTest::newRow("cut before kind") << QByteArray("{\"ki") << "not a PDL trace";
    }

    void unusableInputFails()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, message);
        auto r = parseTraceData(data, QStringLiteral("x.json"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(message), qPrintable(r.error().message));
    }

    // Found by fault injection: wrong-type fields aborted the reader (an uncaught nlohmann
    // type_error), a deeply nested result overflowed or aborted it, and the asynchronous loader
    // then never answered. Each file must now be a clear error or a (partial) load, on every
    // path: the reader, the replay table and the loader's signals.
    void hostileFilesFailOrLoad_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<bool>("usable");
        QTest::addColumn<QString>("note"); // in the problem (partial) or the root's error

        QTest::newRow("msg and id are numbers")
            << QByteArray("{\"kind\": \"error\", \"msg\": 5, \"pdl__id\": 5,"
                          " \"program\": {\"kind\": \"text\", \"pdl__id\": \"text\"}}")
            << true << QString();
        QTest::newRow("pdl__id is a number")
            << QByteArray("{\"kind\": \"text\", \"pdl__id\": 5, \"text\": []}") << true
            << QString();
        QTest::newRow("location and timing of the wrong types")
            << QByteArray(
                   "{\"kind\": \"text\", \"pdl__id\": \"t\", \"pdl__location\": {\"file\": 5,"
                   " \"line\": \"x\", \"column\": 1e300, \"end_line\": -4}, \"pdl__timing\":"
                   " {\"start_nanos\": \"s\", \"end_nanos\": 1e300}, \"def\": 1,"
                   " \"contribute\": [5, {}], \"pdl__is_leaf\": \"yes\"}")
            << true << QString();
        QTest::newRow("program is a number")
            << QByteArray("{\"kind\": \"error\", \"program\": 5}") << true << QString();
        QTest::newRow("kind is a number") << QByteArray("{\"kind\": 5}") << false << QString();
        QTest::newRow("result nested 1,000,000 deep")
            << QByteArray("{\"kind\": \"data\", \"pdl__id\": \"data\", \"pdl__result\": ") +
                   QByteArray(1000000, '[') + QByteArray(1000000, ']') + "}"
            << true << QStringLiteral("levels deep");
        QTest::newRow("result nested 5,000 deep")
            << QByteArray("{\"kind\": \"data\", \"pdl__id\": \"data\", \"pdl__result\": ") +
                   QByteArray(5000, '[') + QByteArray(5000, ']') + "}"
            << true << QStringLiteral("not shown");
    }

    void hostileFilesFailOrLoad()
    {
        QFETCH(QByteArray, data);
        QFETCH(bool, usable);
        QFETCH(QString, note);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hostile.json"));
        QVERIFY(writeFile(path, data));

        Result<TraceLoadResult> r = readTraceFile(path);
        QCOMPARE(r.ok(), usable);
        if (!usable) {
            QVERIFY(r.error().message.contains(QLatin1String("hostile.json")));
        } else {
            QVERIFY(r->root);
            const QString said = r->problem.message + QString::fromStdString(r->root->error);
            QVERIFY2(said.contains(note), qPrintable(said));
        }

        // The replay path wants a whole trace: a partial one is an error naming the file.
        Result<TracePtr> whole = loadTraceFile(path);
        QCOMPARE(whole.ok(), usable && !r->partial);
        if (!whole.ok())
            QVERIFY2(whole.error().message.contains(QLatin1String("hostile.json")),
                     qPrintable(whole.error().message));

        TraceModel model;
        TraceLoader loader(&model);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy failed(&loader, &TraceLoader::failed);
        loader.load(path);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size() + failed.size(), 1, 60000);
        QCOMPARE(loaded.size(), usable ? 1 : 0);
    }

    void blockWithManyKeys()
    {
        // 200,000 evaluated fields in one block: reading was quadratic in the keys of an object.
        constexpr int kKeys = 200000;
        QByteArray data = "{\"kind\": \"data\", \"pdl__id\": \"data\"";
        data.reserve(kKeys * 48);
        for (int i = 0; i < kKeys; ++i)
            data += ", \"k" + QByteArray::number(i) +
                    "\": {\"pdl__expr\": \"x\", \"pdl__result\": " + QByteArray::number(i) + "}";
        data += ", \"pdl__result\": \"last\"}";
        auto r = parseTraceData(data, QStringLiteral("keys.json"));
        QVERIFY(r.ok());
        QVERIFY(!r->partial);
        QCOMPARE(int(r->root->exprs.size()), kKeys);
        QCOMPARE(r->root->exprs.back().first, std::string("k199999"));
        QCOMPARE(r->root->exprs.back().second, Value(int64_t(kKeys - 1)));
        QCOMPARE(r->root->result, Value("last"));
    }

    void devicesAreNotTraces()
    {
        auto r = readTraceFile(QStringLiteral("/dev/zero"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("not a regular file")),
                 qPrintable(r.error().message));
    }

    void missingAndEmptyFiles()
    {
        QTemporaryDir dir;
        auto missing = readTraceFile(dir.filePath(QStringLiteral("nope.json")));
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().message.contains(QStringLiteral("cannot read")));
        const QString empty = dir.filePath(QStringLiteral("empty.json"));
        QVERIFY(writeFile(empty, {}));
        auto e = readTraceFile(empty);
        QVERIFY(!e.ok());
        QVERIFY(e.error().message.contains(QStringLiteral("empty")));
    }

    void progressAndCancel()
    {
        // About 6 MB: progress comes every megabyte, in order.
        const QByteArray json = QByteArray::fromStdString(traceToString(*flatTrace(60000)));
        QVERIFY(json.size() > 5 * 1024 * 1024);
        QList<qint64> seen;
        auto r = parseTraceData(json, QStringLiteral("big.json"), [&](qint64 done, qint64 total) {
            QCOMPARE(total, qint64(json.size()));
            seen.append(done);
        });
        QVERIFY(r.ok());
        QCOMPARE(r->blocks, 60001);
        QVERIFY(seen.size() >= 5);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QVERIFY(seen.last() <= json.size());

        CancelToken cancel;
        int calls = 0;
        auto c = parseTraceData(
            json, QStringLiteral("big.json"),
            [&](qint64, qint64) {
                ++calls;
                cancel.cancel();
            },
            cancel);
        QVERIFY(!c.ok());
        QCOMPARE(c.error().message, QStringLiteral("cancelled"));
        QCOMPARE(calls, 1);
    }

    void loaderFillsTheModel()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.json"));
        QVERIFY(writeFile(path, QByteArray::fromStdString(traceToString(*flatTrace(20)))));
        TraceModel model;
        TraceLoader loader(&model);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy progress(&loader, &TraceLoader::progress);
        loader.load(path);
        QVERIFY(loader.isLoading());
        QVERIFY(loaded.wait(10000));
        QCOMPARE(loaded.first().at(0).toString(), path);
        QCOMPARE(loaded.first().at(1).toString(), QString()); // no warning
        QCOMPARE(model.itemCount(), 21);
        QCOMPARE(model.source(), path);
        QVERIFY(!loader.isLoading());
        QVERIFY(!progress.isEmpty());
    }

    void prefixKeepsItsBlocksWithoutMarkingDamage()
    {
        const QByteArray json = QByteArray::fromStdString(traceToString(*flatTrace(400)));
        const QByteArray head = json.left(json.size() / 3);
        auto r = parsePrefixOrFail(head);
        QVERIFY(r.partial);
        QVERIFY(r.truncated);
        QVERIFY(r.problem.message.isEmpty());
        // The block the head ends in stays what it is: not an error block wrapping it.
        QCOMPARE(r.root->kind, BlockKind::Text);
        const size_t shown = r.root->children.front().nodes.size();
        QVERIFY2(shown > 50 && shown < 400, qPrintable(QString::number(shown)));
        for (size_t i = 0; i < shown; ++i)
            QVERIFY(r.root->children.front().nodes[i]->id == "text." + std::to_string(i));
        // A whole file read as a prefix is simply the trace.
        auto whole = parsePrefixOrFail(json);
        QVERIFY(!whole.partial);
        QCOMPARE(whole.blocks, 401);
    }

    void largeFileShowsItsStartFirst()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        const QByteArray json = QByteArray::fromStdString(traceToString(*flatTrace(3000)));
        QVERIFY(writeFile(path, json));
        TraceModel model;
        TraceLoader loader(&model);
        loader.setPreview(json.size() / 2, json.size() / 10);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        int shownAtPreview = -1;
        int previewBlocks = -1;
        connect(&loader, &TraceLoader::previewShown, this, [&](const QString& p, int blocks) {
            QCOMPARE(p, path);
            shownAtPreview = model.itemCount();
            previewBlocks = blocks;
        });
        loader.load(path);
        QVERIFY(loaded.wait(20000));
        QVERIFY2(shownAtPreview > 1 && shownAtPreview < 3001,
                 qPrintable(QString::number(shownAtPreview)));
        QCOMPARE(previewBlocks, shownAtPreview);
        QCOMPARE(loaded.first().at(1).toString(), QString()); // no warning: the file is intact
        QCOMPARE(model.itemCount(), 3001);

        // A small file (below the size) is not previewed.
        loader.setPreview(json.size() * 2, json.size() / 10);
        shownAtPreview = -1;
        loaded.clear();
        loader.load(path);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(shownAtPreview, -1);
    }

    void loaderShowsTruncatedFilesWithAWarning()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.json"));
        const QByteArray json = QByteArray::fromStdString(traceToString(*flatTrace(20)));
        QVERIFY(writeFile(path, json.left(json.indexOf("\"text.12\""))));
        TraceModel model;
        TraceLoader loader(&model);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        loader.load(path);
        QVERIFY(loaded.wait(10000));
        const QString warning = loaded.first().at(1).toString();
        QVERIFY2(warning.contains(QStringLiteral("cut.json is truncated")), qPrintable(warning));
        QVERIFY(loader.lastResult().partial);
        QVERIFY(model.root());
        QVERIFY(model.root()->failed());
        // text.0 … text.11 complete; text.12 was cut after its kind, so it is kept, marked.
        int intact = 0;
        for (const auto& c : model.root()->children)
            intact += c->failed() ? 0 : 1;
        QCOMPARE(intact, 12);
    }

    void loaderReportsFailureAndCancel()
    {
        TraceModel model;
        TraceLoader loader(&model);
        QSignalSpy failed(&loader, &TraceLoader::failed);
        loader.load(QStringLiteral("/nonexistent/trace.json"));
        QVERIFY(failed.wait(10000));
        QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("cannot read")));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QVERIFY(writeFile(path, QByteArray::fromStdString(traceToString(*flatTrace(50000)))));
        QSignalSpy cancelled(&loader, &TraceLoader::cancelled);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        loader.load(path);
        loader.cancel();
        QCOMPARE(cancelled.size(), 1);
        QVERIFY(!loader.isLoading());
        QCOMPARE(model.itemCount(), 0);
        // A cancelled load never reaches the model: the next file's load is the only one that
        // does, and the model holds its blocks alone.
        const QString small = dir.filePath(QStringLiteral("small.json"));
        QVERIFY(writeFile(small, QByteArray::fromStdString(traceToString(*flatTrace(3)))));
        loader.load(small);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(model.root()->children.size(), size_t(3));
    }

    void autoReloadFollowsTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("live.json"));
        QVERIFY(writeFile(path, QByteArray::fromStdString(traceToString(*flatTrace(3)))));
        TraceModel model;
        TraceLoader loader(&model);
        loader.setReloadDelay(50);
        loader.setAutoReload(true);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy reloading(&loader, &TraceLoader::reloading);
        loader.load(path);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(model.itemCount(), 4);
        // Replaced atomically (write + rename), as Hako writes traces.
        QVERIFY(writeFile(path, QByteArray::fromStdString(traceToString(*flatTrace(7)))));
        QTRY_COMPARE_WITH_TIMEOUT(model.itemCount(), 8, 10000);
        QVERIFY(reloading.size() >= 1);
        // Rewritten in place (truncate + write), as the reference interpreter does.
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray::fromStdString(traceToString(*flatTrace(2))));
        }
        QTRY_COMPARE_WITH_TIMEOUT(model.itemCount(), 3, 10000);
        // Off: changes are ignored.
        loader.setAutoReload(false);
        const int before = int(loaded.size());
        QVERIFY(writeFile(path, QByteArray::fromStdString(traceToString(*flatTrace(9)))));
        QTest::qWait(400);
        QCOMPARE(int(loaded.size()), before);
        QCOMPARE(model.itemCount(), 3);
    }

    void sharedTracesLoadLikeTheReader()
    {
        const QStringList files = sharedTraces();
        if (files.isEmpty())
            QSKIP("no shared traces (../shared/data/traces, ../shared/conformance/pdl/traces)");
        for (const QString& file : files) {
            if (!file.endsWith(QLatin1String(".json")) || file.contains(QLatin1String("LICENSE")))
                continue;
            auto plain = loadTraceFile(file);
            auto r = readTraceFile(file);
            QVERIFY2(plain.ok() == r.ok(), qPrintable(file));
            if (!r.ok())
                continue;
            QVERIFY2(!r->partial, qPrintable(file + QStringLiteral(": ") + r->problem.message));
            TraceModel a;
            a.setTrace(*plain);
            TraceModel b;
            QAbstractItemModelTester tester(&b,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
            b.setTrace(r->root, file);
            QCOMPARE(b.itemCount(), a.itemCount());
            QCOMPARE(r->blocks, a.itemCount());
            QCOMPARE(countNodes(b.root()), b.itemCount());
        }
    }

    void sourceSnippet()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.pdl"));
        QVERIFY(writeFile(path, "text:\n- one\n- model: m\n  def: x\n- three\n"));
        SourceSpan span{path, 3, 3, 4, 9};
        auto s = readSourceSnippet(span);
        QVERIFY(s.ok());
        QCOMPARE(s->first, QStringLiteral("- model: m\n  def: x"));
        QCOMPARE(s->second, 3);
        auto ctx = readSourceSnippet(span, {}, 1);
        QCOMPARE(ctx->second, 2);
        QCOMPARE(ctx->first.count(QLatin1Char('\n')), 3);
        QVERIFY(!readSourceSnippet(SourceSpan{path, 40, 1, 40, 2}).ok());
        QVERIFY(!readSourceSnippet(SourceSpan{}).ok());
    }

    void reconstructedSourceAndScope()
    {
        // text(defs: greeting) → [data def=name "World", model def=answer, data]
        auto root = std::make_shared<TraceNode>();
        root->kind = BlockKind::Text;
        root->id = "text";
        auto greeting = leaf("text.defs.greeting.data", "Hi");
        root->defs.emplace_back("greeting", greeting);
        root->addChild("text", leaf("text.0", "World", "name"));
        auto model = std::make_shared<TraceNode>();
        model->kind = BlockKind::Model;
        model->id = "text.1.model";
        model->def = "answer";
        model->exprs.emplace_back("model", Value("ollama/granite"));
        model->result = Value("Hello!");
        model->hasResult = true;
        root->addChild("text", model);
        root->addChild("text", leaf("text.2", "tail"));
        TraceModel m;
        m.setTrace(root);
        const TraceItem* last = m.findById(QStringLiteral("text.2"));
        QVERIFY(last);
        bool rebuilt = false;
        auto scope = scopeAt(last, &rebuilt);
        QVERIFY(rebuilt);
        QCOMPARE(int(scope.size()), 3);
        QCOMPARE(scope[0].first, QStringLiteral("greeting"));
        QCOMPARE(scope[0].second, Value("Hi"));
        QCOMPARE(scope[1].first, QStringLiteral("name"));
        QCOMPARE(scope[2].first, QStringLiteral("answer"));
        QCOMPARE(scope[2].second, Value("Hello!"));
        // Before the model block only the defs and `name` exist.
        QCOMPARE(int(scopeAt(m.findById(QStringLiteral("text.1.model"))).size()), 2);
        QCOMPARE(defName(m.findById(QStringLiteral("text.defs.greeting.data"))),
                 QStringLiteral("greeting"));

        const QString yaml = reconstructSource(m.root());
        QVERIFY2(yaml.contains(QStringLiteral("defs:\n  greeting:\n    data: Hi")),
                 qPrintable(yaml));
        QVERIFY2(yaml.contains(QStringLiteral("text:\n  - def: name\n    data: World")),
                 qPrintable(yaml));
        QVERIFY2(yaml.contains(QStringLiteral("  - def: answer\n    model: ollama/granite")),
                 qPrintable(yaml));
        QVERIFY(!yaml.contains(QStringLiteral("pdl__")));
        // Bounded output for huge traces.
        TraceModel big;
        big.setTrace(flatTrace(5000));
        const QString cut = reconstructSource(big.root(), 100);
        QVERIFY(cut.count(QLatin1Char('\n')) <= 101);
        QVERIFY(cut.contains(QStringLiteral("cut")));
    }

    void duplicateIdsFindTheEnclosingBlock()
    {
        // Older reference traces (ibm-demo9) give a model's input block the model's id.
        auto model = std::make_shared<TraceNode>();
        model->kind = BlockKind::Model;
        model->id = "text.0.model";
        model->addChild("input", leaf("text.0.model", "prompt"), true);
        auto root = std::make_shared<TraceNode>();
        root->kind = BlockKind::Text;
        root->id = "text";
        root->addChild("text", model);
        TraceModel m;
        m.setTrace(root);
        QCOMPARE(m.findById(QStringLiteral("text.0.model"))->node.kind, BlockKind::Model);
    }

    void capturedScopeWins()
    {
        auto n = leaf("text", "x");
        n->scope.set("a", Value(int64_t(1)));
        n->scope.set("b", Value("two"));
        n->hasScope = true;
        TraceModel m;
        m.setTrace(n);
        bool rebuilt = true;
        auto scope = scopeAt(m.root(), &rebuilt);
        QVERIFY(!rebuilt);
        QCOMPARE(int(scope.size()), 2);
        QCOMPARE(scope[1].second, Value("two"));
    }

    void valueTreeModel()
    {
        ValueTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        Dict d;
        d.set(Value("name"), Value("Ada"));
        List many;
        for (int i = 0; i < 1200; ++i)
            many.push_back(Value(int64_t(i)));
        d.set(Value("numbers"), Value(many));
        Dict inner;
        inner.set(Value("x"), Value(1.5));
        d.set(Value("inner"), Value(inner));
        model.setValue(Value(d));
        QCOMPARE(model.rowCount(), 3);
        const QModelIndex numbers = model.index(1, 0);
        QCOMPARE(numbers.data().toString(), QStringLiteral("numbers"));
        QCOMPARE(model.index(1, ValueTreeModel::TypeColumn).data().toString(),
                 QStringLiteral("list[1200]"));
        QVERIFY(model.hasChildren(numbers));
        // Children arrive in batches.
        QCOMPARE(model.rowCount(numbers), 0);
        QVERIFY(model.canFetchMore(numbers));
        model.fetchMore(numbers);
        QCOMPARE(model.rowCount(numbers), ValueTreeModel::kBatch);
        while (model.canFetchMore(numbers))
            model.fetchMore(numbers);
        QCOMPARE(model.rowCount(numbers), 1200);
        QCOMPARE(model.index(1199, ValueTreeModel::ValueColumn, numbers).data().toString(),
                 QStringLiteral("1199"));
        QCOMPARE(model.index(7, 0, numbers).data(ValueTreeModel::PathRole).toString(),
                 QStringLiteral("numbers[7]"));
        const QModelIndex innerIdx = model.index(2, 0);
        model.fetchMore(innerIdx);
        QCOMPARE(model.index(0, 0, innerIdx).data(ValueTreeModel::PathRole).toString(),
                 QStringLiteral("inner.x"));
        // Scalars are one row; named entries keep their order.
        model.setValue(Value("plain"), QStringLiteral("result"));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("result"));
        model.setEntries(
            {{QStringLiteral("z"), Value(int64_t(1))}, {QStringLiteral("a"), Value()}});
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("z"));
        QVERIFY(!model.canFetchMore({}));
    }

    void previewsAreBounded()
    {
        const std::string huge(10 * 1024 * 1024, 'x');
        const QString p = ValueTreeModel::preview(Value(huge), 100);
        QVERIFY(p.size() < 120);
        QVERIFY(p.endsWith(QStringLiteral("…\"")));
        QCOMPARE(ValueTreeModel::preview(Value("two\nlines")), QStringLiteral("\"two…\""));
        List l(100000, Value(int64_t(7)));
        QVERIFY(ValueTreeModel::preview(Value(l), 50).size() < 70);
        QCOMPARE(ValueTreeModel::typeLabel(Value(huge)), QStringLiteral("str (10240 KB)"));
    }
};

QTEST_GUILESS_MAIN(TestTraceLoader)
#include "tst_traceloader.moc"
