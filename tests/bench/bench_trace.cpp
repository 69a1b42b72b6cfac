// Box view benchmarks on a 100,000-node trace (a 33,333-iteration loop of three nodes each, run
// through the interpreter): opening the written trace file, the box layout collapsed and fully
// expanded, painting frames offscreen at several scroll/zoom positions, and memory.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/boxlayout.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracereader.h"
#include "core/pdl/trace/tracewriter.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/trace/boxview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

#include <malloc.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

using namespace hako;
using namespace hako::pdl;

namespace {

double rssMb()
{
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    return 0;
}

// Heap bytes in use (small blocks and mmapped ones): what a structure costs, even where freed
// memory is reused and the resident size does not move.
double heapMb()
{
    const struct mallinfo2 m = mallinfo2();
    return double(m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
}

double cpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double ms(const QElapsedTimer& t)
{
    return t.nsecsElapsed() / 1e6;
}

void bench(const char* name, double value, const char* unit)
{
    std::printf("BENCH %s %.1f %s\n", name, value, unit);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    const int iterations = 33333; // 1 loop + 3 nodes per iteration = 100,000 nodes
    const QByteArray program = "index: i\nrepeat:\n  text:\n  - 'item ${ i }: '\n"
                               "  - ${ i * 2 }\nmaxIterations: " +
                               QByteArray::number(iterations) + "\n";
    ParseResult parsed = parseProgramText(program, QStringLiteral("bench.pdl"));
    if (!parsed.ok())
        return 1;
    RunOptions options;
    options.trace = true;
    Interpreter interp(options);
    RunResult run = interp.run(parsed.program);
    if (!run.ok || !run.trace)
        return 1;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("trace.json"));
    QString error;
    if (!writeTraceFile(*run.trace, path, &error))
        return 1;
    run = RunResult();

    // Open: read the file, build the model, lay out (the default, collapsed view).
    const double rss0 = rssMb();
    const double cpu0 = cpuMs();
    QElapsedTimer t;
    t.start();
    auto loaded = loadTraceFile(path);
    if (!loaded.ok())
        return 1;
    const double readMs = ms(t);
    TraceModel model;
    model.takeTrace(std::move(loaded.value()), path); // as TraceLoader does
    const double modelMs = ms(t) - readMs;
    BoxLayoutParams params;
    BoxLayout collapsed = layoutTrace(model.root(), params);
    const double openMs = ms(t);
    const double openCpuMs = cpuMs() - cpu0;
    std::fprintf(stderr, "nodes %d, boxes collapsed %zu\n", model.itemCount(),
                 collapsed.boxes.size());
    bench("trace_open_read_100k", readMs, "ms");
    bench("trace_open_model_100k", modelMs, "ms");
    bench("trace_open_and_layout_100k", openMs, "ms");
    // The same in CPU time: what it costs on a machine not shared with other builds.
    bench("trace_open_and_layout_100k_cpu", openCpuMs, "ms");
    const double rssModel = rssMb();

    // Every box: the loop expanded, 100,000 boxes (best of 3; both passes).
    params.expandedBlocks.insert(model.root());
    double best = 1e18, bestCollect = 1e18;
    size_t boxes = 0;
    for (int k = 0; k < 3; ++k) {
        t.restart();
        BoxLayoutInput input = collectBoxInput(model.root(), params);
        const double c = ms(t);
        BoxLayout full = layoutBoxes(std::move(input), params);
        best = std::min(best, ms(t));
        bestCollect = std::min(bestCollect, c);
        boxes = full.boxes.size();
    }
    std::fprintf(stderr, "boxes expanded %zu\n", boxes);
    bench("trace_layout_100k", best, "ms");
    bench("trace_layout_100k_collect", bestCollect, "ms");
    const double heapBefore = heapMb();
    auto kept = std::make_shared<BoxLayout>(layoutTrace(model.root(), params));
    bench("trace_layout_memory", heapMb() - heapBefore, "MB");
    kept.reset();

    // Painting: the view over the expanded trace, frames at several positions and zooms.
    WorkbenchContext context;
    context.setTraceModel(&model);
    BoxView view(&context);
    view.resize(1400, 900);
    view.show();
    QTest::qWaitFor([&] { return view.boxLayout() && !view.isLayoutPending(); }, 30000);
    view.expandBlock(model.root());
    QTest::qWaitFor([&] { return !view.isLayoutPending(); }, 30000);
    const auto layout = view.boxLayout();
    if (!layout || layout->boxes.size() < 100000)
        std::fprintf(stderr, "view shows %zu boxes\n", layout ? layout->boxes.size() : 0);
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    // Each position is painted twice: the first frame at a new zoom also rasterises glyphs at
    // that size (cold), the second is what scrolling there costs (steady).
    double worst = 0, total = 0, worstCold = 0, worstCpu = 0;
    int frames = 0;
    for (double zoom : {1.0, 0.5, 0.1, 0.02, 2.0}) {
        view.setZoom(zoom);
        for (double at : {0.0, 0.37, 0.81, 1.0}) {
            QScrollBar* v = view.verticalScrollBar();
            v->setValue(int(v->maximum() * at));
            for (int pass = 0; pass < 2; ++pass) {
                QPainter painter(&image);
                t.restart();
                const double c0 = threadCpuMs();
                view.render(painter, image.rect());
                painter.end();
                const double f = ms(t);
                const double cpu = threadCpuMs() - c0;
                if (pass == 0) {
                    worstCold = std::max(worstCold, f);
                    continue;
                }
                std::fprintf(stderr, "frame zoom %.2f at %.2f: %.1f ms (cpu %.1f ms)\n", zoom, at,
                             f, cpu);
                worst = std::max(worst, f);
                worstCpu = std::max(worstCpu, cpu);
                total += f;
                ++frames;
            }
        }
    }
    bench("trace_paint_frame", worst, "ms");
    bench("trace_paint_frame_mean", total / frames, "ms");
    bench("trace_paint_frame_cold", worstCold, "ms");
    // CPU time of the worst steady frame: stable when other processes share the cores.
    bench("trace_paint_frame_cpu", worstCpu, "ms");
    bench("trace_total_memory", rssMb(), "MB");
    bench("trace_model_memory", std::max(0.0, rssModel - rss0), "MB");
    return 0;
}
