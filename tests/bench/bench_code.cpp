// Code blocks: python session start-up, one trivial exec round trip, 1 MB of captured stdout,
// an object call (a reduce step), and a command run.
#include "core/pdl/code/childprocess.h"
#include "core/pdl/code/commandrunner.h"
#include "core/pdl/code/pythonsession.h"

#include <chrono>
#include <cstdio>

using namespace hako;
using namespace hako::pdl;
using namespace hako::pdl::code;

namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace

int main()
{
    // Start-up: spawn python3 (from PATH, as runs do) and the driver until it answers; also
    // Debian's interpreter directly, since a PATH shim (pyenv) can dominate the figure.
    const int starts = 5;
    for (const char* python : {"python3", "/usr/bin/python3"}) {
        if (findExecutable(python).empty())
            continue;
        PythonSessionOptions options;
        options.python = python;
        double total = 0;
        for (int i = 0; i < starts; ++i) {
            PythonSession session(options);
            auto t = std::chrono::steady_clock::now();
            if (auto error = session.start()) {
                std::fprintf(stderr, "python did not start: %s\n", error->c_str());
                return 1;
            }
            total += millisecondsSince(t);
        }
        std::printf("BENCH python_session_start%s %.1f ms\n", python[0] == '/' ? "_usr_bin" : "",
                    total / starts);
    }

    PythonSession session;
    Dict globals{{Value("x"), Value(20)}, {Value("y"), Value(22)}};
    CodeOutcome first = session.exec("result = x + y", globals);
    if (!first.ok() || first.result.asInt() != 42) {
        std::fprintf(stderr, "unexpected result: %s\n", first.describe().c_str());
        return 1;
    }
    const int n = 2000;
    auto t = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        session.exec("result = x + y", globals);
    std::printf("BENCH python_exec_roundtrip %.1f us\n", millisecondsSince(t) * 1000.0 / n);

    const int m = 20;
    t = std::chrono::steady_clock::now();
    size_t captured = 0;
    for (int i = 0; i < m; ++i)
        captured += session.exec("import sys\nsys.stdout.write('x' * (1 << 20))\n", {}).out.size();
    if (captured != size_t(m) << 20) {
        std::fprintf(stderr, "captured %zu bytes\n", captured);
        return 1;
    }
    std::printf("BENCH python_stdout_1mb %.2f ms\n", millisecondsSince(t) / m);

    // Many print() calls (unbuffered: one write each) adding up to 1 MB.
    t = std::chrono::steady_clock::now();
    CodeOutcome lines = session.exec("for i in range(16384):\n    print('y' * 63)\n", {});
    std::printf("BENCH python_print_lines_1mb %.2f ms\n", millisecondsSince(t));
    if (lines.out.size() != 16384 * 64)
        return 1;

    CodeOutcome add = session.exec("import operator\nresult = operator.add", {});
    auto plus = add.result.asCallable();
    Value acc(0);
    t = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
        CallArgs args;
        args.positional = {acc, Value(i)};
        acc = plus->call(args);
    }
    std::printf("BENCH python_object_call %.1f us\n", millisecondsSince(t) * 1000.0 / n);

    const int c = 200;
    t = std::chrono::steady_clock::now();
    for (int i = 0; i < c; ++i)
        runCommand({"true"});
    std::printf("BENCH command_run_true %.2f ms\n", millisecondsSince(t) / c);
    return acc.asInt() == int64_t(n) * (n - 1) / 2 ? 0 : 1;
}
