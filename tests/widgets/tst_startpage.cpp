// The start page: Ollama is looked for at OLLAMA_API_BASE and its models named; a server typed
// in is tested and, with Use This Server, kept in the user's model settings with its first
// model as the default; a server that does not answer says so in plain words; the window
// shows the page at start-up without a file and gives the centre back to the editor. After a
// restart the page shows the connected server and the recent prompts; the editor's model picker
// offers the kept server's models at once; without a keyring the key is kept for the session
// (or, when ticked, in a file only the user can read).
#include "core/models/apikeystore.h"
#include "core/models/modelcatalog.h"
#include "core/models/modelconfig.h"
#include "core/workbench/recentfiles.h"
#include "core/workbench/runcontroller.h"
#include "isolatedsettings.h"
#include "openaitestserver.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/start/startpage.h"
#include "widgets/workbench/mainwindow.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::testing;

class TestStartPage : public QObject {
    Q_OBJECT

    std::unique_ptr<IsolatedSettings> m_settings;
    OpenAiTestServer m_ollama;
    OpenAiTestServer m_server;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<IsolatedSettings>(QStringLiteral("tst_startpage"));
        QVERIFY(m_settings->isValid());
        qputenv("HAKO_KEYRING", "0");
        QVERIFY(m_ollama.start());
        QVERIFY(m_server.start());
        m_ollama.setModels({QStringLiteral("granite3.2:8b"), QStringLiteral("llama3.2")});
        m_server.setModels({QStringLiteral("qwen-7b")});
        QString base = m_ollama.baseUrl();
        base.chop(3); // without /v1, as OLLAMA_API_BASE is usually written
        qputenv("OLLAMA_API_BASE", base.toUtf8());
    }

    void findsOllamaTestsAndKeepsAServer()
    {
        StartPage page;
        page.setModelSettingsFile(m_dir.filePath(QStringLiteral("hako-models.yaml")));
        QSignalSpy ollama(&page, &StartPage::ollamaProbed);
        page.resize(1000, 700);
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(ollama.count(), 1, 15000);
        QCOMPARE(ollama.first().at(0).toStringList().size(), 2);
        QVERIFY2(page.ollamaState()->text().contains(QStringLiteral("granite3.2:8b")),
                 qPrintable(page.ollamaState()->text()));

        // Every control is named for screen readers.
        for (QWidget* w : page.findChildren<QWidget*>())
            if (qobject_cast<QAbstractButton*>(w) || qobject_cast<QLineEdit*>(w))
                QVERIFY2(!w->accessibleName().isEmpty() ||
                             !static_cast<QAbstractButton*>(w)->text().isEmpty(),
                         w->metaObject()->className());

        // A server that does not answer.
        QSignalSpy tested(&page, &StartPage::serverTested);
        page.urlField()->setText(QStringLiteral("http://127.0.0.1:9"));
        QTest::mouseClick(page.testButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15000);
        QVERIFY(page.serverState()->text().contains(QStringLiteral("did not answer")));
        QVERIFY(!page.useButton()->isEnabled());

        // One that does: its models are named, and it can be kept.
        page.urlField()->setText(m_server.baseUrl());
        page.keyField()->setText(QStringLiteral("sk-start-SECRET"));
        QTest::mouseClick(page.testButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 2, 15000);
        QVERIFY2(page.serverState()->text().contains(QStringLiteral("qwen-7b")),
                 qPrintable(page.serverState()->text()));
        bool sentKey = false;
        for (const RecordedRequest& r : m_server.requests())
            for (const auto& [name, value] : r.headers)
                sentKey |= name == "authorization" && value == "Bearer sk-start-SECRET";
        QVERIFY(sentKey);
        QVERIFY(page.useButton()->isEnabled());
        QSignalSpy changed(&page, &StartPage::modelsChanged);
        QTest::mouseClick(page.useButton(), Qt::LeftButton);
        QCOMPARE(changed.count(), 1);
        QFile file(m_dir.filePath(QStringLiteral("hako-models.yaml")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray yaml = file.readAll();
        QVERIFY2(yaml.contains(m_server.baseUrl().toUtf8()), yaml.constData());
        QVERIFY2(yaml.contains("server/qwen-7b"), yaml.constData());
        // The key goes to the keyring — off here, so it is kept for this session, and the page
        // says so — never into the file nor the settings.
        QVERIFY(!yaml.contains("SECRET"));
        QVERIFY2(page.serverState()->text().contains(QLatin1String("session only")),
                 qPrintable(page.serverState()->text()));
        QVERIFY(page.keyToFileBox()->isVisibleTo(&page));
        QCOMPARE(models::ApiKeyStore::system()->lookup(QStringLiteral("server")),
                 std::optional(QStringLiteral("sk-start-SECRET")));
        QVERIFY(!QFile::exists(models::ApiKeyStore::system()->keyFile()));
        QSettings settings;
        for (const QString& key : settings.allKeys())
            QVERIFY(!settings.value(key).toString().contains(QLatin1String("SECRET")));
        models::ApiKeyStore::system()->setSessionKey(QStringLiteral("server"), QString());
    }

    // Closed and opened again (a restart: the same settings), the page shows the server kept
    // with Use This Server and the prompts opened last, by name; a click opens one.
    void aRestartShowsTheServerAndTheRecentPrompts()
    {
        QTemporaryDir dir;
        const QString yaml = dir.filePath(QStringLiteral("hako-models.yaml"));
        const QString summarise = dir.filePath(QStringLiteral("summarise.pdl"));
        const QString plain = dir.filePath(QStringLiteral("plain.pdl"));
        for (const auto& [path, text] :
             {std::pair{summarise, QByteArray("description: 議事録を要約する\ntext: hi\n")},
              std::pair{plain, QByteArray("text: hi\n")}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        }
        {
            QSettings settings;
            RecentFiles recent(&settings);
            recent.add(plain);
            recent.add(summarise); // the most recent
            StartPage page;
            page.setModelSettingsFile(yaml);
            page.show();
            QSignalSpy tested(&page, &StartPage::serverTested);
            page.urlField()->setText(m_server.baseUrl());
            page.testServer();
            QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15000);
            QVERIFY(page.useServer());
        }
        StartPage page;
        page.setModelSettingsFile(yaml);
        QSignalSpy checked(&page, &StartPage::connectedServerChecked);
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 15000);
        const QString connected = page.connectedState()->text();
        QVERIFY2(connected.contains(m_server.baseUrl()) &&
                     connected.contains(QLatin1String("1 model")) &&
                     connected.contains(QLatin1String("qwen-7b")),
                 qPrintable(connected));
        const QList<QPushButton*> recent = page.recentButtons();
        QCOMPARE(recent.size(), 2);
        QVERIFY2(recent.at(0)->accessibleName().contains(QStringLiteral("議事録を要約する")),
                 qPrintable(recent.at(0)->accessibleName()));
        QVERIFY(recent.at(1)->accessibleName().contains(QLatin1String("plain")));
        QSignalSpy open(&page, &StartPage::openRecentRequested);
        QTest::mouseClick(recent.at(0), Qt::LeftButton);
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toString(), QFileInfo(summarise).absoluteFilePath());

        // A server that stopped answering is said plainly.
        auto gone = std::make_unique<OpenAiTestServer>();
        QVERIFY(gone->start());
        gone->setModels({QStringLiteral("phi-3")});
        const QString goneUrl = gone->baseUrl();
        {
            StartPage first;
            first.setModelSettingsFile(yaml);
            first.show();
            QSignalSpy tested(&first, &StartPage::serverTested);
            first.urlField()->setText(goneUrl);
            first.testServer();
            QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15000);
            QVERIFY2(first.useServer(), qPrintable(first.serverState()->text()));
        }
        gone.reset(); // stopped: nothing listens at its address any more
        StartPage again;
        again.setModelSettingsFile(yaml);
        QSignalSpy checkedAgain(&again, &StartPage::connectedServerChecked);
        again.show();
        QTRY_COMPARE_WITH_TIMEOUT(checkedAgain.count(), 1, 15000);
        QVERIFY2(again.connectedState()->text().contains(QLatin1String("does not answer")) &&
                     again.connectedState()->text().contains(goneUrl),
                 qPrintable(again.connectedState()->text()));
    }

    // In the window, Use This Server makes the editor's model picker and snippet offer that
    // server's models at once (no restart), and never a bare prefix.
    void thePickerOffersTheServerAtOnce()
    {
        QFile::remove(models::ModelConfig::userFile());
        QSettings().remove(QStringLiteral("startPage/connectedServer"));
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.showStartPage();
        StartPage* page = window.startPage();
        QTRY_VERIFY(page->isVisible());
        QSignalSpy tested(page, &StartPage::serverTested);
        page->urlField()->setText(m_server.baseUrl());
        page->testServer();
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15000);
        PdlEditor* editor = window.editorPane()->editor();
        QSignalSpy listed(models::ModelCatalog::instance(), &models::ModelCatalog::modelsChanged);
        QVERIFY(page->useServer());
        QTRY_VERIFY_WITH_TIMEOUT(editor->defaultModel() == QLatin1String("server/qwen-7b"), 15000);
        editor->setText(QStringLiteral("text:\n- model: \n"));
        editor->setCursorPosition(1, 9);
        QStringList offered;
        for (const pdl::CompletionItem& i : editor->completionsAtCursor().items)
            offered << i.text;
        QVERIFY2(offered.contains(QStringLiteral("server/qwen-7b")) &&
                     offered.contains(QStringLiteral("default")),
                 qPrintable(offered.join(',')));
        for (const QString& name : offered)
            QVERIFY2(!name.endsWith(QLatin1Char('/')), qPrintable(name));
        QFile::remove(models::ModelConfig::userFile());
    }

    void windowShowsItAtStartAndGivesTheEditorBack()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.showStartPageIfIdle());
        QTRY_VERIFY(window.startPage() && window.startPage()->isVisible());
        QVERIFY(!window.editorPane()->isVisible());
        if (const QString shots = qEnvironmentVariable("HAKO_SCREENSHOT_DIR"); !shots.isEmpty())
            window.grab().save(shots + QStringLiteral("/startpage.png"));
        // Go to the Editor.
        auto* back = window.startPage()->findChild<QPushButton*>();
        for (QPushButton* b : window.startPage()->findChildren<QPushButton*>())
            if (b->accessibleName() == QLatin1String("Go to the Editor"))
                back = b;
        QTest::mouseClick(back, Qt::LeftButton);
        QTRY_VERIFY(window.editorPane()->isVisible());
        // Help › Getting Started brings it back; a program typed or opened takes the centre.
        window.showStartPage();
        QTRY_VERIFY(window.startPage()->isVisible());
        window.editorPane()->editor()->setText(QStringLiteral("text: hi\n"));
        QTRY_VERIFY(window.editorPane()->isVisible());
        // With a program in the editor, start-up does not hide it.
        QVERIFY(!window.showStartPageIfIdle());
    }

    // Help › Getting Started › "Debug a run" with another program open: the example opens and
    // runs, never the program that was open.
    void debugARunRunsTheExample()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.editorPane()->editor()->setText(QStringLiteral("text: mine\n"));
        window.showStartPage();
        QTRY_VERIFY(window.startPage()->isVisible());
        QPushButton* debug = nullptr;
        for (QPushButton* b : window.startPage()->findChildren<QPushButton*>())
            if (b->text().startsWith(QLatin1String("Debug a run")) ||
                b->accessibleName().startsWith(QLatin1String("Debug a run")))
                debug = b;
        QVERIFY(debug);
        RunController* mine = window.runController();
        QSignalSpy mineStarted(mine, &RunController::started);
        QTest::mouseClick(debug, Qt::LeftButton);
        // The example has a tab of its own, and its run controller runs it.
        QTRY_VERIFY(
            window.editorPane()->filePath().endsWith(QLatin1String("paper_model_chaining.pdl")));
        RunController* example = window.runController();
        QVERIFY(example != mine);
        QTRY_VERIFY(example->isRunning() || example->lastTrace());
        QCOMPARE(mineStarted.count(), 0);
        example->stop();
    }
};

QTEST_MAIN(TestStartPage)
#include "tst_startpage.moc"
