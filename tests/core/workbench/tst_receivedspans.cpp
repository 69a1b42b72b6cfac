// keepReceivedSpans(), what `hako serve --otlp` and the window's receiver do with a request
// before answering it: its LLM spans committed to the prompt log (written while the next ones
// are made), its spans appended to the trace archive once they are, and nothing archived when
// the log refuses the request (the exporter retries it).
#include "core/otel/otlpdecode.h"
#include "core/promptlog/logbackend_p.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/receivedspans.h"
#include "core/workbench/runarchive.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

namespace {

const char* const kTrace = "4bf92f3577b34da6a3ce929d0e0e4736";

// One OTLP/JSON request of `spans` spans, every third an LLM call with a Japanese prompt.
QByteArray request(int spans, int first = 0)
{
    QByteArray list;
    for (int i = first; i < first + spans; ++i) {
        if (i > first)
            list += ',';
        QByteArray attributes;
        if (i % 3 == 1)
            attributes =
                "{\"key\":\"openinference.span.kind\",\"value\":{\"stringValue\":\"LLM\"}},"
                "{\"key\":\"llm.model_name\",\"value\":{\"stringValue\":\"gpt-4o-mini\"}},"
                "{\"key\":\"llm.input_messages.0.message.role\",\"value\":{"
                "\"stringValue\":\"user\"}},"
                "{\"key\":\"llm.input_messages.0.message.content\",\"value\":{"
                "\"stringValue\":\"質問 " +
                QByteArray::number(i) + "\"}}";
        else
            attributes = "{\"key\":\"openinference.span.kind\",\"value\":{\"stringValue\":"
                         "\"TOOL\"}}";
        list += "{\"traceId\":\"" + QByteArray(kTrace) + "\",\"spanId\":\"" +
                QByteArray::number(0x1000 + i, 16).rightJustified(16, '0') + "\",\"name\":\"step " +
                QByteArray::number(i) +
                "\",\"startTimeUnixNano\":\"1764300000000000000\","
                "\"endTimeUnixNano\":\"1764300000900000000\",\"attributes\":[" +
                attributes + "]}";
    }
    return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[]},\"scopeSpans\":[{\"spans\":[" +
           list + "]}]}]}";
}

std::vector<otel::Span> decoded(const QByteArray& json)
{
    auto spans = otel::decodeOtlpJson(std::string_view(json.constData(), size_t(json.size())));
    return spans ? std::move(spans).value() : std::vector<otel::Span>();
}

int linesIn(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return int(f.readAll().count('\n'));
}

} // namespace

class TestReceivedSpans : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // 300 spans (100 calls, more than three of the log's batches): every call committed and
    // searchable, the request archived; sent again, nothing new is logged.
    void callsAreCommittedAndTheRequestArchived()
    {
        QTemporaryDir dir;
        auto log = promptlog::PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")));
        QVERIFY(log);
        const RunArchive archive(dir.filePath(QStringLiteral("traces")));
        const QByteArray json = request(300);
        const std::vector<otel::Span> spans = decoded(json);
        QCOMPARE(spans.size(), size_t(300));

        const KeptSpans kept = keepReceivedSpans(*log, spans, json, &archive, nullptr);
        QVERIFY2(!kept.logError, qPrintable(kept.logError ? kept.logError->message : QString()));
        QCOMPARE(kept.calls, int64_t(100));
        QCOMPARE(kept.added, int64_t(100));
        QVERIFY2(kept.archived, qPrintable(kept.archiveError));
        QCOMPARE(*log->count({}), int64_t(100));
        promptlog::CallFilter search;
        search.text = QStringLiteral("質問 298");
        QCOMPARE(*log->count(search), int64_t(1));
        const QString file = archive.pathFor(QString::fromLatin1(kTrace));
        QCOMPARE(linesIn(file), 1);

        const KeptSpans again = keepReceivedSpans(*log, spans, json, &archive, nullptr);
        QVERIFY(!again.logError);
        QCOMPARE(again.calls, int64_t(100));
        QCOMPARE(again.added, int64_t(0));
        QCOMPARE(*log->count({}), int64_t(100));
    }

    // A log that refuses the request's 50th call: the request is to be answered 503, none of
    // its calls is logged and its spans are not archived; once the log takes calls again, the
    // retried request is logged and archived once.
    void aRefusedRequestIsNeitherLoggedNorArchived()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("log.sqlite"));
        auto log = promptlog::PromptLog::open(path);
        QVERIFY(log);
        QCOMPARE(*log->count({}), int64_t(0)); // the log made
        std::unique_ptr<promptlog::LogBackend> raw = promptlog::makeSqliteBackend(path, 0);
        const QString refusedUid = QStringLiteral("otel:%1:%2")
                                       .arg(QLatin1String(kTrace))
                                       .arg(0x1000 + 148, 16, 16, QLatin1Char('0'));
        QVERIFY(raw->execute(QStringLiteral("CREATE TRIGGER refuse AFTER INSERT ON calls WHEN "
                                            "NEW.uid = '%1' BEGIN SELECT RAISE(ABORT, 'disk "
                                            "full'); END")
                                 .arg(refusedUid),
                             {}));
        const RunArchive archive(dir.filePath(QStringLiteral("traces")));
        const QByteArray json = request(300);
        const std::vector<otel::Span> spans = decoded(json);

        const KeptSpans refused = keepReceivedSpans(*log, spans, json, &archive, nullptr);
        QVERIFY(refused.logError);
        QVERIFY2(refused.logError->message.contains(QLatin1String("disk full")),
                 qPrintable(refused.logError->message));
        QCOMPARE(*log->count({}), int64_t(0));
        const QString file = archive.pathFor(QString::fromLatin1(kTrace));
        QVERIFY(!QFile::exists(file));

        QVERIFY(raw->execute(QStringLiteral("DROP TRIGGER refuse"), {}));
        const KeptSpans retried = keepReceivedSpans(*log, spans, json, &archive, nullptr);
        QVERIFY(!retried.logError);
        QCOMPARE(retried.added, int64_t(100));
        QCOMPARE(linesIn(file), 1);
    }
};

QTEST_GUILESS_MAIN(TestReceivedSpans)
#include "tst_receivedspans.moc"
