// Interpreter benchmarks: loops of a million iterations, tracing, start-up.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/trace/tracewriter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>
#include <fstream>
#include <string>

using namespace hako;
using namespace hako::pdl;

namespace {

std::shared_ptr<const Program> parse(const std::string& text)
{
    ParseResult r = parseProgramText(QByteArray::fromStdString(text), QStringLiteral("bench.pdl"));
    if (!r.ok()) {
        std::fprintf(stderr, "bench program does not parse\n");
        std::exit(1);
    }
    return r.program;
}

std::string loop(int64_t n)
{
    return "repeat:\n  text: \"${ i * 2 }\\n\"\nindex: i\nmaxIterations: " + std::to_string(n) +
           "\njoin:\n  as: lastOf\n";
}

double runSeconds(const std::shared_ptr<const Program>& p, bool trace, RunResult* out = nullptr)
{
    RunOptions o;
    o.trace = trace;
    Interpreter interp(o);
    QElapsedTimer t;
    t.start();
    RunResult r = interp.run(p);
    double s = t.nsecsElapsed() / 1e9;
    if (!r.ok) {
        std::fprintf(stderr, "run failed: %s\n", qPrintable(r.error.message));
        std::exit(1);
    }
    if (out)
        *out = std::move(r);
    return s;
}

long peakRssMb()
{
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6)) / 1024;
    return -1;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    // Linear scaling: 100k vs 1M iterations.
    double t100k = runSeconds(parse(loop(100000)), false);
    double t1m = runSeconds(parse(loop(1000000)), false);
    std::printf("BENCH interp_repeat_1m_untraced %.3f s\n", t1m);
    std::printf("BENCH interp_repeat_100k_untraced %.3f s\n", t100k);
    std::printf("BENCH interp_repeat_scaling_10x %.2f x\n", t1m / t100k);
    std::printf("BENCH interp_repeat_1m_peak_rss %ld MB\n", peakRssMb());

    RunResult traced;
    double tTraced = runSeconds(parse(loop(100000)), true, &traced);
    std::printf("BENCH interp_repeat_100k_traced %.3f s\n", tTraced);
    QTemporaryDir dir;
    QElapsedTimer t;
    t.start();
    QString error;
    writeTraceFile(*traced.trace, dir.filePath(QStringLiteral("t.json")), &error);
    std::printf("BENCH interp_trace_write_100k %.3f s\n", t.nsecsElapsed() / 1e9);

    // `hako check` of a 5,000-line program, in process.
    std::string big = "text:\n";
    for (int i = 0; big.size() < 5000 * 20 && i < 2500; ++i)
        big += "- def: v" + std::to_string(i) + "\n  data: \"${ " +
               (i ? "v" + std::to_string(i - 1) : std::string("1")) + " ~ 'x' }\"\n";
    QFile f(dir.filePath(QStringLiteral("big.pdl")));
    f.open(QIODevice::WriteOnly);
    f.write(QByteArray::fromStdString(big));
    f.close();
    t.restart();
    ParseResult checked = checkProgram(f.fileName());
    std::printf("BENCH check_5000_lines %.1f ms\n", t.nsecsElapsed() / 1e6);

    // Wall time of `hako run` on hello world, as a user sees it (process start included).
    const QString hako = QCoreApplication::applicationDirPath() + QStringLiteral("/hako");
    QFile hello(dir.filePath(QStringLiteral("hello.pdl")));
    hello.open(QIODevice::WriteOnly);
    hello.write("text:\n- Hello, world!\n");
    hello.close();
    if (QFile::exists(hako)) {
        double best = 1e9;
        for (int i = 0; i < 10; ++i) {
            QProcess p;
            t.restart();
            p.start(hako, {QStringLiteral("run"), hello.fileName()});
            p.waitForFinished();
            best = std::min(best, t.nsecsElapsed() / 1e6);
        }
        std::printf("BENCH hako_run_hello_wall %.1f ms\n", best);
    }
    return checked.program ? 0 : 1;
}
