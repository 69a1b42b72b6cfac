#include "core/otel/otlpdecode.h"
#include "core/otel/otlpfile.h"
#include "core/otel/otlpjsonfast_p.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"
#include "otlpjsonsamples.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdio>

using namespace hako;
using namespace hako::otel;

// The fast OTLP/JSON reader (simdjson On Demand) held to the reference reader (nlohmann's
// DOM): every request either gives the same spans by both, or fails by both with the same
// message (the fast reader hands what it does not take to the reference one). And the fast
// reader really takes the usual shapes, so that the figures in bench_otel are its own.
class TestOtlpJsonFast : public QObject {
    Q_OBJECT
private:
    static QString describe(const Span& s)
    {
        QString out = QString::fromStdString(s.traceId + "/" + s.spanId + "<" + s.parentSpanId +
                                             " " + s.name + " kind " + std::to_string(s.kind) +
                                             " " + std::to_string(s.startNanos) + ".." +
                                             std::to_string(s.endNanos) + " status " +
                                             std::to_string(s.statusCode) + " " + s.statusMessage);
        out += QString::fromStdString(" attrs " + s.attributes.dump());
        for (const SpanEvent& e : s.events)
            out += QString::fromStdString(" event " + e.name + "@" + std::to_string(e.timeNanos) +
                                          e.attributes.dump());
        if (s.resource)
            out += QString::fromStdString(" resource " + s.resource->attributes.dump() + " " +
                                          s.resource->scopeName + " " + s.resource->scopeVersion);
        return out;
    }
    static QStringList describe(const std::vector<Span>& spans)
    {
        QStringList out;
        for (const Span& s : spans)
            out << describe(s);
        return out;
    }

    // Both readers agree on `json`; returns whether it decoded.
    static bool agree(const std::string& json)
    {
        const auto fast = decodeOtlpJson(json);
        const auto reference = decodeOtlpJsonReference(json);
        if (fast.ok() != reference.ok()) {
            qWarning() << "disagree on" << QString::fromStdString(json.substr(0, 300));
            return false;
        }
        if (!fast.ok()) {
            if (fast.error().message != reference.error().message)
                qWarning() << fast.error().message << "!=" << reference.error().message;
            return fast.error().message == reference.error().message;
        }
        if (describe(*fast) != describe(*reference)) {
            qWarning() << describe(*fast) << "\n!=\n" << describe(*reference);
            return false;
        }
        return true;
    }

private Q_SLOTS:
    void usualShapesAreReadByTheFastReader();
    void fieldsInAnyOrderAndSpelling();
    void stringsWithEscapes();
    void oddValuesGoToTheReferenceReader();
    void everyTruncationFailsAsTheReferenceSays();
    void aFileWithABadLineKeepsTheRestAndSaysWhere();
    void aLargeFileReportsProgressAndStopsOnCancel();
    void aLargeFileShowsItsFirstLinesFirst();
};

// The slots out of the class: moc does not read their raw string literals.
#ifndef Q_MOC_RUN
void TestOtlpJsonFast::usualShapesAreReadByTheFastReader()
{
    const std::string json = request(span() + "," + span(R"(,"parentSpanId":"")"));
    QVERIFY(decodeOtlpJsonFast(json).has_value());
    QVERIFY(agree(json));
    const auto spans = decodeOtlpJson(json);
    QCOMPARE(spans->size(), size_t(2));
    QCOMPARE(spans->front().traceId, std::string("0af7651916cd43dd8448eb211c80319c"));
    QCOMPARE(spans->front().attributes["kv"]["x"].get<std::string>(), std::string("NaN"));
    QCOMPARE(spans->front().resource->attributes["service.name"].get<std::string>(),
             std::string("svc"));
    QCOMPARE(spans->front().resource->scopeName, std::string("lib"));
}

void TestOtlpJsonFast::fieldsInAnyOrderAndSpelling()
{
    // Spans before their resource and scope; snake_case; enum names; nulls as absent.
    QVERIFY(agree(request(span(), "0")));
    QVERIFY(decodeOtlpJsonFast(request(span(), "0")).has_value());
    QVERIFY(agree(
        R"({"resource_spans":[{"scope_spans":[{"spans":[)" + span() +
        R"(],"scope":{"name":"late"}}],"resource":{"attributes":[]}}],"extra":{"a":[1,{}]}})"));
    QVERIFY(agree(R"({"resourceSpans":[{"instrumentationLibrarySpans":[{)"
                  R"("instrumentationLibrary":{"name":7},"spans":[)" +
                  span(R"(,"kind":"SPAN_KIND_SERVER","flags":null,"links":[{"x":[]}])") +
                  "]}]}]}"));
    QVERIFY(agree(request(span(R"(,"traceState":"a=b","droppedAttributesCount":0)"))));
    QVERIFY(agree(R"({"resourceSpans":null})"));
    QVERIFY(agree(R"({})"));
    QVERIFY(agree(R"( {"resourceSpans":[]} )"
                  "\n"));
}

void TestOtlpJsonFast::stringsWithEscapes()
{
    QVERIFY(agree(request(span(R"(,"name":"line\nbreak \"q\" \u00e9 \/ tab\t")"))));
    // A surrogate pair, a lone surrogate (refused by both), raw UTF-8.
    QVERIFY(agree(request(span(R"(,"name":"\ud83d\ude00")"))));
    QVERIFY(agree(request(span(R"(,"name":"\ud83d")"))));
    QVERIFY(agree(request(span(",\"name\":\"箱 ✓\""))));
    QVERIFY(agree(request(span(",\"name\":\"bad \x01 control\""))));
    QVERIFY(agree(request(span(R"(,"n\u0061me":"escaped key")"))));
    // Keys of every length up to past two words with an escape, an escaped quote or a raw
    // control character at each place: a known key spelled with an escape, and an unknown one
    // (skipped) — both readers agree on each.
    const char* specials[] = {"\\u0061", "\\\"", "\\\\", "\x01", "\x1f", "\xc3\xa9"};
    int checked = 0;
    for (size_t length = 1; length <= 20; ++length) {
        for (size_t at = 0; at <= length; ++at) {
            for (const char* special : specials) {
                std::string key(length, 'x');
                key.insert(at, special);
                const std::string json = request(span(",\"" + key + "\":\"v\""));
                QVERIFY2(agree(json), key.c_str());
                // An escaped key is the fast reader's own; a raw control character is not.
                const bool control = special[0] == '\x01' || special[0] == '\x1f';
                QCOMPARE(decodeOtlpJsonFast(json).has_value(), !control);
                std::string name = "name";
                name.insert(std::min(at, name.size()), special);
                QVERIFY2(agree(request(span(",\"" + name + "\":\"v\""))), name.c_str());
                ++checked;
            }
        }
    }
    QVERIFY(checked > 1000);
}

void TestOtlpJsonFast::oddValuesGoToTheReferenceReader()
{
    // Repeated fields (the DOM keeps the last), both spellings, several AnyValue members,
    // numbers past int64, deep nesting, wrong types, bad ids: same outcome either way.
    const std::vector<std::string> odd = {
        span(R"(,"name":"second")"),
        span(R"(,"name":null)"),
        span(R"(,"startTimeUnixNano":"-5")"),
        span(R"(,"startTimeUnixNano":"12a")"),
        span(R"(,"startTimeUnixNano":1e3)"),
        span(R"(,"startTimeUnixNano":1.5)"),
        span(R"(,"startTimeUnixNano":18446744073709551615)"),
        span(R"(,"startTimeUnixNano":99999999999999999999999)"),
        span(R"(,"kind":"7")"),
        span(R"(,"kind":2000)"),
        span(R"(,"kind":"SPAN_KIND_NOPE")"),
        span(R"(,"spanId":"xyz")"),
        span(R"(,"spanId":"0000000000000000")"),
        span(R"(,"spanId":"")"),
        span(R"(,"parentSpanId":5)"),
        span(R"(,"events":{})"),
        span(R"(,"status":[])"),
        span(R"(,"status":{"code":1,"code":2})"),
        span(R"(,"attributes":[{"key":"a","value":{"stringValue":"x","intValue":1}}])"),
        span(R"(,"attributes":[{"key":"a","value":{"stringValue":null}}])"),
        span(R"(,"attributes":[{"key":"a","value":{"nope":1}}])"),
        span(R"(,"attributes":[{"key":"a","key":"b","value":{}}])"),
        span(R"(,"attributes":[{"value":{}}])"),
        span(R"(,"attributes":[{"key":"a","value":{"doubleValue":"Inf"}}])"),
        span(R"(,"attributes":[{"key":"a","value":{"intValue":true}}])"),
        span(R"(,"attributes":[{"key":"a","value":{"arrayValue":[]}}])"),
        span(R"(,"attributes":[{"key":"a","value":{"kvlistValue":{"values":null}}}])"),
        span(R"(,"flags":tru)"),
        span(R"(,"flags":01)"),
    };
    for (const std::string& s : odd)
        QVERIFY(agree(request(s)));
    std::string deep = R"({"stringValue":"bottom"})";
    for (int i = 0; i < 70; ++i)
        deep = R"({"arrayValue":{"values":[)" + deep + "]}}";
    QVERIFY(agree(request(span(R"(,"attributes":[{"key":"deep","value":)" + deep + "}]"))));
    QVERIFY(agree(R"({"resourceSpans":[{"scopeSpans":[],"scope_spans":[]}]})"));
    QVERIFY(agree(R"({"resourceSpans":[],"resourceSpans":[]})"));
    QVERIFY(agree(R"([])"));
    QVERIFY(agree(R"("text")"));
}

void TestOtlpJsonFast::everyTruncationFailsAsTheReferenceSays()
{
    const std::string json = request(span());
    for (size_t n = 0; n < json.size(); ++n)
        QVERIFY2(agree(json.substr(0, n)), qPrintable(QString::number(n)));
    // And damage in the middle: a missing comma, a stray character, trailing text.
    std::string damaged = json;
    damaged.erase(damaged.find("},{"), 3).insert(damaged.find("\"name\""), "} {");
    QVERIFY(agree(damaged));
    QVERIFY(agree(json + "x"));
    QVERIFY(agree(json + "{}"));
    QVERIFY(!decodeOtlpJson(json + "x").ok());
}

void TestOtlpJsonFast::aFileWithABadLineKeepsTheRestAndSaysWhere()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("t.jsonl"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(request(span()) + "\n"));
    f.write(QByteArray::fromStdString(request(span()).substr(0, 120) + "\n"));
    f.write(QByteArray::fromStdString(
        request(span(R"(,"spanId":"c7ad6b7169203331","parentSpanId":"b7ad6b7169203331")")) + "\n"));
    f.close();
    auto file = readOtlpFile(path);
    QVERIFY(file.ok());
    QCOMPARE(file->requests, 2);
    QCOMPARE(file->badRequests, 1);
    QVERIFY2(file->firstProblem.contains(QLatin1String("OTLP/JSON")),
             qPrintable(file->firstProblem));
    QCOMPARE(file->assembler->spanCount(), size_t(2));
}

// Over 8 MB of lines (several batches): progress rises to the file's size, every span arrives
// once, in either encoding; a cancel between batches stops the read with "cancelled".
void TestOtlpJsonFast::aLargeFileReportsProgressAndStopsOnCancel()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("large.jsonl"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    std::string line;
    for (int i = 0; i < 400; ++i) {
        char id[17];
        std::snprintf(id, sizeof id, "%016x", i + 1);
        line += (i ? "," : "") + span(std::string(R"(,"spanId":")") + id + "\"");
    }
    line = request(line) + "\n";
    int lines = 0;
    while (f.size() < (12 << 20)) {
        f.write(QByteArray::fromStdString(line));
        ++lines;
    }
    f.close();
    std::vector<qint64> seen;
    qint64 reportedTotal = 0;
    auto file = readOtlpFile(path, [&seen, &reportedTotal](qint64 done, qint64 total) {
        seen.push_back(done);
        reportedTotal = total;
    });
    QVERIFY2(file.ok(), qPrintable(file.ok() ? QString() : file.error().message));
    QCOMPARE(file->requests, lines);
    QCOMPARE(file->badRequests, 0);
    QCOMPARE(file->assembler->spanCount(), size_t(400)); // the same 400 ids in every line
    QVERIFY(seen.size() >= 2);
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(seen.back(), QFileInfo(path).size());
    QCOMPARE(reportedTotal, QFileInfo(path).size());

    CancelToken cancel;
    auto stopped = readOtlpFile(
        path, [&cancel](qint64, qint64) { cancel.cancel(); }, cancel);
    QVERIFY(!stopped.ok());
    QCOMPARE(stopped.error().message, QStringLiteral("cancelled"));

    // The same requests as protobuf frames, through the window's path (the whole file given).
    QByteArray frames;
    const std::string one = encodeOtlpProtobuf(*decodeOtlpJson(line));
    for (int i = 0; i < lines; ++i) {
        const quint32 n = quint32(one.size());
        const char prefix[4] = {char(n >> 24), char(n >> 16), char(n >> 8), char(n)};
        frames.append(prefix, 4).append(one.data(), qsizetype(one.size()));
    }
    auto proto = parseOtlpData(frames, QStringLiteral("frames.binpb"));
    QVERIFY(proto.ok());
    QCOMPARE(proto->requests, lines);
    QCOMPARE(proto->assembler->spanCount(), size_t(400));

    // The same frames read from a file a batch at a time (frames cross the 8 MB reads), then
    // one frame of 9 MB (longer than a read), then a last frame cut short by a writer that
    // was killed: every whole frame counts, the cut one is reported.
    QByteArray big;
    while (big.size() < (9 << 20))
        big.append(one.data(), qsizetype(one.size())); // repeated fields concatenate
    const quint32 bigSize = quint32(big.size());
    const char bigPrefix[4] = {char(bigSize >> 24), char(bigSize >> 16), char(bigSize >> 8),
                               char(bigSize)};
    frames.append(bigPrefix, 4).append(big);
    frames.append(frames.left(4 + qsizetype(one.size()) / 2));
    const QString framesPath = dir.filePath(QStringLiteral("frames.binpb"));
    QFile out(framesPath);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(frames);
    out.close();
    seen.clear();
    auto streamed =
        readOtlpFile(framesPath, [&seen](qint64 done, qint64) { seen.push_back(done); });
    QVERIFY2(streamed.ok(), qPrintable(streamed.ok() ? QString() : streamed.error().message));
    QCOMPARE(streamed->requests, lines + 1);
    QCOMPARE(streamed->badRequests, 1);
    QVERIFY2(streamed->firstProblem.contains(QLatin1String("cut short")),
             qPrintable(streamed->firstProblem));
    QCOMPARE(streamed->assembler->spanCount(), size_t(400));
    QVERIFY(seen.size() >= 3);
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(seen.back(), qint64(frames.size()));
    // The window's path (its first frame is longer than the 64 KB a format is told by).
    QVERIFY(one.size() > 64 * 1024);
    registerOtlpTraceFormat();
    auto shown = pdl::readTraceFile(framesPath);
    QVERIFY2(shown.ok(), qPrintable(shown.ok() ? QString() : shown.error().message));
    QCOMPARE(shown->blocks, 400);
    QVERIFY(shown->partial);
    QVERIFY(shown->problem.message.contains(QLatin1String("cut short")));
    // The whole bytes given say the same.
    auto whole = parseOtlpData(frames, framesPath);
    QVERIFY(whole.ok());
    QCOMPARE(whole->requests, lines + 1);
    QCOMPARE(whole->badRequests, 1);
    QCOMPARE(whole->firstProblem, streamed->firstProblem);
    // The Runs list's scan (every span handed on, not assembled) reads both files a batch at a
    // time and hands on the spans the whole bytes hold.
    for (const QString& p : {path, framesPath}) {
        size_t scanned = 0, inWhole = 0;
        auto fromFile =
            scanOtlpFile(p, [&scanned](const std::vector<Span>& s) { scanned += s.size(); });
        QFile again(p);
        QVERIFY(again.open(QIODevice::ReadOnly));
        auto fromBytes = scanOtlpData(
            again.readAll(), p, [&inWhole](const std::vector<Span>& s) { inWhole += s.size(); });
        QVERIFY(fromFile.ok() && fromBytes.ok());
        QCOMPARE(fromFile->requests, fromBytes->requests);
        QCOMPARE(fromFile->badRequests, fromBytes->badRequests);
        QCOMPARE(scanned, inWhole);
        QVERIFY(scanned >= size_t(400 * lines));
    }
}
#endif

// The window's loader shows the spans of the first lines of a large file while it reads the
// rest (TraceLoader's preview), then every span.
void TestOtlpJsonFast::aLargeFileShowsItsFirstLinesFirst()
{
    registerOtlpTraceFormat();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("many.jsonl"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    int next = 1;
    for (int line = 0; line < 200; ++line) {
        std::string spans;
        for (int i = 0; i < 20; ++i, ++next) {
            char id[17];
            std::snprintf(id, sizeof id, "%016x", next);
            spans += (i ? "," : "") + span(std::string(R"(,"spanId":")") + id + "\"");
        }
        f.write(QByteArray::fromStdString(request(spans) + "\n"));
    }
    const qint64 size = f.size();
    f.close();
    pdl::TraceModel model;
    pdl::TraceLoader loader(&model);
    loader.setPreview(size / 2, size / 10);
    QSignalSpy loaded(&loader, &pdl::TraceLoader::loaded);
    int shownAtPreview = -1;
    connect(&loader, &pdl::TraceLoader::previewShown, this,
            [&](const QString&, int) { shownAtPreview = model.itemCount(); });
    loader.load(path);
    QVERIFY(loaded.wait(30000));
    QVERIFY2(shownAtPreview > 0, "no preview was shown");
    QVERIFY2(shownAtPreview < model.itemCount(),
             qPrintable(QStringLiteral("%1 of %2").arg(shownAtPreview).arg(model.itemCount())));
}

QTEST_GUILESS_MAIN(TestOtlpJsonFast)
#include "tst_otlpjsonfast.moc"
