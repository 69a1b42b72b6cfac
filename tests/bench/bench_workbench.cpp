// Workbench benchmarks: from `hako` to a shown, idle window, and a live run of 100,000 loop
// iterations fed into the trace model (what the GUI thread pays while a run streams).
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/tracefeed.h"
#include "core/pdl/trace/tracemodel.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtConcurrent>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace hako;
using namespace hako::pdl;

namespace {

void startup()
{
    const QString hako = QCoreApplication::applicationDirPath() + QStringLiteral("/hako");
    if (!QFileInfo::exists(hako)) {
        std::printf("# bench_workbench: %s not built, skipping start-up\n", qPrintable(hako));
        return;
    }
    QTemporaryDir settings;
    std::vector<double> times;
    for (int i = 0; i < 5; ++i) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HAKO_QUIT_WHEN_SHOWN"), QStringLiteral("1"));
        if (!env.contains(QStringLiteral("DISPLAY")))
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), settings.path());
        p.setProcessEnvironment(env);
        QElapsedTimer t;
        t.start();
        p.start(hako, {});
        if (!p.waitForFinished(30000)) {
            p.kill();
            std::printf("# bench_workbench: hako did not quit\n");
            return;
        }
        times.push_back(t.nsecsElapsed() / 1e6);
    }
    std::sort(times.begin(), times.end());
    std::printf("BENCH workbench_startup_to_window %.0f ms\n", times[times.size() / 2]);
}

void liveFeed(int iterations)
{
    const QByteArray text = "repeat:\n  text: \"${ i * 2 }\\n\"\nindex: i\nmaxIterations: " +
                            QByteArray::number(iterations) + "\njoin:\n  as: lastOf\n";
    ParseResult parsed = parseProgramText(text, QStringLiteral("bench.pdl"));
    if (!parsed.ok())
        return;
    TraceModel model;
    TraceFeed feed(&model);
    model.beginLiveRun(QStringLiteral("bench.pdl"));
    RunOptions o;
    o.trace = true;
    o.observer = &feed;
    auto program = parsed.program;
    QElapsedTimer t;
    t.start();
    QFuture<RunResult> f = QtConcurrent::run([program, o] {
        Interpreter interp(o);
        return interp.run(program);
    });
    int drains = 0;
    while (!f.isFinished()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        ++drains;
    }
    RunResult r = f.result();
    QCoreApplication::processEvents();
    feed.flush();
    model.endLiveRun(r.trace);
    std::printf("BENCH trace_live_run_%dk %.0f ms\n", iterations / 1000, t.nsecsElapsed() / 1e6);
    std::printf("BENCH trace_live_run_%dk_nodes %d nodes\n", iterations / 1000, model.itemCount());
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("BENCH trace_live_run_%dk_peak_rss %.0f MB\n", iterations / 1000,
                usage.ru_maxrss / 1024.0);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    startup();
    liveFeed(100000);
    return 0;
}
