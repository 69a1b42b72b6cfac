// Parsing speed of the PDL parser: a generated 1 MB program and, when the shared corpus is
// present, the largest recorded trace (a 3 MB single-line JSON document).
#include "core/pdl/parser/programparser.h"

#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace hako::pdl;

namespace {

QByteArray generateProgram(qsizetype targetBytes)
{
    QByteArray out = "description: generated benchmark program\ndefs:\n  f:\n    function:\n"
                     "      x: int\n    return: ${ x + 1 }\ntext:\n";
    int i = 0;
    while (out.size() < targetBytes) {
        const QByteArray n = QByteArray::number(i++);
        out += "- def: v" + n + "\n  data: {name: item " + n + ", list: [1, 2.5, yes, ~]}\n";
        out += "- model: ollama/granite\n  input: \"Question " + n + ": ${ v" + n +
               ".name }, héllo\"\n  parameters: {temperature: 0, stop: ['\\n']}\n";
        out += "- for:\n    x: ${ range(3) }\n  repeat:\n    text:\n    - |\n      line one " + n +
               "\n      line two\n    - call: ${ f }\n      args: {x: '${ x }'}\n"
               "  join: {with: \", \"}\n  maxIterations: 10\n";
        out += "- if: ${ v" + n + " }\n  then: plain text " + n +
               "\n  else:\n    lang: python\n"
               "    code: result = 1\n";
    }
    return out;
}

double medianMs(const QByteArray& text, const QString& name, int runs)
{
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer t;
        t.start();
        ParseResult result = parseProgramText(text, name);
        times.push_back(t.nsecsElapsed() / 1e6);
        if (!result.ok()) {
            std::fprintf(stderr, "unexpected errors in %s: %s\n", qPrintable(name),
                         qPrintable(result.diagnostics.front().toString()));
            return -1;
        }
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main()
{
    const QByteArray program = generateProgram(1 << 20);
    std::printf("BENCH pdl_parse_1mb %.1f ms\n", medianMs(program, "gen.pdl", 5));

    QFile trace(QStringLiteral(HAKO_SHARED_DIR "/data/traces/ibm-demo9.json"));
    if (trace.open(QIODevice::ReadOnly)) {
        const QByteArray text = trace.readAll();
        std::printf("BENCH pdl_parse_trace_3mb %.1f ms\n", medianMs(text, "ibm-demo9.json", 3));
    }
    return 0;
}
