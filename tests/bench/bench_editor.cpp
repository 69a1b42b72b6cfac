// The editor's live diagnostics: parse, structure, expression syntax and scope analysis of a
// 5,000-line program (what runs off the GUI thread after each pause in typing), and the time
// from the last keystroke to the result including the editor's debounce.
#include "core/pdl/programcheck.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace hako::pdl;

namespace {

// Debounce of EditorAnalysis (widgets/editor/editoranalysis.cpp).
constexpr double kDebounceMs = 40;

QByteArray generateProgram(int targetLines)
{
    QByteArray out = "description: generated editor benchmark\ndefs:\n  f:\n    function:\n"
                     "      x: int\n    return: ${ x + 1 }\ntext:\n";
    int i = 0;
    while (out.count('\n') < targetLines) {
        const QByteArray n = QByteArray::number(i++);
        out += "- def: v" + n + "\n  data: {name: \"item " + n + "\", list: [1, 2.5, yes, ~]}\n";
        out += "- model: ollama/granite\n  input: \"Question " + n + ": ${ v" + n +
               ".name }, 日本語\"\n  parameters: {temperature: 0, stop: ['\\n']}\n";
        out += "- for:\n    x: ${ range(3) }\n  index: k\n  repeat:\n    text:\n    - |\n"
               "      line one " +
               n +
               " ${ k }\n      line two ${ x | string }\n"
               "    - call: ${ f }\n      args: {x: '${ x }'}\n"
               "  join: {with: \", \"}\n  maxIterations: 10\n";
        out += "- if: ${ v" + n + " and undefined_" + n + " is defined }\n  then: plain text " + n +
               "\n  else:\n    lang: python\n    code: result = ${ v" + n + ".list }\n";
    }
    return out;
}

// CPU time of this thread: on a shared, loaded machine wall time mostly measures waiting.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

} // namespace

int main()
{
    const QByteArray program = generateProgram(5000);
    const int lines = int(program.count('\n'));
    int warnings = 0;
    std::vector<double> times;
    std::vector<double> cpuTimes;
    for (int r = 0; r < 15; ++r) {
        QElapsedTimer t;
        t.start();
        const double cpu = threadCpuMs();
        const ProgramReport report = analyzeProgramText(program, QStringLiteral("bench.pdl"));
        cpuTimes.push_back(threadCpuMs() - cpu);
        times.push_back(double(t.nsecsElapsed()) / 1e6);
        warnings = int(report.diagnostics.size());
    }
    std::sort(times.begin(), times.end());
    std::sort(cpuTimes.begin(), cpuTimes.end());
    const double median = times[times.size() / 2];
    // The parts: parsing with expression syntax checks, and the scope analysis alone.
    std::vector<double> parseTimes;
    std::vector<double> scopeTimes;
    for (int r = 0; r < 15; ++r) {
        QElapsedTimer t;
        t.start();
        const ParseResult parsed = checkProgramText(program, QStringLiteral("bench.pdl"));
        parseTimes.push_back(double(t.nsecsElapsed()) / 1e6);
        t.restart();
        if (parsed.program)
            analyzeScopes(*parsed.program, program);
        scopeTimes.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(parseTimes.begin(), parseTimes.end());
    std::sort(scopeTimes.begin(), scopeTimes.end());
    std::printf("BENCH diagnostics_5000_lines_check %.1f ms\n", parseTimes[parseTimes.size() / 2]);
    std::printf("BENCH diagnostics_5000_lines_scopes %.1f ms\n", scopeTimes[scopeTimes.size() / 2]);
    std::fprintf(stderr, "%d lines, %d diagnostics\n", lines, warnings);
    std::printf("BENCH diagnostics_5000_lines %.1f ms\n", median);
    std::printf("BENCH diagnostics_5000_lines_cpu %.1f ms\n", cpuTimes[cpuTimes.size() / 2]);
    std::printf("BENCH diagnostics_latency_5000_lines %.1f ms\n", median + kDebounceMs);
    return 0;
}
