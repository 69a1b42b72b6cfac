// The model names the picker offers: only names that reach a server that answered (the
// connected server's models under the name that routes back to it, `default` when it goes to
// such a server), never a bare endpoint prefix nor a name sent to a server without its key; and
// keys given in the window without a keyring: kept for the session (memory only) or, when the
// user chose it, in a file only they can read.
#include "core/models/apikeystore.h"
#include "core/models/modelchoices.h"
#include "core/models/modelconfig.h"
#include "core/models/modelrouter.h"
#include "openaitestserver.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;
using namespace hako::models;
using namespace hako::testing;

namespace {

// A desktop keyring that cannot be reached (no secret service, as on CI).
class UnavailableBackend : public ISecretBackend {
public:
    int writes = 0;
    void read(const QString&, std::function<void(SecretReply)> done) override
    {
        done({SecretReply::Status::Unavailable, QString(), QStringLiteral("no secret service")});
    }
    void write(const QString&, const QString&, std::function<void(QString)> done) override
    {
        ++writes;
        done(QStringLiteral("no secret service"));
    }
};

bool writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

// Every file under `dir` whose content contains `secret`.
QStringList filesContaining(const QString& dir, const QByteArray& secret)
{
    QStringList found;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(secret))
            found << f.fileName();
    }
    return found;
}

QString names(const QList<ModelChoice>& choices)
{
    return choiceNames(choices).join(QLatin1Char(','));
}

} // namespace

class TestModelChoices : public QObject {
    Q_OBJECT

    OpenAiTestServer m_server;
    QTemporaryDir m_dir;
    QString m_userFile;
    // Nothing listens there: an Ollama that is not running.
    QProcessEnvironment m_env;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_server.start());
        m_server.setModels({QStringLiteral("qwen-7b"), QStringLiteral("llama3")});
        m_userFile = m_dir.filePath(QStringLiteral("user/hako-models.yaml"));
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("user"))));
        QVERIFY(writeFile(m_userFile,
                          "endpoints:\n  server:\n    base_url: " + m_server.baseUrl().toUtf8() +
                              "\ndefault_model: server/qwen-7b\n"));
        m_env.insert(QStringLiteral("OLLAMA_API_BASE"), QStringLiteral("http://127.0.0.1:9"));
    }

    void offersTheConnectedServersModels()
    {
        Result<ModelConfig> config = ModelConfig::load(QString(), m_env, nullptr, m_userFile);
        QVERIFY(config);
        ModelRouter router(*config);
        const QList<ModelChoice> choices = modelChoices(*config, router.listEndpoints({}));
        // `default` (it goes to the server), then the server's models under its own name; not
        // Ollama's prefix (nothing answered there), not the bare names (they would go to OpenAI).
        QCOMPARE(names(choices), QStringLiteral("default,server/qwen-7b,server/llama3"));
        for (const ModelChoice& c : choices) {
            QVERIFY2(c.reason.contains(m_server.baseUrl()), qPrintable(c.reason));
            QCOMPARE(c.server, m_server.baseUrl());
        }
        QVERIFY(choices.first().reason.contains(QStringLiteral("server/qwen-7b")));
    }

    void neverANameRoutedToAServerWithoutItsKey()
    {
        // OpenAI without a key anywhere: even if it had answered, none of its names is offered,
        // nor `default` when it stands for one of them.
        Result<ModelConfig> config = ModelConfig::load(QString(), QProcessEnvironment());
        QVERIFY(config);
        ModelRouter::EndpointModels openai{QStringLiteral("openai"),
                                           QStringLiteral("https://api.openai.com/v1"), QString(),
                                           QStringList{QStringLiteral("gpt-4o")}};
        QVERIFY(modelChoices(*config, {openai}).isEmpty());
        // A server that did not answer offers nothing either.
        ModelRouter::EndpointModels ollama{
            QStringLiteral("ollama"), QStringLiteral("http://localhost:11434/v1"),
            QStringLiteral("ollama/"), makeError(QStringLiteral("cannot connect"))};
        QVERIFY(modelChoices(*config, {ollama}).isEmpty());
        // With the key, OpenAI's names are offered (bare, as they route there).
        QProcessEnvironment env;
        env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-x"));
        Result<ModelConfig> keyed = ModelConfig::load(QString(), env);
        QVERIFY(keyed);
        QCOMPARE(names(modelChoices(*keyed, {openai})), QStringLiteral("gpt-4o"));
    }

    void aNameTheConfigurationSendsElsewhereIsLeftOut()
    {
        // A route sends every `server/…` name to another endpoint: the listed names would not
        // reach the server that listed them.
        const QString file = m_dir.filePath(QStringLiteral("routed.yaml"));
        QVERIFY(
            writeFile(file, "endpoints:\n  server:\n    base_url: " + m_server.baseUrl().toUtf8() +
                                "\n  other:\n    base_url: http://127.0.0.1:9/v1\n"
                                "models:\n  \"server/*\": other\n"));
        Result<ModelConfig> config = ModelConfig::load(QString(), m_env, nullptr, file);
        QVERIFY(config);
        ModelRouter::EndpointModels answer{QStringLiteral("server"), m_server.baseUrl(),
                                           QStringLiteral("server/"),
                                           QStringList{QStringLiteral("qwen-7b")}};
        QVERIFY(modelChoices(*config, {answer}).isEmpty());
    }

    void aSessionKeyReachesTheServerAndIsWrittenNowhere()
    {
        const QByteArray secret = "sk-session-SECRET-4711";
        auto backend = std::make_shared<UnavailableBackend>();
        auto keys = std::make_shared<ApiKeyStore>(backend, 2000);
        QTemporaryDir config;
        keys->setKeyFile(config.filePath(QStringLiteral("api-keys.json")));
        keys->setSessionKey(QStringLiteral("server"), QString::fromLatin1(secret));
        QCOMPARE(keys->placeOf(QStringLiteral("server")), ApiKeyStore::Place::Session);
        Result<ModelConfig> loaded = ModelConfig::load(m_dir.path(), m_env, keys, m_userFile);
        QVERIFY(loaded);
        ModelRouter router(*loaded);
        m_server.clearRequests();
        Result<ChatResponse> reply =
            router.chat(ChatRequest::userText("server/qwen-7b", "hello"), {}, {});
        QVERIFY2(reply, reply ? "" : qPrintable(reply.error().message));
        QCOMPARE(m_server.requests().last().header("authorization"), "Bearer " + secret);
        // The keyring was never written; no file anywhere holds the key.
        QCOMPARE(backend->writes, 0);
        QVERIFY(!QFile::exists(keys->keyFile()));
        QCOMPARE(filesContaining(m_dir.path(), secret), QStringList());
        QCOMPARE(filesContaining(config.path(), secret), QStringList());
        // Forgotten, it is gone.
        keys->setSessionKey(QStringLiteral("server"), QString());
        QCOMPARE(keys->lookup(QStringLiteral("server")), std::nullopt);
    }

    void theKeyFileIsTheOwnersOnly()
    {
        const QByteArray secret = "sk-file-SECRET-815";
        QTemporaryDir config;
        auto keys = std::make_shared<ApiKeyStore>(std::make_shared<UnavailableBackend>(), 2000);
        keys->setKeyFile(config.filePath(QStringLiteral("hako/api-keys.json")));
        QVERIFY(!QFile::exists(keys->keyFile()));
        QVERIFY(keys->storeInFile(QStringLiteral("server"), QString::fromLatin1(secret)).ok());
        QVERIFY(QFile::exists(keys->keyFile()));
        // 0600: the owner reads and writes it, nobody else may even read it.
        const QFile::Permissions mode = QFile::permissions(keys->keyFile());
        QCOMPARE(mode & (QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner),
                 QFile::ReadOwner | QFile::WriteOwner);
        QCOMPARE(mode & (QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther |
                         QFile::WriteOther | QFile::ExeOther),
                 QFile::Permissions());
        QCOMPARE(keys->placeOf(QStringLiteral("server")), ApiKeyStore::Place::File);
        // A new store (the next start) finds it.
        auto next = std::make_shared<ApiKeyStore>(std::make_shared<UnavailableBackend>(), 2000);
        next->setKeyFile(keys->keyFile());
        QCOMPARE(next->lookup(QStringLiteral("server")),
                 std::optional(QString::fromLatin1(secret)));
        Result<ModelConfig> loaded = ModelConfig::load(QString(), m_env, next, m_userFile);
        QVERIFY(loaded);
        Result<ResolvedModel> where = loaded->resolve("server/qwen-7b");
        QVERIFY(where);
        QCOMPARE(where->endpoint.apiKey, QString::fromLatin1(secret));
        // A second key keeps the first; removing the last deletes the file.
        QVERIFY(next->storeInFile(QStringLiteral("lab"), QStringLiteral("sk-lab")).ok());
        QVERIFY(next->storeInFile(QStringLiteral("server"), QString()).ok());
        QCOMPARE(next->lookup(QStringLiteral("server")), std::nullopt);
        QCOMPARE(next->lookup(QStringLiteral("lab")), std::optional(QStringLiteral("sk-lab")));
        QVERIFY(next->storeInFile(QStringLiteral("lab"), QString()).ok());
        QVERIFY(!QFile::exists(keys->keyFile()));
    }
};

QTEST_MAIN(TestModelChoices)
#include "tst_modelchoices.moc"
