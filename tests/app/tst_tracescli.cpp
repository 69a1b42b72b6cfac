// `hako traces FILE [--json]` as a terminal user runs it: the runs of an OTLP file with several
// traces (an agent's export) one per line, --json one object per run with stable keys,
// --filter and --sort, the one run of a Hako trace (`hako run --trace`), and plain errors
// naming the file (exit 1) or the usage (exit 2).
#include "hakoprocess.h"
#include "otlprunsfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

void writeFile(const QString& path, const QByteArray& content)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}

} // namespace

class TestTracesCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_otlp;

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(hakoBinary()))
            QSKIP("build the hako executable first");
        m_otlp = m_dir.filePath(QStringLiteral("agent.jsonl"));
        QByteArray lines;
        lines += hako::test::otlpRequest(hako::test::agentRun(0, "chat-1", "alice")) + "\n";
        lines += hako::test::otlpRequest(hako::test::agentRun(1, "chat-1", "alice")) + "\n";
        lines += hako::test::otlpRequest(hako::test::agentRun(2, "", "bob", true)) + "\n";
        writeFile(m_otlp, lines);
    }

    void listsEveryRunOfAnOtlpFile()
    {
        const HakoOutcome r = runHako({QStringLiteral("traces"), m_otlp});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4); // the header and three runs
        QVERIFY(lines[0].startsWith(QLatin1String("RUN")));
        QVERIFY(lines[1].startsWith(QLatin1String("agent 0")));
        QVERIFY(lines[1].contains(QLatin1String("chat-1")));
        QVERIFY(lines[1].contains(QLatin1String(" 120 "))); // tokens: 100 + 20
        QVERIFY(lines[3].contains(QLatin1String("error")));
        QVERIFY(lines[3].contains(QLatin1String("bob")));
    }

    void jsonHasOneObjectPerRun()
    {
        const HakoOutcome r = runHako({QStringLiteral("traces"), QStringLiteral("--json"), m_otlp});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray runs = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(runs.size(), 3);
        const QJsonObject first = runs[0].toObject();
        const QStringList keys{"completion_tokens",
                               "cost",
                               "duration_ms",
                               "errors",
                               "id",
                               "name",
                               "prompt_tokens",
                               "session",
                               "spans",
                               "start",
                               "start_unix_nano",
                               "status",
                               "tokens",
                               "user"};
        QCOMPARE(first.keys(), keys);
        QCOMPARE(first[QLatin1String("name")].toString(), QStringLiteral("agent 0"));
        QCOMPARE(first[QLatin1String("status")].toString(), QStringLiteral("ok"));
        QCOMPARE(first[QLatin1String("tokens")].toInt(), 120);
        QCOMPARE(first[QLatin1String("cost")].toDouble(), 0.5);
        QCOMPARE(first[QLatin1String("duration_ms")].toDouble(), 3000.0);
        QCOMPARE(first[QLatin1String("session")].toString(), QStringLiteral("chat-1"));
        QCOMPARE(runs[2].toObject()[QLatin1String("status")].toString(), QStringLiteral("error"));
    }

    void filtersAndSorts()
    {
        HakoOutcome r = runHako({QStringLiteral("traces"), QStringLiteral("--json"),
                                 QStringLiteral("--filter"), QStringLiteral("session:chat-1"),
                                 QStringLiteral("--sort"), QStringLiteral("-tokens"), m_otlp});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray runs = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].toObject()[QLatin1String("name")].toString(), QStringLiteral("agent 1"));
        r = runHako({QStringLiteral("traces"), QStringLiteral("--filter"),
                     QStringLiteral("user:nobody"), m_otlp});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QStringLiteral("No run matches the filter.\n"));
        r = runHako(
            {QStringLiteral("traces"), QStringLiteral("--sort"), QStringLiteral("size"), m_otlp});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QLatin1String("--sort")));
    }

    void listsTheRunOfAHakoTrace()
    {
        const QString pdl = m_dir.filePath(QStringLiteral("p.pdl"));
        const QString trace = m_dir.filePath(QStringLiteral("p.json"));
        writeFile(pdl, "description: one run\ntext:\n- model: none/echo\n"
                       "  parameters: {mock_response: 'Hi.'}\n");
        QCOMPARE(runHako({QStringLiteral("run"), QStringLiteral("--trace"), trace, pdl}).exitCode,
                 0);
        const HakoOutcome r = runHako({QStringLiteral("traces"), QStringLiteral("--json"), trace});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray runs = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].toObject()[QLatin1String("status")].toString(), QStringLiteral("ok"));
        QVERIFY(runs[0].toObject()[QLatin1String("spans")].toInt() >= 2);
    }

    void badInputIsAPlainError()
    {
        const QString bad = m_dir.filePath(QStringLiteral("bad.json"));
        writeFile(bad, "{\"resourceSpans\": [ {\"scopeSpans\": 7} ]}\n");
        HakoOutcome r = runHako({QStringLiteral("traces"), bad});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith(QLatin1String("hako traces: ")), qPrintable(r.err));
        QVERIFY2(r.err.contains(bad), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("scopeSpans")), qPrintable(r.err)); // where
        // A file cut short: the line and column, in words, without the JSON reader's tag.
        const QString cut = m_dir.filePath(QStringLiteral("cut.json"));
        writeFile(cut, "{\"resourceSpans\": [\n");
        r = runHako({QStringLiteral("traces"), cut});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("line 2, column 1")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QLatin1String("json.exception")), qPrintable(r.err));
        r = runHako({QStringLiteral("traces"), m_dir.filePath(QStringLiteral("missing.json"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QLatin1String("missing.json")));
        r = runHako({QStringLiteral("traces")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QLatin1String("usage: hako traces")));
        r = runHako({QStringLiteral("traces"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QLatin1String("--json")));
    }
};

QTEST_GUILESS_MAIN(TestTracesCli)
#include "tst_tracescli.moc"
