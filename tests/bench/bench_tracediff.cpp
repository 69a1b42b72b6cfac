// Trace comparison benchmarks on synthetic traces of 100,000 nodes: a run against a re-run with
// different timings, ~1% of the model replies changed and some iterations inserted and deleted
// (the common case); two identical runs; one flat list of 100,000 blocks with scattered edits
// (one long edit script); two unrelated runs of the same size (the worst case: the edit script
// gives up and pairs in order); and the text report of the common case. Then `hako diff` itself
// (next to this benchmark in the build's bin folder) on the common case written to files: its
// time and peak memory beside the size of one file; with HAKO_BENCH_LARGE=1 also on two traces
// of about 300 MB each (HAKO_BENCH_LARGE_ITERATIONS sets their size).
#include "benchproc.h"
#include "core/pdl/trace/tracediff.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include "core/pdl/trace/tracewriter.h"

#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdio>
#include <ctime>
#include <string>

using namespace hako;
using namespace hako::pdl;

namespace {

TracePtr node(BlockKind kind, std::string id, std::string result, int line, int64_t start)
{
    auto n = std::make_shared<TraceNode>();
    n->kind = kind;
    n->id = std::move(id);
    n->result = Value(std::move(result));
    n->hasResult = true;
    n->span.line = line;
    n->span.column = 5;
    n->startNanos = start;
    n->endNanos = start + 1000 + (start % 777);
    return n;
}

// `iterations` loop iterations of 10 nodes each: a text block holding a data block, a model
// block (messages, usage) with its input, a code block and five more data blocks. `variant`
// changes every `changeEvery`-th reply, drops and adds iterations, and shifts timings.
TracePtr makeTrace(int iterations, int variant)
{
    auto root = std::make_shared<TraceNode>();
    root->kind = BlockKind::Repeat;
    root->id = "repeat";
    root->isLeaf = false;
    int64_t clock = 1'000'000 + variant * 12345;
    std::string all;
    for (int i = 0; i < iterations; ++i) {
        if (variant == 1 && i % 1000 == 500)
            continue; // deleted iteration
        const std::string base = "repeat." + std::to_string(i) + ".text";
        auto it = node(BlockKind::Text, base, {}, 3, clock);
        it->isLeaf = false;
        std::string text;
        auto add = [&](TracePtr c) {
            text += c->result.toText();
            it->addChild("text", std::move(c));
        };
        add(node(BlockKind::Data, base + ".0.data", "Question " + std::to_string(i) + ": ", 4,
                 clock += 100));
        auto model = node(BlockKind::Model, base + ".1.model",
                          variant == 1 && i % 100 == 7
                              ? "The answer is probably " + std::to_string(i + 1) + "."
                              : "The answer is " + std::to_string(i) + ".",
                          5, clock += 100);
        model->def = "answer";
        List messages;
        messages.push_back(Value(Dict{{Value("role"), Value("system")},
                                      {Value("content"), Value("You answer briefly.")}}));
        messages.push_back(
            Value(Dict{{Value("role"), Value("user")}, {Value("content"), Value(text)}}));
        model->modelInput = Value(std::move(messages));
        model->usage = Value(Dict{{Value("prompt_tokens"), Value(int64_t(20 + i % 7))},
                                  {Value("completion_tokens"), Value(int64_t(5 + variant))}});
        model->exprs.emplace_back("model", Value("ollama/granite"));
        model->addChild("input", node(BlockKind::Data, base + ".1.model.input", text, 6, clock),
                        true);
        add(std::move(model));
        add(node(BlockKind::Code, base + ".2.code", std::to_string(i * 2), 8, clock += 100));
        for (int k = 0; k < 5; ++k)
            add(node(BlockKind::Data, base + "." + std::to_string(3 + k) + ".data",
                     std::string(" item ") + std::to_string(k), 9 + k, clock += 100));
        it->result = Value(text);
        it->hasResult = true;
        it->endNanos = clock += 100;
        all += text;
        root->addChild("repeat", std::move(it));
        if (variant == 1 && i % 1000 == 900) {
            auto extra = node(BlockKind::Text, base + ".extra", "an extra iteration", 3, clock);
            root->addChild("repeat", std::move(extra));
        }
    }
    root->result = Value(all);
    root->hasResult = true;
    root->endNanos = clock;
    return root;
}

TracePtr makeFlat(int count, int variant)
{
    auto root = std::make_shared<TraceNode>();
    root->kind = BlockKind::Text;
    root->id = "text";
    root->isLeaf = false;
    for (int i = 0; i < count; ++i) {
        if (variant == 1 && i % 5000 == 10)
            continue;
        const std::string result =
            variant == 2
                ? "other " + std::to_string((i * 7919) % count)
                : (variant == 1 && i % 997 == 3 ? "edited " : "value ") + std::to_string(i);
        root->addChild("text", node(variant == 2 && i % 3 == 0 ? BlockKind::Code : BlockKind::Data,
                                    "text." + std::to_string(i) + ".data", result, 2 + i % 50,
                                    1000 + i * 10 + variant));
    }
    return root;
}

struct Timed {
    double wallMs = 0;
    double cpuMs = 0;
};

template <typename F> Timed timed(F&& f)
{
    const std::clock_t c0 = std::clock();
    QElapsedTimer t;
    t.start();
    f();
    return {t.nsecsElapsed() / 1e6, double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC};
}

void report(const char* name, const Timed& t, const TraceDiff& diff)
{
    std::fprintf(stderr, "# %s: %d rows, %d changed, %d inserted, %d deleted\n", name, diff.size(),
                 diff.counts().changed, diff.counts().inserted, diff.counts().deleted);
    std::printf("BENCH %s %.0f ms\n", name, t.wallMs);
    std::printf("BENCH %s_cpu %.0f ms\n", name, t.cpuMs);
}

// Runs `hako diff a b` and prints its wall time, peak resident memory (the child's maximum
// resident set) and the size of one trace file.
void benchHakoDiff(const char* name, int iterations)
{
    const QString hako = QCoreApplication::applicationDirPath() + QStringLiteral("/hako");
    if (!QFileInfo::exists(hako)) {
        std::fprintf(stderr, "# %s skipped: build the hako executable first\n", name);
        return;
    }
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.json"));
    const QString b = dir.filePath(QStringLiteral("b.json"));
    {
        QString error;
        if (!writeTraceFile(*makeTrace(iterations, 0), a, &error) ||
            !writeTraceFile(*makeTrace(iterations, 1), b, &error)) {
            std::fprintf(stderr, "# %s: %s\n", name, qPrintable(error));
            return;
        }
    }
    std::fflush(stdout); // the child must not write this process's buffered lines again
    QElapsedTimer t;
    t.start();
    const pid_t pid = fork();
    if (pid == 0) {
        const QByteArray h = hako.toLocal8Bit(), pa = a.toLocal8Bit(), pb = b.toLocal8Bit();
        if (!std::freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(h.constData(), h.constData(), "diff", pa.constData(), pb.constData(), nullptr);
        _exit(127);
    }
    int status = 0;
    struct rusage usage {};
    if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 1) {
        std::fprintf(stderr, "# %s: hako diff failed (status %d)\n", name, status);
        return;
    }
    const double ms = t.nsecsElapsed() / 1e6;
    const double fileMb = QFileInfo(a).size() / 1048576.0;
    std::fprintf(stderr, "# %s: two files of %.1f MB\n", name, fileMb);
    std::printf("BENCH %s %.0f ms\n", name, ms);
    std::printf("BENCH %s_memory %.0f MB\n", name, usage.ru_maxrss / 1024.0);
    std::printf("BENCH %s_file %.0f MB\n", name, fileMb);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int iterations = benchproc::envInt("HAKO_BENCH_TRACEDIFF_ITERATIONS", 10000);

    {
        TracePtr a = makeTrace(iterations, 0);
        TracePtr b = makeTrace(iterations, 1);
        TraceDiff diff;
        const long before = benchproc::statusKb("VmRSS");
        benchproc::resetPeak();
        const Timed t = timed([&] { diff = TraceDiff::compare(a, b); });
        const long peak = benchproc::statusKb("VmHWM");
        report("tracediff_100k", t, diff);
        std::printf("BENCH tracediff_100k_memory %.0f MB\n", (peak - before) / 1024.0);
        QString text;
        const Timed r =
            timed([&] { text = diff.report(QStringLiteral("a"), QStringLiteral("b")); });
        std::fprintf(stderr, "# report: %lld characters\n", (long long)text.size());
        std::printf("BENCH tracediff_100k_report %.0f ms\n", r.wallMs);
        const Timed j = timed([&] { (void)diff.toJson(QStringLiteral("a"), QStringLiteral("b")); });
        std::printf("BENCH tracediff_100k_json %.0f ms\n", j.wallMs);
    }
    {
        TracePtr a = makeTrace(iterations, 0);
        TracePtr b = makeTrace(iterations, 2); // timings and usage differ only
        TraceDiff diff;
        const Timed t = timed([&] { diff = TraceDiff::compare(a, b); });
        if (!diff.isSame())
            std::fprintf(stderr, "# unexpected: identical runs differ\n");
        report("tracediff_100k_identical", t, diff);
    }
    {
        TracePtr a = makeFlat(iterations * 10, 0);
        TracePtr b = makeFlat(iterations * 10, 1);
        TraceDiff diff;
        const Timed t = timed([&] { diff = TraceDiff::compare(a, b); });
        report("tracediff_100k_flat", t, diff);
    }
    {
        TracePtr a = makeFlat(iterations * 10, 0);
        TracePtr b = makeFlat(iterations * 10, 2);
        TraceDiff diff;
        const Timed t = timed([&] { diff = TraceDiff::compare(a, b); });
        report("tracediff_100k_unrelated", t, diff);
    }
    benchHakoDiff("tracediff_hako_100k", iterations);
    if (benchproc::envInt("HAKO_BENCH_LARGE", 0) > 0)
        benchHakoDiff("tracediff_hako_large",
                      benchproc::envInt("HAKO_BENCH_LARGE_ITERATIONS", 100000));
    return 0;
}
