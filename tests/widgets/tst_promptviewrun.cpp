// The Prompt view's inputs form feeds the run: a program that uses a variable it never defines
// runs with the value typed into the form (F5 from the window), and the model call in the
// prompt log carries it as an input, so Add to Dataset keeps it.
#include "core/promptlog/promptlog.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "openaitestserver.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/playground/playgroundpane.h"
#include "widgets/playground/varianteditor.h"
#include "widgets/promptview/promptview.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/programtabs.h"

#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

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

    // A card's "Try in Playground" opens that card's prompt (the second of two, not the one
    // at the editor's cursor), with the value typed in the Prompt view's inputs in its first
    // row; Japanese stays Japanese.
    void tryInPlaygroundOpensTheCardsPromptWithTheInputs()
    {
        const QString path = m_dir.filePath(QStringLiteral("support.pdl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("text:\n"
                    "- def: category\n"
                    "  description: 分類\n"
                    "  model: openai/gpt-4o-mini\n"
                    "  input: \"分類して: ${ inquiry }\"\n"
                    "- def: reply\n"
                    "  description: 返信\n"
                    "  model: openai/gpt-4o-mini\n"
                    "  input: \"${ category } の問い合わせに返信: ${ inquiry }\"\n");
        }
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.openFile(path));
        window.editorPane()->setPromptMode(true);
        window.editorPane()->editor()->setCursorPosition(2, 0);
        PromptView* view = window.editorPane()->promptView();
        QTRY_COMPARE(view->inputNames(), QStringList{QStringLiteral("inquiry")});
        QLineEdit* field = nullptr;
        for (QLineEdit* e : view->findChildren<QLineEdit*>())
            if (e->accessibleName() == QLatin1String("Input inquiry"))
                field = e;
        QVERIFY(field);
        field->setText(QStringLiteral("返品したい"));
        Q_EMIT field->textEdited(field->text());
        QTRY_COMPARE(view->inputValues().value(QStringLiteral("inquiry")).toString(),
                     QStringLiteral("返品したい"));

        QToolButton* tryReply = nullptr;
        for (QToolButton* b : view->findChildren<QToolButton*>())
            if (b->accessibleName() == QStringLiteral("Try reply in the playground"))
                tryReply = b;
        QVERIFY(tryReply);
        tryReply->click();
        PlaygroundPane* pane = window.playgroundPane();
        QTRY_VERIFY(pane->isVisible());
        QCOMPARE(pane->variantCount(), 1);
        QCOMPARE(pane->prompts().first().messages.first().content,
                 QStringLiteral("${ category } の問い合わせに返信: ${ inquiry }"));
        const QStringList columns = pane->variables();
        const qsizetype at = columns.indexOf(QStringLiteral("inquiry"));
        QVERIFY(at >= 0);
        QVERIFY(pane->inputsTable()->item(0, int(at)));
        QCOMPARE(pane->inputsTable()->item(0, int(at))->text(), QStringLiteral("返品したい"));
    }

    // A template is untitled until saved: a variant tried from its card is saved back into that
    // program tab all the same (one undoable edit), and says what to do once the tab is gone.
    void savingAVariantIntoAnUntitledProgram()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.newFile());
        EditorPane* source = window.editorPane();
        const QString program = QStringLiteral("text:\n"
                                               "- def: reply\n"
                                               "  model: openai/gpt-4o-mini\n"
                                               "  input: \"丁寧に返信: ${ inquiry }\"\n");
        source->editor()->setText(program);
        source->setPromptMode(true);
        PromptView* view = source->promptView();
        QToolButton* tryReply = nullptr;
        QTRY_VERIFY((tryReply = [view]() -> QToolButton* {
            for (QToolButton* b : view->findChildren<QToolButton*>())
                if (b->accessibleName() == QStringLiteral("Try reply in the playground"))
                    return b;
            return nullptr;
        }()));
        tryReply->click();
        PlaygroundPane* pane = window.playgroundPane();
        QTRY_VERIFY(pane->isVisible());
        QVERIFY(pane->variant(0)->saveButton()->isEnabled());
        pane->variant(0)->messageEdit(0)->setPlainText(QStringLiteral("短く返信: ${ inquiry }"));
        // Another program is in front when the variant is saved: it goes to its own tab.
        QVERIFY(window.newFile());
        EditorPane* other = window.editorPane();
        QVERIFY(other != source);
        pane->saveVariant(0);
        QCOMPARE(window.editorPane(), source);
        QVERIFY2(source->editor()->text().contains(QStringLiteral("短く返信: ${ inquiry }")),
                 qPrintable(source->editor()->text()));
        QVERIFY(other->editor()->text().isEmpty());
        source->editor()->undo();
        QCOMPARE(source->editor()->text(), program);
        // The tab closed without saving: nowhere to save, and the pane says what to do.
        window.programTabs()->setCurrentEditor(source);
        source->editor()->setModified(false);
        QVERIFY(window.programTabs()->closeAction());
        window.programTabs()->closeAction()->trigger();
        QTRY_VERIFY(!window.programTabs()->editors().contains(source));
        pane->saveVariant(0);
        QVERIFY2(pane->messageBar()->text().contains(QStringLiteral("Try in Playground")),
                 qPrintable(pane->messageBar()->text()));
    }
};

QTEST_MAIN(TestPromptViewRun)
#include "tst_promptviewrun.moc"
