// The prompt log at the scale.
//   promptlog_record_mean_us / _p99_us   PromptLog::record() on the caller's thread (a call with
//                                        2 KB of messages; target < 200 µs)
//   promptlog_writer_calls_per_s         calls the background writer commits per second, with
//                                        redaction, the price table and the full-text index
//                                        (target ≥ 10,000)
//   promptlog_writer_short_calls_per_s   the same for calls of about 200 characters
//   promptlog_generate_calls_per_s       writing the generated log (insertNow, batches of 10,000)
//   promptlog_stats_by_prompt_ms         `hako log stats --by prompt` over N calls (target
//                                        < 300 ms at 1,000,000); by model, tag, day likewise
//   promptlog_fts_ja2_first50_ms         the newest 50 calls containing a Japanese 2-character
//                                        term (what the pane shows first; target < 100 ms)
//   promptlog_fts_ja2_count_ms           every call containing it (a rare term: the whole
//                                        log is read, trigrams cannot answer 2 characters)
//   promptlog_fts_ja3_count_ms           the same for a 3-character term (trigram index)
//   promptlog_table_page_*_ms            a page of the calls table (200 rows) at the top, middle
//                                        and end of the log, newest first and by tokens
//   promptlog_file_mb                    the SQLite file's size
//   promptlog_queue_mb_per_1000          memory the calls recorded faster than they are written
//                                        hold while they wait, per 1,000 calls (bounded by
//                                        PromptLogOptions::maxBuffered)
// N defaults to 1,000,000 (2 KB of messages each: about 8 GB of disk and several minutes);
// HAKO_BENCH_PROMPTLOG_N scales it down. HAKO_BENCH_PROMPTLOG_DB=FILE keeps the generated log
// there and, when it holds N calls already, measures the queries on it without generating;
// HAKO_BENCH_PROMPTLOG_NO_PAGES leaves out the calls table's pages.
// HAKO_BENCH_PROMPTLOG_PG=postgresql://… also measures the stats there, then the writer
// (promptlog_pg_writer_calls_per_s; the database should be empty, the calls are added to it).
#include "benchproc.h"
#include "core/promptlog/promptlog.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

using namespace hako::promptlog;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

void bench(const char* name, double value, const char* unit)
{
    std::printf("BENCH %s %.3f %s\n", name, value, unit);
    std::fflush(stdout);
}

const QStringList kEnglish = {
    QStringLiteral("the"),     QStringLiteral("agent"),    QStringLiteral("memory"),
    QStringLiteral("thread"),  QStringLiteral("reply"),    QStringLiteral("summary"),
    QStringLiteral("answer"),  QStringLiteral("question"), QStringLiteral("context"),
    QStringLiteral("model"),   QStringLiteral("decide"),   QStringLiteral("whether"),
    QStringLiteral("comment"), QStringLiteral("post"),     QStringLiteral("character"),
    QStringLiteral("sheet"),   QStringLiteral("recent"),   QStringLiteral("relevant")};
const QStringList kJapanese = {
    QStringLiteral("要約して"), QStringLiteral("返信"),     QStringLiteral("記憶"),
    QStringLiteral("スレッド"), QStringLiteral("投稿"),     QStringLiteral("キャラクター"),
    QStringLiteral("判断"),     QStringLiteral("コメント"), QStringLiteral("最近の出来事"),
    QStringLiteral("関連"),     QStringLiteral("反応する"), QStringLiteral("無視する")};
const QStringList kPrompts = {QStringLiteral("react"),     QStringLiteral("action"),
                              QStringLiteral("insight"),   QStringLiteral("reflect"),
                              QStringLiteral("summarize"), QStringLiteral("classify"),
                              QStringLiteral("extract"),   QStringLiteral("translate")};
const QStringList kModels = {QStringLiteral("gpt-4o-mini"), QStringLiteral("gpt-4o"),
                             QStringLiteral("ollama/granite3.3:8b"),
                             QStringLiteral("ollama/qwen2.5:7b")};

// About 2 KB of messages: an English system prompt and a Japanese user turn; one call in
// 200 mentions 銀河 (the rare term searched for).
CallRecord makeCall(std::mt19937& rng, int64_t i, int64_t startedAt)
{
    std::uniform_int_distribution<int> en(0, int(kEnglish.size()) - 1);
    std::uniform_int_distribution<int> ja(0, int(kJapanese.size()) - 1);
    QString system;
    system.reserve(1100);
    while (system.size() < 1000) {
        system += kEnglish[en(rng)];
        system += QLatin1Char(' ');
    }
    QString user;
    user.reserve(400);
    while (user.size() < 330) // about 1 KB of UTF-8
        user += kJapanese[ja(rng)];
    if (i % 200 == 0)
        user += QStringLiteral("銀河");
    CallRecord c;
    c.runId = QStringLiteral("run-%1").arg(i / 20);
    c.promptName = kPrompts[int(i % kPrompts.size())];
    c.model = kModels[int((i / 3) % kModels.size())];
    c.tags = {QStringLiteral("env:%1").arg(i % 3 ? QStringLiteral("prod") : QStringLiteral("test")),
              QStringLiteral("team:%1").arg(i % 5)};
    c.messages = QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                        {QStringLiteral("content"), system}},
                            QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                        {QStringLiteral("content"), user}}};
    c.reply = QStringLiteral("{\"reaction\": \"react\", \"message_id\": \"%1\"}").arg(i);
    c.parameters = QJsonObject{{QStringLiteral("temperature"), 0.7}};
    c.promptTokens = 400 + int(i % 500);
    c.completionTokens = 20 + int(i % 300);
    c.latencyMs = 200 + double(rng() % 3000);
    c.status = i % 50 == 0 ? CallStatus::Failed : CallStatus::Ok;
    c.startedAt = startedAt;
    return c;
}

void measureQueries(PromptLog& log, const char* prefix, int64_t n)
{
    auto timed = [&](const QString& name, auto&& f) {
        // The first run warms the page cache; the figure is the best of three after it.
        // On a machine shared with other builds the wall time mostly measures waiting for a
        // core: the process's CPU time is printed beside it (_cpu).
        f();
        double best = 1e300;
        double bestCpu = 1e300;
        for (int i = 0; i < 3; ++i) {
            const auto t = Clock::now();
            const std::clock_t c = std::clock();
            f();
            best = std::min(best, msSince(t));
            bestCpu = std::min(bestCpu, 1000.0 * double(std::clock() - c) / CLOCKS_PER_SEC);
        }
        const QString full = QStringLiteral("%1%2").arg(QLatin1String(prefix), name);
        bench(qPrintable(full), best, "ms");
        if (log.kind() == PromptLog::Kind::Sqlite)
            bench(qPrintable(full + QStringLiteral("_cpu")), bestCpu, "ms");
    };
    for (StatsGroup g : {StatsGroup::Prompt, StatsGroup::Model, StatsGroup::Tag, StatsGroup::Day}) {
        timed(QStringLiteral("stats_by_%1_ms_%2").arg(groupName(g)).arg(n), [&] {
            auto rows = log.stats(g);
            if (!rows || rows->isEmpty())
                std::fprintf(stderr, "stats failed\n");
        });
    }
    // The calls table reads a page of 200 rows where the user scrolls to (the view paints
    // what is loaded and never waits): at the top, the middle and the end of the whole log,
    // newest first, and sorted by tokens.
    const bool pages = !qEnvironmentVariableIsSet("HAKO_BENCH_PROMPTLOG_NO_PAGES");
    for (const auto& [where, fraction] :
         std::vector<std::pair<const char*, double>>{{"top", 0.0}, {"middle", 0.5}, {"end", 1.0}}) {
        if (!pages)
            break;
        CallFilter page;
        page.limit = 200;
        page.offset = int(std::max<int64_t>(0, int64_t(double(n) * fraction) - 200));
        timed(QStringLiteral("table_page_%1_ms").arg(QLatin1String(where)),
              [&] { log.list(page); });
        page.orderBy = CallFilter::Order::TokensIn;
        timed(QStringLiteral("table_page_%1_by_tokens_ms").arg(QLatin1String(where)),
              [&] { log.list(page); });
    }
    if (log.kind() != PromptLog::Kind::Sqlite)
        return;
    CallFilter ja2;
    ja2.text = QStringLiteral("銀河");
    ja2.limit = 50;
    timed(QStringLiteral("fts_ja2_first50_ms"), [&] { log.list(ja2); });
    ja2.limit = 0;
    timed(QStringLiteral("fts_ja2_count_ms"), [&] { log.count(ja2); });
    CallFilter ja3;
    ja3.text = QStringLiteral("スレッド");
    timed(QStringLiteral("fts_ja3_first50_ms"), [&] {
        ja3.limit = 50;
        log.list(ja3);
    });
    CallFilter rare3;
    rare3.text = QStringLiteral("message_id\": \"%1\"").arg(n / 2);
    timed(QStringLiteral("fts_rare_count_ms"), [&] { log.count(rare3); });
}

// record() on the caller's thread, and what the writer sustains behind it, on the log at `spec`.
bool measureWriter(const QString& spec, const char* prefix, std::mt19937& rng, int64_t now)
{
    QString error;
    PromptLogOptions options;
    options.prices.entries = {{QStringLiteral("gpt-4o*"), 2.5, 10.0, std::nullopt}};
    auto log = PromptLog::open(spec, &error, options);
    if (!log || !error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return false;
    }
    const int calls = hako::benchproc::envInt("HAKO_BENCH_PROMPTLOG_CALLS", 30000);
    std::vector<CallRecord> prepared;
    prepared.reserve(calls);
    for (int i = 0; i < calls; ++i)
        prepared.push_back(makeCall(rng, i, now + i));
    std::vector<double> us;
    us.reserve(calls);
    const auto start = Clock::now();
    for (CallRecord& c : prepared) {
        const auto t = Clock::now();
        log->record(std::move(c));
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
    }
    log->flush(600000);
    const double seconds = msSince(start) / 1000.0;
    double sum = 0;
    for (double u : us)
        sum += u;
    std::sort(us.begin(), us.end());
    const QString p = QLatin1String(prefix);
    bench(qPrintable(p + QStringLiteral("record_mean_us")), sum / double(us.size()), "us");
    bench(qPrintable(p + QStringLiteral("record_p99_us")), us[size_t(double(us.size()) * 0.99)],
          "us");
    bench(qPrintable(p + QStringLiteral("writer_calls_per_s")), double(calls) / seconds, "calls/s");
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    if (!dir.isValid())
        return 1;
    const int64_t n = qEnvironmentVariableIsSet("HAKO_BENCH_PROMPTLOG_N")
                          ? qEnvironmentVariable("HAKO_BENCH_PROMPTLOG_N").toLongLong()
                          : 1000000;
    std::mt19937 rng(7);
    const int64_t now = 1767225600000; // 2026-01-01

    // 1. record() on the caller's thread, and what the writer sustains behind it.
    if (!measureWriter(dir.filePath(QStringLiteral("writer.sqlite")), "promptlog_", rng, now))
        return 1;
    // 1a. What calls waiting for a store that cannot be written hold in memory (the bound is
    // PromptLogOptions::maxBuffered calls): a log whose folder cannot be made.
    {
        PromptLogOptions options;
        options.connectOnOpen = false;
        auto log =
            PromptLog::open(QStringLiteral("/proc/hako-bench/none.sqlite"), nullptr, options);
        const int calls = 20000;
        const long before = hako::benchproc::statusKb("VmRSS");
        for (int i = 0; i < calls; ++i)
            log->record(makeCall(rng, i, now + i));
        const int64_t waiting = log->writerState().queued;
        const long after = hako::benchproc::statusKb("VmRSS");
        if (waiting == calls)
            bench("promptlog_queue_mb_per_1000",
                  double(std::max(0L, after - before)) / 1024.0 / (calls / 1000.0), "MB");
        log->close(0);
    }

    // 1b. The same with short calls (a 200-character prompt): the writer's own overhead.
    {
        QString error;
        auto log = PromptLog::open(dir.filePath(QStringLiteral("short.sqlite")), &error);
        if (!log || !error.isEmpty())
            return 1;
        const int calls = hako::benchproc::envInt("HAKO_BENCH_PROMPTLOG_SHORT_CALLS", 50000);
        std::vector<CallRecord> prepared;
        prepared.reserve(calls);
        for (int i = 0; i < calls; ++i) {
            CallRecord c = makeCall(rng, i, now + i);
            c.messages =
                QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                       {QStringLiteral("content"),
                                        QStringLiteral("Classify this post as react or ignore: %1")
                                            .arg(kJapanese[i % kJapanese.size()].repeated(12))}}};
            prepared.push_back(std::move(c));
        }
        const auto start = Clock::now();
        for (CallRecord& c : prepared)
            log->record(std::move(c));
        log->flush(600000);
        bench("promptlog_writer_short_calls_per_s", double(calls) / (msSince(start) / 1000.0),
              "calls/s");
    }

    // 2. A log of N calls, then the monitor's queries over it.
    const QString kept = qEnvironmentVariable("HAKO_BENCH_PROMPTLOG_DB");
    const QString path = kept.isEmpty() ? dir.filePath(QStringLiteral("big.sqlite")) : kept;
    PromptLogOptions bulk;
    bulk.privacy.builtinRedaction = false; // generated text has nothing to redact
    QString error;
    auto log = PromptLog::open(path, &error, bulk);
    if (!log || !error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::unique_ptr<PromptLog> pg;
    if (qEnvironmentVariableIsSet("HAKO_BENCH_PROMPTLOG_PG")) {
        pg = PromptLog::open(qEnvironmentVariable("HAKO_BENCH_PROMPTLOG_PG"), &error, bulk);
        if (!pg || !error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            pg.reset();
        }
    }
    const auto genStart = Clock::now();
    const int64_t batchSize = 10000;
    const int64_t span = 90LL * 24 * 3600 * 1000; // three months of calls
    const auto have = log->count({});
    const int64_t from = have && *have >= n && !pg ? n : 0; // a kept log of N calls: reuse it
    for (int64_t first = from; first < n; first += batchSize) {
        std::vector<CallRecord> batch;
        batch.reserve(size_t(batchSize));
        for (int64_t i = first; i < std::min(n, first + batchSize); ++i)
            batch.push_back(makeCall(rng, i, now - span + i * span / std::max<int64_t>(n, 1)));
        if (pg) {
            if (auto r = pg->insertNow(batch); !r) {
                std::fprintf(stderr, "%s\n", qPrintable(r.error().message));
                pg.reset();
            }
        }
        auto r = log->insertNow(std::move(batch));
        if (!r) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error().message));
            return 1;
        }
        if ((first / batchSize) % 20 == 19)
            std::fprintf(stderr, "generated %lld calls\n",
                         static_cast<long long>(first + batchSize));
    }
    if (from < n)
        bench("promptlog_generate_calls_per_s", double(n) / (msSince(genStart) / 1000.0),
              "calls/s");
    // The monitor reads a log written before it opened: opened again, so that no checkpoint of
    // the generation still runs beside the queries (their _cpu figures are the process's time).
    log.reset();
    log = PromptLog::open(path, &error, bulk);
    if (!log || !error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    bench("promptlog_file_mb",
          double(QFileInfo(path).size() + QFileInfo(path + QStringLiteral("-wal")).size()) / 1e6,
          "MB");
    measureQueries(*log, "promptlog_", n);
    if (pg) {
        measureQueries(*pg, "promptlog_pg_", n);
        pg.reset();
        measureWriter(qEnvironmentVariable("HAKO_BENCH_PROMPTLOG_PG"), "promptlog_pg_", rng, now);
    }
    return 0;
}
