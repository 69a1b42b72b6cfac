// Trace loading benchmarks: a 100,000-node trace written by a real run (a loop with tracing),
// loaded from its file into a TraceModel (read, parse, build the tree, build the model); the
// memory that costs; a 100 MB trace file; a 200,000-block trace of about 77 MB; a ~47 MB trace
// of a run with function calls, through the reader and through TraceLoader; a block with
// 200,000 fields. With HAKO_BENCH_LARGE=1 also a generated ~1 GB trace in the reference's
// style (a chat loop whose model blocks record their context); HAKO_BENCH_LARGE_MB sets its
// size. HAKO_BENCH_TRACE_FILE=path times one file instead. Memory figures are peak RSS above
// what the process held before the load.
#include "benchproc.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/util/bulkmemory.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <fstream>
#include <optional>
#include <string>

using namespace hako;
using namespace hako::pdl;
using namespace hako::benchproc;

namespace {

[[noreturn]] void fail(const QString& message)
{
    std::fprintf(stderr, "%s\n", qPrintable(message));
    std::exit(1);
}

// Loads `path` into `model` the way the workbench does (minus the thread hop). `cpuMs` gets
// the processor time it took: on a machine shared with builds, wall time mostly measures the
// wait for a core.
double loadMs(const QString& path, TraceModel& model, int* blocks, double* cpuMs)
{
    const std::clock_t c0 = std::clock();
    QElapsedTimer t;
    t.start();
    std::optional<BulkAllocationScope> bulk; // as TraceLoader does for a file this big
    if (QFileInfo(path).size() >= (16LL << 20))
        bulk.emplace();
    Result<TraceLoadResult> r = readTraceFile(path);
    bulk.reset();
    if (!r.ok())
        fail(r.error().message);
    if (r->partial)
        fail(r->problem.message);
    const double parsed = t.nsecsElapsed() / 1e6;
    model.takeTrace(std::move(r).value().root, path); // as TraceLoader does
    std::fprintf(stderr, "# read and parse %.0f ms, model %.0f ms\n", parsed,
                 t.nsecsElapsed() / 1e6 - parsed);
    const double ms = t.nsecsElapsed() / 1e6;
    *cpuMs = double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC;
    *blocks = model.itemCount();
    return ms;
}

// Loads `path` through TraceLoader (a worker thread reads and parses, the model is filled on
// this thread) and waits for it. `cpuMs` covers every thread of the process; `firstMs` (when
// given) gets the time until the panes first showed something: the start of a large file
// (TraceLoader::previewShown), else the whole file.
double loaderMs(const QString& path, double* cpuMs, double* firstMs = nullptr)
{
    TraceModel model;
    TraceLoader loader(&model);
    QEventLoop loop;
    QString problem;
    QObject::connect(&loader, &TraceLoader::loaded, &loop, &QEventLoop::quit);
    QObject::connect(&loader, &TraceLoader::failed, [&](const QString&, const QString& m) {
        problem = m;
        loop.quit();
    });
    const std::clock_t c0 = std::clock();
    QElapsedTimer t;
    double first = -1;
    QObject::connect(&loader, &TraceLoader::previewShown, [&] { first = t.nsecsElapsed() / 1e6; });
    t.start();
    loader.load(path);
    loop.exec();
    const double ms = t.nsecsElapsed() / 1e6;
    if (firstMs)
        *firstMs = first < 0 ? ms : first;
    *cpuMs = double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC;
    if (!problem.isEmpty())
        fail(problem);
    return ms;
}

// Peak memory of `f` above the resident size before it, in MB.
template <typename F> double peakMb(F&& f)
{
    const long before = statusKb("VmRSS");
    resetPeak();
    f();
    return (statusKb("VmHWM") - before) / 1024.0;
}

// 200,000 data blocks of about 385 bytes each in the file (id, location, timing, a result of a
// few words and its expression): the shape of a long run's many small blocks.
void write200kBlocks(const QString& path)
{
    auto root = std::make_shared<TraceNode>();
    root->kind = BlockKind::Text;
    root->id = "text";
    root->isLeaf = false;
    root->startNanos = 1;
    root->endNanos = 2;
    root->span.file = QStringLiteral("blocks.pdl");
    for (int i = 0; i < 200000; ++i) {
        auto n = std::make_shared<TraceNode>();
        n->kind = BlockKind::Data;
        n->id = "text." + std::to_string(i) + ".data";
        n->span.file = QStringLiteral("blocks.pdl");
        n->span.line = 2 + i % 400;
        n->span.column = 5;
        n->span.endLine = 2 + i % 400;
        n->span.endColumn = 40;
        const std::string text = "item " + std::to_string(i) + " of the long run, step " +
                                 std::to_string(i % 97) + ": done";
        n->exprs.emplace_back("data", Value(text));
        n->result = Value(text);
        n->hasResult = true;
        n->startNanos = 1'700'000'000'000'000'000 + i * 1000;
        n->endNanos = n->startNanos + 777;
        root->addChild("text", n);
    }
    QString error;
    if (!writeTraceFile(*root, path, &error))
        fail(error);
}

// About `targetBytes` of a reference-style trace written straight to the file (its tree could
// not be built beside the reader): a chat loop whose model blocks record the context they saw
// (the last 20 messages) and the messages sent, as the reference's traces do, so each reply
// is repeated in the blocks that follow it.
void writeChatTrace(const QString& path, qint64 targetBytes)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    if (!out)
        fail(QStringLiteral("cannot write ") + path);
    static const char* words[] = {"alpha", "brisk", "cedar", "delta", "ember", "fjord",
                                  "gamut", "haiku", "inlet", "jolly", "koala", "lemon"};
    auto sentence = [&](int seed, int length) {
        std::string s;
        for (int w = 0; int(s.size()) < length; ++w)
            s += std::string(words[(seed * 7 + w * 5 + w * w) % 12]) + ' ';
        return s;
    };
    auto message = [](const char* role, const std::string& content) {
        return std::string(R"({"role": ")") + role + R"(", "content": ")" + content +
               R"(", "pdl__defsite": "repeat.text.model"})";
    };
    out << R"({"kind": "repeat", "pdl__id": "repeat", "pdl__is_leaf": false, "repeat": [)";
    std::deque<std::string> window;
    int64_t clock = 1'700'000'000'000'000'000;
    for (int i = 0; qint64(out.tellp()) < targetBytes; ++i) {
        window.push_back(
            message("user", "Question " + std::to_string(i) + ": " + sentence(i, 200)));
        std::string context = "[";
        for (size_t m = 0; m < window.size(); ++m)
            context += (m ? ", " : "") + window[m];
        context += "]";
        const std::string reply = "Answer " + std::to_string(i) + ": " + sentence(i + 3, 800);
        const int64_t start = clock;
        clock += 900'000;
        out << (i ? ", " : "") << R"({"kind": "model", "pdl__id": "repeat.)" << i
            << R"(.model", "model": {"pdl__expr": "${ m }", "pdl__result": "ollama/granite"},)"
            << R"( "pdl__context": )" << context << R"(, "pdl__model_input": )" << context
            << R"(, "pdl__result": ")" << reply << R"(", "pdl__usage": {"prompt_tokens": )"
            << 300 + i % 50 << R"(, "completion_tokens": )" << 200 + i % 30
            << R"(}, "pdl__timing": {"start_nanos": )" << start << R"(, "end_nanos": )" << clock
            << R"(}, "pdl__location": {"file": "chat.pdl", "line": 5, )"
            << R"("column": 3, "end_line": 9, "end_column": 12}, "pdl__is_leaf": true})";
        window.push_back(message("assistant", reply));
        while (window.size() > 20)
            window.pop_front();
    }
    out << "]}";
}

// Times loading `path` into a model and prints `name`, `name`_cpu and `name`_memory.
void benchFile(const char* name, const QString& path)
{
    TraceModel model;
    int blocks = 0;
    double cpu = 0;
    double ms = 0;
    const double mb = peakMb([&] { ms = loadMs(path, model, &blocks, &cpu); });
    std::fprintf(stderr, "# %s: %d blocks, %.1f MB file\n", name, blocks,
                 QFileInfo(path).size() / 1048576.0);
    std::printf("BENCH %s %.0f ms\n", name, ms);
    std::printf("BENCH %s_cpu %.0f ms\n", name, cpu);
    std::printf("BENCH %s_memory %.0f MB\n", name, mb);
}

// A run's trace of about 47 MB (see main), through the reader and through TraceLoader.
void benchRun47(const QTemporaryDir& dir)
{
    // About 47 MB written by a run (issue 11: "a 47 MB trace Hako itself wrote takes 24 s"): a
    // loop calling a function of several blocks (sequence, text, if, object), traced and
    // written by the trace writer; loaded by the core reader and by TraceLoader (the
    // workbench's path: worker thread, progress, then the model), with the CPU time of each.
    const QString run47 = dir.filePath(QStringLiteral("run47.json"));
    {
        const int iterations = envInt("HAKO_BENCH_TRACE_ITERATIONS", 12300);
        const std::string program =
            "defs:\n  f:\n    function:\n      n: integer\n    return:\n      lastOf:\n"
            "      - def: a\n        data: ${ n * 2 }\n      - text:\n        - \"item ${ a }\"\n"
            "        - if: ${ a > 10 }\n          then: big\n          else: small\n"
            "      - object:\n          k: ${ a }\n          s: ${ \"v\" ~ a }\n"
            "lastOf:\n- repeat:\n    call: ${ f }\n    args:\n      n: ${ i }\n  index: i\n"
            "  maxIterations: " +
            std::to_string(iterations) + "\n  join:\n    as: array\n- done\n";
        ParseResult p =
            parseProgramText(QByteArray::fromStdString(program), QStringLiteral("run47.pdl"));
        if (!p.ok())
            fail(QStringLiteral("bench program does not parse"));
        RunOptions o;
        o.trace = true;
        Interpreter interp(o);
        RunResult r = interp.run(p.program);
        if (!r.ok || !r.trace)
            fail(QStringLiteral("run failed: ") + r.error.message);
        QString error;
        if (!writeTraceFile(*r.trace, run47, &error))
            fail(error);
    }
    {
        TraceModel model;
        int blocks = 0;
        double cpu = 0;
        const double ms = loadMs(run47, model, &blocks, &cpu);
        const double mb = QFileInfo(run47).size() / 1048576.0;
        std::fprintf(stderr, "# %d blocks, %.1f MB file\n", blocks, mb);
        std::printf("BENCH trace_load_run_%.0fmb %.0f ms\n", mb, ms);
        std::printf("BENCH trace_load_run_%.0fmb_cpu %.0f ms\n", mb, cpu);
    }
    {
        double cpu = 0;
        double first = 0;
        const double ms = loaderMs(run47, &cpu, &first);
        const double mb = QFileInfo(run47).size() / 1048576.0;
        std::printf("BENCH trace_loader_run_%.0fmb %.0f ms\n", mb, ms);
        std::printf("BENCH trace_loader_run_%.0fmb_first_screen %.0f ms\n", mb, first);
        std::printf("BENCH trace_loader_run_%.0fmb_cpu %.0f ms\n", mb, cpu);
    }
}

// A block with 200,000 fields, evaluated ones then blocks.
void benchManyKeys(const QTemporaryDir& dir)
{
    // One block with 200,000 evaluated fields (10 MB): reading objects was quadratic in their
    // keys (70 s of processor time before, about 0.5 s after).
    const QString keys = dir.filePath(QStringLiteral("keys.json"));
    {
        QFile f(keys);
        if (!f.open(QIODevice::WriteOnly))
            fail(QStringLiteral("cannot write ") + keys);
        QByteArray data = R"({"kind": "text", "pdl__id": "text")";
        for (int i = 0; i < 200000; ++i)
            data += ", \"k" + QByteArray::number(i) + "\": {\"pdl__expr\": \"x\", " +
                    "\"pdl__result\": " + QByteArray::number(i) + "}";
        data += "}";
        f.write(data);
    }
    {
        TraceModel model;
        int blocks = 0;
        double cpu = 0;
        const double ms = loadMs(keys, model, &blocks, &cpu);
        std::printf("BENCH trace_load_200k_keys %.0f ms\n", ms);
        std::printf("BENCH trace_load_200k_keys_cpu %.0f ms\n", cpu);
    }
    // The same with every field holding a block (a hostile file: Hako writes no such block).
    {
        QFile f(keys);
        if (!f.open(QIODevice::WriteOnly))
            fail(QStringLiteral("cannot write ") + keys);
        QByteArray data = R"({"kind": "text", "pdl__id": "text")";
        for (int i = 0; i < 200000; ++i)
            data += ", \"k" + QByteArray::number(i) + "\": {\"kind\": \"data\", " +
                    "\"pdl__result\": " + QByteArray::number(i) + "}";
        data += "}";
        f.write(data);
    }
    {
        TraceModel model;
        int blocks = 0;
        double cpu = 0;
        const double ms = loadMs(keys, model, &blocks, &cpu);
        std::printf("BENCH trace_load_200k_block_fields %.0f ms\n", ms);
        std::printf("BENCH trace_load_200k_block_fields_cpu %.0f ms\n", cpu);
    }
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    // HAKO_BENCH_TRACE_FILE=path: time loading that file only.
    if (const char* file = std::getenv("HAKO_BENCH_TRACE_FILE"); file && *file) {
        TraceModel model;
        int blocks = 0;
        double cpu = 0;
        const double ms = loadMs(QString::fromLocal8Bit(file), model, &blocks, &cpu);
        std::fprintf(stderr, "# %d blocks, %.1f MB file\n", blocks,
                     QFileInfo(QString::fromLocal8Bit(file)).size() / 1048576.0);
        std::printf("BENCH trace_load_file %.0f ms\n", ms);
        std::printf("BENCH trace_load_file_cpu %.0f ms\n", cpu);
        double first = 0;
        const double loaderTime = loaderMs(QString::fromLocal8Bit(file), &cpu, &first);
        std::printf("BENCH trace_loader_file %.0f ms\n", loaderTime);
        std::printf("BENCH trace_loader_file_first_screen %.0f ms\n", first);
        std::printf("BENCH trace_loader_file_cpu %.0f ms\n", cpu);
        return 0;
    }
    QTemporaryDir dir;
    const QString small = dir.filePath(QStringLiteral("loop.json"));
    {
        // 50,000 iterations of a text block holding one expression: 2 nodes each.
        const std::string program = "lastOf:\n- repeat:\n    text: \"${ i * 2 }\"\n  index: i\n"
                                    "  maxIterations: 49999\n  join:\n    as: lastOf\n";
        ParseResult p =
            parseProgramText(QByteArray::fromStdString(program), QStringLiteral("loop.pdl"));
        if (!p.ok())
            fail(QStringLiteral("bench program does not parse"));
        RunOptions o;
        o.trace = true;
        Interpreter interp(o);
        RunResult r = interp.run(p.program);
        if (!r.ok || !r.trace)
            fail(QStringLiteral("run failed: ") + r.error.message);
        QString error;
        if (!writeTraceFile(*r.trace, small, &error))
            fail(error);
    }
    {
        TraceModel model;
        int blocks = 0;
        const long before = statusKb("VmRSS");
        resetPeak();
        double cpu = 0;
        const double ms = loadMs(small, model, &blocks, &cpu);
        const long peak = statusKb("VmHWM");
        const long after = statusKb("VmRSS");
        std::fprintf(stderr, "# %d blocks, %.1f MB file\n", blocks,
                     QFileInfo(small).size() / 1048576.0);
        std::printf("BENCH trace_load_100k %.0f ms\n", ms);
        std::printf("BENCH trace_load_100k_cpu %.0f ms\n", cpu);
        std::printf("BENCH trace_load_memory %.0f MB\n", (peak - before) / 1024.0);
        std::printf("BENCH trace_load_model_memory %.0f MB\n", (after - before) / 1024.0);
    }
    // The guard's quick set (scripts/dev bench --compare) stops after the 100,000-node trace.
    if (std::getenv("HAKO_BENCH_TRACE_QUICK"))
        return 0;

    // About 100 MB: 100,000 blocks of ~1 KB text each (a long run's model outputs).
    const QString big = dir.filePath(QStringLiteral("big.json"));
    {
        auto root = std::make_shared<TraceNode>();
        root->kind = BlockKind::Text;
        root->id = "text";
        root->startNanos = 1;
        root->endNanos = 2;
        std::string text;
        for (int i = 0; i < 10; ++i)
            text += "The quick brown fox jumps over the lazy dog; ";
        for (int i = 0; i < 100000; ++i) {
            auto n = std::make_shared<TraceNode>();
            n->kind = BlockKind::Data;
            n->id = "text." + std::to_string(i);
            n->exprs.emplace_back("data", Value(text));
            n->result = Value(text + std::to_string(i));
            n->hasResult = true;
            n->startNanos = 1000 + i;
            n->endNanos = 2000 + i;
            root->addChild("text", n);
        }
        QString error;
        if (!writeTraceFile(*root, big, &error))
            fail(error);
    }
    {
        TraceModel model;
        int blocks = 0;
        const long before = statusKb("VmRSS");
        resetPeak();
        double cpu = 0;
        const double ms = loadMs(big, model, &blocks, &cpu);
        const long peak = statusKb("VmHWM");
        std::fprintf(stderr, "# %d blocks, %.1f MB file\n", blocks,
                     QFileInfo(big).size() / 1048576.0);
        std::printf("BENCH trace_load_100mb %.0f ms\n", ms);
        std::printf("BENCH trace_load_100mb_cpu %.0f ms\n", cpu);
        std::printf("BENCH trace_load_100mb_memory %.0f MB\n", (peak - before) / 1024.0);
    }

    const QString blocks200k = dir.filePath(QStringLiteral("blocks200k.json"));
    write200kBlocks(blocks200k);
    benchFile("trace_load_200k_blocks", blocks200k);
    QFile::remove(blocks200k);

    if (envInt("HAKO_BENCH_LARGE", 0) > 0) {
        const QString large = dir.filePath(QStringLiteral("large.json"));
        writeChatTrace(large, qint64(envInt("HAKO_BENCH_LARGE_MB", 1024)) << 20);
        benchFile("trace_load_1gb", large);
        double cpu = 0;
        double first = 0;
        const double ms = loaderMs(large, &cpu, &first);
        std::printf("BENCH trace_loader_1gb %.0f ms\n", ms);
        std::printf("BENCH trace_loader_1gb_first_screen %.0f ms\n", first);
        QFile::remove(large);
    }

    benchRun47(dir);
    benchManyKeys(dir);
    return 0;
}
