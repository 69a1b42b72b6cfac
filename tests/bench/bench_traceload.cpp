// Trace loading benchmarks: a 100,000-node trace written by a real run (a loop with tracing),
// loaded from its file into a TraceModel (read, parse, build the tree, build the model); the
// memory that costs; and a 100 MB trace file.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracewriter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>

using namespace hako;
using namespace hako::pdl;

namespace {

long statusKb(const char* key)
{
    std::ifstream f("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(key) + ":";
    while (std::getline(f, line))
        if (line.rfind(prefix, 0) == 0)
            return std::stol(line.substr(prefix.size()));
    return 0;
}

// Resets the peak RSS (VmHWM) so that a later reading covers only what follows.
void resetPeak()
{
    std::ofstream f("/proc/self/clear_refs");
    f << "5";
}

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
    Result<TraceLoadResult> r = readTraceFile(path);
    if (!r.ok())
        fail(r.error().message);
    if (r->partial)
        fail(r->problem.message);
    const double parsed = t.nsecsElapsed() / 1e6;
    model.setTrace(r->root, path);
    std::fprintf(stderr, "# read and parse %.0f ms, model %.0f ms\n", parsed,
                 t.nsecsElapsed() / 1e6 - parsed);
    const double ms = t.nsecsElapsed() / 1e6;
    *cpuMs = double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC;
    *blocks = model.itemCount();
    return ms;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
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
    return 0;
}
