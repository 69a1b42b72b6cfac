// `hako diff TRACE_A TRACE_B [--json]` as a terminal user runs it: exit 0 for the same run
// (timings aside), 1 for runs that differ with the differences printed (word diff inline), 2
// for a file that cannot be read or is not a trace (named in the message) and for bad usage;
// --json gives a machine-readable document. Traces come from real runs of a program and its
// fork (`hako run --trace`, mock model replies) and from the shared corpus.
#include "hakoprocess.h"

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

const QByteArray kProgram = "description: diff demo\n"
                            "text:\n"
                            "- \"Question: name a fruit.\\n\"\n"
                            "- model: none/echo\n"
                            "  def: first\n"
                            "  parameters: {mock_response: 'An apple.'}\n"
                            "- \"\\n\"\n"
                            "- model: none/echo\n"
                            "  def: second\n"
                            "  parameters: {mock_response: 'A red apple.'}\n";

} // namespace

class TestDiffCommand : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_run, m_again, m_fork;

    QString trace(const QString& name, const QByteArray& program)
    {
        const QString pdl = m_dir.filePath(name + QStringLiteral(".pdl"));
        const QString json = m_dir.filePath(name + QStringLiteral(".json"));
        writeFile(pdl, program);
        const HakoOutcome r =
            runHako({QStringLiteral("run"), QStringLiteral("--trace"), json, pdl});
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(r.err));
        return json;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(hakoBinary()))
            QSKIP("build the hako executable first");
        QVERIFY(m_dir.isValid());
        m_run = trace(QStringLiteral("run"), kProgram);
        m_again = trace(QStringLiteral("again"), kProgram);
        QByteArray fork = kProgram;
        fork.replace("A red apple.", "A green apple.");
        m_fork = trace(QStringLiteral("fork"), fork);
        QVERIFY(QFile::exists(m_run) && QFile::exists(m_again) && QFile::exists(m_fork));
    }

    void sameRunExitsZero()
    {
        const HakoOutcome r = runHako({QStringLiteral("diff"), m_run, m_again});
        QCOMPARE(r.status, QProcess::NormalExit);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(QStringLiteral("0 changed, 0 inserted, 0 deleted")));
        QVERIFY(r.out.contains(QStringLiteral("the runs are the same")));
    }

    void forkExitsOneWithTheEditedBlock()
    {
        const HakoOutcome r = runHako({QStringLiteral("diff"), m_run, m_fork});
        QVERIFY2(r.exitCode == 1, qPrintable(r.out + r.err));
        QVERIFY2(
            r.out.contains(QStringLiteral("~ text.3.model (second) line 8: result, expressions\n")),
            qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("    result: A [-red-]{+green+} apple.\n")),
                 qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("(first)")));
        QVERIFY(r.out.contains(QStringLiteral("the runs differ")));
    }

    void json()
    {
        const HakoOutcome r =
            runHako({QStringLiteral("diff"), QStringLiteral("--json"), m_run, m_fork});
        QCOMPARE(r.exitCode, 1);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject o = doc.object();
        QCOMPARE(o[QStringLiteral("same")].toBool(), false);
        QCOMPARE(o[QStringLiteral("left")].toString(), m_run);
        QVERIFY(o[QStringLiteral("summary")].toObject()[QStringLiteral("changed")].toInt() >= 2);
        bool second = false;
        for (const QJsonValue& v : o[QStringLiteral("differences")].toArray()) {
            const QJsonObject d = v.toObject();
            if (d[QStringLiteral("def")].toString() != QStringLiteral("second"))
                continue;
            second = true;
            QCOMPARE(d[QStringLiteral("status")].toString(), QStringLiteral("changed"));
            QCOMPARE(d[QStringLiteral("right_result")].toString(),
                     QStringLiteral("A green apple."));
            QVERIFY(d[QStringLiteral("changes")].toArray().contains(QStringLiteral("result")));
        }
        QVERIFY(second);

        const HakoOutcome same =
            runHako({QStringLiteral("diff"), m_run, m_again, QStringLiteral("--json")});
        QCOMPARE(same.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(same.out.toUtf8())
                     .object()[QStringLiteral("differences")]
                     .toArray()
                     .size(),
                 0);
    }

    void errorsExitTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file")
            << QStringList{QStringLiteral("MISSING"), QStringLiteral("RUN")}
            << QStringLiteral("missing-trace.json");
        QTest::newRow("not a trace")
            << QStringList{QStringLiteral("RUN"), QStringLiteral("NOTTRACE")}
            << QStringLiteral("notes.txt");
        QTest::newRow("one file") << QStringList{QStringLiteral("RUN")}
                                  << QStringLiteral("usage: hako diff");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate"),
                                                       QStringLiteral("RUN"), QStringLiteral("RUN")}
                                        << QStringLiteral("--frobnicate");
    }

    void errorsExitTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString notTrace = m_dir.filePath(QStringLiteral("notes.txt"));
        writeFile(notTrace, "just some notes\n");
        for (QString& a : args) {
            if (a == QLatin1String("RUN"))
                a = m_run;
            else if (a == QLatin1String("MISSING"))
                a = m_dir.filePath(QStringLiteral("missing-trace.json"));
            else if (a == QLatin1String("NOTTRACE"))
                a = notTrace;
        }
        args.prepend(QStringLiteral("diff"));
        const HakoOutcome r = runHako(args);
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void help()
    {
        const HakoOutcome r = runHako({QStringLiteral("diff"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("exit status: 0")));
        const HakoOutcome top = runHako({QStringLiteral("--help")});
        QVERIFY(top.out.contains(QStringLiteral("diff")));
    }

    void openTelemetryTraces()
    {
        // Two imported OpenTelemetry traces (OTLP/JSON): the agent asked about another city.
        const QString original = QStringLiteral(HAKO_TEST_DATA_DIR "/otel/genai_agent.json");
        QFile in(original);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray other = in.readAll();
        other.replace("Paris", "Lyon");
        const QString otherPath = m_dir.filePath(QStringLiteral("lyon.json"));
        writeFile(otherPath, other);
        QCOMPARE(runHako({QStringLiteral("diff"), original, original}).exitCode, 0);
        const HakoOutcome r = runHako({QStringLiteral("diff"), original, otherPath});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(
                     QStringLiteral("message 2 (user) changed: Weather in [-Paris-]{+Lyon+}?")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("result: It is sunny in [-Paris-]{+Lyon+}, 21 C.")));
        QVERIFY(r.out.contains(QStringLiteral("0 inserted, 0 deleted")));
    }

    void sharedCorpusTraces()
    {
        const QString dir =
            QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl/traces/examples/tutorial/");
        const QString a = dir + QStringLiteral("for.trace.json");
        const QString b = dir + QStringLiteral("for_array.trace.json");
        if (!QFile::exists(a) || !QFile::exists(b))
            QSKIP("the shared conformance traces are absent");
        const HakoOutcome same = runHako({QStringLiteral("diff"), a, a});
        QCOMPARE(same.exitCode, 0);
        const HakoOutcome differ = runHako({QStringLiteral("diff"), a, b});
        QCOMPARE(differ.exitCode, 1);
        QVERIFY2(differ.out.contains(QStringLiteral("result: [-1234-]{+[1, 2, 3, 4]+}")),
                 qPrintable(differ.out));
    }
};

QTEST_GUILESS_MAIN(TestDiffCommand)
#include "tst_diffcommand.moc"
