#include "core/otel/otlpdecode.h"
#include "core/otel/otlpfile.h"
#include "core/otel/runsources.h"
#include "core/otel/runtable.h"
#include "core/pdl/value.h"
#include "core/promptlog/callrecord.h"
#include "otlprunsfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;
using namespace hako::otel;

namespace {

std::vector<Span> decode(const std::vector<test::FixtureSpan>& spans)
{
    auto decoded = decodeOtlpJson(test::otlpRequest(spans));
    if (!decoded)
        qFatal("fixture does not decode: %s", qPrintable(decoded.error().message));
    return *decoded;
}

// Three runs: 0 and 1 in session "chat-1" by alice, 2 alone by bob with a failed tool.
std::vector<RunRow> threeRuns()
{
    RunCollector c;
    c.add(decode(test::agentRun(0, "chat-1", "alice")));
    c.add(decode(test::agentRun(1, "chat-1", "alice")));
    c.add(decode(test::agentRun(2, "", "bob", true)));
    return c.rows();
}

QStringList names(const std::vector<RunRow>& rows)
{
    QStringList out;
    for (const RunRow& r : rows)
        out << QString::fromStdString(r.name);
    return out;
}

// What a run's row reads from a span, looked up name by name (the rule partOf() follows in
// one pass): the first of each list of names that holds a value.
RunCollector::Part partByNames(const Span& span)
{
    const Attributes& a = span.attributes;
    auto number = [&a](const char* key) -> std::optional<double> {
        auto it = a.find(key);
        if (it == a.end())
            return std::nullopt;
        if (it->is_number())
            return it->get<double>();
        if (it->is_string()) {
            const std::string& s = it->get_ref<const std::string&>();
            try {
                size_t used = 0;
                const double v = std::stod(s, &used);
                if (used == s.size())
                    return v;
            } catch (...) {
            }
        }
        return std::nullopt;
    };
    auto count = [&](std::initializer_list<const char*> keys) -> int64_t {
        for (const char* key : keys)
            if (auto v = number(key))
                return int64_t(*v);
        return 0;
    };
    auto first = [&a](std::initializer_list<const char*> keys) {
        for (const char* key : keys)
            if (std::string v = attrString(a, key); !v.empty())
                return v;
        return std::string();
    };
    RunCollector::Part p;
    p.prompt = count(
        {"llm.token_count.prompt", "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"});
    p.completion = count({"llm.token_count.completion", "gen_ai.usage.output_tokens",
                          "gen_ai.usage.completion_tokens"});
    if (auto c = number("llm.cost.total"); c || (c = number("gen_ai.usage.cost"))) {
        p.cost = *c;
        p.hasCost = true;
    }
    p.session = first({"session.id", "gen_ai.conversation.id"});
    p.user = first({"user.id", "enduser.id"});
    if (span.isRoot()) {
        p.input = first({"input.value", "gen_ai.prompt"});
        p.output = first({"output.value", "gen_ai.completion"});
    }
    return p;
}

} // namespace

class TestRunTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void collectsOneRowPerTrace()
    {
        const std::vector<RunRow> rows = threeRuns();
        QCOMPARE(names(rows), QStringList({"agent 0", "agent 1", "agent 2"}));
        const RunRow& r = rows[0];
        QCOMPARE(r.spans, 3);
        QCOMPARE(r.promptTokens, 100);
        QCOMPARE(r.completionTokens, 20);
        QVERIFY(r.cost.has_value());
        QCOMPARE(*r.cost, 0.5);
        QCOMPARE(r.session, std::string("chat-1"));
        QCOMPARE(r.user, std::string("alice"));
        QCOMPARE(r.input, std::string("question 0"));
        QCOMPARE(r.output, std::string("answer 0"));
        QCOMPARE(r.durationNanos(), 3000000000LL);
        QCOMPARE(r.status, RunStatus::Ok);
        QCOMPARE(rows[2].status, RunStatus::Error);
        QCOMPARE(rows[2].errors, 1);
        QVERIFY(rows[2].session.empty());
    }

    void tokensCountOncePerSpan_data()
    {
        QTest::addColumn<QStringList>("keys");
        QTest::addColumn<qint64>("prompt");
        QTest::addColumn<qint64>("completion");
        QTest::newRow("openinference")
            << QStringList{"llm.token_count.prompt", "llm.token_count.completion"} << qint64(7)
            << qint64(3);
        QTest::newRow("genai") << QStringList{"gen_ai.usage.input_tokens",
                                              "gen_ai.usage.output_tokens"}
                               << qint64(7) << qint64(3);
        QTest::newRow("both conventions on one span")
            << QStringList{"llm.token_count.prompt", "gen_ai.usage.input_tokens",
                           "llm.token_count.completion", "gen_ai.usage.output_tokens"}
            << qint64(7) << qint64(3);
        QTest::newRow("none") << QStringList{} << qint64(0) << qint64(0);
    }
    void tokensCountOncePerSpan()
    {
        QFETCH(QStringList, keys);
        QFETCH(qint64, prompt);
        QFETCH(qint64, completion);
        test::FixtureSpan s{test::hexId(1, 32), test::hexId(1, 16), "", "llm", 1, 2, 0, {}};
        for (const QString& k : keys)
            s.attributes.push_back({k.toStdString(), k.contains(QLatin1String("prompt")) ||
                                                             k.contains(QLatin1String("input"))
                                                         ? 7
                                                         : 3});
        RunCollector c;
        c.add(decode({s}));
        c.add(decode({s})); // sent again (an exporter's retry): replaces, never adds
        const RunRow r = c.rows().at(0);
        QCOMPARE(r.promptTokens, prompt);
        QCOMPARE(r.completionTokens, completion);
        QCOMPARE(r.spans, 1);
        QVERIFY(!r.cost.has_value());
    }

    void runWithoutRootIsRunning()
    {
        std::vector<test::FixtureSpan> spans = test::agentRun(5, "", "");
        spans.erase(spans.begin()); // the root ends last: not exported yet
        RunCollector c;
        c.add(decode(spans));
        QCOMPARE(c.rows().at(0).status, RunStatus::Running);
        QCOMPARE(QString::fromLatin1(runStatusName(c.rows().at(0).status)), "running");
        c.add(decode({test::agentRun(5, "", "").front()}));
        QCOMPARE(c.rows().at(0).status, RunStatus::Ok);
        QCOMPARE(c.rows().at(0).name, std::string("agent 5"));
        QCOMPARE(c.rows().at(0).spans, 3);
    }

    void filter_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("expected");
        const QStringList all{"agent 0", "agent 1", "agent 2"};
        QTest::newRow("empty") << "" << all;
        QTest::newRow("name word") << "AGENT 2" << QStringList{"agent 2"};
        QTest::newRow("free word matches user") << "bob" << QStringList{"agent 2"};
        QTest::newRow("free word matches session") << "chat" << QStringList{"agent 0", "agent 1"};
        QTest::newRow("status:error") << "status:error" << QStringList{"agent 2"};
        QTest::newRow("status:ok") << "status:ok" << QStringList{"agent 0", "agent 1"};
        QTest::newRow("session:") << "session:chat-1" << QStringList{"agent 0", "agent 1"};
        QTest::newRow("user: and word") << "user:alice \"agent 1\"" << QStringList{"agent 1"};
        QTest::newRow("quoted") << "\"agent 1\"" << QStringList{"agent 1"};
        QTest::newRow("no match") << "user:carol" << QStringList{};
        QTest::newRow("unknown key is a word") << "kind:llm" << QStringList{};
    }
    void filter()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, expected);
        const RunFilter f = RunFilter::parse(text.toStdString());
        QCOMPARE(names(filterRuns(threeRuns(), f)), expected);
        QCOMPARE(f.isEmpty(), text.isEmpty());
    }

    void sort_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<bool>("ascending");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("start desc")
            << int(RunColumn::Start) << false << QStringList{"agent 2", "agent 1", "agent 0"};
        QTest::newRow("tokens desc")
            << int(RunColumn::Tokens) << false << QStringList{"agent 2", "agent 1", "agent 0"};
        QTest::newRow("errors desc")
            << int(RunColumn::Errors) << false << QStringList{"agent 2", "agent 1", "agent 0"};
        QTest::newRow("user asc") << int(RunColumn::User) << true
                                  << QStringList{"agent 0", "agent 1", "agent 2"};
        QTest::newRow("status desc")
            << int(RunColumn::Status) << false << QStringList{"agent 2", "agent 1", "agent 0"};
    }
    void sort()
    {
        QFETCH(int, column);
        QFETCH(bool, ascending);
        QFETCH(QStringList, expected);
        std::vector<RunRow> rows = threeRuns();
        sortRuns(rows, RunColumn(column), ascending);
        QCOMPARE(names(rows), expected);
    }

    void runsWithoutCostSortLast()
    {
        std::vector<RunRow> rows = threeRuns();
        rows[1].cost.reset();
        for (bool ascending : {true, false}) {
            sortRuns(rows, RunColumn::Cost, ascending);
            QCOMPARE(rows.back().name, std::string("agent 1"));
        }
    }

    void groupsSessionsWithTotals()
    {
        const std::vector<RunSession> sessions = groupBySession(threeRuns());
        QCOMPARE(sessions.size(), size_t(2));
        QCOMPARE(sessions[0].session, std::string("chat-1"));
        QCOMPARE(names(sessions[0].runs), QStringList({"agent 0", "agent 1"}));
        QCOMPARE(sessions[0].promptTokens, 201);
        QCOMPARE(sessions[0].tokens(), 241);
        QCOMPARE(sessions[0].spans, 6);
        QCOMPARE(*sessions[0].cost, 1.0);
        QCOMPARE(sessions[0].users, std::vector<std::string>{"alice"});
        QVERIFY(sessions[1].session.empty()); // the runs without a session come last
        QCOMPARE(names(sessions[1].runs), QStringList({"agent 2"}));
    }

    void readsOtlpFileAndSaysWhereItIsBad()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < 3; ++i)
            f.write(QByteArray::fromStdString(test::otlpRequest(test::agentRun(i, "", "")) + "\n"));
        f.close();
        auto rows = readRuns(path);
        QVERIFY2(rows, rows ? "" : qPrintable(rows.error().message));
        QCOMPARE(rows->size(), size_t(3));

        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("{\"resourceSpans\": [ {\"scopeSpans\": 7} ]}\n");
        b.close();
        auto failed = readRuns(bad);
        QVERIFY(!failed);
        QVERIFY2(!failed.error().message.isEmpty(), "a message says what is wrong");

        auto missing = readRuns(dir.filePath(QStringLiteral("none.json")));
        QVERIFY(!missing);
        QVERIFY(missing.error().message.contains(QLatin1String("none.json")));
    }

    // The window loads an OTLP file, then lists its runs: read with the trace, they are what a
    // scan of the file gives, and a file changed since is read again.
    void runsReadWithTheTraceAreTheScansRuns()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.jsonl"));
        auto write = [&path](int runs, QIODevice::OpenMode mode) {
            QFile f(path);
            if (!f.open(mode))
                return false;
            for (int i = 0; i < runs; ++i)
                f.write(QByteArray::fromStdString(
                    test::otlpRequest(test::agentRun(i, i < 2 ? "chat-1" : "", "alice")) + "\n"));
            return true;
        };
        QVERIFY(write(3, QIODevice::WriteOnly));
        QVERIFY(!runsReadWithTrace(path));
        auto scanned = readRuns(path);
        QVERIFY(scanned);
        QVERIFY(loadOtlpTrace(path));
        auto read = runsReadWithTrace(path);
        QVERIFY(read);
        auto key = [](const std::vector<RunRow>& rows) {
            QStringList out;
            for (const RunRow& r : rows)
                out << QString::fromStdString(r.id + "|" + r.name + "|" + r.session + "|" + r.user +
                                              "|" + r.input + "|" + r.output + "|" +
                                              runStatusName(r.status))
                           .append(QStringLiteral("|%1|%2|%3|%4|%5|%6|%7")
                                       .arg(r.spans)
                                       .arg(r.errors)
                                       .arg(r.promptTokens)
                                       .arg(r.completionTokens)
                                       .arg(r.cost.value_or(-1))
                                       .arg(r.startNanos)
                                       .arg(r.endNanos));
            return out;
        };
        QCOMPARE(key(*read), key(*scanned));
        QCOMPARE(key(*readRuns(path)), key(*scanned));

        QVERIFY(write(1, QIODevice::Append)); // a fourth run (run 0 again: the same ids)
        QFile grown(path);
        QVERIFY(grown.open(QIODevice::Append));
        grown.write(QByteArray::fromStdString(test::otlpRequest(test::agentRun(3, "", "")) + "\n"));
        grown.close();
        QVERIFY(!runsReadWithTrace(path));
        QCOMPARE(readRuns(path)->size(), size_t(4));
    }

    void summarizesAPdlTrace()
    {
        auto root = std::make_shared<pdl::TraceNode>();
        root->kind = pdl::BlockKind::Text;
        root->def = "assistant";
        root->startNanos = 1000;
        root->endNanos = 5000;
        root->result = pdl::Value("done");
        root->hasResult = true;
        for (int i = 0; i < 2; ++i) {
            auto m = std::make_shared<pdl::TraceNode>();
            m->kind = pdl::BlockKind::Model;
            m->usage = pdl::Value::fromJson(
                nlohmann::json{{"prompt_tokens", 10}, {"completion_tokens", 4}});
            if (i == 1)
                m->error = "model failed";
            root->addChild("text", m);
        }
        const RunRow r = runOfTrace(*root, "t.json");
        QCOMPARE(r.name, std::string("assistant"));
        QCOMPARE(r.spans, 3);
        QCOMPARE(r.tokens(), 28);
        QCOMPARE(r.errors, 1);
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.output, std::string("done"));
        QCOMPARE(r.durationNanos(), 4000);
    }

    void groupsPromptLogCallsByRun()
    {
        std::vector<promptlog::CallRecord> calls(3);
        calls[0].runId = "r1";
        calls[0].programName = "support bot";
        calls[0].startedAt = 1000;
        calls[0].latencyMs = 500;
        calls[0].promptTokens = 5;
        calls[0].completionTokens = 2;
        calls[0].tags = {"session:s9", "user:kei"};
        calls[0].messages = QJsonArray{QJsonObject{{"role", "user"}, {"content", "hello"}}};
        calls[0].reply = "first";
        calls[1] = calls[0];
        calls[1].startedAt = 2000;
        calls[1].reply = "second";
        calls[1].cost = 0.25;
        calls[2].runId = "r2";
        calls[2].model = "granite";
        calls[2].startedAt = 500;
        calls[2].status = promptlog::CallStatus::Failed;
        const std::vector<RunRow> rows = runsOfCalls(calls);
        QCOMPARE(names(rows), QStringList({"granite", "support bot"}));
        const RunRow& r = rows[1];
        QCOMPARE(r.spans, 2);
        QCOMPARE(r.tokens(), 14);
        QCOMPARE(*r.cost, 0.25);
        QCOMPARE(r.session, std::string("s9"));
        QCOMPARE(r.user, std::string("kei"));
        QCOMPARE(r.input, std::string("hello"));
        QCOMPARE(r.output, std::string("second"));
        QCOMPARE(r.durationNanos(), 1500000000LL);
        QCOMPARE(rows[0].status, RunStatus::Error);
    }

    // Spans with random sets of the names a row reads (and others), their values numbers,
    // numeric and other texts, null, lists and objects: partOf() reads what looking each name
    // up in turn reads.
    void partOfReadsWhatTheNamesSay()
    {
        const char* const keys[] = {"llm.token_count.prompt",
                                    "gen_ai.usage.input_tokens",
                                    "gen_ai.usage.prompt_tokens",
                                    "llm.token_count.completion",
                                    "gen_ai.usage.output_tokens",
                                    "gen_ai.usage.completion_tokens",
                                    "llm.cost.total",
                                    "gen_ai.usage.cost",
                                    "session.id",
                                    "gen_ai.conversation.id",
                                    "user.id",
                                    "enduser.id",
                                    "input.value",
                                    "gen_ai.prompt",
                                    "output.value",
                                    "gen_ai.completion",
                                    "llm.model_name",
                                    "session",
                                    "input.value.x"};
        const Attributes values[] = {Attributes(12),
                                     Attributes(0.25),
                                     Attributes("34"),
                                     Attributes("1e3"),
                                     Attributes("12 tokens"),
                                     Attributes(""),
                                     Attributes("質問"),
                                     Attributes(nullptr),
                                     Attributes(true),
                                     Attributes::array({1, "a"}),
                                     Attributes::object({{"k", "v"}})};
        QRandomGenerator rng(20261129);
        for (int round = 0; round < 3000; ++round) {
            Span span;
            span.traceId = "t";
            span.spanId = "00000000000000a1";
            if (rng.bounded(2))
                span.parentSpanId = "00000000000000a0";
            span.attributes = Attributes::object();
            const int n = int(rng.bounded(10));
            for (int i = 0; i < n; ++i)
                span.attributes[keys[rng.bounded(int(std::size(keys)))]] =
                    values[rng.bounded(int(std::size(values)))];
            const RunCollector::Part got = RunCollector::partOf(span);
            const RunCollector::Part want = partByNames(span);
            const QString what = QString::fromStdString(span.attributes.dump());
            QVERIFY2(got.prompt == want.prompt && got.completion == want.completion,
                     qPrintable(what));
            QVERIFY2(got.hasCost == want.hasCost && (!got.hasCost || got.cost == want.cost),
                     qPrintable(what));
            QVERIFY2(got.session == want.session && got.user == want.user, qPrintable(what));
            QVERIFY2(got.input == want.input && got.output == want.output, qPrintable(what));
        }
    }
};

QTEST_GUILESS_MAIN(TestRunTable)
#include "tst_runtable.moc"
