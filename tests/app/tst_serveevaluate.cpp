// `hako serve --otlp --evaluate FILE`: spans arrive from a client, the chosen calls are
// evaluated off the receiving thread and their scores kept with them; `hako log` shows the
// scores (scores, show, stats --by evaluator, list --scored), and each received trace is kept
// whole, opening at the call's span.
#include "hakoprocess.h"

#include "core/otel/otlpfile.h"
#include "core/promptlog/promptlog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace hako;

namespace {

QByteArray fixture(const char* name)
{
    QFile f(QStringLiteral(HAKO_TEST_DATA_DIR "/otel/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int postTo(quint16 port, const QByteArray& body)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(5000))
        return 0;
    s.write("POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: " +
            QByteArray::number(body.size()) + "\r\n\r\n" + body);
    QByteArray response;
    while (!response.contains("\r\n\r\n") && s.waitForReadyRead(5000))
        response += s.readAll();
    return response.split(' ').value(1).toInt();
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

} // namespace

class TestServeEvaluate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void receivedCallsAreScoredAndTheirTracesKept()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString db = dir.filePath(QStringLiteral("log.sqlite"));
        const QString traces = dir.filePath(QStringLiteral("traces"));
        const QString spec = dir.filePath(QStringLiteral("online.yaml"));
        // Only the gpt-4o calls (two of the genai fixture's), every one of them.
        QVERIFY(writeFile(spec, "sample: 1\n"
                                "filter: {model: gpt-4o}\n"
                                "evaluators:\n"
                                "  - {name: short, type: length_chars, max: 100000}\n"
                                "  - {name: json, type: is_json}\n"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
        p.setProcessEnvironment(env);
        p.start(hakoBinary(),
                {QStringLiteral("serve"), QStringLiteral("--otlp"), QStringLiteral("127.0.0.1:0"),
                 QStringLiteral("--log"), db, QStringLiteral("--evaluate"), spec,
                 QStringLiteral("--traces"), traces});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        static const QRegularExpression listening(QStringLiteral(":(\\d+)/v1/traces"));
        QRegularExpressionMatch m;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError(),
                                  m = listening.match(QString::fromUtf8(err)), m.hasMatch()),
                                 15000);
        const quint16 port = quint16(m.captured(1).toUInt());
        QCOMPARE(postTo(port, fixture("genai_agent.json")), 200);
        QCOMPARE(postTo(port, fixture("openinference_agent.jsonl").split('\n').first()), 200);

        QString error;
        auto log = promptlog::PromptLog::open(db, &error);
        QVERIFY2(log, qPrintable(error));
        // The evaluator runs beside the receiver: its scores come in after the answer.
        QTRY_COMPARE_WITH_TIMEOUT((log->scores() ? log->scores()->size() : -1), 4,
                                  20000);
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(15000));
        QCOMPARE(p.exitCode(), 0);
        err += p.readAllStandardError();
        QVERIFY2(err.contains("2 call(s) chosen, 2 evaluated, 4 score(s) kept"), err.constData());

        // hako log scores: two evaluators on the two gpt-4o calls, from online evaluation.
        HakoOutcome scores = runHakoAsGiven({QStringLiteral("log"), QStringLiteral("scores"),
                                             QStringLiteral("--db"), db, QStringLiteral("--json")});
        QCOMPARE(scores.exitCode, 0);
        const QJsonArray given = QJsonDocument::fromJson(scores.out.toUtf8()).array();
        QCOMPARE(given.size(), 4);
        QStringList calls;
        for (const QJsonValue& v : given) {
            const QJsonObject s = v.toObject();
            QCOMPARE(s.value(QStringLiteral("source")).toString(), QStringLiteral("online"));
            const bool shortOne = s.value(QStringLiteral("name")).toString() == "short";
            QCOMPARE(s.value(QStringLiteral("passed")).toBool(), shortOne);
            calls << s.value(QStringLiteral("call")).toString();
        }
        calls.removeDuplicates();
        QCOMPARE(calls.size(), 2);
        for (const QString& uid : calls)
            QCOMPARE(log->find(uid)->model, QStringLiteral("gpt-4o"));

        // hako log show: the call's scores among its fields.
        HakoOutcome show = runHakoAsGiven({QStringLiteral("log"), QStringLiteral("show"),
                                           calls.first(), QStringLiteral("--db"), db});
        QCOMPARE(show.exitCode, 0);
        QVERIFY2(
            show.out.contains(QRegularExpression(QStringLiteral("score: +json 0 ✗ \\(online"))),
            qPrintable(show.out));
        QVERIFY2(show.out.contains(QRegularExpression(QStringLiteral("score: +short 1 ✓"))),
                 qPrintable(show.out));

        // hako log stats --by evaluator: per evaluator, its scores and how many passed.
        HakoOutcome stats =
            runHakoAsGiven({QStringLiteral("log"), QStringLiteral("stats"), QStringLiteral("--by"),
                            QStringLiteral("evaluator"), QStringLiteral("--db"), db});
        QCOMPARE(stats.exitCode, 0);
        QVERIFY2(stats.out.contains(QRegularExpression(QStringLiteral("json +2 +0.000 +0.0%"))),
                 qPrintable(stats.out));
        QVERIFY2(stats.out.contains(QRegularExpression(QStringLiteral("short +2 +1.000 +100.0%"))),
                 qPrintable(stats.out));

        // hako log list --scored fail: the failing calls only (the gpt-4o-mini one has no score).
        HakoOutcome failing = runHakoAsGiven(
            {QStringLiteral("log"), QStringLiteral("list"), QStringLiteral("--scored"),
             QStringLiteral("fail"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        QCOMPARE(failing.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(failing.out.toUtf8()).array().size(), 2);

        // The received trace is kept whole under its trace id (the calls' run id) and opens
        // with the call's span in it.
        const promptlog::CallRecord call = log->find(calls.first()).value();
        const QString kept = traces + QLatin1Char('/') + call.runId + QStringLiteral(".trace.json");
        QVERIFY2(QFile::exists(kept), qPrintable(kept));
        auto trace = otel::loadOtlpTrace(kept);
        QVERIFY2(trace, trace ? "" : qPrintable(trace.error().message));
        bool found = false;
        std::function<void(const pdl::TraceNode&)> visit = [&](const pdl::TraceNode& n) {
            found = found || QString::fromStdString(n.id) == call.traceNodeId;
            for (const auto& field : n.children)
                for (const auto& child : field.nodes)
                    visit(*child);
        };
        visit(*trace->root);
        QVERIFY2(found, qPrintable(call.traceNodeId));
    }

    void badEvaluationFileSaysWhere()
    {
        QTemporaryDir dir;
        const QString spec = dir.filePath(QStringLiteral("online.yaml"));
        QVERIFY(writeFile(spec, "evaluators: [is_json]\nsample: 3\n"));
        const HakoOutcome o = runHakoAsGiven(
            {QStringLiteral("serve"), QStringLiteral("--otlp"), QStringLiteral("127.0.0.1:0"),
             QStringLiteral("--log"), dir.filePath(QStringLiteral("log.sqlite")),
             QStringLiteral("--evaluate"), spec});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QLatin1String("online.yaml:2:")) &&
                     o.err.contains(QLatin1String("from 0 to 1")),
                 qPrintable(o.err));
    }
};

QTEST_GUILESS_MAIN(TestServeEvaluate)
#include "tst_serveevaluate.moc"
