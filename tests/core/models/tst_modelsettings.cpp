// ModelSettings: the endpoints the settings dialog edits, read from hako-models.yaml and the
// environment, checked, and written back atomically without losing the file's other content.
#include "core/models/modelconfig.h"
#include "core/models/modelsettings.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace hako;
using namespace hako::models;

namespace {

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestModelSettings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void builtInsFromEnvironment()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("OLLAMA_API_BASE"), QStringLiteral("http://box:11434"));
        env.insert(QStringLiteral("LITELLM_PROXY_API_BASE"), QStringLiteral("http://proxy:4000"));
        Result<ModelSettings> s = ModelSettings::load(QString(), env);
        QVERIFY(s);
        QCOMPARE(s->endpoints.size(), 4);
        QCOMPARE(s->endpoints[0].name, QStringLiteral("ollama"));
        QCOMPARE(s->endpoints[0].baseUrl, QStringLiteral("http://box:11434/v1"));
        QCOMPARE(s->endpoints[1].baseUrl, QStringLiteral("https://api.openai.com/v1"));
        QCOMPARE(s->endpoints[1].apiKeyEnv, QStringLiteral("OPENAI_API_KEY"));
        QCOMPARE(s->endpoints[2].baseUrl, QString()); // azure: not configured
        QCOMPARE(s->endpoints[3].baseUrl, QStringLiteral("http://proxy:4000"));
        for (const EndpointSetting& e : s->endpoints)
            QVERIFY(e.builtIn);
    }

    void check_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("problem"); // "" = fine
        QTest::newRow("ok") << "gpu"
                            << "http://gpu:8000/v1"
                            << "";
        QTest::newRow("https") << "gpu"
                               << "https://gpu.example/v1"
                               << "";
        QTest::newRow("empty name") << ""
                                    << "http://gpu:8000/v1"
                                    << "needs a name";
        QTest::newRow("colon") << "a:b"
                               << "http://gpu:8000/v1"
                               << "colon";
        QTest::newRow("built-in name") << "ollama"
                                       << "http://gpu:8000/v1"
                                       << "built-in";
        QTest::newRow("ftp") << "gpu"
                             << "ftp://gpu/v1"
                             << "http://";
        QTest::newRow("no host") << "gpu"
                                 << "http:///v1"
                                 << "http://";
        QTest::newRow("not a URL") << "gpu"
                                   << "gpu box"
                                   << "http://";
    }
    void check()
    {
        QFETCH(QString, name);
        QFETCH(QString, url);
        QFETCH(QString, problem);
        Result<ModelSettings> s = ModelSettings::load(QString(), {});
        QVERIFY(s);
        EndpointSetting e;
        e.name = name;
        e.baseUrl = url;
        s.value().endpoints.append(e);
        const QString got = s->check();
        if (problem.isEmpty())
            QCOMPARE(got, QString());
        else
            QVERIFY2(got.contains(problem), qPrintable(got));
    }

    void duplicateNames()
    {
        Result<ModelSettings> s = ModelSettings::load(QString(), {});
        QVERIFY(s);
        EndpointSetting e;
        e.name = QStringLiteral("gpu");
        e.baseUrl = QStringLiteral("http://gpu/v1");
        s.value().endpoints << e << e;
        QVERIFY(s->check().contains(QLatin1String("two endpoints are named 'gpu'")));
    }

    void roundTripKeepsTheRest()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hako-models.yaml"));
        writeFile(path, "endpoints:\n"
                        "  gpu:\n"
                        "    base_url: http://gpu:8000/v1\n"
                        "    api_key_env: GPU_KEY\n"
                        "    embed_batch_size: 16\n"
                        "  old:\n"
                        "    base_url: http://old:8000/v1\n"
                        "  tape: {provider: replay, cassette: c.json}\n"
                        "models:\n"
                        "  \"gpu/*\": gpu\n"
                        "  fast: {endpoint: gpu, model: llama}\n"
                        "litellm_proxy:\n"
                        "  base_url: http://proxy:4000\n");
        Result<ModelSettings> s = ModelSettings::load(path, {});
        QVERIFY2(s, qPrintable(s ? QString() : s.error().toString()));
        QCOMPARE(s->endpoints.size(), 6); // 4 built in + gpu + old (the replay one is not shown)
        QCOMPARE(s->endpoints[3].baseUrl, QStringLiteral("http://proxy:4000"));
        // Edit gpu, drop old, add lab.
        for (EndpointSetting& e : s.value().endpoints) {
            if (e.name == QLatin1String("gpu")) {
                e.baseUrl = QStringLiteral("http://gpu2:8000/v1");
                e.defaultModel = QStringLiteral("llama");
                e.apiKeyEnv.clear();
            }
        }
        s.value().endpoints.removeIf([](const EndpointSetting& e) { return e.name == "old"; });
        EndpointSetting lab;
        lab.name = QStringLiteral("lab");
        lab.baseUrl = QStringLiteral("http://lab:9000/v1");
        s.value().endpoints.append(lab);
        QVERIFY(s->save());

        const QByteArray text = readFile(path);
        QVERIFY2(!text.contains("old"), text.constData());
        QVERIFY(text.contains("embed_batch_size: 16"));
        QVERIFY(!text.contains("GPU_KEY"));
        Result<ModelConfig> config = ModelConfig::load(dir.path(), {});
        QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
        QCOMPARE(config->resolve("gpu/x")->endpoint.baseUrl, QStringLiteral("http://gpu2:8000/v1"));
        QCOMPARE(config->resolve("fast")->model, std::string("llama"));
        QCOMPARE(config->resolve("watsonx/x")->endpoint.baseUrl,
                 QStringLiteral("http://proxy:4000"));
        Result<ModelSettings> again = ModelSettings::load(path, {});
        QVERIFY(again);
        QStringList names;
        for (const EndpointSetting& e : again->endpoints)
            if (!e.builtIn)
                names << e.name + QLatin1Char('=') + e.baseUrl + QLatin1Char('|') + e.defaultModel;
        QCOMPARE(names, (QStringList{QStringLiteral("gpu=http://gpu2:8000/v1|llama"),
                                     QStringLiteral("lab=http://lab:9000/v1|")}));
        QVERIFY(text.contains("provider: replay"));
    }

    void defaultModelAndRoutesRoundTrip()
    {
        // The user's settings live in a folder that does not exist yet (a first start).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config/Hako/hako-models.yaml"));
        Result<ModelSettings> s = ModelSettings::load(path, {});
        QVERIFY(s);
        QCOMPARE(s->defaultModel, QString());
        QVERIFY(s->routes.isEmpty());
        EndpointSetting gpu;
        gpu.name = QStringLiteral("gpu");
        gpu.baseUrl = QStringLiteral("http://gpu:8000/v1");
        s.value().endpoints.append(gpu);
        s.value().defaultModel = QStringLiteral("fast");
        s.value().routes = {
            {QStringLiteral("fast"), QStringLiteral("gpu"), QStringLiteral("llama")},
            {QStringLiteral("vllm/*"), QStringLiteral("gpu"), QString()}};
        QVERIFY2(s->save(), qPrintable(s->save() ? QString() : s->save().error().message));

        // A run reads the user's file: `default` is the default model, mapped to gpu as llama.
        Result<ModelConfig> config = ModelConfig::load(QString(), {}, nullptr, path);
        QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
        QCOMPARE(config->defaultModel(), QStringLiteral("fast"));
        Result<ResolvedModel> d = config->resolve("default");
        QVERIFY(d);
        QCOMPARE(d->endpoint.baseUrl, QStringLiteral("http://gpu:8000/v1"));
        QCOMPARE(d->model, std::string("llama"));
        QCOMPARE(config->resolve("vllm/qwen")->model, std::string("qwen"));

        Result<ModelSettings> again = ModelSettings::load(path, {});
        QVERIFY(again);
        QCOMPARE(again->defaultModel, QStringLiteral("fast"));
        QCOMPARE(again->routes.size(), 2);
        QCOMPARE(again->routes[0].name, QStringLiteral("fast"));
        QCOMPARE(again->routes[0].endpoint, QStringLiteral("gpu"));
        QCOMPARE(again->routes[0].model, QStringLiteral("llama"));
        QCOMPARE(again->routes[1].model, QString());

        // Clearing them removes them from the file.
        again.value().defaultModel.clear();
        again.value().routes.clear();
        QVERIFY(again->save());
        const QByteArray text = readFile(path);
        QVERIFY2(!text.contains("default_model") && !text.contains("models:"), text.constData());
    }

    void routeChecks_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("defaultModel");
        QTest::addColumn<QString>("problem");
        QTest::newRow("fine") << "fast"
                              << "gpu"
                              << ""
                              << "";
        QTest::newRow("no name") << ""
                                 << "gpu"
                                 << ""
                                 << "needs a name";
        QTest::newRow("unknown endpoint") << "fast"
                                          << "nowhere"
                                          << ""
                                          << "not one of your";
        QTest::newRow("built-in endpoint") << "fast"
                                           << "ollama"
                                           << ""
                                           << "not one of your";
        QTest::newRow("default is not a model") << "fast"
                                                << "gpu"
                                                << "default"
                                                << "real model";
    }
    void routeChecks()
    {
        QFETCH(QString, name);
        QFETCH(QString, endpoint);
        QFETCH(QString, defaultModel);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        Result<ModelSettings> s = ModelSettings::load(dir.filePath("hako-models.yaml"), {});
        QVERIFY(s);
        EndpointSetting gpu;
        gpu.name = QStringLiteral("gpu");
        gpu.baseUrl = QStringLiteral("http://gpu:8000/v1");
        s.value().endpoints.append(gpu);
        s.value().routes = {{name, endpoint, QString()}};
        s.value().defaultModel = defaultModel;
        const QString got = s->check();
        if (problem.isEmpty())
            QCOMPARE(got, QString());
        else
            QVERIFY2(got.contains(problem), qPrintable(got));
        if (!problem.isEmpty())
            QVERIFY(!s->save());
    }

    void noFileCannotBeSaved()
    {
        Result<ModelSettings> s = ModelSettings::load(QString(), {});
        QVERIFY(s);
        const Result<bool> saved = s->save();
        QVERIFY(!saved);
        QVERIFY2(saved.error().message.contains(QLatin1String("configuration folder")),
                 qPrintable(saved.error().message));
    }

    void brokenFileIsReported()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hako-models.yaml"));
        writeFile(path, "endpoints:\n  gpu:\n    base_url: [1\n");
        Result<ModelSettings> s = ModelSettings::load(path, {});
        QVERIFY(!s);
        QVERIFY2(s.error().toString().contains(QLatin1String("hako-models.yaml")),
                 qPrintable(s.error().toString()));
    }

    void failedSaveLeavesTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hako-models.yaml"));
        const QByteArray before = "endpoints:\n  gpu: {base_url: 'http://gpu/v1'}\n";
        writeFile(path, before);
        Result<ModelSettings> s = ModelSettings::load(path, {});
        QVERIFY(s);
        s.value().endpoints.last().baseUrl = QStringLiteral("nonsense");
        QVERIFY(!s->save());
        QCOMPARE(readFile(path), before);
    }
};

QTEST_GUILESS_MAIN(TestModelSettings)
#include "tst_modelsettings.moc"
