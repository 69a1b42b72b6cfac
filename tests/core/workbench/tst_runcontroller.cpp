// Runs as the workbench makes them: off the GUI thread, with output, stdin prompts answered
// through signals, stop, parse errors, a live trace, and a model streaming from a local server.
#include "core/models/modelrouter.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/runcontroller.h"
#include "tests/support/openaitestserver.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace hako;

Q_DECLARE_METATYPE(hako::Diagnostic)

class TestRunController : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<hako::Diagnostic>(); }

    void runsAndReportsTheResult()
    {
        RunController run;
        QSignalSpy finished(&run, &RunController::finished);
        QSignalSpy output(&run, &RunController::output);
        QVERIFY(run.start("text:\n- Hello\n- contribute: [stdout]\n  text: \" out\"\n",
                          QStringLiteral("/tmp/hello.pdl")));
        QVERIFY(run.isRunning());
        // A second start while running is refused.
        QVERIFY(!run.start("text: again\n", QStringLiteral("/tmp/x.pdl")));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(finished[0][0].toBool());
        QCOMPARE(finished[0][1].toString(), QStringLiteral("Hello"));
        QString out;
        for (const auto& args : output)
            out += args[0].toString();
        // The result streams as it is produced (as `hako run` prints it), with stdout between.
        // A stdout contribution is a line, as in the reference.
        QCOMPARE(out, QStringLiteral("Hello out\n"));
        QVERIFY(!run.isRunning());
        QVERIFY(run.lastTrace());
        QCOMPARE(run.traceModel()->root()->resultText(), QStringLiteral("Hello"));
    }

    void parseErrorsEndTheRunWithALocation()
    {
        RunController run;
        QSignalSpy finished(&run, &RunController::finished);
        QVERIFY(run.start("text:\n- repeat:\n    text: a\n  num_iterations: 3\n",
                          QStringLiteral("/tmp/bad.pdl")));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(!finished[0][0].toBool());
        const Diagnostic d = finished[0][2].value<Diagnostic>();
        QCOMPARE(d.span.line, 4);
        QVERIFY(d.message.contains(QStringLiteral("num_iterations")));
    }

    void readAsksThroughASignal()
    {
        RunController run;
        QSignalSpy finished(&run, &RunController::finished);
        QSignalSpy asked(&run, &RunController::inputRequested);
        QVERIFY(
            run.start("text:\n- read:\n  message: \"Name? \"\n  def: name\n- \" hi ${ name }\"\n",
                      QStringLiteral("/tmp/read.pdl")));
        QTRY_COMPARE(asked.count(), 1);
        QCOMPARE(asked[0][0].toString(), QStringLiteral("Name? "));
        QVERIFY(run.isWaitingForInput());
        QVERIFY(run.isRunning());
        run.provideInput(QStringLiteral("Ada"));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][2].value<Diagnostic>().message));
        QCOMPARE(finished[0][1].toString(), QStringLiteral("Ada hi Ada"));
    }

    void stopEndsALongRun()
    {
        RunController run;
        QSignalSpy finished(&run, &RunController::finished);
        QVERIFY(run.start("repeat:\n  text: \"${ i }\"\nmaxIterations: 100000000\nindex: i\n"
                          "join:\n  as: lastOf\n",
                          QStringLiteral("/tmp/long.pdl")));
        QTest::qWait(200);
        QVERIFY(run.isRunning());
        run.stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QVERIFY(!finished[0][0].toBool());
        // The partial trace stays viewable.
        QVERIFY(run.traceModel()->itemCount() > 1);
    }

    void stopWhileWaitingForInput()
    {
        RunController run;
        QSignalSpy finished(&run, &RunController::finished);
        QSignalSpy asked(&run, &RunController::inputRequested);
        QVERIFY(run.start("read:\nmessage: \"? \"\n", QStringLiteral("/tmp/wait.pdl")));
        QTRY_COMPARE(asked.count(), 1);
        run.stop();
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(!finished[0][0].toBool());
    }

    void modelOutputStreamsIntoTheTrace()
    {
        testing::OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueueChat(testing::ScriptedReply::chatStream(
            {QStringLiteral("Bon"), QStringLiteral("jour"), QStringLiteral("!")}));
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test");
        Result<std::shared_ptr<models::IModelProvider>> provider =
            models::createDefaultProvider(QDir::tempPath());
        QVERIFY(provider.ok());
        RunController run;
        run.setModelProvider(*provider);
        QSignalSpy finished(&run, &RunController::finished);
        QSignalSpy streamed(run.traceModel(), &pdl::TraceModel::itemStreamed);
        QSignalSpy output(&run, &RunController::output);
        QVERIFY(run.start("text:\n- Say hello\n- model: openai/test\n",
                          QStringLiteral("/tmp/model.pdl")));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][2].value<Diagnostic>().message));
        QCOMPARE(finished[0][1].toString(), QStringLiteral("Say helloBonjour!"));
        QVERIFY(streamed.count() >= 1);
        QString out;
        for (const auto& args : output)
            out += args[0].toString();
        // The literal text streams too, then the reply as it arrives: the whole result, once.
        QCOMPARE(out, QStringLiteral("Say helloBonjour!"));
        const pdl::TraceItem* model = run.traceModel()->findById(QStringLiteral("text.1.model"));
        QVERIFY(model);
        QCOMPARE(model->resultText(), QStringLiteral("Bonjour!"));
    }
};

QTEST_GUILESS_MAIN(TestRunController)
#include "tst_runcontroller.moc"
