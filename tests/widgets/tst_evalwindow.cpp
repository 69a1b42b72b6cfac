// Evaluations in the window: the Evaluations pane's form runs the Datasets pane's dataset
// through the editor's program against the local test server, the results stream into the
// grid, every call is in the prompt log under the experiment's tag, and a second run after an
// edit of the program is shown compared with the first.
#include "core/eval/evalstore.h"
#include "core/eval/resultsmodel.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/experimentjob.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "openaitestserver.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/eval/datasetpane.h"
#include "widgets/eval/evalresultspane.h"
#include "widgets/eval/experimentform.h"
#include "widgets/workbench/evallinks.h"
#include "widgets/workbench/mainwindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::testing;

namespace {

eval::Example example(const QString& sentence, const QString& reference)
{
    eval::Example e;
    e.inputs = QJsonObject{{QStringLiteral("sentence"), sentence}};
    e.reference = reference;
    return e;
}

int chats(const OpenAiTestServer& server)
{
    int n = 0;
    for (const RecordedRequest& r : server.requests())
        n += r.path.endsWith("/chat/completions");
    return n;
}

} // namespace

class TestEvalWindow : public QObject {
    Q_OBJECT

    std::unique_ptr<IsolatedSettings> m_settings;
    OpenAiTestServer m_server;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<IsolatedSettings>(QStringLiteral("tst_evalwindow"));
        QVERIFY(m_settings->isValid());
        QVERIFY(m_server.start());
        qputenv("OPENAI_BASE_URL", m_server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-SECRET-88");
        qputenv("OLLAMA_API_BASE", "http://127.0.0.1:1");
    }

    // A template's sample in `defs:` would override every example: the experiment is refused
    // before anything is sent, and one click makes the sample an input.
    void aSampleInDefsBecomesAnInput()
    {
        const QString path = m_dir.filePath(QStringLiteral("sample.pdl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("description: 翻訳\ndefs:\n  sentence: サンプルの文\n"
                    "model: openai/gpt-4o-mini\ninput: \"${ sentence }\"\n");
        }
        auto opened = eval::EvalStore::open(m_dir.filePath(QStringLiteral("sample.sqlite")));
        QVERIFY(opened);
        MainWindow window;
        window.evalLinks()->setStore(std::shared_ptr<eval::EvalStore>(std::move(opened).value()));
        window.show();
        QVERIFY(window.openFile(path));
        eval::Dataset d;
        d.name = QStringLiteral("文");
        d.examples = {example(QStringLiteral("猫"), QStringLiteral("cat"))};
        window.datasetPane()->setDataset(d);
        window.datasetPane()->nameField()->setText(d.name);
        ExperimentForm* form = window.evalLinks()->form();
        form->check(QStringLiteral("exact_match"))->setChecked(true);
        const int before = chats(m_server);
        QVERIFY(!window.evalLinks()->runExperiment());
        QVERIFY2(form->messageBar()->text().contains(QStringLiteral("“sentence”")),
                 qPrintable(form->messageBar()->text()));
        QPushButton* fix = nullptr;
        for (QPushButton* b : form->messageBar()->findChildren<QPushButton*>())
            if (b->text().contains(QLatin1String("Input")) && b->isVisible())
                fix = b;
        QVERIFY(fix);
        QTest::mouseClick(fix, Qt::LeftButton);
        const QString text = window.editorPane()->editor()->text();
        QVERIFY2(!text.contains(QStringLiteral("サンプルの文")) &&
                     !text.contains(QLatin1String("defs")),
                 qPrintable(text));
        QVERIFY(text.contains(QLatin1String("${ sentence }")));
        QCOMPARE(chats(m_server), before); // nothing was sent
    }

    void runCompareAndExplain()
    {
        const QString path = m_dir.filePath(QStringLiteral("echo.pdl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("model: openai/gpt-4o-mini\ninput: \"${ sentence }\"\n");
        }
        QString error;
        std::shared_ptr<promptlog::PromptLog> log =
            promptlog::PromptLog::open(m_dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        auto opened = eval::EvalStore::open(m_dir.filePath(QStringLiteral("eval.sqlite")));
        QVERIFY(opened);
        std::shared_ptr<eval::EvalStore> store(std::move(opened).value());

        MainWindow window;
        window.context()->setPromptLog(log);
        window.evalLinks()->setStore(store);
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.openFile(path));
        ExperimentForm* form = window.evalLinks()->form();
        // The form tests the editor's program.
        QCOMPARE(form->programPath(), path);

        // Nothing to run yet: the form says what to do, nothing is sent.
        QVERIFY(!window.evalLinks()->runExperiment());
        QVERIFY(form->messageBar()->text().contains(QStringLiteral("Prompt Log")));

        DatasetPane* datasets = window.datasetPane();
        eval::Dataset d;
        d.name = QStringLiteral("sentences");
        d.examples = {example(QStringLiteral("猫"), QStringLiteral("echo: 猫")),
                      example(QStringLiteral("dog"), QStringLiteral("echo: dog")),
                      example(QStringLiteral("bird"), QStringLiteral("a bird"))};
        datasets->setDataset(d);
        datasets->nameField()->setText(d.name);
        form->check(QStringLiteral("exact_match"))->setChecked(true);
        form->check(QStringLiteral("length_chars"))->setChecked(true);

        QSignalSpy finished(window.evalLinks()->job(), &ExperimentJob::finished);
        const int before = chats(m_server);
        QTest::mouseClick(form->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
        const QString first = finished.first().at(0).toString();
        QCOMPARE(chats(m_server) - before, 3);

        // The grid: one row per example; exact match passes two of three.
        EvalResultsPane* results = window.evalResultsPane();
        QTRY_COMPARE(results->experimentBox()->currentData().toString(), first);
        QTRY_COMPARE(results->model()->rowCount(), 3);
        int passed = 0;
        for (int row = 0; row < 3; ++row) {
            const eval::ExampleResult* r = results->model()->resultAt(row);
            QVERIFY(r);
            const eval::Score* s = r->score(QStringLiteral("exact_match"));
            QVERIFY(s);
            passed += s->pass;
        }
        QCOMPARE(passed, 2);
        // Every call is in the prompt log under the experiment's tag.
        QVERIFY(log->flush());
        promptlog::CallFilter tagged;
        tagged.tags = {QStringLiteral("eval:echo")};
        auto calls = log->list(tagged, true);
        QVERIFY(calls);
        QCOMPARE(calls->size(), 3);
        // The dataset version the experiment ran on is stored.
        auto stored = store->dataset(QStringLiteral("sentences"));
        QVERIFY(stored);
        QCOMPARE(stored->examples.size(), 3);

        // An unsaved edit: the form offers to save first; then the second run is compared
        // with the first.
        window.editorPane()->editor()->setText(
            QStringLiteral("model: openai/gpt-4o-mini\ninput: \"Say ${ sentence }\"\n"));
        QVERIFY(!window.evalLinks()->runExperiment());
        QVERIFY(form->messageBar()->text().contains(QStringLiteral("unsaved")));
        QVERIFY(window.editorPane()->save());
        QVERIFY(window.evalLinks()->runExperiment());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
        QVERIFY(finished.at(1).at(1).toBool());
        const QString second = finished.at(1).at(0).toString();
        QVERIFY(second != first);
        // The dataset did not change: both experiments ran on its first version.
        QCOMPARE(store->experiment(second)->datasetVersion, 1);
        QTRY_COMPARE(results->experimentBox()->currentData().toString(), second);
        QTRY_COMPARE(results->baselineBox()->currentData().toString(), first);
        // The grid has a column per check, and a click on a failing score says why.
        const QStringList evaluators = results->model()->evaluators();
        QCOMPARE(evaluators,
                 (QStringList{QStringLiteral("exact_match"), QStringLiteral("length_chars")}));
        // Against the first run: the two examples that passed regressed.
        int regressed = 0;
        const int column = results->model()->columnOf(QStringLiteral("exact_match"));
        for (int row = 0; row < 3; ++row)
            regressed += results->model()
                             ->index(row, column)
                             .data(eval::ExperimentResultsModel::DeltaRole)
                             .toDouble() < -0.5;
        QCOMPARE(regressed, 2);
        if (const QString shots = qEnvironmentVariable("HAKO_SCREENSHOT_DIR"); !shots.isEmpty())
            window.grab().save(shots + QStringLiteral("/evalwindow.png"));
    }
};

QTEST_MAIN(TestEvalWindow)
#include "tst_evalwindow.moc"
