#include "core/otel/otellivefeed.h"
#include "core/otel/otlpdecode.h"
#include "core/otel/otlpfile.h"
#include "core/otel/spanmapper.h"
#include "core/otel/traceassembler.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/value.h"
#include "core/promptlog/callexchange.h"
#include "core/promptlog/promptlog.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;
using namespace hako::otel;

namespace {

QString dataPath(const char* name)
{
    return QStringLiteral(HAKO_TEST_DATA_DIR "/otel/") + QLatin1String(name);
}

// The tree as indented lines: `kind label` per node, children in order.
void outline(const pdl::TraceNode& n, int depth, QStringList& out)
{
    out << QString(depth * 2, QLatin1Char(' ')) + QLatin1String(pdl::blockKindName(n.kind)) +
               QLatin1Char(' ') + QString::fromStdString(n.def);
    for (const auto& [name, d] : n.defs)
        outline(*d, depth + 1, out);
    for (const auto& g : n.children)
        for (const auto& c : g.nodes)
            outline(*c, depth + 1, out);
}

// A span of trace 5b8efff7… lasting 5 ns from `start`.
Span span(std::string id, std::string parent, std::string name, int64_t start)
{
    Span s;
    s.traceId = "5b8efff798038103d269b633813fc60c";
    s.spanId = std::move(id);
    s.parentSpanId = std::move(parent);
    s.name = std::move(name);
    s.startNanos = start;
    s.endNanos = start + 5;
    return s;
}

const pdl::Value* expr(const pdl::TraceNode& n, const char* name)
{
    for (const auto& [k, v] : n.exprs)
        if (k == name)
            return &v;
    return nullptr;
}

std::string field(const pdl::Value& dict, const char* key)
{
    const pdl::Value* v = dict.asDict().find(pdl::Value(key));
    return v ? (v->isString() ? v->asString() : v->json()) : std::string();
}

const pdl::TraceNode* child(const pdl::TraceNode& n, int i)
{
    int k = 0;
    for (const auto& g : n.children)
        for (const auto& c : g.nodes)
            if (k++ == i)
                return c.get();
    return nullptr;
}

} // namespace

class TestOtelMapping : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detectsOtlpFiles()
    {
        for (const char* name : {"openinference_agent.jsonl", "genai_agent.json"}) {
            QFile f(dataPath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(looksLikeOtlp(f.read(65536)), name);
        }
        QVERIFY(!looksLikeOtlp("{\"kind\": \"text\", \"pdl__id\": \"text\"}"));
        QVERIFY(!looksLikeOtlp("text: hello\n"));
    }

    void listsTracesOfAFile()
    {
        auto file = readOtlpFile(dataPath("openinference_agent.jsonl"));
        QVERIFY2(file.ok(), file.ok() ? "" : qPrintable(file.error().message));
        QCOMPARE(file->requests, 4);
        const auto traces = file->assembler->traces();
        QCOMPARE(traces.size(), size_t(2));
        QCOMPARE(traces[0].rootName, std::string("weather-agent"));
        QCOMPARE(traces[0].spans, 5);
        QCOMPARE(traces[0].errors, 0);
        QCOMPARE(traces[0].endNanos - traces[0].startNanos, int64_t(900) * 1000000);
        QCOMPARE(traces[1].rootName, std::string("batch"));
        QCOMPARE(traces[1].spans, 2);
        QCOMPARE(traces[1].errors, 1);
    }

    void mapsOpenInference()
    {
        auto loaded = loadOtlpTrace(dataPath("openinference_agent.jsonl"),
                                    "0af7651916cd43dd8448eb211c80319c");
        QVERIFY(loaded.ok());
        const pdl::TraceNode& root = *loaded->root;
        QStringList tree;
        outline(root, 0, tree);
        // Ordered by start time although the spans arrived llm2, tool, agent, retriever, llm1.
        QCOMPARE(tree,
                 (QStringList{"lastOf weather-agent", "  model ChatOpenAI", "  call get_weather",
                              "  read retrieve-guides", "  model ChatOpenAI"}));
        const pdl::TraceNode& llm1 = *child(root, 0);
        QCOMPARE(llm1.modelInput.asList().size(), size_t(2));
        QCOMPARE(field(llm1.modelInput.asList()[0], "role"), std::string("system"));
        QCOMPARE(field(llm1.modelInput.asList()[1], "content"), std::string("Weather in Paris?"));
        QCOMPARE(field(llm1.usage, "prompt_tokens"), std::string("42"));
        QCOMPARE(field(llm1.usage, "completion_tokens"), std::string("9"));
        QCOMPARE(field(llm1.usage, "total_tokens"), std::string("51"));
        QCOMPARE(expr(llm1, "model")->asString(), std::string("gpt-4o-mini"));
        QCOMPARE(field(*expr(llm1, "parameters"), "temperature"), std::string("0.2"));
        // The tool call the model asked for.
        const pdl::Value& out = expr(llm1, "output_messages")->asList()[0];
        const pdl::Value& call = out.asDict().find(pdl::Value("tool_calls"))->asList()[0];
        QCOMPARE(field(*call.asDict().find(pdl::Value("function")), "name"),
                 std::string("get_weather"));
        // Unmapped attributes are kept verbatim.
        QCOMPARE(field(*expr(llm1, "attributes"), "custom.flag"), std::string("true"));
        QCOMPARE(field(*expr(root, "attributes"), "session.id"), std::string("s-42"));

        const pdl::TraceNode& tool = *child(root, 1);
        QCOMPARE(field(tool.result, "temp_c"), std::string("21"));
        QCOMPARE(field(*expr(tool, "arguments"), "city"), std::string("Paris"));
        QVERIFY(expr(tool, "tool_parameters"));

        const pdl::TraceNode& retr = *child(root, 2);
        QCOMPARE(retr.result.asList().size(), size_t(2));
        QCOMPARE(field(retr.result.asList()[0], "id"), std::string("doc-7"));
        QCOMPARE(field(retr.result.asList()[0], "score"), std::string("0.92"));
        QCOMPARE(field(retr.result.asList()[1], "content"),
                 std::string("Bring an umbrella in autumn."));

        const pdl::TraceNode& llm2 = *child(root, 3);
        QCOMPARE(llm2.result.asString(), std::string("It is sunny in Paris, 21 C."));
        QCOMPARE(field(llm2.modelInput.asList()[1], "tool_call_id"), std::string("call_1"));
        QCOMPARE(root.result.asString(), std::string("It is sunny in Paris, 21 C."));
    }

    void missingParentGetsAPlaceholder()
    {
        auto loaded = loadOtlpTrace(dataPath("openinference_agent.jsonl"),
                                    "1bf7651916cd43dd8448eb211c80319d");
        QVERIFY(loaded.ok());
        QStringList tree;
        outline(*loaded->root, 0, tree);
        QCOMPARE(tree,
                 (QStringList{"sequence batch", "  sequence batch",
                              "  sequence missing span b000000000000002", "    model ChatOpenAI"}));
        const pdl::TraceNode& llm = *child(*child(*loaded->root, 1), 0);
        QCOMPARE(llm.error, std::string("rate limited"));
    }

    // A span's events say when they happened in words people read (UTC time, and how long
    // after the span started), not as a raw `time_unix_nano`.
    void eventTimesAreReadable()
    {
        auto spans = decodeOtlpJson(R"({"resourceSpans":[{"scopeSpans":[{"spans":[
            {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174",
             "name":"step","startTimeUnixNano":"1700000000000000000",
             "endTimeUnixNano":"1700000002000000000",
             "events":[{"name":"retry","timeUnixNano":"1700000000012500000"},
                       {"name":"slow","timeUnixNano":"1700000001250000000"}]}]}]}]})");
        QVERIFY(spans.ok());
        const SpanView v = interpretSpan(spans->front());
        QCOMPARE(int(v.rawEvents.size()), 2);
        const auto& first = v.rawEvents[0];
        QVERIFY(!first.contains("time_unix_nano"));
        QCOMPARE(first.value("time", std::string()), std::string("2023-11-14T22:13:20.012Z"));
        QCOMPARE(first.value("after_start", std::string()), std::string("+12.5 ms"));
        QCOMPARE(v.rawEvents[1].value("after_start", std::string()), std::string("+1.25 s"));
    }

    void placeholderResolvesWhenTheParentArrives()
    {
        auto spans = decodeOtlpJson(R"({"resourceSpans":[{"scopeSpans":[{"spans":[
            {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174",
             "parentSpanId":"eee19b7ec3c1b173","name":"child","startTimeUnixNano":"20",
             "endTimeUnixNano":"30"},
            {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b175",
             "parentSpanId":"eee19b7ec3c1b173","name":"earlier","startTimeUnixNano":"10",
             "endTimeUnixNano":"15"}]}]}]})");
        QVERIFY(spans.ok());
        TraceAssembler a;
        a.add(*spans);
        const std::string id = "5b8efff798038103d269b633813fc60c";
        QStringList tree;
        outline(*a.build(id), 0, tree);
        QCOMPARE(tree, (QStringList{"sequence missing span eee19b7ec3c1b173", "  sequence earlier",
                                    "  sequence child"}));
        auto parent = decodeOtlpJson(R"({"resourceSpans":[{"scopeSpans":[{"spans":[
            {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b173",
             "name":"parent","startTimeUnixNano":"5","endTimeUnixNano":"40"}]}]}]})");
        a.add(*parent);
        tree.clear();
        outline(*a.build(id), 0, tree);
        QCOMPARE(tree, (QStringList{"sequence parent", "  sequence earlier", "  sequence child"}));
        QCOMPARE(a.traces().front().rootName, std::string("parent"));
    }

    // The assembler keys conforming ids compactly; any other id (a sender's own scheme, upper
    // case) still finds its parent and is shown, and named to a live view, as it was sent.
    void spanIdsOfAnyShapeKeepTheirText()
    {
        TraceAssembler a;
        a.add(span("ABCDEF0123456789", "Parent-A", "upper", 10));
        a.add(span("child-of-upper", "ABCDEF0123456789", "custom", 11));
        a.add(span("00000000000000a1", "ABCDEF0123456789", "lower", 12));
        a.add(span(std::string(1, '\x01') + "abcdefgh", "00000000000000a1", "odd", 13));
        a.add(span("00000000000000b2", "00000000000000ff", "orphan", 14));
        TraceAssembler::NodeKeys keys;
        pdl::TracePtr root = a.build("5b8efff798038103d269b633813fc60c", &keys);
        QStringList tree;
        outline(*root, 0, tree);
        QCOMPARE(tree,
                 (QStringList{"sequence trace 5b8efff7", "  sequence missing span Parent-A",
                              "    sequence upper", "      sequence custom", "      sequence lower",
                              "        sequence odd", "  sequence missing span 00000000000000ff",
                              "    sequence orphan"}));
        QStringList ids;
        for (const auto& [node, key] : keys)
            if (key.span)
                ids << QString::fromStdString(key.key);
        ids.sort();
        QCOMPARE(ids, (QStringList{QChar(1) + QStringLiteral("abcdefgh"), "00000000000000a1",
                                   "00000000000000b2", "ABCDEF0123456789", "child-of-upper"}));
        const pdl::TraceNode& upper = *child(*child(*root, 0), 0);
        QCOMPARE(upper.id, std::string("ABCDEF0123456789"));
        QCOMPARE(child(upper, 1)->id, std::string("00000000000000a1"));
        QCOMPARE(child(*root, 1)->id, std::string("00000000000000ff"));
    }

    // A malformed sender's loop of parents (A under B under A, a span its own parent) shows
    // every span once, the loop cut at one span that says why, instead of a tree without end.
    void loopsOfParentsAreCut()
    {
        for (bool take : {false, true}) {
            TraceAssembler a;
            a.add(span("00000000000000a1", "", "root", 10));
            a.add(span("00000000000000b1", "00000000000000b2", "b1", 11));
            a.add(span("00000000000000b2", "00000000000000b1", "b2", 12));
            a.add(span("00000000000000b3", "00000000000000b1", "below", 13));
            a.add(span("00000000000000c1", "00000000000000c1", "self", 14));
            const std::string id = "5b8efff798038103d269b633813fc60c";
            pdl::TracePtr root = take ? a.take(id) : a.build(id);
            QStringList tree;
            outline(*root, 0, tree);
            QCOMPARE(tree,
                     (QStringList{"sequence root", "  sequence root", "  sequence b1",
                                  "    sequence b2", "    sequence below", "  sequence self"}));
            QCOMPARE(child(*root, 1)->description,
                     std::string("its parent span 00000000000000b2 is among its own descendants "
                                 "(a loop of parents): shown as a root"));
            QVERIFY(child(*child(*root, 1), 0)->description.empty());
            QCOMPARE(child(*root, 2)->description,
                     std::string("it names itself as its parent span: shown as a root"));
        }
    }

    // A copy of an assembler is its own: spans added to it stay out of the original, though
    // both remember the trace they added to last.
    void aCopiedAssemblerIsItsOwn()
    {
        const std::string id = "5b8efff798038103d269b633813fc60c";
        TraceAssembler a;
        a.add(span("00000000000000a1", "", "root", 10));
        TraceAssembler b = a;
        b.add(span("00000000000000a2", "00000000000000a1", "child", 11));
        QCOMPARE(a.spanCount(id), size_t(1));
        QCOMPARE(b.spanCount(id), size_t(2));
        a.add(span("00000000000000a3", "00000000000000a1", "other", 12));
        QCOMPARE(a.spanCount(id), size_t(2));
        QCOMPARE(b.spanCount(id), size_t(2));
        TraceAssembler c = std::move(b);
        c.add(span("00000000000000a4", "00000000000000a1", "moved", 13));
        QCOMPARE(c.spanCount(id), size_t(3));
    }

    void mapsGenAi()
    {
        auto loaded = loadOtlpTrace(dataPath("genai_agent.json"));
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().message));
        const pdl::TraceNode& root = *loaded->root;
        QStringList tree;
        outline(root, 0, tree);
        QCOMPARE(tree, (QStringList{"lastOf invoke_agent weather", "  model chat gpt-4o",
                                    "  call execute_tool get_weather", "  read search guides",
                                    "  model chat gpt-4o"}));
        const pdl::TraceNode& chat = *child(root, 0);
        const auto& msgs = chat.modelInput.asList();
        QCOMPARE(msgs.size(), size_t(2));
        QCOMPARE(field(msgs[0], "role"), std::string("system"));
        QCOMPARE(field(msgs[0], "content"), std::string("You answer weather questions."));
        QCOMPARE(field(msgs[1], "content"), std::string("Weather in Paris?"));
        QCOMPARE(field(chat.usage, "prompt_tokens"), std::string("42"));
        QCOMPARE(field(chat.usage, "completion_tokens"), std::string("9"));
        QCOMPARE(expr(chat, "model")->asString(), std::string("gpt-4o"));
        QCOMPARE(field(*expr(chat, "parameters"), "max_tokens"), std::string("256"));
        QCOMPARE(expr(chat, "finish_reason")->asString(), std::string("tool_call"));
        QCOMPARE(field(*expr(chat, "attributes"), "server.address"), std::string("api.openai.com"));
        const pdl::Value& out = expr(chat, "output_messages")->asList()[0];
        const pdl::Value& call = out.asDict().find(pdl::Value("tool_calls"))->asList()[0];
        QCOMPARE(field(*call.asDict().find(pdl::Value("function")), "arguments"),
                 std::string("{\"city\":\"Paris\"}"));

        const pdl::TraceNode& tool = *child(root, 1);
        QCOMPARE(field(tool.result, "sky"), std::string("sunny"));
        QCOMPARE(field(*expr(tool, "arguments"), "city"), std::string("Paris"));
        QCOMPARE(expr(tool, "tool_call_id")->asString(), std::string("call_1"));

        const pdl::TraceNode& retr = *child(root, 2);
        QCOMPARE(field(retr.result.asList()[0], "score"), std::string("0.92"));

        // The older per-message events.
        const pdl::TraceNode& chat2 = *child(root, 3);
        QCOMPARE(chat2.modelInput.asList().size(), size_t(2));
        QCOMPARE(field(chat2.modelInput.asList()[1], "role"), std::string("tool"));
        QCOMPARE(chat2.result.asString(), std::string("It is sunny in Paris, 21 C."));
        QCOMPARE(expr(chat2, "finish_reason")->asString(), std::string("stop"));
    }

    void llmSpansBecomePromptLogCalls()
    {
        auto file = readOtlpFile(dataPath("genai_agent.json"));
        QVERIFY(file.ok());
        QFile f(dataPath("genai_agent.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray data = f.readAll();
        auto spans = decodeOtlpJson(std::string_view(data.constData(), size_t(data.size())));
        QVERIFY(spans.ok());
        std::vector<promptlog::CallRecord> calls;
        for (const Span& s : *spans)
            if (auto c = toCallRecord(s, interpretSpan(s)))
                calls.push_back(*c);
        QCOMPARE(calls.size(), size_t(2));
        std::sort(calls.begin(), calls.end(),
                  [](const auto& a, const auto& b) { return a.startedAt < b.startedAt; });
        const promptlog::CallRecord& c = calls[0];
        QCOMPARE(c.promptName, QStringLiteral("chat gpt-4o"));
        QCOMPARE(c.model, QStringLiteral("gpt-4o"));
        QCOMPARE(c.endpoint, QStringLiteral("openai"));
        QCOMPARE(c.tags, (QStringList{"service:weather-genai", "env:test", "otel"}));
        QCOMPARE(c.messages.size(), 2);
        QCOMPARE(c.promptTokens, std::optional<int64_t>(42));
        QCOMPARE(c.completionTokens, std::optional<int64_t>(9));
        QCOMPARE(c.toolCalls.size(), 1);
        QCOMPARE(c.latencyMs, std::optional<double>(190.0));
        QCOMPARE(c.runId, QStringLiteral("2cf7651916cd43dd8448eb211c80319e"));
        QCOMPARE(calls[1].reply, QStringLiteral("It is sunny in Paris, 21 C."));
        QCOMPARE(calls[1].finishReason, QStringLiteral("stop"));
    }

    // What a sender puts in a span's attributes reaches the prompt log only through its privacy
    // policy: a key among the invocation parameters, an Authorization request attribute, a
    // password in a base URL, an e-mail in a message or in the service's name.
    void receivedSecretsAreNotLogged()
    {
        QFile f(dataPath("secrets_in_attributes.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray request = f.readAll();
        auto spans = decodeOtlpJson(std::string_view(request.constData(), size_t(request.size())));
        QVERIFY(spans.ok());
        QCOMPARE(spans->size(), size_t(1));
        auto call = toCallRecord(spans->front(), interpretSpan(spans->front()));
        QVERIFY(call);
        const QStringList needles = {QStringLiteral("otel-Secret-Value-2"),
                                     QStringLiteral("otelPassw0rd3"),
                                     QStringLiteral("b3RlbC1TZWNyZXQtNA"),
                                     QStringLiteral("otel.user5"), QStringLiteral("bot-ops")};
        const QByteArray mapped = QJsonDocument(call->toJson()).toJson();
        for (const QString& needle : needles) // the mapping keeps them: the case is not vacuous
            QVERIFY2(mapped.contains(needle.toUtf8()), qPrintable(needle));

        QTemporaryDir dir;
        QString error;
        auto log = promptlog::PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log && error.isEmpty(), qPrintable(error));
        log->record(*call);
        QVERIFY(log->flush());
        auto stored = log->find(call->uid);
        QVERIFY(stored);
        QCOMPARE(stored->parameters.value(QLatin1String("temperature")).toDouble(), 0.1);
        QBuffer out;
        out.open(QIODevice::WriteOnly);
        QVERIFY(promptlog::exportCalls(*log, {}, promptlog::ExportFormat::Jsonl, out));
        const QByteArray storedJson = QJsonDocument(stored->toJson()).toJson();
        for (const QString& needle : needles + QStringList{QStringLiteral("otel-Secret-Value-1")}) {
            QVERIFY2(!storedJson.contains(needle.toUtf8()), storedJson.constData());
            QVERIFY2(!out.data().contains(needle.toUtf8()), out.data().constData());
        }
    }

    void traceModelShowsTheSpans()
    {
        auto loaded = loadOtlpTrace(dataPath("openinference_agent.jsonl"));
        QVERIFY(loaded.ok());
        pdl::TraceModel model;
        QAbstractItemModelTester tester(&model);
        model.setTrace(loaded->root, QStringLiteral("fixture"));
        QCOMPARE(model.itemCount(), 5);
        const QModelIndex root = model.index(0, 0);
        QCOMPARE(model.data(root).toString(), QStringLiteral("weather-agent"));
        QCOMPARE(model.rowCount(root), 4);
        QCOMPARE(model.data(model.index(0, pdl::TraceModel::KindColumn, root)).toString(),
                 QStringLiteral("model"));
        QVERIFY(model.findById(QStringLiteral("a000000000000003")));
    }

    void liveFeedShowsSpansAsTheyArrive()
    {
        QFile f(dataPath("openinference_agent.jsonl"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        pdl::TraceModel model;
        QAbstractItemModelTester tester(&model);
        OtelLiveFeed feed(&model);
        feed.follow("0af7651916cd43dd8448eb211c80319c");
        // First request: the last LLM span and the tool, whose parent (the agent) is not there.
        auto first = decodeOtlpJson(lines[0].toStdString());
        QVERIFY(first.ok());
        feed.push(std::move(first).value());
        QTRY_COMPARE(model.itemCount(), 3); // placeholder + 2
        // Live, a parent not received yet is one still running (a span is sent when it ends).
        QCOMPARE(model.data(model.index(0, 0)).toString(),
                 QStringLiteral("waiting for span a000000000000001"));
        // Then the agent: the placeholder resolves.
        auto second = decodeOtlpJson(lines[1].toStdString());
        feed.push(std::move(second).value());
        QTRY_COMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("weather-agent"));
        auto third = decodeOtlpJson(lines[2].toStdString());
        feed.push(std::move(third).value());
        QTRY_COMPARE(model.itemCount(), 5);
        const QModelIndex root = model.index(0, 0);
        // By start time, not arrival.
        QCOMPARE(model.data(model.index(0, 0, root)).toString(), QStringLiteral("ChatOpenAI"));
        QCOMPARE(model.data(model.index(1, 0, root)).toString(), QStringLiteral("get_weather"));
        QCOMPARE(model.data(model.index(2, 0, root)).toString(), QStringLiteral("retrieve-guides"));
        QCOMPARE(feed.assembler().traces().size(), size_t(1));
    }

    void rejectsMalformedJson_data()
    {
        QTest::addColumn<QByteArray>("body");
        const QByteArray ok =
            R"("traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174")";
        QTest::newRow("not json") << QByteArray("{\"resourceSpans\": [");
        QTest::newRow("array") << QByteArray("[1,2]");
        QTest::newRow("resourceSpans object") << QByteArray(R"({"resourceSpans": {}})");
        QTest::newRow("spans string")
            << QByteArray(R"({"resourceSpans":[{"scopeSpans":[{"spans":"x"}]}]})");
        QTest::newRow("short trace id") << QByteArray(
            R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"abc","spanId":"eee19b7ec3c1b174"}]}]}]})");
        QTest::newRow("number span id") << QByteArray(
            R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":7}]}]}]})");
        QTest::newRow("bad time") << QByteArray(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{)" +
                                                ok + R"(,"startTimeUnixNano":"soon"}]}]}]})");
        QTest::newRow("attributes object")
            << QByteArray(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{)" + ok +
                          R"(,"attributes":{"a":1}}]}]}]})");
        QTest::newRow("bad any value")
            << QByteArray(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{)" + ok +
                          R"(,"attributes":[{"key":"a","value":{"boolValue":"yes"}}]}]}]}]})");
        QTest::newRow("non-utf8") << QByteArray(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{)" +
                                                ok + ",\"name\":\"\xff\xfe\"}]}]}]}");
    }
    void rejectsMalformedJson()
    {
        QFETCH(QByteArray, body);
        auto r = decodeOtlpJson(std::string_view(body.constData(), size_t(body.size())));
        QVERIFY(!r.ok());
        QVERIFY(!r.error().message.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestOtelMapping)
#include "tst_otelmapping.moc"
