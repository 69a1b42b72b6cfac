// `hako run` stopped by a signal — Ctrl+C (SIGINT), `kill` or a service manager (SIGTERM), a
// closed terminal (SIGHUP) — stops as Ctrl+C always did: the run is cancelled, the trace of
// what ran is written, every call answered so far is in the prompt log, and the exit status
// is the usual failure (1), not death by the signal.
#include "core/promptlog/promptlog.h"
#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using hako::testing::OpenAiTestServer;
using namespace hako::promptlog;

class TestRunInterrupt : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    static QProcessEnvironment environment(const OpenAiTestServer& server)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        env.insert(QStringLiteral("OPENAI_BASE_URL"), server.baseUrl());
        env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-test"));
        env.insert(QStringLiteral("OLLAMA_API_BASE"), QStringLiteral("http://127.0.0.1:1"));
        return env;
    }

private Q_SLOTS:
    void signalEndsTheRunCleanly_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }
    void signalEndsTheRunCleanly()
    {
        QFETCH(int, signalNumber);
        OpenAiTestServer server;
        QVERIFY(server.start());
        // Every reply takes a while: the signal lands while calls are being made.
        server.setDefaultDelayMs(150);
        const QString tag = QString::number(signalNumber);
        const QString program = m_dir.filePath(QStringLiteral("loop%1.pdl").arg(tag));
        {
            QFile f(program);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("repeat:\n"
                    "  model: openai/gpt-4o-mini\n"
                    "  input: one more\n"
                    "maxIterations: 400\n");
        }
        const QString trace = m_dir.filePath(QStringLiteral("trace%1.json").arg(tag));
        const QString log = m_dir.filePath(QStringLiteral("log%1.sqlite").arg(tag));
        QProcess run;
        run.setProcessEnvironment(environment(server));
        run.start(hakoBinary(),
                  {QStringLiteral("run"), QStringLiteral("--trust"), QStringLiteral("--stream"),
                   QStringLiteral("none"), QStringLiteral("--trace"), trace,
                   QStringLiteral("--log"), log, program});
        QVERIFY(run.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(server.requestCount() >= 3, 20000);
        ::kill(pid_t(run.processId()), signalNumber);
        QVERIFY(run.waitForFinished(30000));
        const QString err = QString::fromUtf8(run.readAllStandardError());
        // Stopped as Ctrl+C stops a run: a normal exit with the failure status.
        QCOMPARE(run.exitStatus(), QProcess::NormalExit);
        QCOMPARE(run.exitCode(), 1);
        QVERIFY2(err.contains(QLatin1String("cancelled")), qPrintable(err));
        const int sent = server.requestCount();
        QVERIFY(sent < 400);

        // The trace of what ran.
        QFile traceFile(trace);
        QVERIFY2(traceFile.open(QIODevice::ReadOnly), qPrintable(err));
        QJsonParseError parseError;
        QJsonDocument::fromJson(traceFile.readAll(), &parseError);
        QCOMPARE(parseError.error, QJsonParseError::NoError);

        // Every call the server answered is logged (the one cut short may be logged as
        // cancelled too).
        QString openError;
        auto opened = PromptLog::open(log, &openError);
        QVERIFY2(opened, qPrintable(openError));
        hako::Result<int64_t> calls = opened->count(CallFilter{});
        QVERIFY(calls.ok());
        QVERIFY2(*calls >= sent - 1,
                 qPrintable(QStringLiteral("%1 logged of %2 sent").arg(*calls).arg(sent)));
    }

    // Paused in the debugger, waiting for a command: SIGTERM ends the run the same way.
    void signalEndsADebugSession()
    {
        const QString program = m_dir.filePath(QStringLiteral("paused.pdl"));
        {
            QFile f(program);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("text:\n- one\n- two\n");
        }
        const QString trace = m_dir.filePath(QStringLiteral("paused_trace.json"));
        QProcess run;
        run.start(hakoBinary(),
                  {QStringLiteral("run"), QStringLiteral("--trust"), QStringLiteral("--no-log"),
                   QStringLiteral("--debug"), QStringLiteral("--trace"), trace, program});
        QVERIFY(run.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += run.readAllStandardOutput()).contains("paused at"), 20000);
        ::kill(pid_t(run.processId()), SIGTERM);
        QVERIFY(run.waitForFinished(30000)); // stdin stays open: only the signal ends it
        QCOMPARE(run.exitStatus(), QProcess::NormalExit);
        QCOMPARE(run.exitCode(), 1);
        QVERIFY(QFileInfo::exists(trace));
    }
};

QTEST_GUILESS_MAIN(TestRunInterrupt)
#include "tst_runinterrupt.moc"
