// The Playground pane keeps its sessions: variants, input rows and the last results of a run
// come back in a new pane over the same folder (as after quitting and restarting the window),
// New Session and opening another call keep the earlier session, renaming persists, the Sessions
// menu lists and reopens sessions and names damaged files, deleting removes the file.
#include "core/models/openaiprovider.h"
#include "core/playground/playgroundresultmodel.h"
#include "core/playground/playgroundsessionstore.h"
#include "core/promptlog/callrecord.h"
#include "isolatedsettings.h"
#include "openaitestserver.h"
#include "widgets/playground/playgroundpane.h"
#include "widgets/playground/playgroundsessions.h"
#include "widgets/playground/varianteditor.h"

#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

using namespace hako;
using namespace hako::playground;
using testing::OpenAiTestServer;

namespace {

promptlog::CallRecord loggedCall(const QString& promptName, const QString& text)
{
    promptlog::CallRecord c;
    c.model = QStringLiteral("m-a");
    c.promptName = promptName;
    c.parameters = QJsonObject{{QStringLiteral("temperature"), 0.2},
                               {QStringLiteral("api_key"), QStringLiteral("sk-NEVER")}};
    c.messages = QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                        {QStringLiteral("content"), text}}};
    c.inputs = QJsonObject{{QStringLiteral("email"), QStringLiteral("配送が遅れています")}};
    return c;
}

std::function<std::shared_ptr<models::IModelProvider>()> factoryFor(const OpenAiTestServer& s)
{
    const QString url = s.baseUrl();
    return [url] {
        models::EndpointConfig config;
        config.baseUrl = url;
        config.maxRetries = 0;
        return std::make_shared<models::OpenAiProvider>(config);
    };
}

std::unique_ptr<PlaygroundPane> newPane(const QString& folder)
{
    auto pane = std::make_unique<PlaygroundPane>();
    pane->setModels({QStringLiteral("m-a"), QStringLiteral("m-b")});
    pane->setSessionFolder(folder);
    pane->resize(1200, 900);
    return pane;
}

QStringList menuTexts(QMenu* menu)
{
    Q_EMIT menu->aboutToShow();
    QStringList out;
    for (QAction* a : menu->actions())
        out << a->text();
    return out;
}

QAction* menuAction(QMenu* menu, const QString& startsWith)
{
    Q_EMIT menu->aboutToShow();
    for (QAction* a : menu->actions()) {
        if (a->text().startsWith(startsWith))
            return a;
    }
    return nullptr;
}

} // namespace

class TestPlaygroundSessions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_playgroundsessions"));
        QVERIFY(m_settings->isValid());
    }

    void init() { QSettings().clear(); }

    void aSessionComesBackInANewPane()
    {
        QTemporaryDir dir;
        OpenAiTestServer server;
        QVERIFY(server.start());
        QString id;
        {
            std::unique_ptr<PlaygroundPane> pane = newPane(dir.path());
            pane->setProviderFactory(factoryFor(server));
            pane->show();
            pane->openCall(
                loggedCall(QStringLiteral("返信"), QStringLiteral("次のメールに返信: ${ email }")));
            id = pane->sessions()->currentId();
            VariantEditor* second = pane->addVariant();
            second->modelCombo()->setCurrentText(QStringLiteral("m-b"));
            second->messageEdit(0)->setPlainText(QStringLiteral("短く: ${ email }"));
            pane->addInputRow(QJsonObject{{QStringLiteral("email"), QStringLiteral("返品したい")}});
            pane->repeatSpin()->setValue(2);
            QSignalSpy finished(pane.get(), &PlaygroundPane::runFinished);
            QSignalSpy saved(pane->sessions(), &PlaygroundSessions::saved);
            QTest::mouseClick(pane->runButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
            // Saved when the run finished, without waiting for the pane to close.
            QTRY_VERIFY(!saved.isEmpty() && saved.last().at(1).toBool() &&
                        saved.last().at(0).toString() == id);
            QCOMPARE(pane->resultModel()->cell({1, 1, 1}).reply,
                     QStringLiteral("echo: 短く: 返品したい"));
            // An edit after the run is kept too: the pane saves when it closes.
            pane->variant(0)->temperatureSpin()->setValue(0.7);
        }
        QFile file(PlaygroundSessionStore(dir.path()).pathOf(id));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("sk-NEVER"));
        QCOMPARE(QSettings().value(QLatin1String(PlaygroundSessions::kLastSessionKey)).toString(),
                 id);

        std::unique_ptr<PlaygroundPane> again = newPane(dir.path());
        QVERIFY(!again->hasContent()); // nothing is read before the pane is shown
        QSignalSpy opened(again->sessions(), &PlaygroundSessions::sessionOpened);
        again->show();
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(again->sessions()->currentId(), id);
        QVERIFY(again->sessions()->currentName().startsWith(QStringLiteral("返信")));
        QCOMPARE(again->sessions()->nameEdit()->text(), again->sessions()->currentName());
        QCOMPARE(again->variantCount(), 2);
        QCOMPARE(again->variant(0)->temperatureSpin()->value(), 0.7);
        QCOMPARE(again->variant(1)->modelCombo()->currentText(), QStringLiteral("m-b"));
        QCOMPARE(again->variant(1)->prompt().messages[0].content,
                 QStringLiteral("短く: ${ email }"));
        QCOMPARE(again->repeatSpin()->value(), 2);
        QCOMPARE(again->inputsTable()->rowCount(), 2);
        QCOMPARE(again->inputsTable()->item(0, 0)->text(), QStringLiteral("配送が遅れています"));
        QCOMPARE(again->inputsTable()->item(1, 0)->text(), QStringLiteral("返品したい"));
        PlaygroundResultModel* results = again->resultModel();
        QCOMPARE(results->rowCount(), 2);
        QCOMPARE(results->columnCount(), 2);
        QCOMPARE(results->cell({0, 0, 0}).reply,
                 QStringLiteral("echo: 次のメールに返信: 配送が遅れています"));
        QCOMPARE(results->cell({1, 1, 1}).reply, QStringLiteral("echo: 短く: 返品したい"));
        QCOMPARE(results->cell({1, 1, 1}).state, CellResult::State::Done);
        QCOMPARE(results->headerData(1, Qt::Horizontal).toString(), QStringLiteral("2: m-b"));
        if (const QString shot = qEnvironmentVariable("HAKO_PLAYGROUND_SCREENSHOT");
            !shot.isEmpty())
            again->grab().save(shot);
        // Showing a saved session is no change: the file is not rewritten.
        QCOMPARE(again->sessions()->savedSessions().sessions.size(), 1);
        QVERIFY(menuTexts(again->sessions()->sessionsMenu())
                    .first()
                    .startsWith(again->sessions()->currentName()));
    }

    void newSessionKeepsTheOldOne()
    {
        QTemporaryDir dir;
        std::unique_ptr<PlaygroundPane> pane = newPane(dir.path());
        pane->show();
        pane->openCall(loggedCall(QStringLiteral("first"), QStringLiteral("Hello ${ email }")));
        const QString first = pane->sessions()->currentId();
        pane->variant(0)->messageEdit(0)->setPlainText(QStringLiteral("Hi ${ email }"));

        QAction* newSession =
            menuAction(pane->sessions()->sessionsMenu(), QStringLiteral("New Session"));
        QVERIFY(newSession);
        newSession->trigger();
        QVERIFY(pane->sessions()->currentId() != first);
        QCOMPARE(pane->variantCount(), 1);
        QCOMPARE(pane->variant(0)->prompt().messages.size(), 1);
        QVERIFY(pane->variant(0)->prompt().messages[0].content.isEmpty());
        QCOMPARE(pane->inputsTable()->columnCount(), 0);
        QCOMPARE(pane->resultModel()->rowCount(), 0);
        // The blank session is kept once something is typed into it.
        pane->variant(0)->modelCombo()->setCurrentText(QStringLiteral("m-b"));
        pane->sessions()->saveNow(true);
        QCOMPARE(pane->sessions()->savedSessions().sessions.size(), 2);

        // The earlier session reopens from the menu as it was left.
        QSignalSpy opened(pane->sessions(), &PlaygroundSessions::sessionOpened);
        QAction* firstAction =
            menuAction(pane->sessions()->sessionsMenu(), QStringLiteral("first"));
        QVERIFY(firstAction);
        firstAction->trigger();
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(pane->sessions()->currentId(), first);
        QCOMPARE(pane->variant(0)->prompt().messages[0].content, QStringLiteral("Hi ${ email }"));
        QCOMPARE(pane->inputsTable()->item(0, 0)->text(), QStringLiteral("配送が遅れています"));

        // Two sessions chosen one after the other: the first one's load, answered first, does
        // not show; only the one chosen last opens.
        QString other;
        for (const auto& header : pane->sessions()->savedSessions().sessions)
            if (header.id != first)
                other = header.id;
        QVERIFY(!other.isEmpty());
        opened.clear();
        pane->sessions()->open(first);
        pane->sessions()->open(other);
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(opened.first().at(0).toString(), other);
        QCOMPARE(pane->sessions()->currentId(), other);
    }

    void openingAnotherCallStartsANewSession()
    {
        QTemporaryDir dir;
        std::unique_ptr<PlaygroundPane> pane = newPane(dir.path());
        pane->show();
        pane->openCall(loggedCall(QStringLiteral("one"), QStringLiteral("One ${ email }")));
        const QString one = pane->sessions()->currentId();
        pane->addVariant();
        pane->openCall(loggedCall(QStringLiteral("two"), QStringLiteral("Two ${ email }")));
        QVERIFY(pane->sessions()->currentId() != one);
        pane->sessions()->saveNow(true);
        const PlaygroundSessionStore store(dir.path());
        Result<PlaygroundSession> kept = store.load(one);
        QVERIFY(kept.ok());
        QCOMPARE(kept->variants.size(), 2);
        QCOMPARE(kept->variants[0].messages[0].content, QStringLiteral("One ${ email }"));
        QCOMPARE(store.list().sessions.size(), 2);
    }

    void renamePersists()
    {
        QTemporaryDir dir;
        QString id;
        {
            std::unique_ptr<PlaygroundPane> pane = newPane(dir.path());
            pane->show();
            pane->openCall(loggedCall(QStringLiteral("p"), QStringLiteral("Hi ${ email }")));
            id = pane->sessions()->currentId();
            QLineEdit* name = pane->sessions()->nameEdit();
            QCOMPARE(name->accessibleName(), QStringLiteral("Session name"));
            name->setFocus();
            // Typed through an input method: the text arrives whole (keyClicks takes Latin-1).
            name->setText(QStringLiteral("午後の実験"));
            QTest::keyClick(name, Qt::Key_Return);
            QCOMPARE(pane->sessions()->currentName(), QStringLiteral("午後の実験"));
            pane->sessions()->saveNow(true);
            QCOMPARE(PlaygroundSessionStore(dir.path()).load(id)->name,
                     QStringLiteral("午後の実験"));
        }
        std::unique_ptr<PlaygroundPane> again = newPane(dir.path());
        const PlaygroundSessionList list = again->sessions()->savedSessions();
        QCOMPARE(list.sessions.size(), 1);
        QCOMPARE(list.sessions[0].name, QStringLiteral("午後の実験"));
        QSignalSpy opened(again->sessions(), &PlaygroundSessions::sessionOpened);
        again->show();
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(again->sessions()->nameEdit()->text(), QStringLiteral("午後の実験"));
    }

    void deletingRemovesTheFileAndShowsAnother()
    {
        QTemporaryDir dir;
        std::unique_ptr<PlaygroundPane> pane = newPane(dir.path());
        pane->show();
        pane->openCall(loggedCall(QStringLiteral("old"), QStringLiteral("Old ${ email }")));
        const QString old = pane->sessions()->currentId();
        pane->openCall(loggedCall(QStringLiteral("new"), QStringLiteral("New ${ email }")));
        const QString current = pane->sessions()->currentId();
        pane->sessions()->saveNow(true);
        const PlaygroundSessionStore store(dir.path());
        QVERIFY(QFile::exists(store.pathOf(current)));
        QSignalSpy opened(pane->sessions(), &PlaygroundSessions::sessionOpened);
        pane->sessions()->remove(current);
        QVERIFY(!QFile::exists(store.pathOf(current)));
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(pane->sessions()->currentId(), old);
        QCOMPARE(pane->variant(0)->prompt().messages[0].content, QStringLiteral("Old ${ email }"));
        QCOMPARE(store.list().sessions.size(), 1);
    }

    void theMenuNamesDamagedFiles()
    {
        QTemporaryDir dir;
        std::unique_ptr<PlaygroundPane> pane = newPane(dir.path());
        pane->show();
        QCOMPARE(pane->sessions()->sessionsButton()->accessibleName(), QStringLiteral("Sessions"));
        QVERIFY(menuTexts(pane->sessions()->sessionsMenu())
                    .contains(QStringLiteral("No saved sessions yet")));
        QFile broken(PlaygroundSessionStore(dir.path())
                         .pathOf(QStringLiteral("0b0f1d2e-3c4b-4a5d-8e6f-7a8b9c0d1e2f")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"header\": not json");
        broken.close();
        QAction* skipped =
            menuAction(pane->sessions()->sessionsMenu(), QStringLiteral("1 session file"));
        QVERIFY(skipped);
        QVERIFY(!skipped->isEnabled());
        QVERIFY(skipped->toolTip().contains(QLatin1String("JSON")));
    }

    void withoutAFolderNothingIsKept()
    {
        PlaygroundPane pane;
        pane.show();
        QVERIFY(!pane.sessions()->isVisible());
        pane.openCall(loggedCall(QStringLiteral("p"), QStringLiteral("Hi")));
        pane.sessions()->saveNow(true);
        QVERIFY(pane.sessions()->savedSessions().sessions.isEmpty());
    }

private:
    std::unique_ptr<testing::IsolatedSettings> m_settings;
};

QTEST_MAIN(TestPlaygroundSessions)
#include "tst_playgroundsessions.moc"
