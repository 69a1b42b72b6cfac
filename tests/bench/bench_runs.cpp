// The Runs list: a generated OTLP/JSON file of 1,000 agent runs (one request line each: an
// AGENT root with input and output, an LLM span with tokens and cost, a TOOL span; every third
// run in a session, every seventh failing) listed the way `hako traces` and the Runs dock list
// it (read, decode, one row per run), then filtered, sorted and grouped by session. Issue 28's
// target: listing under 1 s.
#include "core/otel/runsources.h"
#include "core/otel/runtable.h"
#include "otlprunsfixture.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace hako;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    constexpr int kRuns = 1000;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("runs.jsonl"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return 1;
    for (int i = 0; i < kRuns; ++i) {
        const std::string session = i % 3 == 0 ? "session-" + std::to_string(i / 30) : "";
        f.write(QByteArray::fromStdString(
            test::otlpRequest(
                test::agentRun(i, session, "user-" + std::to_string(i % 17), i % 7 == 0)) +
            "\n"));
    }
    f.close();

    double best = 1e18;
    size_t listed = 0;
    for (int round = 0; round < 3; ++round) {
        QElapsedTimer t;
        t.start();
        auto runs = otel::readRuns(path);
        const double ms = double(t.nsecsElapsed()) / 1e6;
        if (!runs) {
            std::fprintf(stderr, "%s\n", qPrintable(runs.error().message));
            return 1;
        }
        listed = runs->size();
        best = std::min(best, ms);
    }
    if (listed != size_t(kRuns)) {
        std::fprintf(stderr, "listed %zu runs, expected %d\n", listed, kRuns);
        return 1;
    }
    std::printf("BENCH runs_list_1000_otlp %.1f ms\n", best);

    std::vector<otel::RunRow> all = *otel::readRuns(path);
    QElapsedTimer t;
    t.start();
    std::vector<otel::RunRow> rows =
        otel::filterRuns(all, otel::RunFilter::parse("status:error user:user-1"));
    otel::sortRuns(all, otel::RunColumn::Tokens, false);
    const std::vector<otel::RunSession> sessions = otel::groupBySession(all);
    std::printf("BENCH runs_filter_sort_group_1000 %.2f ms\n", double(t.nsecsElapsed()) / 1e6);
    return rows.empty() || sessions.empty() ? 1 : 0;
}
