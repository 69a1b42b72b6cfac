// Received spans kept with their trace (`hako serve`, the window's receiver): a request that
// came as one line of OTLP/JSON holding one trace is kept as it was sent; anything else is
// written out span by span. Either way the file reads back as the spans received.
#include "core/otel/otlpdecode.h"
#include "core/otel/otlpwriter.h"
#include "core/workbench/runarchive.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

namespace {

const char* const kTraceA = "5b8efff798038103d269b633813fc60c";
const char* const kTraceB = "0af7651916cd43dd8448eb211c80319c";

// One request of `spans` spans of `trace`, as an exporter writes it (a field Hako does not
// write again, `droppedAttributesCount`, included), with `gap` between its members.
QByteArray request(const char* trace, int spans, const char* gap = "", int firstSpan = 1)
{
    QByteArray list;
    for (int i = 0; i < spans; ++i) {
        if (i > 0)
            list += ',';
        list += QByteArray(gap) + "{\"traceId\":\"" + trace + "\",\"spanId\":\"" +
                QByteArray::number(0x1000 + firstSpan + i, 16).rightJustified(16, '0') +
                "\",\"name\":\"返信 " + QByteArray::number(i) +
                "\",\"kind\":1,\"startTimeUnixNano\":\"1764300000000000000\","
                "\"endTimeUnixNano\":\"1764300000900000000\",\"droppedAttributesCount\":0,"
                "\"attributes\":[{\"key\":\"openinference.span.kind\",\"value\":"
                "{\"stringValue\":\"LLM\"}}]}";
    }
    return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[]},\"scopeSpans\":[{\"scope\":{"
           "\"name\":\"demo\"}," +
           QByteArray(gap) + "\"spans\":[" + list + "]}]}]}";
}

std::vector<otel::Span> decoded(const QByteArray& json)
{
    auto spans = otel::decodeOtlpJson(std::string_view(json.constData(), size_t(json.size())));
    return spans ? std::move(spans).value() : std::vector<otel::Span>();
}

QList<QByteArray> linesOf(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> lines = f.readAll().split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

// Every span of the file, read as the trace loader reads its lines.
std::vector<std::string> spanIdsIn(const QString& path)
{
    std::vector<std::string> ids;
    for (const QByteArray& line : linesOf(path))
        for (const otel::Span& s : decoded(line))
            ids.push_back(s.spanId + " " + s.name);
    return ids;
}

std::vector<std::string> spanIdsOf(const std::vector<otel::Span>& spans)
{
    std::vector<std::string> ids;
    for (const otel::Span& s : spans)
        ids.push_back(s.spanId + " " + s.name);
    return ids;
}

} // namespace

class TestRunArchive : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void oneLineOfOneTraceIsKeptAsSent()
    {
        QTemporaryDir dir;
        const RunArchive archive(dir.path());
        const QByteArray first = request(kTraceA, 3);
        const QByteArray second = request(kTraceA, 2, "", 10);
        QString why;
        QVERIFY2(archive.appendRequest(decoded(first), first, &why), qPrintable(why));
        QVERIFY2(archive.appendRequest(decoded(second), second, &why), qPrintable(why));
        const QString path = dir.filePath(QLatin1String(kTraceA) + QStringLiteral(".trace.json"));
        QCOMPARE(linesOf(path), (QList<QByteArray>{first, second}));
        std::vector<std::string> expected = spanIdsOf(decoded(first));
        for (const std::string& id : spanIdsOf(decoded(second)))
            expected.push_back(id);
        QCOMPARE(spanIdsIn(path), expected);
    }

    // Text a reader of the file would split (a line break, even between members) or that does
    // not begin as an object (a byte-order mark), and a request of two traces: written out.
    void otherRequestsAreWrittenSpanBySpan()
    {
        QTemporaryDir dir;
        const RunArchive archive(dir.path());
        const QByteArray pretty = request(kTraceA, 2, "\n  ");
        const QByteArray marked = "\xEF\xBB\xBF" + request(kTraceA, 1, "", 5);
        QString why;
        const std::vector<otel::Span> prettySpans = decoded(pretty);
        QCOMPARE(prettySpans.size(), size_t(2));
        QVERIFY2(archive.appendRequest(prettySpans, pretty, &why), qPrintable(why));
        std::vector<otel::Span> markedSpans = decoded(request(kTraceA, 1, "", 5));
        QVERIFY2(archive.appendRequest(markedSpans, marked, &why), qPrintable(why));
        const QString a = dir.filePath(QLatin1String(kTraceA) + QStringLiteral(".trace.json"));
        QCOMPARE(linesOf(a),
                 (QList<QByteArray>{QByteArray::fromStdString(otel::encodeOtlpJson(prettySpans)),
                                    QByteArray::fromStdString(otel::encodeOtlpJson(markedSpans))}));

        std::vector<otel::Span> both = decoded(request(kTraceA, 1, "", 20));
        for (otel::Span& s : decoded(request(kTraceB, 2)))
            both.push_back(std::move(s));
        const QByteArray bothJson = "{}"; // the text is never used for two traces
        QVERIFY2(archive.appendRequest(both, bothJson, &why), qPrintable(why));
        const QString b = dir.filePath(QLatin1String(kTraceB) + QStringLiteral(".trace.json"));
        QCOMPARE(spanIdsIn(b), spanIdsOf(decoded(request(kTraceB, 2))));
        QCOMPARE(linesOf(a).size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestRunArchive)
#include "tst_runarchive.moc"
