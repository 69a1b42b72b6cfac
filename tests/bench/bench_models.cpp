// The openai provider against the local test server on loopback: client cost per streamed
// token, first-token latency, and 1,000 sequential short calls.

#include "core/models/openaiprovider.h"
#include "openaitestserver.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace hako;
using namespace hako::models;
using hako::testing::OpenAiTestServer;
using hako::testing::ScriptedReply;

namespace {

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double threadCpuUs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

ChatRequest request(bool stream)
{
    ChatRequest r;
    r.model = "test-model";
    r.messages = {pdl::Value(pdl::Dict{{"role", "user"}, {"content", "hi"}})};
    r.stream = stream;
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    OpenAiTestServer server;
    if (!server.start()) {
        std::fprintf(stderr, "bench_models: cannot start the test server\n");
        return 1;
    }
    EndpointConfig config;
    config.baseUrl = server.baseUrl();
    OpenAiProvider provider(config);

    // Client overhead per streamed token: the caller thread's CPU time (SSE parsing, JSON,
    // accumulation, callback) and the wall time per token including the server.
    {
        const int tokens = 5000;
        QStringList words;
        for (int i = 0; i < tokens; ++i)
            words.append(QStringLiteral("tok%1 ").arg(i));
        provider.chat(request(false), {}, CancelToken()); // warm the connection
        server.enqueueChat(ScriptedReply::chatStream(words));
        int received = 0;
        const double cpu0 = threadCpuUs();
        const qint64 wall0 = nowNs();
        const auto r = provider.chat(
            request(true), [&](std::string_view) { ++received; }, CancelToken());
        const double wallUs = (nowNs() - wall0) / 1e3;
        const double cpuUs = threadCpuUs() - cpu0;
        if (!r || received != tokens) {
            std::fprintf(stderr, "bench_models: streaming failed\n");
            return 1;
        }
        std::printf("BENCH models_stream_token_client_cpu %.2f us\n", cpuUs / tokens);
        std::printf("BENCH models_stream_token_wall %.2f us\n", wallUs / tokens);
    }

    // First-token latency: from the server's write of the first content event to the callback.
    {
        std::vector<double> samples;
        for (int i = 0; i < 50; ++i) {
            ScriptedReply reply = ScriptedReply::chatStream({QStringLiteral("first")});
            reply.eventDelayMs = 5;
            reply.eventWrittenNs = std::make_shared<std::atomic<qint64>>(0);
            server.enqueueChat(reply);
            const auto stamp = reply.eventWrittenNs;
            provider.chat(
                request(true),
                [&](std::string_view) { samples.push_back((nowNs() - stamp->load()) / 1e3); },
                CancelToken());
        }
        std::sort(samples.begin(), samples.end());
        std::printf("BENCH models_first_token_latency_median %.1f us\n",
                    samples[samples.size() / 2]);
        std::printf("BENCH models_first_token_latency_p90 %.1f us\n",
                    samples[samples.size() * 9 / 10]);
    }

    // 1,000 sequential short (non-streamed) calls.
    {
        const qint64 t0 = nowNs();
        for (int i = 0; i < 1000; ++i) {
            if (!provider.chat(request(false), {}, CancelToken())) {
                std::fprintf(stderr, "bench_models: call %d failed\n", i);
                return 1;
            }
        }
        std::printf("BENCH models_1000_sequential_calls %.3f s\n", (nowNs() - t0) / 1e9);
    }
    return 0;
}
