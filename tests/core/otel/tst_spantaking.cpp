// A span taken apart as a file is loaded (its attribute values moved into the view) maps to
// the same trace node and prompt-log call as the same span read without touching it.
#include "core/otel/conventions.h"
#include "core/otel/otlpdecode.h"
#include "core/otel/otlpwriter.h"
#include "core/otel/spanmapper.h"
#include "core/otel/traceassembler.h"
#include "core/pdl/trace/tracereader.h"
#include "core/pdl/value.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace hako;
using namespace hako::otel;

namespace {

QString dataPath(const QString& name)
{
    return QStringLiteral(HAKO_TEST_DATA_DIR "/") + name;
}

std::vector<Span> decodeFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    std::vector<Span> out;
    const QByteArray text = f.readAll();
    // A .jsonl file is a request a line; a .json file one request.
    const QList<QByteArray> requests =
        path.endsWith(QLatin1String(".jsonl")) ? text.split('\n') : QList<QByteArray>{text};
    for (const QByteArray& line : requests) {
        if (line.trimmed().isEmpty())
            continue;
        auto spans = decodeOtlpJson(line.toStdString());
        if (!spans)
            qFatal("%s: %s", qPrintable(path), qPrintable(spans.error().message));
        for (Span& s : spans.value())
            out.push_back(std::move(s));
    }
    return out;
}

// Spans of every convention the mapper reads: the OTLP fixtures (OpenInference, GenAI, secrets),
// Hako's own export of recorded traces with their content (`pdl.*` attributes), and spans
// carrying what those lack (flattened tool calls and message parts, documents with metadata,
// parameters, message events, JSON values by MIME type).
std::vector<Span> everyKindOfSpan()
{
    std::vector<Span> spans;
    for (const char* name : {"otel/genai_agent.json", "otel/openinference_agent.jsonl",
                             "otel/secrets_in_attributes.json"})
        for (Span& s : decodeFile(dataPath(QLatin1String(name))))
            spans.push_back(std::move(s));
    const QDir traces(dataPath(QStringLiteral("conformance/model/traces")));
    for (const QString& f : traces.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        auto root = pdl::loadTraceFile(traces.filePath(f));
        if (!root.ok())
            continue;
        OtlpWriteOptions options;
        options.includeContent = true;
        options.traceId = "0af7651916cd43dd8448eb211c80319c";
        for (Span& s : traceToSpans(**root, options))
            spans.push_back(std::move(s));
    }
    // Attributes the fixtures lack, by span (taking_spans.json).
    QFile file(dataPath(QStringLiteral("otel/taking_spans.json")));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read taking_spans.json");
    const Attributes extra = Attributes::parse(file.readAll().toStdString());
    Span s;
    s.traceId = "5b8efff798038103d269b633813fc60c";
    s.spanId = "00f067aa0ba902b7";
    s.parentSpanId = "00f067aa0ba902b6";
    s.name = "chat";
    s.statusCode = 2;
    s.attributes = extra["llm"];
    SpanEvent event;
    event.name = "gen_ai.user.message";
    event.timeNanos = 5;
    event.attributes = extra["user_message_event"];
    s.events.push_back(event);
    event.name = "exception";
    event.attributes = extra["exception_event"];
    s.events.push_back(event);
    spans.push_back(s);
    s.attributes = extra["gen_ai_tool"];
    s.events.clear();
    spans.push_back(s);
    return spans;
}

void compareNodes(const pdl::TraceNode& a, const pdl::TraceNode& b)
{
    QCOMPARE(a.kind, b.kind);
    QCOMPARE(a.id, b.id);
    QCOMPARE(a.def, b.def);
    QCOMPARE(a.description, b.description);
    QCOMPARE(a.error, b.error);
    QCOMPARE(a.hasResult, b.hasResult);
    QVERIFY2(a.result == b.result, (a.result.json() + " / " + b.result.json()).c_str());
    QVERIFY(a.modelInput == b.modelInput);
    QVERIFY(a.usage == b.usage);
    QVERIFY(a.context == b.context);
    QCOMPARE(a.contribute, b.contribute);
    QCOMPARE(a.span.line, b.span.line);
    QCOMPARE(a.out, b.out);
    QCOMPARE(a.exprs.size(), b.exprs.size());
    for (size_t i = 0; i < a.exprs.size(); ++i) {
        QCOMPARE(a.exprs[i].first, b.exprs[i].first);
        QVERIFY2(
            a.exprs[i].second == b.exprs[i].second,
            (a.exprs[i].first + ": " + a.exprs[i].second.json() + " / " + b.exprs[i].second.json())
                .c_str());
    }
}

// Every node of both trees alike, in the same places; `nodes` counts them.
void compareTrees(const pdl::TraceNode& a, const pdl::TraceNode& b, int& nodes)
{
    compareNodes(a, b);
    ++nodes;
    QCOMPARE(a.children.size(), b.children.size());
    for (size_t g = 0; g < a.children.size(); ++g) {
        QCOMPARE(a.children[g].nodes.size(), b.children[g].nodes.size());
        for (size_t i = 0; i < a.children[g].nodes.size(); ++i)
            compareTrees(*a.children[g].nodes[i], *b.children[g].nodes[i], nodes);
    }
}

} // namespace

class TestSpanTaking : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void takingASpanMapsItAsReadingIt()
    {
        const std::vector<Span> spans = everyKindOfSpan();
        QVERIFY2(spans.size() > 100, qPrintable(QString::number(spans.size())));
        int pdlSpans = 0, calls = 0;
        for (const Span& original : spans) {
            Span taken = original;
            const SpanView read = interpretSpan(original);
            const SpanView view = interpretSpanTaking(taken);
            // The attributes went into the view; what the node needs besides stays.
            QVERIFY(taken.attributes.empty());
            QCOMPARE(taken.spanId, original.spanId);
            QCOMPARE(taken.parentSpanId, original.parentSpanId);
            QCOMPARE(taken.name, original.name);
            QCOMPARE(taken.events.size(), original.events.size());
            QCOMPARE(taken.resource, original.resource);
            QCOMPARE(view.convention, read.convention);
            QCOMPARE(int(view.category), int(read.category));
            QVERIFY(view.raw == read.raw);
            QVERIFY(view.pdl == read.pdl);
            QVERIFY(view.inputMessages == read.inputMessages);
            QVERIFY(view.outputMessages == read.outputMessages);
            QVERIFY(view.documents == read.documents);
            QVERIFY(view.parameters == read.parameters);
            QVERIFY(view.input == read.input);
            QVERIFY(view.output == read.output);
            pdlSpans += read.convention == "pdl";
            compareNodes(*toTraceNode(original, read), *toTraceNode(taken, view));
            const auto a = toCallRecord(original, read);
            const auto b = toCallRecord(taken, view);
            QCOMPARE(a.has_value(), b.has_value());
            if (a) {
                ++calls;
                QCOMPARE(a->messages, b->messages);
                QCOMPARE(a->reply, b->reply);
                QCOMPARE(a->parameters, b->parameters);
                QCOMPARE(a->toolCalls, b->toolCalls);
                QCOMPARE(a->promptName, b->promptName);
            }
        }
        // Both kinds of span were there to compare.
        QVERIFY(pdlSpans > 50);
        QVERIFY(calls > 10);
    }

    void aTakenSpanAssemblesTheSameTree()
    {
        // What a file's load does (prepare(Span&&)) against adding the spans as they are.
        const std::vector<Span> spans = decodeFile(dataPath("otel/openinference_agent.jsonl"));
        TraceAssembler kept, taken;
        for (const Span& s : spans) {
            kept.add(s);
            Span copy = s;
            taken.add(TraceAssembler::prepare(std::move(copy)));
        }
        const auto traces = kept.traces();
        QCOMPARE(taken.traces().size(), traces.size());
        int nodes = 0;
        for (const TraceSummary& t : traces) {
            const pdl::TracePtr a = kept.build(t.traceId);
            const pdl::TracePtr b = taken.build(t.traceId);
            QVERIFY(a && b);
            compareTrees(*a, *b, nodes);
        }
        QVERIFY(nodes >= int(spans.size())); // placeholders and synthetic roots too
    }

    // mayBeModelCall() lets a receiver skip a span's reading: every span it says no to gives
    // no prompt-log call, over every kind of span, each also given every kind the convention
    // tables know (a tool's span carrying messages is still a tool's).
    void aSpanSkippedIsNoModelCall()
    {
        std::vector<Span> spans = everyKindOfSpan();
        const size_t originals = spans.size();
        for (size_t i = 0; i < originals; ++i) {
            for (const KindRule& rule : kindRules()) {
                Span s = spans[i];
                if (!s.attributes.is_object())
                    s.attributes = Attributes::object();
                s.attributes[rule.attribute] = rule.value;
                spans.push_back(std::move(s));
            }
        }
        int skipped = 0, calls = 0;
        for (const Span& s : spans) {
            const bool call = toCallRecord(s, interpretSpan(s)).has_value();
            calls += call ? 1 : 0;
            if (!mayBeModelCall(s)) {
                ++skipped;
                QVERIFY2(!call, qPrintable(QString::fromStdString(s.attributes.dump())));
            }
        }
        // Both answers were given many times.
        QVERIFY2(skipped > 200 && calls > 100,
                 qPrintable(QStringLiteral("%1 skipped, %2 calls").arg(skipped).arg(calls)));
    }
};

QTEST_GUILESS_MAIN(TestSpanTaking)
#include "tst_spantaking.moc"
