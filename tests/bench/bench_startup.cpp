// Start-up of the command line as a user sees it, process start included: `hako --version` and
// `hako run` of a model-free hello world, each the median of HAKO_BENCH_STARTUP_RUNS runs (21):
// wall time, and CPU time (user + system, steadier than wall time on a busy machine).
// Spawned with posix_spawn and timed to the reaped exit, so the figure is the command's own
// cost and not that of a Qt process launcher. Settings and data go to a temporary folder, so
// the user's prompt log and settings play no part.
#include "benchproc.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

extern char** environ;

namespace {

struct Timing {
    double wallMs = -1; ///< negative: could not be started, or did not exit with 0
    double cpuMs = 0;
};

/// From spawning `args` (stdout and stderr to /dev/null) to reaping it.
Timing spawnTimed(const std::vector<std::string>& args)
{
    std::vector<char*> argv;
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int failed = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed)
        return {};
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return {};
    auto toMs = [](const timeval& t) {
        return t.tv_sec * 1e3 + t.tv_usec / 1e3;
    };
    return {ms, toMs(usage.ru_utime) + toMs(usage.ru_stime)};
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

void benchCommand(const char* name, const std::vector<std::string>& args, int runs)
{
    spawnTimed(args); // warm-up: the page cache, not the first-ever start, is what users meet
    std::vector<double> wall;
    std::vector<double> cpu;
    for (int i = 0; i < runs; ++i) {
        const Timing t = spawnTimed(args);
        if (t.wallMs < 0) {
            std::printf("# bench_startup: %s failed\n", name);
            return;
        }
        wall.push_back(t.wallMs);
        cpu.push_back(t.cpuMs);
    }
    std::printf("BENCH %s %.1f ms\n", name, median(wall));
    std::printf("BENCH %s_cpu %.1f ms\n", name, median(cpu));
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QString hako = QCoreApplication::applicationDirPath() + QStringLiteral("/hako");
    if (!QFileInfo::exists(hako)) {
        std::printf("# bench_startup: %s not built, skipping\n", qPrintable(hako));
        return 0;
    }
    QTemporaryDir home;
    for (const char* variable : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
        qputenv(variable, home.path().toLocal8Bit());
    for (const char* variable : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        qunsetenv(variable);
    QFile hello(home.filePath(QStringLiteral("hello.pdl")));
    if (!hello.open(QIODevice::WriteOnly))
        return 1;
    hello.write("text:\n- Hello, world!\n");
    hello.close();

    const int runs = hako::benchproc::envInt("HAKO_BENCH_STARTUP_RUNS", 21);
    const std::string binary = hako.toStdString();
    benchCommand("startup_version", {binary, "--version"}, runs);
    benchCommand("startup_run_hello", {binary, "run", hello.fileName().toStdString()}, runs);
    return 0;
}
