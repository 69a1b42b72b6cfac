// The playground grid at the scale: 3 variants × 20 input rows against the local
// OpenAI-compatible test server answering each request after a fixed delay, through the real
// provider, at concurrency 4 (the default).
//   playground_request_delay_ms          the server's delay per request
//   playground_grid_3x20_c4_ms           the whole grid, first request to last reply
//   playground_column_sequential_ms_<n>  variant n's column alone, one call at a time
//   playground_slowest_column_ms         the slowest of those (what the issue compares with)
//   playground_grid_vs_slowest_column    grid time / slowest column time (< 1: the grid is done
//                                        before one column would be, run one call at a time)
//   playground_peak_in_flight            most requests the server held at once during the grid
// HAKO_BENCH_PLAYGROUND_DELAY_MS (default 100) and HAKO_BENCH_PLAYGROUND_ROWS (20) scale it.
#include "benchproc.h"
#include "core/models/openaiprovider.h"
#include "core/playground/playgroundrun.h"
#include "openaitestserver.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>

using namespace hako;
using namespace hako::playground;

namespace {

void bench(const std::string& name, double value, const char* unit)
{
    std::printf("BENCH %s %.3f %s\n", name.c_str(), value, unit);
    std::fflush(stdout);
}

PlaygroundPrompt variant(int n)
{
    PlaygroundPrompt p;
    p.model = QStringLiteral("bench-%1").arg(n);
    p.messages = {{QStringLiteral("system"), QStringLiteral("You are variant %1.").arg(n)},
                  {QStringLiteral("user"), QStringLiteral("Summarise ${ doc } for ${ who }")}};
    p.parameters.temperature = 0.1 * n;
    return p;
}

/// Runs the grid to its end on this thread's event loop; returns the elapsed ms.
double runGrid(const std::shared_ptr<models::IModelProvider>& provider,
               const QList<PlaygroundPrompt>& variants, const QList<QJsonObject>& rows,
               int concurrency, int* failures)
{
    PlaygroundRun run(provider);
    run.setVariants(variants);
    run.setInputs(rows);
    run.setConcurrency(concurrency);
    QObject::connect(&run, &PlaygroundRun::finished, qApp, &QCoreApplication::quit);
    QElapsedTimer clock;
    clock.start();
    run.start();
    QCoreApplication::exec();
    const double ms = double(clock.nsecsElapsed()) / 1e6;
    for (int r = 0; r < run.rowCount(); ++r)
        for (int v = 0; v < run.variantCount(); ++v)
            *failures += run.result({r, v, 0}).state != CellResult::State::Done;
    return ms;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int delay = benchproc::envInt("HAKO_BENCH_PLAYGROUND_DELAY_MS", 100);
    const int rowCount = benchproc::envInt("HAKO_BENCH_PLAYGROUND_ROWS", 20);

    testing::OpenAiTestServer server;
    if (!server.start()) {
        std::fprintf(stderr, "the test server did not start\n");
        return 1;
    }
    server.setDefaultDelayMs(delay);
    models::EndpointConfig config;
    config.baseUrl = server.baseUrl();
    config.maxRetries = 0;
    auto provider = std::make_shared<models::OpenAiProvider>(config);

    const QList<PlaygroundPrompt> variants = {variant(1), variant(2), variant(3)};
    QList<QJsonObject> rows;
    for (int i = 0; i < rowCount; ++i)
        rows << QJsonObject{{QStringLiteral("doc"), QStringLiteral("document %1").arg(i)},
                            {QStringLiteral("who"),
                             i % 2 ? QStringLiteral("a child") : QStringLiteral("an expert")}};
    int failures = 0;
    // One warm-up call so that the connection set-up is not in the grid's figure.
    runGrid(provider, {variants.front()}, {rows.front()}, 1, &failures);

    server.resetPeakInFlight();
    const double grid = runGrid(provider, variants, rows, 4, &failures);
    const int peak = server.peakRequestsInFlight();

    double slowest = 0;
    for (int v = 0; v < variants.size(); ++v) {
        const double column = runGrid(provider, {variants.at(v)}, rows, 1, &failures);
        bench("playground_column_sequential_ms_" + std::to_string(v + 1), column, "ms");
        slowest = std::max(slowest, column);
    }
    bench("playground_request_delay_ms", delay, "ms");
    bench("playground_grid_3x" + std::to_string(rowCount) + "_c4_ms", grid, "ms");
    bench("playground_slowest_column_ms", slowest, "ms");
    bench("playground_grid_vs_slowest_column", grid / slowest, "ratio");
    bench("playground_peak_in_flight", peak, "requests");
    if (failures > 0) {
        std::fprintf(stderr, "%d calls failed\n", failures);
        return 1;
    }
    return 0;
}
