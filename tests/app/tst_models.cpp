// `hako models` against the test server: what a user runs to check a connection.

#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using hako::testing::OpenAiTestServer;

class TestModelsCommand : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<OpenAiTestServer> m_server;
    QTemporaryDir m_dir;

    void setEnv(const QString& ollamaBase)
    {
        qputenv("OLLAMA_API_BASE", ollamaBase.toUtf8());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-cli-SECRET-987");
        qunsetenv("LITELLM_PROXY_API_BASE");
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        m_server->setModels({QStringLiteral("granite3.2:2b"), QStringLiteral("gpt-4o-mini")});
        QVERIFY(QDir::setCurrent(m_dir.path()));
    }
    void cleanup() { m_server.reset(); }

    void listsEveryEndpoint()
    {
        setEnv(QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()));
        const HakoOutcome r = runHako({QStringLiteral("models")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QLatin1String("  ollama/granite3.2:2b\n")), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("\n  gpt-4o-mini\n")));
        QVERIFY(r.out.contains(m_server->baseUrl()));
        QVERIFY(!r.out.contains(QLatin1String("SECRET")) &&
                !r.err.contains(QLatin1String("SECRET")));
        QCOMPARE(m_server->requests().size(), 2); // Ollama first, then OpenAI with its key
        QVERIFY(m_server->requests().at(0).header("authorization").isEmpty());
        QCOMPARE(m_server->requests().at(1).header("authorization"),
                 QByteArray("Bearer sk-cli-SECRET-987"));
    }

    void jsonWithAnUnreachableEndpoint()
    {
        // Ollama's address has nobody listening: reported, while OpenAI still answers.
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        setEnv(QStringLiteral("http://127.0.0.1:%1").arg(port));
        const HakoOutcome r = runHako({QStringLiteral("models"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list[0].toObject()[QStringLiteral("endpoint")].toString(),
                 QStringLiteral("ollama"));
        const QString error = list[0].toObject()[QStringLiteral("error")].toString();
        QVERIFY2(error.contains(QLatin1String("cannot connect")) &&
                     error.contains(QLatin1String("OLLAMA_API_BASE")),
                 qPrintable(error));
        QCOMPARE(list[1].toObject()[QStringLiteral("models")].toArray().size(), 2);
    }

    void brokenWorkspaceFile()
    {
        setEnv(QStringLiteral("http://127.0.0.1:1"));
        QFile f(m_dir.filePath(QStringLiteral("hako-models.yaml")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("endpoints:\n  a:\n    base_url: http://a\n    api_key: sk-x\n");
        f.close();
        const HakoOutcome r = runHako({QStringLiteral("models")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("hako-models.yaml:4:")), qPrintable(r.err));
        QVERIFY(!r.err.contains(QLatin1String("sk-x")));
        f.remove();
    }

    void userSettingsAndTheDefaultModel()
    {
        // The workbench's model settings live in the user's configuration folder; `hako models`
        // and `hako run` read them from any folder, and `model: default` is their default model.
        QTemporaryDir config;
        const QString folder = config.filePath(QStringLiteral("Hako/Hako"));
        QVERIFY(QDir().mkpath(folder));
        QFile f(folder + QStringLiteral("/hako-models.yaml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("endpoints:\n  lab:\n    base_url: " + m_server->baseUrl().toUtf8() +
                "\nmodels:\n  \"lab/*\": lab\ndefault_model: lab/gpt-4o-mini\n");
        f.close();
        setEnv(QStringLiteral("http://127.0.0.1:1"));
        qputenv("XDG_CONFIG_HOME", config.path().toUtf8());
        const HakoOutcome listed = runHako({QStringLiteral("models")});
        QTemporaryDir elsewhere;
        QFile program(elsewhere.filePath(QStringLiteral("ask.pdl")));
        QVERIFY(program.open(QIODevice::WriteOnly));
        program.write("text:\n- model: default\n  input: Say hi.\n");
        program.close();
        m_server->enqueueChat(
            hako::testing::ScriptedReply::chat(QStringLiteral("Hi from the lab.")));
        const HakoOutcome ran = runHako({QStringLiteral("run"), program.fileName()});
        qunsetenv("XDG_CONFIG_HOME");
        QVERIFY2(listed.out.contains(QLatin1String("\n  lab/gpt-4o-mini\n")),
                 qPrintable(listed.out));
        QVERIFY2(listed.out.contains(QLatin1String("default: lab/gpt-4o-mini")),
                 qPrintable(listed.out));
        QVERIFY(listed.out.contains(f.fileName()));
        QCOMPARE(ran.exitCode, 0);
        QVERIFY2(ran.out.contains(QLatin1String("Hi from the lab.")),
                 qPrintable(ran.out + ran.err));
        const QJsonObject sent = QJsonDocument::fromJson(m_server->requests().last().body).object();
        QCOMPARE(sent[QStringLiteral("model")].toString(), QStringLiteral("gpt-4o-mini"));
    }

    void keyringNote()
    {
        // Without the keyring, `hako models` says where keys come from, after the list; the
        // environment's key is still used.
        setEnv(QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()));
        qputenv("HAKO_KEYRING", "0");
        const HakoOutcome r = runHako({QStringLiteral("models"), QStringLiteral("--json")});
        qunsetenv("HAKO_KEYRING");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QStringLiteral("note: The desktop keyring is not used (disabled by "
                                       "HAKO_KEYRING=0); API keys come from environment "
                                       "variables.\n"));
        QVERIFY(!QJsonDocument::fromJson(r.out.toUtf8()).isNull()); // stdout stays pure JSON
        QCOMPARE(m_server->requests().at(1).header("authorization"),
                 QByteArray("Bearer sk-cli-SECRET-987"));
    }
};

QTEST_GUILESS_MAIN(TestModelsCommand)
#include "tst_models.moc"
