// The Playground in the window: a model block at the editor's cursor or a logged call opens
// in it; its runs go to the endpoint the program's folder configures and are in the prompt
// log with the tag `playground`; Save to Program rewrites the block in the editor as one
// undoable edit, leaving the rest of the file byte for byte.
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
#include "widgets/promptlog/promptlogpane.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/playgroundlinks.h"

#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::testing;

namespace {

const char* kProgram = "# A greeting for each name\n"
                       "description: Greet people\n"
                       "text:\n"
                       "- def: greeting   # the prompt under test\n"
                       "  model: openai/gpt-4o-mini\n"
                       "  parameters:\n"
                       "    temperature: 0.5\n"
                       "  input:\n"
                       "    array:\n"
                       "    - role: system\n"
                       "      content: You are kind.\n"
                       "    - role: user\n"
                       "      content: \"Say hello to ${ name }\"\n"
                       "defs:\n"
                       "  name: Aiko\n";

} // namespace

class TestPlaygroundWindow : public QObject {
    Q_OBJECT

    std::unique_ptr<IsolatedSettings> m_settings;
    OpenAiTestServer m_server;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<SourceSpan>();
        m_settings = std::make_unique<IsolatedSettings>(QStringLiteral("tst_playgroundwindow"));
        QVERIFY(m_settings->isValid());
        QVERIFY(m_server.start());
        qputenv("OPENAI_BASE_URL", m_server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-SECRET-77");
        qputenv("OLLAMA_API_BASE", "http://127.0.0.1:1");
    }

    void blockAtCursorRunsVariantsLogsAndSavesBack()
    {
        const QString path = m_dir.filePath(QStringLiteral("greet.pdl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kProgram);
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
        PdlEditor* editor = window.editorPane()->editor();

        // Outside any model block: nothing opens, the status bar says why.
        editor->setCursorPosition(1, 0);
        QVERIFY(!window.playgroundLinks()->openBlockAtCursor());
        // In the block (on its system message): the playground shows its prompt.
        editor->setCursorPosition(10, 8);
        QVERIFY(window.playgroundLinks()->openBlockAtCursor());
        PlaygroundPane* pane = window.playgroundPane();
        QTRY_VERIFY(pane->isVisible());
        QCOMPARE(pane->variantCount(), 1);
        QCOMPARE(pane->prompts().first().messages.size(), 2);
        QCOMPARE(pane->prompts().first().model, QStringLiteral("openai/gpt-4o-mini"));
        QCOMPARE(pane->variables(), QStringList{QStringLiteral("name")});

        // Two variants over three inputs.
        VariantEditor* second = pane->addVariant();
        QVERIFY(second);
        second->messageEdit(1)->setPlainText(QStringLiteral("Say good morning to ${ name }"));
        pane->inputsTable()->setRowCount(1);
        pane->inputsTable()->setCurrentCell(0, 0);
        // Ctrl+V in the inputs table pastes there (not through the window's Edit › Paste into
        // the editor).
        const QString editorText = editor->text();
        QApplication::clipboard()->setText(QStringLiteral("Aiko\nBen\nChie"));
        pane->inputsTable()->setFocus();
        QTest::keyClick(pane->inputsTable(), Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(editor->text(), editorText);
        QCOMPARE(pane->inputRows().size(), 3);
        QSignalSpy finished(pane, &PlaygroundPane::runFinished);
        auto chats = [this] {
            int n = 0;
            for (const RecordedRequest& r : m_server.requests())
                n += r.path.endsWith("/chat/completions");
            return n;
        };
        const int before = chats();
        pane->run();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(chats() - before, 6);

        // Every call is in the prompt log, tagged `playground`, under the block's name.
        QVERIFY(log->flush());
        promptlog::CallFilter playground;
        playground.tags = {QStringLiteral("playground")};
        auto calls = log->list(playground, true);
        QVERIFY(calls);
        QCOMPARE(calls->size(), 6);
        for (const promptlog::CallRecord& c : *calls) {
            QCOMPARE(c.promptName, QStringLiteral("greeting"));
            QCOMPARE(c.programPath, path);
            // Filed under the prompt's identity, as the program's own runs are (the log's
            // "by prompt" counts both variants' calls as calls of this prompt).
            QCOMPARE(c.programName, QStringLiteral("Greet people"));
            QVERIFY(!c.promptId.isEmpty());
            QCOMPARE(c.promptId, calls->first().promptId);
        }

        // Save the second variant back: only the edited message's line changes; one undo
        // restores the file as it was.
        QCOMPARE(editor->text(), QString::fromUtf8(kProgram));
        pane->saveVariant(1);
        const QString saved = editor->text();
        QString expected = QString::fromUtf8(kProgram);
        expected.replace(QStringLiteral("\"Say hello to ${ name }\""),
                         QStringLiteral("\"Say good morning to ${ name }\""));
        QCOMPARE(saved, expected);
        QVERIFY(window.editorPane()->isModified());
        editor->undo();
        QCOMPARE(editor->text(), QString::fromUtf8(kProgram));

        // A call the program's run made opens in the playground as its block: the template
        // with its input, and Save to Program on.
        QSignalSpy runFinished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE_WITH_TIMEOUT(runFinished.count(), 1, 30000);
        QVERIFY(runFinished.first().at(0).toBool());
        QVERIFY(log->flush());
        promptlog::CallFilter ofRun;
        ofRun.runId = window.runController()->lastRunId();
        auto runCalls = log->list(ofRun, true);
        QVERIFY(runCalls && runCalls->size() == 1);
        QVERIFY(runCalls->first().span.isValid());
        QCOMPARE(runCalls->first().promptId, calls->first().promptId);
        window.playgroundLinks()->openCall(runCalls->first());
        QCOMPARE(pane->variantCount(), 1);
        QCOMPARE(pane->variables(), QStringList{QStringLiteral("name")});
        QCOMPARE(pane->prompts().first().messages.at(1).content,
                 QStringLiteral("Say hello to ${ name }"));
        QVERIFY2(pane->messageBar()->text().contains(QStringLiteral("greet.pdl")),
                 qPrintable(pane->messageBar()->text()));
        QVERIFY(pane->variant(0)->saveButton()->isEnabled());
    }
};

QTEST_MAIN(TestPlaygroundWindow)
#include "tst_playgroundwindow.moc"
