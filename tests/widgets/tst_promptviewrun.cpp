// The Prompt view's inputs form feeds the run: a program that uses a variable it never defines
// runs with the value typed into the form (F5 from the window), and the model call in the
// prompt log carries it as an input, so Add to Dataset keeps it.
#include "core/promptlog/promptlog.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "openaitestserver.h"
#include "widgets/editor/editorpane.h"
#include "widgets/promptview/promptview.h"
#include "widgets/workbench/mainwindow.h"

#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::testing;

class TestPromptViewRun : public QObject {
    Q_OBJECT

    std::unique_ptr<IsolatedSettings> m_settings;
    OpenAiTestServer m_server;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<IsolatedSettings>(QStringLiteral("tst_promptviewrun"));
        QVERIFY(m_settings->isValid());
        QVERIFY(m_server.start());
        qputenv("OPENAI_BASE_URL", m_server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-SECRET-99");
        qputenv("OLLAMA_API_BASE", "http://127.0.0.1:1");
    }

    void inputsFormValuesAreTheRunsVariables()
    {
        const QString path = m_dir.filePath(QStringLiteral("greet.pdl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("model: openai/gpt-4o-mini\ninput: \"Say hello to ${ name }\"\n");
        }
        QString error;
        std::shared_ptr<promptlog::PromptLog> log =
            promptlog::PromptLog::open(m_dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        MainWindow window;
        window.context()->setPromptLog(log);
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.openFile(path));
        window.editorPane()->setPromptMode(true);
        PromptView* view = window.editorPane()->promptView();
        QTRY_COMPARE(view->inputNames(), QStringList{QStringLiteral("name")});
        QLineEdit* field = nullptr;
        for (QLineEdit* e : view->findChildren<QLineEdit*>())
            if (e->accessibleName() == QLatin1String("Input name"))
                field = e;
        QVERIFY(field);
        field->setFocus();
        QTest::keyClicks(field, QStringLiteral("Chie"));
        QCOMPARE(view->inputValues().value(QStringLiteral("name")).toString(),
                 QStringLiteral("Chie"));

        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY2(finished.first().at(0).toBool(),
                 qPrintable(finished.first().at(2).value<Diagnostic>().message));
        bool sent = false;
        for (const RecordedRequest& r : m_server.requests())
            sent |= r.body.contains("Say hello to Chie");
        QVERIFY(sent);
        QVERIFY(log->flush());
        promptlog::CallFilter ofRun;
        ofRun.runId = window.runController()->lastRunId();
        auto calls = log->list(ofRun, true);
        QVERIFY(calls && calls->size() == 1);
        QCOMPARE(calls->first().inputs.value(QStringLiteral("name")).toString(),
                 QStringLiteral("Chie"));
    }
};

QTEST_MAIN(TestPromptViewRun)
#include "tst_promptviewrun.moc"
