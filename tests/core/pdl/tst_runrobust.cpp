// The interpreter against runaway programs and missing or broken files, and the aggregator and
// context-streaming semantics: what a user sees when a program recurses forever, includes a file
// that is not there or not text, or sends its output to an aggregator.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

// Writes `files` (name → content) into `dir` and runs the first one.
RunResult runFiles(const QTemporaryDir& dir, const QList<QPair<QString, QByteArray>>& files,
                   RunOptions options = {})
{
    for (const auto& [name, content] : files) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(f.fileName()));
        f.write(content);
    }
    Interpreter interp(std::move(options));
    return interp.runFile(dir.filePath(files.front().first));
}

RunResult runOne(const QTemporaryDir& dir, const QByteArray& program, RunOptions options = {})
{
    return runFiles(dir, {{QStringLiteral("main.pdl"), program}}, std::move(options));
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

} // namespace

class TestRunRobust : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // --- recursion -------------------------------------------------------------------------

    void mutualRecursionThroughExpressionsStops()
    {
        // even/odd calling each other from `${ }` expressions, never reaching the base case.
        // (A closure sees the scope it was defined in, so the functions come in as arguments.)
        QTemporaryDir dir;
        RunOptions o;
        o.maxCallDepth = 40;
        const QByteArray program = "defs:\n"
                                   "  even:\n"
                                   "    function: {ev: null, od: null, n: integer}\n"
                                   "    return: ${ od(ev, od, n + 1) }\n"
                                   "  odd:\n"
                                   "    function: {ev: null, od: null, n: integer}\n"
                                   "    return: ${ ev(ev, od, n + 1) }\n"
                                   "text: ${ even(even, odd, 0) }\n";
        RunResult r = runOne(dir, program, o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("nested deeper than 40")),
                 qPrintable(r.error.message));
        QCOMPARE(r.error.span.file, dir.filePath(QStringLiteral("main.pdl")));
        QVERIFY(r.error.span.line > 0);
    }

    void mutualRecursionWithABaseCaseRuns()
    {
        // The same functions with a base case, 150 calls deep: well within the default limit.
        QTemporaryDir dir;
        const QByteArray program = "defs:\n"
                                   "  even:\n"
                                   "    function: {ev: null, od: null, n: integer}\n"
                                   "    return: \"${ true if n == 0 else od(ev, od, n - 1) }\"\n"
                                   "  odd:\n"
                                   "    function: {ev: null, od: null, n: integer}\n"
                                   "    return: \"${ false if n == 0 else ev(ev, od, n - 1) }\"\n"
                                   "text: ${ even(even, odd, 150) } ${ odd(even, odd, 150) }\n";
        RunResult r = runOne(dir, program);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.toText()), QStringLiteral("True False"));
    }

    void callBlockRecursionStops()
    {
        QTemporaryDir dir;
        RunOptions o;
        o.maxCallDepth = 30;
        const QByteArray program = "defs:\n"
                                   "  f:\n"
                                   "    function: {self: null, n: integer}\n"
                                   "    return:\n"
                                   "      call: ${ self }\n"
                                   "      args: {self: \"${ self }\", n: \"${ n + 1 }\"}\n"
                                   "call: ${ f }\n"
                                   "args: {self: \"${ f }\", n: 0}\n";
        RunResult r = runOne(dir, program, o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("nested deeper than 30")),
                 qPrintable(r.error.message));
        QCOMPARE(r.error.span.line, 5); // the inner call
    }

    void hugeCallLimitCannotOverflowTheStack()
    {
        // With the limit raised far beyond what the stack holds, the run must still end in an
        // error, not a crash: the stack guard stops it.
        QTemporaryDir dir;
        RunOptions o;
        o.maxCallDepth = 100000000;
        const QByteArray program = "defs:\n"
                                   "  f:\n"
                                   "    function: {self: null, n: integer}\n"
                                   "    return: ${ self(self, n + 1) }\n"
                                   "text: ${ f(f, 0) }\n";
        RunResult r = runOne(dir, program, o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("too deeply")),
                 qPrintable(r.error.message));
    }

    void deepRecursionOnASmallThreadStack()
    {
        // A worker thread with a 1 MB stack (smaller than the main thread's) running a deep
        // recursion under the default limit: an error, not a crash.
        QTemporaryDir dir;
        RunResult r;
        QThread* t = QThread::create([&] {
            r = runOne(dir, "defs:\n  f:\n    function: {self: null, n: integer}\n"
                            "    return: ${ self(self, n + 1) }\ntext: ${ f(f, 0) }\n");
        });
        t->setStackSize(1024 * 1024);
        t->start();
        QVERIFY(t->wait(60000));
        delete t;
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("too deeply")) ||
                     r.error.message.contains(QLatin1String("nested deeper")),
                 qPrintable(r.error.message));
    }

    void deeplyNestedValuesDoNotCrash()
    {
        // A loop wraps a list in a list 100,000 times. Dropping it must not overflow the stack;
        // printing it is an error (Python's RecursionError), not a crash.
        QTemporaryDir dir;
        const QByteArray build = "defs:\n  x: 0\nlastOf:\n- repeat:\n    defs:\n      x: ${ [x] }\n"
                                 "    text: ''\n  maxIterations: 100000\n";
        RunResult r = runOne(dir, build + "- done\n");
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.toText()), QStringLiteral("done"));
        r = runOne(dir, build + "- \"v=${ x }\"\n");
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("nested too deeply")),
                 qPrintable(r.error.message));
    }

    void textJoinOfDeepeningValuesIsLinear()
    {
        // `x: ${ [x] }` as the result of a loop joined as text (repeat's default join): 40,000
        // iterations make 1.6 GB of text, which nothing here reads; the run holds the values
        // (shared), never the text. A short loop gives the same text as before.
        QTemporaryDir dir;
        const QByteArray loop = "defs:\n  x: 0\nlastOf:\n- repeat:\n    def: x\n"
                                "    data: ${ [x] }\n  maxIterations: ";
        RunResult r = runOne(dir, loop + "40000\n- done\n");
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.toText()), QStringLiteral("done"));
        r = runOne(dir, "defs:\n  x: 0\nrepeat:\n  def: x\n  data: ${ [x] }\n"
                        "maxIterations: 3\njoin:\n  with: '|'\n");
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.toText()), QStringLiteral("[0]|[[0]]|[[[0]]]"));
        r = runOne(dir, "text:\n- a\n- data: {k: [1, 2]}\n- lastOf: [b, {data: [3]}]\n");
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.toText()), QStringLiteral("a{\"k\": [1, 2]}[3]"));
    }

    void selfIncludeStops()
    {
        QTemporaryDir dir;
        RunOptions o;
        o.maxCallDepth = 25;
        RunResult r = runOne(dir, "text:\n- a\n- include: main.pdl\n", o);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("include")) &&
                     r.error.message.contains(QLatin1String("nested deeper than 25")),
                 qPrintable(r.error.message));
        QCOMPARE(r.error.span.line, 3);
    }

    void importCycleStops()
    {
        QTemporaryDir dir;
        RunResult r = runFiles(dir, {{QStringLiteral("a.pdl"), "import: b\n"},
                                     {QStringLiteral("b.pdl"), "import: a\n"}});
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("nested deeper")),
                 qPrintable(r.error.message));
    }

    // --- missing and broken files ---------------------------------------------------------------

    void missingFilesNameFileAndPlace_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("include") << QByteArray("text:\n- hello\n- include: parts/missing.pdl\n")
                                 << "include: file not found"
                                 << "parts/missing.pdl" << 3 << 3;
        QTest::newRow("import") << QByteArray("defs:\n  lib:\n    import: nolib\ntext: x\n")
                                << "import: file not found"
                                << "nolib.pdl" << 3 << 5;
        QTest::newRow("read") << QByteArray("lastOf:\n- read: data/none.txt\n")
                              << "read: file not found"
                              << "data/none.txt" << 2 << 9;
    }

    void missingFilesNameFileAndPlace()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, message);
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(int, column);
        QTemporaryDir dir;
        RunResult r = runOne(dir, program);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(message), qPrintable(r.error.message));
        // The absolute path, so the user can tell which folder was searched.
        QVERIFY2(r.error.message.contains(dir.filePath(file)), qPrintable(r.error.message));
        QCOMPARE(r.error.span.file, dir.filePath(QStringLiteral("main.pdl")));
        QCOMPARE(r.error.span.line, line);
        QCOMPARE(r.error.span.column, column);
    }

    void nonUtf8IncludeIsRefused()
    {
        QTemporaryDir dir;
        RunResult r = runFiles(dir, {{QStringLiteral("main.pdl"), "text:\n- include: part.pdl\n"},
                                     {QStringLiteral("part.pdl"), "text: na\xEFve\n"}});
        QVERIFY(!r.ok);
        const QString part = dir.filePath(QStringLiteral("part.pdl"));
        QVERIFY2(r.error.message.contains(part + QStringLiteral(":1:9:")), // where in part.pdl
                 qPrintable(r.error.message));
        QVERIFY2(r.error.message.contains(QLatin1String("not a UTF-8 text file")),
                 qPrintable(r.error.message));
        QVERIFY2(r.error.message.contains(QLatin1String("byte offset 8")),
                 qPrintable(r.error.message));
        QCOMPARE(r.error.span.line, 2); // and where it was included from
    }

    void binaryImportIsRefused()
    {
        QTemporaryDir dir;
        RunResult r =
            runFiles(dir, {{QStringLiteral("main.pdl"), "import: blob\n"},
                           {QStringLiteral("blob.pdl"), QByteArray("PK\x03\x04\x00", 5)}});
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(QLatin1String("NUL byte")), qPrintable(r.error.message));
        QCOMPARE(r.error.span.line, 1);
    }

    // --- aggregators
    // ------------------------------------------------------------------------------

    void fileAggregatorWritesEachContribution()
    {
        QTemporaryDir dir;
        const QByteArray program = "defs:\n"
                                   "  log:\n"
                                   "    aggregator: {file: out/log.txt, prefix: '> '}\n"
                                   "text:\n"
                                   "- data: one\n"
                                   "  contribute: [log]\n"
                                   "- data: two\n"
                                   "  contribute: [result, log]\n"
                                   "- data: ${ [3] }\n"
                                   "  contribute: [{log: {value: three}}, result]\n";
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("out")));
        RunResult r = runOne(dir, program);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        // Only the blocks that kept `result` appear in the result; the file has all three.
        QCOMPARE(QString::fromStdString(r.result.toText()), QStringLiteral("two[3]"));
        QCOMPARE(readAll(dir.filePath(QStringLiteral("out/log.txt"))),
                 QByteArray("> one\n> two\n> three\n"));
    }

    void fileAggregatorModes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.txt"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("old\n");
        }
        const QByteArray append = "defs:\n  sink:\n    aggregator: {file: a.txt, mode: a, suffix: "
                                  "';'}\nrepeat:\n  data: ${ i }\n  contribute: [sink]\n"
                                  "for: {i: [1, 2, 3]}\n";
        RunResult r = runOne(dir, append);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(readAll(path), QByteArray("old\n1;2;3;"));
        // Mode w replaces the file, even when nothing contributes.
        r = runOne(dir, "defs:\n  sink:\n    aggregator: {file: a.txt}\ntext: nothing\n");
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(readAll(path), QByteArray());
    }

    void fileAggregatorKeepsWhatAFailedRunContributed()
    {
        QTemporaryDir dir;
        RunResult r = runOne(dir, "defs:\n  sink:\n    aggregator: {file: part.txt, flush: true}\n"
                                  "text:\n- data: kept\n  contribute: [sink]\n- ${ nope }\n");
        QVERIFY(!r.ok);
        QCOMPARE(readAll(dir.filePath(QStringLiteral("part.txt"))), QByteArray("kept\n"));
    }

    void contextAggregatorCollectsMessages()
    {
        QTemporaryDir dir;
        const QByteArray program = "defs:\n"
                                   "  notes:\n"
                                   "    aggregator: context\n"
                                   "text:\n"
                                   "- data: first\n"
                                   "  role: system\n"
                                   "  contribute: [notes, context]\n"
                                   "- text: [a, b]\n"
                                   "  contribute: [notes]\n"
                                   "- ${ notes() }\n";
        RunResult r = runOne(dir, program);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        // The data block's message (with its defsite), none for the structured text block.
        // (The data block kept no `result`, so only the last child shows.)
        QCOMPARE(QString::fromStdString(r.result.toText()),
                 QStringLiteral("[{\"role\": \"system\", \"content\": \"first\", "
                                "\"pdl__defsite\": \"text.0.data\"}]"));
    }

    void aggregatorErrors_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::newRow("unknown target")
            << QByteArray("text:\n- data: x\n  contribute: [result, nowhere]\n")
            << "unknown contribute target 'nowhere'" << 3;
        QTest::newRow("target is not an aggregator")
            << QByteArray("defs:\n  n: 3\ndata: x\ncontribute: [n]\n")
            << "must be an aggregator, got int" << 4;
        QTest::newRow("folder does not exist")
            << QByteArray("defs:\n  s:\n    aggregator: {file: no/such/dir/x.txt}\ntext: x\n")
            << "its folder does not exist" << 3;
        QTest::newRow("bad mode")
            << QByteArray("defs:\n  s:\n    aggregator: {file: x.txt, mode: rw}\ntext: x\n")
            << "aggregator mode must be" << 3;
    }

    void aggregatorErrors()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, message);
        QFETCH(int, line);
        QTemporaryDir dir;
        RunResult r = runOne(dir, program);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.message.contains(message), qPrintable(r.error.message));
        QCOMPARE(r.error.span.line, line);
    }

    // --- streaming the context ----------------------------------------------------------------

    void streamContextPrintsEveryContributedMessage()
    {
        QTemporaryDir dir;
        RunOptions o;
        o.streamContext = true;
        std::string out;
        o.writeStdout = [&](std::string_view s) {
            out += s;
        };
        const QByteArray program = "defs:\n"
                                   "  hidden: not streamed\n"
                                   "text:\n"
                                   "- Hello\n"
                                   "- role: system\n"
                                   "  text: [' rules']\n"
                                   "- data: quiet\n"
                                   "  contribute: [result]\n"
                                   "- model: none/echo\n"
                                   "  parameters: {mock_response: Hi there}\n";
        RunResult r = runOne(dir, program, o);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(out),
                 QStringLiteral("\nuser: Hello\nsystem:  rules\nassistant: Hi there"));
        // Without the option nothing is written.
        out.clear();
        o.streamContext = false;
        r = runOne(dir, program, o);
        QVERIFY(r.ok);
        QCOMPARE(QString::fromStdString(out), QString());
    }
};

QTEST_GUILESS_MAIN(TestRunRobust)
#include "tst_runrobust.moc"
