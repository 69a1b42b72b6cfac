// Settings → Models, offscreen: the endpoints of a workspace and the built-in ones, "Test
// connection" against the local OpenAI-compatible server (and a server that never answers),
// saving hako-models.yaml atomically with keys going only to the keyring.
#include "core/models/apikeystore.h"
#include "core/models/modelconfig.h"
#include "core/models/modelrouter.h"
#include "isolatedsettings.h"
#include "openaitestserver.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/settings/modelsettingsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace hako;
using hako::testing::OpenAiTestServer;

namespace {

class MemoryBackend : public models::ISecretBackend {
public:
    QHash<QString, QString> secrets;
    bool unavailable = false;
    std::mutex mutex;

    void read(const QString& account, std::function<void(models::SecretReply)> done) override
    {
        models::SecretReply reply;
        std::lock_guard lock(mutex);
        if (unavailable) {
            reply.status = models::SecretReply::Status::Unavailable;
            reply.error = QStringLiteral("no keyring service");
        } else if (secrets.contains(account)) {
            reply.status = models::SecretReply::Status::Found;
            reply.secret = secrets.value(account);
        }
        std::thread([done, reply] { done(reply); }).detach();
    }
    void write(const QString& account, const QString& secret,
               std::function<void(QString)> done) override
    {
        QString error;
        {
            std::lock_guard lock(mutex);
            if (unavailable)
                error = QStringLiteral("no keyring service");
            else if (secret.isEmpty())
                secrets.remove(account);
            else
                secrets.insert(account, secret);
        }
        std::thread([done, error] { done(error); }).detach();
    }
};

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestModelSettingsDialog : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OpenAiTestServer> m_server;
    std::unique_ptr<testing::IsolatedSettings> m_settings;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<MemoryBackend> m_backend;
    std::shared_ptr<models::ApiKeyStore> m_keys;

    QString yamlPath() const { return m_dir->filePath(QStringLiteral("hako-models.yaml")); }

    template <typename T> static T* child(QWidget* w, const char* name)
    {
        return w->findChild<T*>(QString::fromLatin1(name));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_modelsettingsdialog"));
        QVERIFY(m_settings->isValid());
    }

    void init()
    {
        QSettings().clear();
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        m_server->setModels({QStringLiteral("llama-3.2-1b"), QStringLiteral("qwen2.5-7b")});
        m_dir = std::make_unique<QTemporaryDir>();
        QFile f(yamlPath());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("endpoints:\n"
                "  gpu:\n"
                "    base_url: " +
                m_server->baseUrl().toUtf8() +
                "\n"
                "    api_key_env: GPU_BOX_KEY\n"
                "    timeout: 30\n"
                "  recorded: {provider: replay, cassette: cassette.json}\n"
                "models:\n"
                "  \"vllm/*\": gpu\n");
        f.close();
        m_backend = std::make_shared<MemoryBackend>();
        m_backend->secrets.insert(QStringLiteral("gpu"), QStringLiteral("sk-gpu-KEYRING"));
        m_keys = std::make_shared<models::ApiKeyStore>(m_backend, 2000);
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("OPENAI_API_KEY");
    }

    void listsEndpoints()
    {
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        QStringList names;
        for (const auto& e : dialog.endpoints())
            names << e.name;
        QCOMPARE(names, (QStringList{QStringLiteral("ollama"), QStringLiteral("openai"),
                                     QStringLiteral("azure"), QStringLiteral("litellm"),
                                     QStringLiteral("gpu")}));
        auto* list = child<QListWidget>(&dialog, "endpointList");
        QCOMPARE(list->count(), 5);
        QCOMPARE(list->item(1)->text(), QStringLiteral("openai (built in)"));
        QVERIFY(dialog.selectEndpoint(QStringLiteral("gpu")));
        QCOMPARE(child<QLineEdit>(&dialog, "baseUrl")->text(), m_server->baseUrl());
        QVERIFY(!child<QLineEdit>(&dialog, "baseUrl")->isReadOnly());
        QCOMPARE(child<QLineEdit>(&dialog, "keyEnv")->text(), QStringLiteral("GPU_BOX_KEY"));
        // The keyring is read in the background; the key itself is never shown.
        auto* state = child<QLabel>(&dialog, "keyState");
        QTRY_VERIFY(state->text().contains(QLatin1String("stored in the desktop keyring")));
        QVERIFY(child<QLineEdit>(&dialog, "apiKey")->text().isEmpty());
        // Built-in endpoints are set by environment variables: name and URL read-only.
        QVERIFY(dialog.selectEndpoint(QStringLiteral("openai")));
        QVERIFY(child<QLineEdit>(&dialog, "baseUrl")->isReadOnly());
        QCOMPARE(child<QLineEdit>(&dialog, "baseUrl")->text(),
                 QStringLiteral("https://api.openai.com/v1"));
        QVERIFY(!child<QPushButton>(&dialog, "removeEndpoint")->isEnabled());
    }

    void testConnectionListsModels()
    {
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        QVERIFY(dialog.selectEndpoint(QStringLiteral("gpu")));
        auto* state = child<QLabel>(&dialog, "keyState");
        QTRY_VERIFY(state->text().contains(QLatin1String("keyring")));
        QSignalSpy tested(&dialog, &ModelSettingsDialog::connectionTested);
        QTest::mouseClick(child<QPushButton>(&dialog, "testConnection"), Qt::LeftButton);
        // Asynchronous: the dialog is not blocked while the server is asked.
        QVERIFY(!child<QPushButton>(&dialog, "testConnection")->isEnabled());
        QTRY_COMPARE(tested.count(), 1);
        QCOMPARE(tested.at(0).at(0).toString(), QStringLiteral("gpu"));
        QCOMPARE(tested.at(0).at(1).toStringList(),
                 (QStringList{QStringLiteral("llama-3.2-1b"), QStringLiteral("qwen2.5-7b")}));
        QCOMPARE(tested.at(0).at(2).toString(), QString());
        QCOMPARE(child<QListWidget>(&dialog, "models")->count(), 2);
        // Each model is offered as the default model under the name that routes back to gpu.
        auto* defaultModel = child<QComboBox>(&dialog, "defaultModel");
        QVERIFY(defaultModel->findText(QStringLiteral("gpu/llama-3.2-1b")) >= 0);
        QVERIFY(defaultModel->findText(QStringLiteral("gpu/qwen2.5-7b")) >= 0);
        QVERIFY(child<QLabel>(&dialog, "testState")->text().contains(QLatin1String("2 model")));
        // It used the keyring's key.
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(m_server->requests().at(0).path, QByteArray("/v1/models"));
        QCOMPARE(m_server->requests().at(0).header("authorization"),
                 QByteArray("Bearer sk-gpu-KEYRING"));
        QVERIFY(!child<QLabel>(&dialog, "testState")->text().contains(QLatin1String("sk-gpu")));

        const QString shots = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            dialog.grab().save(shots + QStringLiteral("/modelsettingsdialog.png"));
        }
    }

    void testConnectionTimesOut()
    {
        // A server that accepts the connection and never answers.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        dialog.setTestTimeout(300);
        QVERIFY(dialog.selectEndpoint(QStringLiteral("gpu")));
        auto* url = child<QLineEdit>(&dialog, "baseUrl");
        url->setText(QStringLiteral("http://127.0.0.1:%1/v1").arg(silent.serverPort()));
        QSignalSpy tested(&dialog, &ModelSettingsDialog::connectionTested);
        dialog.testConnection();
        QTRY_COMPARE(tested.count(), 1);
        const QString error = tested.at(0).at(2).toString();
        QVERIFY2(error.contains(QLatin1String("timeout")), qPrintable(error));
        QVERIFY(child<QLabel>(&dialog, "testState")->text().startsWith(QLatin1String("Failed")));
        QVERIFY(child<QPushButton>(&dialog, "testConnection")->isEnabled());
    }

    void saveWritesFileAndKeyring()
    {
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        QSignalSpy saved(&dialog, &ModelSettingsDialog::saved);
        QTest::mouseClick(child<QPushButton>(&dialog, "addEndpoint"), Qt::LeftButton);
        auto* name = child<QLineEdit>(&dialog, "name");
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("lab"));
        auto* url = child<QLineEdit>(&dialog, "baseUrl");
        url->selectAll();
        QTest::keyClicks(url, QStringLiteral("http://lab.example:9000/v1"));
        QTest::keyClicks(child<QLineEdit>(&dialog, "apiKey"), QStringLiteral("sk-lab-SECRET"));
        // The default model, as "Test connection" offers it: the endpoint's name as a prefix.
        child<QComboBox>(&dialog, "defaultModel")->setEditText(QStringLiteral("lab/qwen2.5-7b"));
        dialog.save();
        QTRY_COMPARE(saved.count(), 1);

        const QByteArray text = readAll(yamlPath());
        QVERIFY2(!text.contains("SECRET") && !text.contains("sk-gpu"), text.constData());
        QVERIFY(m_backend->secrets.value(QStringLiteral("lab")) == QLatin1String("sk-lab-SECRET"));
        // The file still loads, with the new endpoint and everything that was there.
        Result<models::ModelConfig> config = models::ModelConfig::load(m_dir->path(), {});
        QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
        Result<models::ModelSettings> settings = models::ModelSettings::load(yamlPath(), {});
        QVERIFY(settings);
        bool sawLab = false;
        for (const auto& e : settings->endpoints) {
            if (e.name == QLatin1String("lab")) {
                sawLab = true;
                QCOMPARE(e.baseUrl, QStringLiteral("http://lab.example:9000/v1"));
            }
        }
        QVERIFY(sawLab);
        // `model: default` goes to lab as qwen2.5-7b: the prefix was mapped to the endpoint.
        QCOMPARE(settings->defaultModel, QStringLiteral("lab/qwen2.5-7b"));
        Result<models::ResolvedModel> d = config->resolve("default");
        QVERIFY2(d, qPrintable(d ? QString() : d.error().message));
        QCOMPARE(d->endpoint.baseUrl, QStringLiteral("http://lab.example:9000/v1"));
        QCOMPARE(d->model, std::string("qwen2.5-7b"));
        QVERIFY(text.contains("timeout: 30"));      // the gpu endpoint's other settings
        QVERIFY(text.contains("provider: replay")); // the endpoint the dialog does not show
        QVERIFY(text.contains("vllm/*"));           // the routes
        QVERIFY(config->resolve("vllm/x").ok());
        QSettings qs;
        for (const QString& key : qs.allKeys())
            QVERIFY(!qs.value(key).toString().contains(QLatin1String("SECRET")));
    }

    void invalidSettingsLeaveTheFileAlone()
    {
        const QByteArray before = readAll(yamlPath());
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        QSignalSpy failed(&dialog, &ModelSettingsDialog::saveFailed);
        QVERIFY(dialog.selectEndpoint(QStringLiteral("gpu")));
        child<QLineEdit>(&dialog, "baseUrl")->setText(QStringLiteral("ftp://gpu/v1"));
        dialog.save();
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(QLatin1String("http://")));
        QVERIFY(dialog.findChild<MessageBar*>()->isVisibleTo(&dialog));
        QCOMPARE(readAll(yamlPath()), before);
        // A built-in name is refused too.
        child<QLineEdit>(&dialog, "baseUrl")->setText(m_server->baseUrl());
        dialog.addEndpoint();
        child<QLineEdit>(&dialog, "name")->setText(QStringLiteral("openai"));
        dialog.save();
        QCOMPARE(failed.count(), 2);
        QVERIFY(failed.at(1).at(0).toString().contains(QLatin1String("built-in")));
        QCOMPARE(readAll(yamlPath()), before);
    }

    void removeForgetsTheKey()
    {
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        QVERIFY(dialog.selectEndpoint(QStringLiteral("gpu")));
        QTRY_VERIFY(child<QLabel>(&dialog, "keyState")->text().contains(QLatin1String("keyring")));
        // The route `vllm/*` names gpu: removing it is refused with a reason.
        QSignalSpy failed(&dialog, &ModelSettingsDialog::saveFailed);
        dialog.removeEndpoint();
        dialog.save();
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains(QLatin1String("vllm/*")),
                 qPrintable(failed.at(0).at(0).toString()));
        QVERIFY(m_backend->secrets.contains(QStringLiteral("gpu")));
    }

    void mapsAModelNameToAnEndpoint()
    {
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        auto* routes = child<QTableWidget>(&dialog, "modelRoutes");
        QCOMPARE(routes->rowCount(), 1); // vllm/* → gpu, from the file
        QCOMPARE(routes->item(0, 0)->text(), QStringLiteral("vllm/*"));
        QTest::mouseClick(child<QPushButton>(&dialog, "addRoute"), Qt::LeftButton);
        QCOMPARE(routes->rowCount(), 2);
        routes->item(1, 0)->setText(QStringLiteral("fast"));
        routes->item(1, 1)->setText(QStringLiteral("gpu"));
        routes->item(1, 2)->setText(QStringLiteral("llama-3.2-1b"));
        child<QComboBox>(&dialog, "defaultModel")->setEditText(QStringLiteral("fast"));
        QSignalSpy saved(&dialog, &ModelSettingsDialog::saved);
        dialog.save();
        QTRY_COMPARE(saved.count(), 1);
        Result<models::ModelConfig> config =
            models::ModelConfig::load(QString(), {}, nullptr, yamlPath());
        QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
        QCOMPARE(config->resolve("fast")->model, std::string("llama-3.2-1b"));
        QCOMPARE(config->resolve("default")->model, std::string("llama-3.2-1b"));
        QCOMPARE(config->resolve("default")->endpoint.baseUrl, m_server->baseUrl());

        // A mapping to an endpoint that does not exist is refused, and the file stays.
        const QByteArray before = readAll(yamlPath());
        routes->item(1, 1)->setText(QStringLiteral("nowhere"));
        QSignalSpy failed(&dialog, &ModelSettingsDialog::saveFailed);
        dialog.save();
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains(QLatin1String("nowhere")),
                 qPrintable(failed.at(0).at(0).toString()));
        QCOMPARE(readAll(yamlPath()), before);
    }

    void writesOnlyTheGivenFile()
    {
        // The settings file is the one given (the user's), created with its folder on Save;
        // nothing is written anywhere else.
        QTemporaryDir other;
        const QString file = other.filePath(QStringLiteral("config/Hako/hako-models.yaml"));
        ModelSettingsDialog dialog(file, m_keys);
        child<QComboBox>(&dialog, "defaultModel")
            ->setEditText(QStringLiteral("openai/gpt-4o-mini"));
        QSignalSpy saved(&dialog, &ModelSettingsDialog::saved);
        dialog.save();
        QTRY_COMPARE(saved.count(), 1);
        QVERIFY(readAll(file).contains("default_model: openai/gpt-4o-mini"));
        QCOMPARE(QDir(other.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
                 QStringList{QStringLiteral("config")});
    }

    // Without a keyring a key typed in the dialog is kept for the session: runs of this window
    // send it, and it is written nowhere (not the settings file, the project, QSettings).
    void withoutAKeyringTheKeyIsKeptForTheSession()
    {
        m_backend->unavailable = true;
        QTemporaryDir config;
        m_keys->setKeyFile(config.filePath(QStringLiteral("api-keys.json")));
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        QVERIFY(dialog.selectEndpoint(QStringLiteral("gpu")));
        auto* bar = dialog.findChild<MessageBar*>();
        QTRY_VERIFY(bar->text().contains(QLatin1String("no keyring service")));
        // The choice of a file appears, unticked: nothing goes to disk without consent.
        auto* toFile = child<QCheckBox>(&dialog, "keyToFile");
        QTRY_VERIFY(toFile->isVisibleTo(&dialog));
        QVERIFY(!toFile->isChecked());
        QVERIFY(toFile->text().contains(QDir::toNativeSeparators(m_keys->keyFile())));
        QSignalSpy saved(&dialog, &ModelSettingsDialog::saved);
        QTest::keyClicks(child<QLineEdit>(&dialog, "apiKey"), QStringLiteral("sk-gpu-SESSION"));
        QVERIFY(child<QLabel>(&dialog, "keyState")->text().contains(QLatin1String("session")));
        dialog.save();
        QTRY_COMPARE(saved.count(), 1);
        QVERIFY2(bar->text().contains(QLatin1String("kept for this session only")),
                 qPrintable(bar->text()));
        QVERIFY(child<QLabel>(&dialog, "keyState")->text().contains(QLatin1String("session")));
        QCOMPARE(m_keys->lookup(QStringLiteral("gpu")),
                 std::optional(QStringLiteral("sk-gpu-SESSION")));

        // A run of this window sends it to the server.
        Result<models::ModelConfig> loaded = models::ModelConfig::load(
            m_dir->path(), {}, m_keys, QString(), models::WorkspaceKeys::Allowed);
        QVERIFY(loaded);
        models::ModelRouter router(*loaded);
        Result<models::ChatResponse> reply =
            router.chat(models::ChatRequest::userText("vllm/qwen2.5-7b", "hello"), {}, {});
        QVERIFY2(reply, reply ? "" : qPrintable(reply.error().message));
        QCOMPARE(m_server->requests().last().header("authorization"),
                 QByteArray("Bearer sk-gpu-SESSION"));
        // Written nowhere.
        QVERIFY(!QFile::exists(m_keys->keyFile()));
        QVERIFY(!readAll(yamlPath()).contains("SESSION"));
        for (const QString& f : QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden))
            QVERIFY2(!readAll(m_dir->filePath(f)).contains("SESSION"), qPrintable(f));
        QSettings qs;
        for (const QString& key : qs.allKeys())
            QVERIFY(!qs.value(key).toString().contains(QLatin1String("SESSION")));
        m_keys->setSessionKey(QStringLiteral("gpu"), QString());
    }

    // Saved settings reach the editor's model picker at once: the new server's models are
    // offered without reopening anything.
    void theEditorOffersASavedServerAtOnce()
    {
        qputenv("HAKO_KEYRING", "0"); // the catalog's listing must not wait for a keyring
        const QString program = m_dir->filePath(QStringLiteral("ask.pdl"));
        QFile f(program);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text:\n- model: \n");
        f.close();
        EditorPane pane(nullptr);
        QVERIFY(pane.openFile(program));
        OpenAiTestServer lab;
        QVERIFY(lab.start());
        lab.setModels({QStringLiteral("granite-lab")});
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        QSignalSpy saved(&dialog, &ModelSettingsDialog::saved);
        QTest::mouseClick(child<QPushButton>(&dialog, "addEndpoint"), Qt::LeftButton);
        auto* name = child<QLineEdit>(&dialog, "name");
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("lab"));
        auto* url = child<QLineEdit>(&dialog, "baseUrl");
        url->selectAll();
        QTest::keyClicks(url, lab.baseUrl());
        dialog.save();
        QTRY_COMPARE(saved.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(
            pane.editor()->modelNames().contains(QStringLiteral("lab/granite-lab")), 15000);
        for (const QString& n : pane.editor()->modelNames())
            QVERIFY2(!n.endsWith(QLatin1Char('/')), qPrintable(n));
    }

    // Only when the user ticks it, the key goes to a file only they can read; forgetting the
    // key deletes it.
    void theKeyFileIsWrittenOnlyWhenChosen()
    {
        m_backend->unavailable = true;
        QTemporaryDir config;
        m_keys->setKeyFile(config.filePath(QStringLiteral("api-keys.json")));
        ModelSettingsDialog dialog(yamlPath(), m_keys);
        QVERIFY(dialog.selectEndpoint(QStringLiteral("gpu")));
        auto* toFile = child<QCheckBox>(&dialog, "keyToFile");
        QTRY_VERIFY(toFile->isVisibleTo(&dialog));
        QSignalSpy saved(&dialog, &ModelSettingsDialog::saved);
        QTest::keyClicks(child<QLineEdit>(&dialog, "apiKey"), QStringLiteral("sk-gpu-FILE"));
        QVERIFY(!QFile::exists(m_keys->keyFile()));
        toFile->setChecked(true);
        QVERIFY(child<QLabel>(&dialog, "keyState")->text().contains(m_keys->keyFile()));
        dialog.save();
        QTRY_COMPARE(saved.count(), 1);
        auto* bar = dialog.findChild<MessageBar*>();
        QVERIFY2(bar->text().contains(QDir::toNativeSeparators(m_keys->keyFile())),
                 qPrintable(bar->text()));
        QVERIFY(readAll(m_keys->keyFile()).contains("sk-gpu-FILE"));
        const QFile::Permissions others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup |
                                          QFile::ReadOther | QFile::WriteOther | QFile::ExeOther;
        QCOMPARE(QFile::permissions(m_keys->keyFile()) & others, QFile::Permissions());
        QCOMPARE(m_keys->placeOf(QStringLiteral("gpu")), models::ApiKeyStore::Place::File);
        QVERIFY(!readAll(yamlPath()).contains("FILE"));
        // Forget key, Save: the file goes.
        QTest::mouseClick(child<QPushButton>(&dialog, "forgetKey"), Qt::LeftButton);
        dialog.save();
        QTRY_COMPARE(saved.count(), 2);
        QVERIFY(!QFile::exists(m_keys->keyFile()));
        QCOMPARE(m_keys->lookup(QStringLiteral("gpu")), std::nullopt);
    }
};

QTEST_MAIN(TestModelSettingsDialog)
#include "tst_modelsettingsdialog.moc"
