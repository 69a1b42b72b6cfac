#include "core/otel/otlpdecode.h"
#include "core/otel/otlpfile.h"
#include "core/otel/otlpwriter.h"
#include "core/otel/traceassembler.h"
#include "core/pdl/trace/tracereader.h"
#include "core/pdl/value.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;
using namespace hako::otel;

namespace {

// The first difference between two trees, as a path and a description (empty: same).
QString diff(const pdl::TraceNode& a, const pdl::TraceNode& b, const QString& path, bool content)
{
    auto at = [&](const char* what) {
        return path + QLatin1String(": ") + QLatin1String(what);
    };
    if (a.kind != b.kind)
        return at("kind");
    if (a.id != b.id)
        return at("id");
    if (a.def != b.def)
        return at("def");
    if (a.description != b.description)
        return at("description");
    if (a.span != b.span)
        return at("location");
    if (a.startNanos != b.startNanos || a.endNanos != b.endNanos)
        return at("timing");
    if (a.error != b.error)
        return at("error");
    if (a.contribute != b.contribute)
        return at("contribute");
    if (a.usage != b.usage)
        return at("usage");
    if (content) {
        if (a.hasResult != b.hasResult || a.result != b.result)
            return at("result");
        if (a.modelInput != b.modelInput)
            return at("model input (messages)");
        if (a.exprs != b.exprs)
            return at("exprs");
        if (a.context != b.context)
            return at("context");
        if (a.out != b.out || a.err != b.err)
            return at("code output");
    }
    if (a.defs.size() != b.defs.size())
        return at("defs count");
    for (size_t i = 0; i < a.defs.size(); ++i) {
        if (a.defs[i].first != b.defs[i].first)
            return at("defs name");
        const QString d =
            diff(*a.defs[i].second, *b.defs[i].second,
                 path + QLatin1String("/defs.") + QString::fromStdString(a.defs[i].first), content);
        if (!d.isEmpty())
            return d;
    }
    if (a.children.size() != b.children.size())
        return at("child fields");
    for (size_t g = 0; g < a.children.size(); ++g) {
        const auto& ga = a.children[g];
        const auto& gb = b.children[g];
        if (ga.field != gb.field || ga.single != gb.single || ga.nodes.size() != gb.nodes.size())
            return at("children of a field");
        for (size_t i = 0; i < ga.nodes.size(); ++i) {
            const QString d = diff(*ga.nodes[i], *gb.nodes[i],
                                   path + QLatin1Char('/') + QString::fromStdString(ga.field) +
                                       QLatin1Char('.') + QString::number(i),
                                   content);
            if (!d.isEmpty())
                return d;
        }
    }
    return {};
}

QStringList sharedTraces()
{
    QStringList out;
    for (const char* dir : {"/conformance/pdl/traces", "/data/traces"}) {
        QDirIterator it(QStringLiteral(HAKO_SHARED_DIR) + QLatin1String(dir),
                        {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            out << it.next();
    }
    out.sort();
    return out;
}

} // namespace

// Hako → OTLP/JSON → Hako gives back the same tree, kinds, ids, defs, locations, usage and
// (with content on) results, messages and expressions, over every conformance trace.
class TestOtelRoundTrip : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = sharedTraces();
        if (files.isEmpty())
            QSKIP("no shared traces (" HAKO_SHARED_DIR "): the round trip is not checked");
        for (const QString& f : files)
            QTest::newRow(qPrintable(f.mid(f.indexOf(QLatin1String("shared/"))))) << f;
    }
    void roundTrip()
    {
        QFETCH(QString, path);
        auto original = pdl::loadTraceFile(path);
        if (!original.ok())
            QSKIP(qPrintable(QStringLiteral("not a trace: ") + original.error().message));
        for (bool content : {true, false}) {
            OtlpWriteOptions options;
            options.includeContent = content;
            const std::vector<Span> spans = traceToSpans(**original, options);
            const std::string json = encodeOtlpJson(spans);
            auto decoded = decodeOtlpJson(json);
            QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().message));
            QCOMPARE(decoded->size(), spans.size());
            // Arrival order must not matter: feed them reversed.
            std::vector<Span> reversed(decoded->rbegin(), decoded->rend());
            TraceAssembler a;
            a.add(reversed);
            QCOMPARE(a.traces().size(), size_t(1));
            pdl::TracePtr back = a.take(a.traces().front().traceId);
            QVERIFY(back);
            const QString d = diff(**original, *back, QStringLiteral("root"), content);
            QVERIFY2(d.isEmpty(), qPrintable((content ? "with content: " : "without: ") + d));
            if (!content) {
                // Without content nothing of the messages or results leaves.
                for (const Span& s : spans) {
                    QVERIFY(!s.attributes.contains("pdl.result"));
                    QVERIFY(!s.attributes.contains("gen_ai.input.messages"));
                    QVERIFY(!s.attributes.contains("llm.input_messages.0.message.content"));
                }
            }
        }
    }

    void writesAFileThatLoadsBack()
    {
        const QStringList files = sharedTraces();
        if (files.isEmpty())
            QSKIP("no shared traces");
        auto original = pdl::loadTraceFile(files.front());
        QVERIFY(original.ok());
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("run.otlp.json"));
        QString error;
        OtlpWriteOptions options;
        options.includeContent = true;
        QVERIFY2(writeOtlpFile(**original, out, options, &error), qPrintable(error));
        auto loaded = loadOtlpTrace(out);
        QVERIFY(loaded.ok());
        QVERIFY(diff(**original, *loaded->root, QStringLiteral("root"), true).isEmpty());
    }

    void theModelThatAnsweredIsTheResponseModel()
    {
        // A model block naming an alias (`default`): the span says what the endpoint was asked
        // for and what the server reported, and reads back into the same usage.
        auto root = std::make_shared<pdl::TraceNode>();
        root->kind = pdl::BlockKind::Text;
        root->id = "text";
        root->startNanos = 1000;
        root->endNanos = 5000;
        auto model = std::make_shared<pdl::TraceNode>();
        model->kind = pdl::BlockKind::Model;
        model->id = "text.0.model";
        model->startNanos = 2000;
        model->endNanos = 4000;
        model->exprs.emplace_back("model", pdl::Value("default"));
        pdl::Dict u;
        u.set("prompt_tokens", pdl::Value(int64_t(12)));
        u.set("completion_tokens", pdl::Value(int64_t(3)));
        u.set("resolved_model", pdl::Value("gpt-4o-mini"));
        u.set("response_model", pdl::Value("gpt-4o-mini-2024-07-18"));
        model->usage = pdl::Value(std::move(u));
        root->addChild("text", model);
        const std::vector<Span> spans = traceToSpans(*root, OtlpWriteOptions());
        const Span* call = nullptr;
        for (const Span& s : spans)
            if (s.attributes.contains("gen_ai.request.model"))
                call = &s;
        QVERIFY(call);
        QCOMPARE(call->attributes.at("gen_ai.request.model"), Attributes("gpt-4o-mini"));
        QCOMPARE(call->attributes.at("gen_ai.response.model"),
                 Attributes("gpt-4o-mini-2024-07-18"));
        QCOMPARE(call->attributes.at("llm.model_name"), Attributes("gpt-4o-mini-2024-07-18"));
        QCOMPARE(call->attributes.at("pdl.model_alias"), Attributes("default"));
        TraceAssembler a;
        a.add(spans);
        pdl::TracePtr back = a.take(a.traces().front().traceId);
        QVERIFY(back);
        QCOMPARE(diff(*root, *back, QStringLiteral("root"), false), QString());
    }
};

QTEST_GUILESS_MAIN(TestOtelRoundTrip)
#include "tst_otelroundtrip.moc"
