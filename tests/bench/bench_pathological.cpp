// The pathological programs of issue 11 §3, each parsed and run in this process: time, CPU time
// and peak RSS above the RSS before it (VmHWM, reset between programs through
// /proc/self/clear_refs). Each must stay linear in its size, or be refused quickly with a clear
// error, never exhaust memory. `# ok:` / `# error:` lines on stderr say what each produced.
//
// HAKO_BENCH_NESTED (default 40000) sets the iterations of the `x: ${ [x] }` loops;
// HAKO_BENCH_ONLY=prefix runs only the programs whose name starts with it.
#include "benchproc.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <string>

using namespace hako;
using namespace hako::pdl;
using namespace hako::benchproc;

namespace {

// Parses and runs `program` (parsing counts: some programs are pathological for the loader),
// then hands the result to `use` (inside the measurement), and prints the figures as `name`.
void bench(const std::string& name, const std::string& program,
           const std::function<void(const RunResult&)>& use = {})
{
    if (const char* only = std::getenv("HAKO_BENCH_ONLY");
        only && *only && name.rfind(only, 0) != 0)
        return;
    const long before = statusKb("VmRSS");
    resetPeak();
    const std::clock_t c0 = std::clock();
    QElapsedTimer t;
    t.start();
    std::string outcome;
    {
        ParseResult p =
            parseProgramText(QByteArray::fromStdString(program), QStringLiteral("bench.pdl"));
        if (!p.ok()) {
            outcome = "error: " + (p.diagnostics.empty()
                                       ? std::string("parse failed")
                                       : p.diagnostics.front().toString().toStdString());
        } else {
            RunOptions o;
            o.writeStdout = [](std::string_view) {
            };
            Interpreter interp(o);
            RunResult r = interp.run(p.program);
            if (r.ok) {
                if (use)
                    use(r);
                // The start of the text, without rendering all of a joined text.
                std::string head;
                r.result.writeText([&](std::string_view s) {
                    if (head.size() < 60)
                        head += s.substr(0, 60 - head.size());
                });
                outcome = "ok: " + head;
            } else {
                outcome = "error: " + r.error.message.toStdString();
            }
        }
    }
    const double ms = t.nsecsElapsed() / 1e6;
    const double cpu = double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC;
    const long peak = (statusKb("VmHWM") - before) / 1024;
    std::fprintf(stderr, "# %s: %s\n", name.c_str(), outcome.substr(0, 200).c_str());
    std::printf("BENCH %s %.0f ms\n", name.c_str(), ms);
    std::printf("BENCH %s_cpu %.0f ms\n", name.c_str(), cpu);
    std::printf("BENCH %s_peak_rss %ld MB\n", name.c_str(), std::max(0L, peak));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int nested = envInt("HAKO_BENCH_NESTED", 40000);
    const std::string n = std::to_string(nested);
    const std::string k = std::to_string(nested / 1000) + "k";

    // `x: ${ [x] }` as a variable of the loop body: the list nests one level an iteration.
    bench("nested_list_defs_" + k, "defs:\n  x: 0\nlastOf:\n- repeat:\n    defs:\n"
                                   "      x: ${ [x] }\n    text: ''\n  maxIterations: " +
                                       n + "\n- done\n");
    // The same as the loop's result, joined as text (repeat's default join): the text is
    // quadratic in the iterations (1.6 GB for 40,000); nothing reads it here.
    bench("nested_list_text_join_" + k, "defs:\n  x: 0\nlastOf:\n- repeat:\n    def: x\n"
                                        "    data: ${ [x] }\n  maxIterations: " +
                                            n + "\n- done\n");
    // ... and written out as `hako run --stream none` writes the result (here to a counter):
    // the text is quadratic, so fewer iterations (HAKO_BENCH_NESTED_WRITTEN, default 10000).
    {
        const std::string w = std::to_string(envInt("HAKO_BENCH_NESTED_WRITTEN", 10000));
        const std::string name = "nested_list_text_join_written_" + w.substr(0, w.size() - 3) + "k";
        double written = 0;
        bench(name,
              "defs:\n  x: 0\nrepeat:\n  def: x\n  data: ${ [x] }\nmaxIterations: " + w + "\n",
              [&](const RunResult& r) {
                  r.result.writeText([&](std::string_view s) { written += double(s.size()); });
              });
        if (written > 0)
            std::printf("BENCH %s_bytes %.0f MB\n", name.c_str(), written / 1048576.0);
    }

    // A mapping with 1,000,000 keys (14 MB of YAML).
    {
        const int keys = envInt("HAKO_BENCH_KEYS", 1000000);
        std::string program = "lastOf:\n- data:\n";
        for (int i = 0; i < keys; ++i)
            program += "    k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
        program += "- done\n";
        bench(keys == 1000000 ? std::string("mapping_1m_keys")
                              : "mapping_" + std::to_string(keys / 1000) + "k_keys",
              program);
    }
    // One string holding 200,000 `${ }` templates.
    {
        std::string program = "defs:\n  a: 1\ntext: \"";
        for (int i = 0; i < 200000; ++i)
            program += "${ a } ";
        program += "\"\n";
        bench("templates_200k", program);
    }
    // Widths and sizes a program asks for, bounded like repetition.
    bench("format_width_percent", "text: \"${ '%999999999d' % 1 }\"\n");
    bench("format_width_braces", "text: \"${ '{:>999999999}'.format(1) }\"\n");
    bench("format_width_center", "text: \"${ 'x'.center(999999999) }\"\n");
    bench("lipsum_999999999", "text: \"${ lipsum(999999999) }\"\n");
    return 0;
}
