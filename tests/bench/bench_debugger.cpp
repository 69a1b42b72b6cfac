// What the debugger costs: a loop of a million iterations (about three million blocks) run
// without a debugger, with one attached and nothing armed (keeping the background context for
// it to show, as `hako run --debug` and the workbench do, and without), and with a breakpoint set
// (on a block after the loop, whose condition is false). Prints `BENCH debugger_loop_1m_<mode> <ms>
// ms` and the cost per block.
#include "core/pdl/debug/debugger.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <string>

using namespace hako;
using namespace hako::pdl;

namespace {

const char* kLoop = "text:\n"
                    "- repeat:\n"
                    "    text: \"${ i * 2 }\\n\"\n"
                    "  index: i\n"
                    "  maxIterations: 1000000\n"
                    "  join:\n"
                    "    as: lastOf\n"
                    "- \"done\"\n";

// Milliseconds of the best of `runs` runs (the machine is shared with other builds).
double bestMs(const std::shared_ptr<const Program>& p, IDebugHook* debugger, int runs,
              uint64_t* blocks)
{
    double best = 1e18;
    for (int i = 0; i < runs; ++i) {
        RunOptions o;
        o.debugger = debugger;
        Interpreter interp(o);
        QElapsedTimer t;
        t.start();
        RunResult r = interp.run(p);
        best = std::min(best, t.nsecsElapsed() / 1e6);
        if (!r.ok) {
            std::fprintf(stderr, "run failed: %s\n", qPrintable(r.error.message));
            std::exit(1);
        }
    }
    // repeat body text + its data child per iteration, plus the outer blocks.
    *blocks = 2 * 1000000 + 4;
    return best;
}

} // namespace

int main()
{
    ParseResult parsed = parseProgramText(kLoop, QStringLiteral("bench.pdl"));
    if (!parsed.ok()) {
        std::fprintf(stderr, "bench program does not parse\n");
        return 1;
    }
    uint64_t blocks = 0;
    const double none = bestMs(parsed.program, nullptr, 3, &blocks);
    Debugger idle;
    const double attached = bestMs(parsed.program, &idle, 3, &blocks);
    Debugger lean;
    lean.setKeepContext(false);
    const double attachedNoContext = bestMs(parsed.program, &lean, 3, &blocks);
    // Armed: a breakpoint on a block of the program (never taken: its condition is false), so
    // every block is looked up in the breakpoint table.
    Debugger armed;
    armed.addBreakpoint(QStringLiteral("bench.pdl"), 8, "${ false }");
    const double withBreakpoint = bestMs(parsed.program, &armed, 3, &blocks);
    std::printf("BENCH debugger_loop_1m_detached %.0f ms\n", none);
    std::printf("BENCH debugger_loop_1m_attached %.0f ms\n", attached);
    std::printf("BENCH debugger_loop_1m_attached_without_context %.0f ms\n", attachedNoContext);
    std::printf("BENCH debugger_loop_1m_breakpoint_set %.0f ms\n", withBreakpoint);
    std::printf("BENCH debugger_cost_per_block_attached %.1f ns\n",
                (attached - none) * 1e6 / double(blocks));
    std::printf("BENCH debugger_cost_per_block_attached_without_context %.1f ns\n",
                (attachedNoContext - none) * 1e6 / double(blocks));
    std::printf("BENCH debugger_cost_per_block_breakpoint_set %.1f ns\n",
                (withBreakpoint - none) * 1e6 / double(blocks));
    return 0;
}
