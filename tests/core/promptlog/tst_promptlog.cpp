// The prompt log as runs and the monitor use it, against both stores: every case runs on a
// SQLite file and on a PostgreSQL server this test starts in a temporary folder (skipped, with
// the reason, when the server binaries are missing). The faults are tst_promptlogfaults.
#include "promptlogstores.h"

#include "core/promptlog/callexchange.h"
#include "core/promptlog/promptlog.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

using namespace hako::promptlog;
using namespace promptlogtest;

namespace {

constexpr int64_t kDay = 24 * 3600 * 1000;

CallRecord fullCall()
{
    CallRecord c;
    c.uid = QStringLiteral("3f1c2a9e-0000-4000-8000-000000000001");
    c.runId = QStringLiteral("run-1");
    c.programPath = QStringLiteral("/work/prog/summary.pdl");
    c.programHash = QStringLiteral("sha256:abc");
    c.promptName = QStringLiteral("summarize");
    c.span = {QStringLiteral("summary.pdl"), 12, 5, 18, 20};
    c.traceNodeId = QStringLiteral("n-42");
    c.tags = {QStringLiteral("prompt:summary"), QStringLiteral("env:test")};
    c.model = QStringLiteral("ollama/granite3.3:8b");
    c.endpoint = QStringLiteral("local");
    c.parameters =
        QJsonObject{{QStringLiteral("temperature"), 0.2}, {QStringLiteral("max_tokens"), 200}};
    c.messages = chat(QStringLiteral("You summarise."), QStringLiteral("銀河鉄道の夜を要約して"));
    c.reply = QStringLiteral("A boy rides a train through the stars.");
    c.toolCalls = QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("lookup")},
                                         {QStringLiteral("arguments"), QStringLiteral("{}")}}};
    c.finishReason = QStringLiteral("stop");
    c.promptTokens = 120;
    c.completionTokens = 30;
    c.cachedTokens = 20;
    c.timeToFirstTokenMs = 85.5;
    c.latencyMs = 640.25;
    c.cost = 0.0125;
    c.status = CallStatus::Ok;
    c.retries = 1;
    c.inputs = QJsonObject{{QStringLiteral("book"), QStringLiteral("ginga")}};
    c.startedAt = kNow - 1000;
    return c;
}

QStringList uids(const QList<CallRecord>& calls)
{
    QStringList out;
    for (const CallRecord& c : calls)
        out.append(c.uid);
    out.sort();
    return out;
}

} // namespace

class TestPromptLog : public QObject, public PromptLogStores {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { startStores(); }

    void recordedCallReadsBackWhole_data() { addBackends(); }
    void recordedCallReadsBackWhole()
    {
        FRESH_LOG(log);
        const CallRecord call = fullCall();
        QCOMPARE(log->record(call), call.uid);
        QVERIFY(log->flush());
        auto listed = log->list({}, true);
        QVERIFY2(listed, listed ? "" : qPrintable(listed.error().message));
        QCOMPARE(listed->size(), 1);
        CallRecord stored = listed->first();
        QVERIFY(stored.id > 0);
        stored.id = 0;
        QCOMPARE(stored.toJson(), call.toJson());
        QCOMPARE(stored, call);

        // Without content the metadata is all there and the bulk is not read.
        auto meta = log->list({}, false);
        QVERIFY(meta);
        QCOMPARE(meta->first().promptTokens, call.promptTokens);
        QCOMPARE(meta->first().tags, call.tags);
        QVERIFY(meta->first().messages.isEmpty());

        // Found by number, uid and uid prefix.
        const int64_t id = listed->first().id;
        for (const QString& key : {QString::number(id), call.uid, call.uid.left(8)}) {
            auto found = log->find(key);
            QVERIFY2(found, found ? "" : qPrintable(found.error().message));
            QCOMPARE(found->uid, call.uid);
            QCOMPARE(found->reply, call.reply);
        }
        QVERIFY(!log->find(QStringLiteral("999999")));

        // A call recorded without id or time gets both.
        CallRecord bare = simpleCall(QStringLiteral("p"), QStringLiteral("m"), 0);
        const QString uid = log->record(bare);
        QVERIFY(!uid.isEmpty());
        QVERIFY(log->flush());
        auto b = log->find(uid);
        QVERIFY(b);
        QVERIFY(std::abs(b->startedAt - QDateTime::currentMSecsSinceEpoch()) < 3600 * 1000);
        QCOMPARE(log->writerState().written, int64_t(2));
    }

    // `hako log show PREFIX`: a prefix names one call, never a pattern; two calls sharing it are
    // refused rather than one picked.
    void findTakesAUidPrefixLiterally_data() { addBackends(); }
    void findTakesAUidPrefixLiterally()
    {
        FRESH_LOG(log);
        for (const char* uid : {"a%_*?[b-one", "a%_*?[b-two", "zzzzzzzz-three"}) {
            CallRecord c = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow);
            c.uid = QLatin1String(uid);
            log->record(c);
        }
        QVERIFY(log->flush());
        auto one = log->find(QStringLiteral("a%_*?[b-o"));
        QVERIFY2(one, one ? "" : qPrintable(one.error().message));
        QCOMPARE(one->uid, QStringLiteral("a%_*?[b-one"));
        auto both = log->find(QStringLiteral("a%_*?[b-"));
        QVERIFY(!both);
        QVERIFY2(both.error().message.contains(QLatin1String("more than one")),
                 qPrintable(both.error().message));
        // Each wildcard of LIKE and GLOB stands for itself.
        for (const char* key : {"%%%%%%%%", "________", "********", "????????", "[a-z]%_*?",
                                "a_%*?[b-o", "a%_*?[b?o"})
            QVERIFY2(!log->find(QLatin1String(key)), key);
    }

    void statsSumWhatWasRecorded_data() { addBackends(); }
    void statsSumWhatWasRecorded()
    {
        FRESH_LOG(log);
        const QStringList prompts = {QStringLiteral("summarize"), QStringLiteral("react"),
                                     QStringLiteral("action")};
        const QStringList models = {QStringLiteral("gpt-4o-mini"), QStringLiteral("ollama/x")};
        const QStringList tags = {QStringLiteral("env:test"), QStringLiteral("team:a"),
                                  QStringLiteral("team:b")};
        // Enough calls that a SQLite log is read in parallel slices (merged) as a large one is.
        std::vector<CallRecord> calls;
        for (int i = 0; i < 6007; ++i) {
            CallRecord c = simpleCall(prompts[i % 3], models[i % 2], kNow - (i % 4) * kDay);
            c.promptTokens = 100 + i * 7;
            c.completionTokens = i % 5 == 0 ? std::nullopt : std::optional<int64_t>(i * 3);
            c.latencyMs = i % 11 == 0 ? std::nullopt : std::optional<double>(50 + (i * 37) % 400);
            c.cost = models[i % 2] == QLatin1String("ollama/x")
                         ? std::nullopt
                         : std::optional<double>(0.001 * (i + 1));
            c.status = i % 7 == 0 ? CallStatus::Failed
                                  : (i % 13 == 0 ? CallStatus::Cancelled : CallStatus::Ok);
            if (i % 6 != 0)
                c.tags = {tags[i % 3]};
            if (i % 4 == 0)
                c.tags.append(QStringLiteral("env:test"));
            if (i % 9 == 0)
                c.tags.append(QStringLiteral("note:\"a, b\""));
            c.tags.removeDuplicates();
            c.uid = QStringLiteral("s-%1").arg(i);
            if (i < 100)
                log->record(c); // through the writer, the rest at once
            calls.push_back(c);
        }
        QVERIFY(log->flush());
        QCOMPARE(*log->insertNow({calls.begin() + 100, calls.end()}), int64_t(calls.size() - 100));

        struct Expect {
            int64_t calls = 0, ok = 0, in = 0, out = 0;
            double cost = 0;
            bool hasCost = false;
            std::vector<double> lat;
        };
        auto expected = [&](StatsGroup g) {
            std::map<QString, Expect> m;
            for (const CallRecord& c : calls) {
                QStringList keys;
                if (g == StatsGroup::Prompt)
                    keys = {c.promptName};
                else if (g == StatsGroup::Model)
                    keys = {c.model};
                else if (g == StatsGroup::Day)
                    keys = {utcDay(c.startedAt)};
                else
                    keys = c.tags.isEmpty() ? QStringList{QString()} : c.tags;
                for (const QString& k : keys) {
                    Expect& e = m[k];
                    ++e.calls;
                    e.ok += c.status == CallStatus::Ok;
                    e.in += c.promptTokens.value_or(0);
                    e.out += c.completionTokens.value_or(0);
                    if (c.cost) {
                        e.cost += *c.cost;
                        e.hasCost = true;
                    }
                    if (c.latencyMs)
                        e.lat.push_back(*c.latencyMs);
                }
            }
            return m;
        };
        // The nearest rank, computed the long way: sorted, index ceil(p·n) − 1.
        auto rank = [](std::vector<double> v, double p) -> std::optional<double> {
            if (v.empty())
                return std::nullopt;
            std::sort(v.begin(), v.end());
            return v[size_t(std::ceil(p * double(v.size()))) - 1];
        };
        for (StatsGroup g :
             {StatsGroup::Prompt, StatsGroup::Model, StatsGroup::Tag, StatsGroup::Day}) {
            auto rows = log->stats(g);
            QVERIFY2(rows, rows ? "" : qPrintable(rows.error().message));
            const auto want = expected(g);
            QCOMPARE(rows->size(), qsizetype(want.size()));
            int64_t totalCalls = 0;
            for (const StatsRow& r : *rows) {
                QVERIFY2(want.count(r.key), qPrintable(groupName(g) + QLatin1Char(' ') + r.key));
                const Expect& e = want.at(r.key);
                QCOMPARE(r.calls, e.calls);
                QCOMPARE(r.okCalls, e.ok);
                QCOMPARE(r.tokensIn, e.in);
                QCOMPARE(r.tokensOut, e.out);
                QCOMPARE(r.cost.has_value(), e.hasCost);
                if (e.hasCost)
                    QVERIFY(std::abs(*r.cost - e.cost) < 1e-9);
                QCOMPARE(r.p50LatencyMs, rank(e.lat, 0.5));
                QCOMPARE(r.p95LatencyMs, rank(e.lat, 0.95));
                totalCalls += r.calls;
            }
            if (g != StatsGroup::Tag)
                QCOMPARE(totalCalls, int64_t(calls.size()));
        }

        // A filtered table: only the failed calls of the last day.
        CallFilter failedToday;
        failedToday.status = CallStatus::Failed;
        failedToday.since = kNow - kDay / 2;
        auto rows = log->stats(StatsGroup::Prompt, failedToday);
        QVERIFY(rows);
        int64_t n = 0;
        for (const StatsRow& r : *rows) {
            QCOMPARE(r.okCalls, int64_t(0));
            n += r.calls;
        }
        const auto failed = std::count_if(calls.begin(), calls.end(), [](const CallRecord& c) {
            return c.status == CallStatus::Failed && c.startedAt >= kNow - kDay / 2;
        });
        QCOMPARE(n, int64_t(failed));

        // Sorted by tokens, the biggest consumer comes first.
        QList<StatsRow> byTokens = *log->stats(StatsGroup::Prompt);
        sortStats(byTokens, StatsColumn::Tokens);
        for (qsizetype i = 1; i < byTokens.size(); ++i)
            QVERIFY(byTokens[i - 1].tokensIn + byTokens[i - 1].tokensOut >=
                    byTokens[i].tokensIn + byTokens[i].tokensOut);
    }

    void seriesCountWhatWasRecorded_data() { addBackends(); }
    void seriesCountWhatWasRecorded()
    {
        FRESH_LOG(log);
        // Calls spread over six days (one outside the range), two prompts, some tagged.
        const SeriesRange range = SeriesRange::ending(kNow, kDay, 5);
        QCOMPARE(range.untilMs() > kNow, true);
        QCOMPARE(range.fromMs % kDay, int64_t(0));
        std::vector<CallRecord> calls;
        for (int i = 0; i < 240; ++i) {
            CallRecord c = simpleCall(i % 2 ? QStringLiteral("answer") : QStringLiteral("plan"),
                                      QStringLiteral("m"), kNow - (i % 6) * kDay - i);
            c.promptTokens = i;
            c.completionTokens = i % 3 == 0 ? std::nullopt : std::optional<int64_t>(2 * i);
            c.latencyMs = i % 4 == 0 ? std::nullopt : std::optional<double>(10 * i);
            c.status = i % 5 == 0 ? CallStatus::Failed : CallStatus::Ok;
            if (i % 3 == 1)
                c.tags = {QStringLiteral("env:test"), QStringLiteral("team:a")};
            c.uid = QStringLiteral("series-%1").arg(i);
            calls.push_back(c);
        }
        QCOMPARE(*log->insertNow(calls), int64_t(calls.size()));

        auto expect = [&](const QString& key, auto keysOf, const CallFilter& filter) {
            TimeSeries e(key, range.buckets);
            for (const CallRecord& c : calls) {
                if (c.startedAt < range.fromMs || c.startedAt >= range.untilMs())
                    continue;
                if (filter.status && c.status != *filter.status)
                    continue;
                if (!keysOf(c).contains(key))
                    continue;
                const size_t b = size_t((c.startedAt - range.fromMs) / range.bucketMs);
                ++e.calls[b];
                e.okCalls[b] += c.status == CallStatus::Ok;
                e.tokens[b] += c.promptTokens.value_or(0) + c.completionTokens.value_or(0);
                if (c.latencyMs) {
                    e.latencySumMs[b] += *c.latencyMs;
                    ++e.latencyCount[b];
                }
            }
            return e;
        };
        auto find = [](const QList<TimeSeries>& all, const QString& key) {
            for (const TimeSeries& t : all)
                if (t.key == key)
                    return t;
            return TimeSeries(QStringLiteral("<absent>"));
        };

        auto whole = log->series(std::nullopt, {}, range);
        QVERIFY2(whole, whole ? "" : qPrintable(whole.error().message));
        QCOMPARE(whole->size(), 1);
        QCOMPARE(whole->first(),
                 expect(QString(), [](const CallRecord&) { return QStringList{QString()}; }, {}));

        auto byPrompt = log->series(StatsGroup::Prompt, {}, range);
        QVERIFY(byPrompt);
        QCOMPARE(byPrompt->size(), 2);
        auto prompt = [](const CallRecord& c) {
            return QStringList{c.promptName};
        };
        for (const QString& p : {QStringLiteral("answer"), QStringLiteral("plan")})
            QCOMPARE(find(*byPrompt, p), expect(p, prompt, {}));

        // By tag, untagged calls under ""; with a filter that the range narrows further.
        CallFilter failed;
        failed.status = CallStatus::Failed;
        auto byTag = log->series(StatsGroup::Tag, failed, range);
        QVERIFY(byTag);
        auto tagsOf = [](const CallRecord& c) {
            return c.tags.isEmpty() ? QStringList{QString()} : c.tags;
        };
        for (const QString& t : {QString(), QStringLiteral("env:test"), QStringLiteral("team:a")})
            QCOMPARE(find(*byTag, t), expect(t, tagsOf, failed));
    }

    void listingSortsByAnyColumn_data() { addBackends(); }
    void listingSortsByAnyColumn()
    {
        FRESH_LOG(log);
        std::vector<CallRecord> calls;
        for (int i = 0; i < 9; ++i) {
            CallRecord c =
                simpleCall(QStringLiteral("p%1").arg(8 - i), QStringLiteral("m"), kNow + i);
            c.promptTokens = i % 3 == 0 ? std::nullopt : std::optional<int64_t>(i * 10);
            c.uid = QStringLiteral("o-%1").arg(i);
            calls.push_back(c);
        }
        QVERIFY(log->insertNow(calls));
        CallFilter f;
        f.orderBy = CallFilter::Order::TokensIn;
        auto tokens = [&](bool descending) {
            f.descending = descending;
            QList<std::optional<int64_t>> out;
            // Held in a variable: a range-for over `*temporary` would read a destroyed list.
            const auto listed = log->list(f);
            for (const CallRecord& c : *listed)
                out.append(c.promptTokens);
            return out;
        };
        using T = std::optional<int64_t>;
        // A missing count is below every present one, in both dialects.
        QCOMPARE(tokens(true), (QList<T>{80, 70, 50, 40, 20, 10, T(), T(), T()}));
        QCOMPARE(tokens(false), (QList<T>{T(), T(), T(), 10, 20, 40, 50, 70, 80}));
        f.orderBy = CallFilter::Order::Prompt;
        f.descending = false;
        f.limit = 3;
        f.offset = 2;
        QStringList prompts;
        const auto byPrompt = log->list(f);
        for (const CallRecord& c : *byPrompt)
            prompts << c.promptName;
        QCOMPARE(prompts,
                 (QStringList{QStringLiteral("p2"), QStringLiteral("p3"), QStringLiteral("p4")}));
    }

    void filtersSelectTheirCalls_data() { addBackends(); }
    void filtersSelectTheirCalls()
    {
        FRESH_LOG(log);
        CallRecord a =
            simpleCall(QStringLiteral("react"), QStringLiteral("gpt-4o"), kNow - 3 * kDay);
        a.tags = {QStringLiteral("env:prod"), QStringLiteral("agent")};
        a.runId = QStringLiteral("r1");
        CallRecord b =
            simpleCall(QStringLiteral("action"), QStringLiteral("gpt-4o-mini"), kNow - kDay);
        b.tags = {QStringLiteral("env:prod")};
        b.status = CallStatus::Failed;
        b.runId = QStringLiteral("r1");
        CallRecord c = simpleCall(QStringLiteral("react"), QStringLiteral("ollama/granite"), kNow);
        c.tags = {QStringLiteral("env:test"), QStringLiteral("agent")};
        c.runId = QStringLiteral("r2");
        CallRecord d = simpleCall(QStringLiteral("re*act"), QStringLiteral("o?"), kNow);
        d.runId = QStringLiteral("r3");
        for (CallRecord* x : {&a, &b, &c, &d})
            x->uid = log->record(*x);
        QVERIFY(log->flush());

        auto check = [&](const CallFilter& f, const QStringList& want) {
            auto got = log->list(f);
            QVERIFY2(got, got ? "" : qPrintable(got.error().message));
            QStringList w = want;
            w.sort();
            QCOMPARE(uids(*got), w);
            QCOMPARE(*log->count(f), int64_t(want.size()));
        };
        CallFilter f;
        check(f, {a.uid, b.uid, c.uid, d.uid});
        f.tags = {QStringLiteral("env:prod")};
        check(f, {a.uid, b.uid});
        f.tags = {QStringLiteral("env:prod"), QStringLiteral("agent")};
        check(f, {a.uid});
        f = {};
        f.tags = {QStringLiteral("env")}; // tags match whole
        check(f, {});
        f = {};
        f.prompt = QStringLiteral("react");
        check(f, {a.uid, c.uid});
        f.prompt = QStringLiteral("re*");
        check(f, {a.uid, c.uid, d.uid});
        f.prompt = QStringLiteral("re*act"); // '*' is a wildcard; the literal name matches too
        check(f, {a.uid, c.uid, d.uid});
        f = {};
        f.model = QStringLiteral("gpt-4o*");
        check(f, {a.uid, b.uid});
        f.model = QStringLiteral("o?"); // '?' is no wildcard
        check(f, {d.uid});
        f.model = QStringLiteral("GPT-4O"); // names are case-sensitive
        check(f, {});
        f = {};
        f.status = CallStatus::Failed;
        check(f, {b.uid});
        f = {};
        f.since = kNow - 2 * kDay;
        check(f, {b.uid, c.uid, d.uid});
        f.until = kNow - kDay + 1;
        check(f, {b.uid});
        f = {};
        f.runId = QStringLiteral("r1");
        check(f, {a.uid, b.uid});

        // Newest first, paged.
        CallFilter page;
        page.limit = 2;
        auto first = log->list(page);
        QVERIFY(first);
        QCOMPARE(first->size(), 2);
        QVERIFY(first->at(0).startedAt >= first->at(1).startedAt);
        page.offset = 2;
        auto second = log->list(page);
        QVERIFY(second);
        QCOMPARE(second->size(), 2);
        QCOMPARE(second->last().uid, a.uid);
    }

    void fullTextFindsJapaneseOfAnyLength_data() { addBackends(); }
    void fullTextFindsJapaneseOfAnyLength()
    {
        FRESH_LOG(log);
        CallRecord a = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow);
        a.messages = chat(QStringLiteral("あなたは司書です。"),
                          QStringLiteral("銀河鉄道の夜について教えて"));
        a.reply = QStringLiteral("ジョバンニの物語です。Hello Stars");
        CallRecord b = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow);
        b.messages = chat(QStringLiteral("system"), QStringLiteral("今日の天気は晴れ"));
        b.reply = QStringLiteral("傘はいりません。最後に銀河");
        CallRecord c = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow);
        c.messages = chat(QStringLiteral("plain"), QStringLiteral("nothing to see, \"quoted\""));
        c.reply = QStringLiteral("role play: abcd cde 100% off_ x*y");
        for (CallRecord* x : {&a, &b, &c})
            x->uid = log->record(*x);
        QVERIFY(log->flush());

        auto search = [&](const QString& text) {
            CallFilter f;
            f.text = text;
            auto got = log->list(f);
            return got ? uids(*got) : QStringList{QStringLiteral("error: ") + got.error().message};
        };
        auto sorted = [](QStringList l) {
            l.sort();
            return l;
        };
        QCOMPARE(search(QStringLiteral("銀河")), sorted({a.uid, b.uid})); // 2 characters
        QCOMPARE(search(QStringLiteral("鉄道の")), QStringList{a.uid});   // 3 characters
        QCOMPARE(search(QStringLiteral("銀河鉄道")), QStringList{a.uid});
        QCOMPARE(search(QStringLiteral("晴")), QStringList{b.uid}); // 1 character
        QCOMPARE(search(QStringLiteral("最後に銀河")),
                 QStringList{b.uid});                                 // in the reply, at its end
        QCOMPARE(search(QStringLiteral("司書")), QStringList{a.uid}); // in the system message
        QCOMPARE(search(QStringLiteral("hello stars")), QStringList{a.uid}); // ASCII case ignored
        QCOMPARE(search(QStringLiteral("\"Hello Stars\"")), QStringList{a.uid});
        QCOMPARE(search(QStringLiteral("銀河 天気")), QStringList{b.uid}); // every word
        QCOMPARE(search(QStringLiteral("\"quoted\"")), QStringList{c.uid});
        QCOMPARE(search(QStringLiteral("to see, \"")), QStringList{c.uid});
        // The messages' JSON is not searched: its keys and roles are not text.
        QCOMPARE(search(QStringLiteral("content")), QStringList{});
        QCOMPARE(search(QStringLiteral("user")), QStringList{});
        QCOMPARE(search(QStringLiteral("ro")), QStringList{c.uid});
        QCOMPARE(search(QStringLiteral("銀河鉄道の朝")), QStringList{});
        // Every trigram of "abcde" is in c, the word is not.
        QCOMPARE(search(QStringLiteral("abcde")), QStringList{});
        QCOMPARE(search(QStringLiteral("abcd")), QStringList{c.uid});
        QCOMPARE(search(QStringLiteral("0%")), QStringList{c.uid}); // LIKE's wildcards are text
        QCOMPARE(search(QStringLiteral("100% off_")), QStringList{c.uid});
        QCOMPARE(search(QStringLiteral("1_0")), QStringList{});
        QCOMPARE(search(QStringLiteral("f_")), QStringList{c.uid});
        QCOMPARE(search(QStringLiteral("o_")), QStringList{});
        QCOMPARE(search(QStringLiteral("x*y")), QStringList{c.uid});
        QCOMPARE(search(QStringLiteral("x*")), QStringList{c.uid});
        QCOMPARE(search(QStringLiteral("a*d")), QStringList{});
        QCOMPARE(search(QStringLiteral("%")), QStringList{c.uid});
        // Combined with other filters.
        CallFilter f;
        f.text = QStringLiteral("銀河");
        f.status = CallStatus::Ok;
        f.limit = 1;
        auto one = log->list(f);
        QVERIFY(one);
        QCOMPARE(one->size(), 1);
    }

    void redactionHappensBeforeStoring_data() { addBackends(); }
    void redactionHappensBeforeStoring()
    {
        PromptLogOptions options;
        options.privacy.userPatterns = {QStringLiteral("ACME-[0-9]{6}")};
        FRESH_LOG(log, options);
        CallRecord c = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow);
        c.messages = chat(QStringLiteral("Key: sk-proj-abcdefghijklmnop1234567890"),
                          QStringLiteral("Mail taro.yamada@example.co.jp or call 03-1234-5678 "
                                         "about ACME-123456, shipped 2024-05-01."));
        c.reply = QStringLiteral("Write to alice@example.com; use sk-abcdefghijklmnopqrstuvwx "
                                 "with header Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y");
        c.inputs = QJsonObject{{QStringLiteral("contact"), QStringLiteral("bob@example.org")}};
        c.error = QStringLiteral("401 for key sk-abcdefghijklmnopqrstuvwx");
        const QString uid = log->record(c);
        QVERIFY(log->flush());
        auto stored = log->find(uid);
        QVERIFY(stored);
        QCOMPARE(stored->reply,
                 QStringLiteral("Write to [REDACTED:email]; use [REDACTED:key] with header "
                                "Authorization: Bearer [REDACTED:key]"));
        QCOMPARE(stored->messages.at(0).toObject().value(QLatin1String("content")).toString(),
                 QStringLiteral("Key: [REDACTED:key]"));
        QCOMPARE(stored->messages.at(1).toObject().value(QLatin1String("content")).toString(),
                 QStringLiteral("Mail [REDACTED:email] or call [REDACTED:phone] about [REDACTED], "
                                "shipped 2024-05-01."));
        QCOMPARE(stored->inputs.value(QLatin1String("contact")).toString(),
                 QStringLiteral("[REDACTED:email]"));
        QCOMPARE(stored->error, QStringLiteral("401 for key [REDACTED:key]"));
        // Nothing of the secrets is searchable either.
        CallFilter f;
        f.text = QStringLiteral("alice");
        QCOMPARE(log->list(f)->size(), 0);
        f.text = QStringLiteral("sk-abc");
        QCOMPARE(log->list(f)->size(), 0);
        f.text = QStringLiteral("REDACTED:email");
        QCOMPARE(log->list(f)->size(), 1);
    }

    void metadataOnlyKeepsNoContent_data() { addBackends(); }
    void metadataOnlyKeepsNoContent()
    {
        PromptLogOptions options;
        options.privacy.metadataOnlyTags = {QStringLiteral("customer:*")};
        options.privacy.metadataOnlyFolders = {QStringLiteral("/srv/legal")};
        FRESH_LOG(log, options);
        CallRecord tagged = fullCall();
        tagged.tags = {QStringLiteral("customer:acme")};
        CallRecord inFolder = fullCall();
        inFolder.uid = QStringLiteral("folder-call");
        inFolder.programPath = QStringLiteral("/srv/legal/contracts/review.pdl");
        CallRecord besideFolder = fullCall();
        besideFolder.uid = QStringLiteral("beside-call");
        besideFolder.programPath = QStringLiteral("/srv/legalese/review.pdl");
        for (const CallRecord& c : {tagged, inFolder, besideFolder})
            log->record(c);
        QVERIFY(log->flush());
        for (const QString& uid : {tagged.uid, inFolder.uid}) {
            auto s = log->find(uid);
            QVERIFY(s);
            QVERIFY(s->contentOmitted);
            QVERIFY(s->messages.isEmpty());
            QVERIFY(s->reply.isEmpty());
            QVERIFY(s->toolCalls.isEmpty());
            QVERIFY(s->inputs.isEmpty());
            // The numbers the monitor needs stay.
            QCOMPARE(s->promptTokens, tagged.promptTokens);
            QCOMPARE(s->latencyMs, tagged.latencyMs);
            QCOMPARE(s->promptName, tagged.promptName);
            QCOMPARE(s->model, tagged.model);
        }
        auto beside = log->find(besideFolder.uid);
        QVERIFY(beside);
        QVERIFY(!beside->contentOmitted);
        QCOMPARE(beside->reply, besideFolder.reply);
        CallFilter f;
        f.text = QStringLiteral("銀河鉄道");
        QCOMPARE(uids(*log->list(f)), QStringList{besideFolder.uid});
    }

    void exportImportRoundTrip_data() { addBackends(); }
    void exportImportRoundTrip()
    {
        FRESH_LOG(source);
        std::vector<CallRecord> calls;
        for (int i = 0; i < 2345; ++i) { // more than one export page
            CallRecord c = i == 0 ? fullCall()
                                  : simpleCall(QStringLiteral("p%1").arg(i % 5),
                                               QStringLiteral("m"), kNow - i);
            if (i > 0)
                c.reply = QStringLiteral("reply, with \"quotes\"\nand a line %1").arg(i);
            calls.push_back(c);
        }
        QCOMPARE(*source->insertNow(calls), int64_t(calls.size()));

        QBuffer jsonl;
        jsonl.open(QIODevice::ReadWrite);
        auto n = exportCalls(*source, {}, ExportFormat::Jsonl, jsonl);
        QVERIFY2(n, n ? "" : qPrintable(n.error().message));
        QCOMPARE(*n, int64_t(calls.size()));

        m_lastError.clear();
        auto target = freshLog(backend);
        QVERIFY2(target, qPrintable(m_lastError));
        jsonl.seek(0);
        auto imported = importCalls(*target, jsonl);
        QVERIFY2(imported, imported ? "" : qPrintable(imported.error().message));
        QCOMPARE(imported->read, int64_t(calls.size()));
        QCOMPARE(imported->added, int64_t(calls.size()));
        CallFilter all;
        all.oldestFirst = true;
        auto a = source->list(all, true);
        auto b = target->list(all, true);
        QVERIFY(a && b);
        QCOMPARE(b->size(), a->size());
        for (qsizetype i = 0; i < a->size(); ++i) {
            CallRecord x = a->at(i), y = b->at(i);
            x.id = y.id = 0;
            QCOMPARE(y, x);
        }
        // Importing again adds nothing.
        jsonl.seek(0);
        auto again = importCalls(*target, jsonl);
        QVERIFY(again);
        QCOMPARE(again->added, int64_t(0));

        // A bad line stores nothing and says where it is.
        QBuffer bad;
        bad.setData(jsonl.data().left(jsonl.data().indexOf('\n') + 1) + "{\"id\": 5}\n");
        bad.open(QIODevice::ReadOnly);
        auto badImport = importCalls(*target, bad);
        QVERIFY(!badImport);
        QVERIFY2(badImport.error().message.startsWith(QLatin1String("line 2:")),
                 qPrintable(badImport.error().message));

        // CSV: a header and one record per call (quoted fields keep their commas and lines).
        QBuffer csv;
        csv.open(QIODevice::ReadWrite);
        CallFilter one;
        one.prompt = QStringLiteral("p1");
        auto rows = exportCalls(*source, one, ExportFormat::Csv, csv);
        QVERIFY(rows);
        const QByteArray text = csv.data();
        QVERIFY(text.startsWith("id,run_id,started_at,prompt,"));
        QCOMPARE(int64_t(text.count("\"reply, with \"\"quotes\"\"\nand a line ")), *rows);
        QCOMPARE(*rows, *source->count(one));
    }

    void retentionAndDeleteRun_data() { addBackends(); }
    void retentionAndDeleteRun()
    {
        FRESH_LOG(log);
        CallRecord old = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow - 40 * kDay);
        old.reply = QStringLiteral("ancient words");
        CallRecord mid = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow - 10 * kDay);
        CallRecord fresh1 = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow);
        fresh1.runId = QStringLiteral("doomed");
        fresh1.tags = {QStringLiteral("t")};
        CallRecord fresh2 = fresh1;
        fresh2.uid.clear();
        CallRecord fresh3 = simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow);
        for (const CallRecord& c : {old, mid, fresh1, fresh2, fresh3})
            log->record(c);
        QVERIFY(log->flush());
        QCOMPARE(*log->count({}), int64_t(5));

        auto deleted = log->deleteRun(QStringLiteral("doomed"));
        QVERIFY2(deleted, deleted ? "" : qPrintable(deleted.error().message));
        QCOMPARE(*deleted, int64_t(2));
        CallFilter tagged;
        tagged.tags = {QStringLiteral("t")};
        QCOMPARE(*log->count(tagged), int64_t(0));
        QCOMPARE(*log->deleteRun(QStringLiteral("doomed")), int64_t(0));

        QCOMPARE(*log->deleteOlderThan(kNow - 30 * kDay), int64_t(1));
        CallFilter ancient;
        ancient.text = QStringLiteral("ancient");
        QCOMPARE(*log->count(ancient), int64_t(0));
        QCOMPARE(*log->count({}), int64_t(2));
        auto check = log->integrityCheck();
        QVERIFY(check);
        QCOMPARE(*check, QStringLiteral("ok"));
    }

    void retentionRunsWhenTheLogOpens()
    {
        const QString path = m_dir.filePath(QStringLiteral("retention.sqlite"));
        {
            auto log = PromptLog::open(path);
            QVERIFY(log);
            log->record(simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow - 100 * kDay));
            log->record(simpleCall(QStringLiteral("p"), QStringLiteral("m"), kNow));
            QVERIFY(log->flush());
        }
        PromptLogOptions options;
        options.retentionDays = 30;
        auto log = PromptLog::open(path, nullptr, options);
        QVERIFY(log);
        QTRY_COMPARE(*log->count({}), int64_t(1));
        QCOMPARE(log->list({})->first().startedAt, kNow);
    }

    void pricesFillInCosts_data() { addBackends(); }
    void pricesFillInCosts()
    {
        PromptLogOptions options;
        options.prices.entries = {
            {QStringLiteral("gpt-4o-mini*"), 0.15, 0.60, 0.075},
            {QStringLiteral("gpt-4o*"), 2.5, 10.0, std::nullopt},
        };
        FRESH_LOG(log, options);
        CallRecord mini = simpleCall(QStringLiteral("p"), QStringLiteral("gpt-4o-mini-2024"), kNow);
        mini.promptTokens = 1'000'000;
        mini.cachedTokens = 400'000;
        mini.completionTokens = 100'000;
        CallRecord big = simpleCall(QStringLiteral("p"), QStringLiteral("gpt-4o"), kNow);
        big.promptTokens = 2000;
        big.completionTokens = 1000;
        CallRecord given = big;
        given.cost = 7.0; // the provider's own figure wins
        CallRecord unknown = simpleCall(QStringLiteral("q"), QStringLiteral("llama3"), kNow);
        CallRecord noTokens = simpleCall(QStringLiteral("q"), QStringLiteral("gpt-4o"), kNow);
        noTokens.promptTokens.reset();
        noTokens.completionTokens.reset();
        QStringList ids;
        for (const CallRecord& c : {mini, big, given, unknown, noTokens})
            ids.append(log->record(c));
        QVERIFY(log->flush());
        QVERIFY(std::abs(*log->find(ids[0])->cost - (0.6 * 0.15 + 0.4 * 0.075 + 0.1 * 0.6)) <
                1e-12);
        QVERIFY(std::abs(*log->find(ids[1])->cost - (2000 * 2.5 + 1000 * 10.0) / 1e6) < 1e-12);
        QCOMPARE(log->find(ids[2])->cost, std::optional<double>(7.0));
        QCOMPARE(log->find(ids[3])->cost, std::nullopt);
        QCOMPARE(log->find(ids[4])->cost, std::nullopt);
        // Unknown models show tokens only in the table.
        CallFilter q;
        q.prompt = QStringLiteral("q");
        auto rows = log->stats(StatsGroup::Model, q);
        QVERIFY(rows);
        for (const StatsRow& r : *rows)
            QCOMPARE(r.cost, std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestPromptLog)
#include "tst_promptlog.moc"
