// Model name resolution (environment, hako-models.yaml), PDL's default parameters, the router,
// the replay provider and the provider plugins.

#include "core/models/modelconfig.h"
#include "core/models/modelrouter.h"
#include "core/models/providerplugin.h"
#include "core/models/replayprovider.h"
#include "core/pdl/model/defaultparameters.h"
#include "core/util/globmatch.h"
#include "core/util/pluginmanager.h"
#include "openaitestserver.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::models;
using hako::testing::OpenAiTestServer;

namespace {

QProcessEnvironment envOf(const QStringList& vars)
{
    QProcessEnvironment env;
    for (const QString& v : vars)
        env.insert(v.section(QLatin1Char('='), 0, 0), v.section(QLatin1Char('='), 1));
    return env;
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

ChatRequest ask(const std::string& model, const std::string& text)
{
    ChatRequest r;
    r.model = model;
    r.messages = {pdl::Value(pdl::Dict{{"role", "user"}, {"content", pdl::Value(text)}})};
    return r;
}

} // namespace

class TestModelRouting : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resolveFromEnvironment_data()
    {
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("key");
        const QStringList none;
        const QStringList keyed{"OPENAI_API_KEY=sk-1"};
        QTest::newRow("ollama default") << none << "ollama/granite3.2:2b"
                                        << "http://localhost:11434/v1"
                                        << "granite3.2:2b"
                                        << "";
        QTest::newRow("ollama_chat env")
            << QStringList{"OLLAMA_API_BASE=http://gpu:11434/"} << "ollama_chat/llama3"
            << "http://gpu:11434/v1"
            << "llama3"
            << "";
        QTest::newRow("bare") << keyed << "gpt-4o"
                              << "https://api.openai.com/v1"
                              << "gpt-4o"
                              << "sk-1";
        QTest::newRow("openai prefix") << keyed << "openai/gpt-4o-mini"
                                       << "https://api.openai.com/v1"
                                       << "gpt-4o-mini"
                                       << "sk-1";
        QTest::newRow("openai base url, no key")
            << QStringList{"OPENAI_BASE_URL=http://localhost:8000/v1"} << "meta/llama"
            << ""
            << ""
            << "";
        QTest::newRow("vllm via OPENAI_BASE_URL")
            << QStringList{"OPENAI_BASE_URL=http://localhost:8000/v1"}
            << "openai/meta-llama/Llama-3"
            << "http://localhost:8000/v1"
            << "meta-llama/Llama-3"
            << "";
        QTest::newRow("azure") << QStringList{"AZURE_API_BASE=https://x.openai.azure.com",
                                              "AZURE_API_KEY=az", "AZURE_API_VERSION=2024-02-01"}
                               << "azure/my-deployment"
                               << "https://x.openai.azure.com"
                               << "my-deployment"
                               << "az";
        QTest::newRow("proxy") << QStringList{"LITELLM_PROXY_API_BASE=http://localhost:4000",
                                              "LITELLM_PROXY_API_KEY=lk"}
                               << "watsonx/ibm/granite-13b"
                               << "http://localhost:4000"
                               << "watsonx/ibm/granite-13b"
                               << "lk";
        QTest::newRow("litellm_proxy prefix")
            << QStringList{"LITELLM_PROXY_API_BASE=http://localhost:4000"}
            << "litellm_proxy/my-alias"
            << "http://localhost:4000"
            << "my-alias"
            << "";
    }
    void resolveFromEnvironment()
    {
        QFETCH(QStringList, env);
        QFETCH(QString, name);
        QFETCH(QString, baseUrl);
        QFETCH(QString, model);
        QFETCH(QString, key);
        const Result<ModelConfig> config = ModelConfig::load(QString(), envOf(env));
        QVERIFY(config.ok());
        const Result<ResolvedModel> r = config->resolve(name.toStdString());
        if (baseUrl.isEmpty()) {
            // meta/llama has a prefix that is not a provider: it needs the proxy.
            QVERIFY(!r.ok());
            QVERIFY(r.error().message.contains(QLatin1String("LITELLM_PROXY_API_BASE")));
            return;
        }
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->endpoint.baseUrl, baseUrl);
        QCOMPARE(QString::fromStdString(r->model), model);
        QCOMPARE(r->endpoint.apiKey, key);
        QCOMPARE(r->endpoint.azure, name.startsWith(QLatin1String("azure/")));
    }

    void resolutionErrorsSayHowToConfigure()
    {
        const Result<ModelConfig> config = ModelConfig::load(QString(), envOf({}));
        Result<ResolvedModel> r = config->resolve("gpt-4o");
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QLatin1String("OPENAI_API_KEY is not set")));
        r = config->resolve("azure/x");
        QVERIFY(r.error().message.contains(QLatin1String("AZURE_API_BASE")));
        r = config->resolve("replicate/meta/llama");
        QVERIFY(r.error().message.contains(QLatin1String("needs a LiteLLM proxy")));
    }

    void workspaceFile()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("hako-models.yaml")),
                  "\n"
                  "endpoints:\n"
                  "  gpu:\n"
                  "    base_url: http://gpu-box:8000/v1\n"
                  "    api_key_env: GPU_KEY\n"
                  "  recorded:\n"
                  "    provider: replay\n"
                  "    cassette: cassette.json\n"
                  "models:\n"
                  "  \"vllm/*\": gpu\n"
                  "  \"fast\": {endpoint: gpu, model: meta-llama/Llama-3.2-1B}\n"
                  "  \"ollama/recorded-*\": recorded\n"
                  "litellm_proxy:\n"
                  "  base_url: http://proxy:4000\n"
                  "\n");
        const Result<ModelConfig> config = ModelConfig::load(
            dir.path(), envOf({"GPU_KEY=g-1", "OLLAMA_API_BASE=http://o:1"}), nullptr, QString(),
            WorkspaceKeys::Allowed); // trusted: tst_modelfaults
        QVERIFY2(config.ok(), qPrintable(config ? QString() : config.error().toString()));
        Result<ResolvedModel> r = config->resolve("vllm/qwen2");
        QCOMPARE(r->endpoint.baseUrl, QStringLiteral("http://gpu-box:8000/v1"));
        QCOMPARE(r->endpoint.apiKey, QStringLiteral("g-1"));
        QCOMPARE(r->model, std::string("qwen2"));
        r = config->resolve("fast");
        QCOMPARE(r->model, std::string("meta-llama/Llama-3.2-1B"));
        r = config->resolve("ollama/recorded-x");
        QCOMPARE(r->provider, QStringLiteral("replay"));
        QCOMPARE(r->cassette, dir.filePath(QStringLiteral("cassette.json")));
        r = config->resolve("ollama/llama3"); // not matched by the file: the environment
        QCOMPARE(r->endpoint.baseUrl, QStringLiteral("http://o:1/v1"));
        r = config->resolve("watsonx/granite");
        QCOMPARE(r->endpoint.baseUrl, QStringLiteral("http://proxy:4000"));
    }

    void userFileThenWorkspaceFile()
    {
        // The user's settings (what the workbench's dialog writes) and a workspace file beside the
        // programs: both are read, the workspace's routes and same-named endpoints win.
        QTemporaryDir user;
        QTemporaryDir workspace;
        const QString userFile = user.filePath(QStringLiteral("hako-models.yaml"));
        writeFile(userFile, "endpoints:\n"
                            "  gpu: {base_url: 'http://user-gpu:8000/v1'}\n"
                            "  lab: {base_url: 'http://lab:9000/v1'}\n"
                            "models:\n"
                            "  \"vllm/*\": gpu\n"
                            "  \"lab/*\": lab\n"
                            "default_model: lab/qwen\n");
        writeFile(workspace.filePath(QStringLiteral("hako-models.yaml")),
                  "endpoints:\n"
                  "  gpu: {base_url: 'http://project-gpu:8000/v1'}\n"
                  "models:\n"
                  "  \"vllm/special\": {endpoint: gpu, model: special-7b}\n");
        Result<ModelConfig> config =
            ModelConfig::load(workspace.path(), envOf({}), nullptr, userFile);
        QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
        QCOMPARE(config->files().size(), 2);
        QCOMPARE(config->resolve("vllm/special")->model, std::string("special-7b"));
        QCOMPARE(config->resolve("vllm/other")->endpoint.baseUrl,
                 QStringLiteral("http://project-gpu:8000/v1"));
        QCOMPARE(config->resolve("lab/x")->endpoint.baseUrl, QStringLiteral("http://lab:9000/v1"));
        // `default` is the user's default model, routed like any name.
        Result<ResolvedModel> d = config->resolve("default");
        QVERIFY(d);
        QCOMPARE(d->endpoint.baseUrl, QStringLiteral("http://lab:9000/v1"));
        QCOMPARE(d->model, std::string("qwen"));
        // Without the user's file neither `lab` nor its default exist.
        Result<ModelConfig> alone = ModelConfig::load(workspace.path(), envOf({}));
        QVERIFY(alone);
        QCOMPARE(alone->defaultModel(), QString::fromLatin1(ModelConfig::kFallbackDefaultModel));
    }

    // An endpoint's name is a prefix of its own: `server/model` goes to the endpoint `server`
    // without a route (what Settings and the start page's Use This Server write).
    void endpointNameIsAPrefix()
    {
        QTemporaryDir user;
        const QString userFile = user.filePath(QStringLiteral("hako-models.yaml"));
        writeFile(userFile, "default_model: server/qwen-7b\n"
                            "endpoints:\n"
                            "  server: {base_url: 'http://my-server:8000/v1'}\n");
        Result<ModelConfig> config = ModelConfig::load(QString(), envOf({}), nullptr, userFile);
        QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
        Result<ResolvedModel> r = config->resolve("server/qwen-7b");
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->endpoint.baseUrl, QStringLiteral("http://my-server:8000/v1"));
        QCOMPARE(r->model, std::string("qwen-7b"));
        Result<ResolvedModel> d = config->resolve("default");
        QVERIFY(d);
        QCOMPARE(d->endpoint.baseUrl, QStringLiteral("http://my-server:8000/v1"));
        // A name that is not an endpoint still needs a proxy, and says so.
        QVERIFY(!config->resolve("other/x"));
    }

    void defaultWithoutSettings()
    {
        // Nothing configured: `default` is the small local Ollama model the README suggests.
        Result<ModelConfig> config =
            ModelConfig::load(QString(), envOf({"OLLAMA_API_BASE=http://o:1"}));
        QVERIFY(config);
        Result<ResolvedModel> d = config->resolve("default");
        QVERIFY(d);
        QCOMPARE(d->endpoint.baseUrl, QStringLiteral("http://o:1/v1"));
        QCOMPARE(d->model, std::string("granite3.2:2b"));
        // A route for `default` itself wins over the alias.
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("hako-models.yaml")),
                  "endpoints:\n  gpu: {base_url: 'http://gpu/v1'}\nmodels:\n  default: gpu\n");
        Result<ModelConfig> routed = ModelConfig::load(dir.path(), envOf({}));
        QVERIFY(routed);
        QCOMPARE(routed->resolve("default")->endpoint.baseUrl, QStringLiteral("http://gpu/v1"));
        // An unresolvable default says what `default` stands for.
        writeFile(dir.filePath(QStringLiteral("hako-models.yaml")), "default_model: watsonx/x\n");
        Result<ModelConfig> broken = ModelConfig::load(dir.path(), envOf({}));
        QVERIFY(broken);
        Result<ResolvedModel> r = broken->resolve("default");
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("default model, watsonx/x")),
                 qPrintable(r.error().message));
    }

    void workspaceFileErrors_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::newRow("literal key") << QByteArray("endpoints:\n  a:\n    base_url: http://a\n"
                                                   "    api_key: sk-123\n")
                                     << "API keys do not belong in a project file" << 4;
        QTest::newRow("unknown section")
            << QByteArray("endpoint:\n  a: {}\n") << "unknown section 'endpoint'" << 1;
        QTest::newRow("no base_url") << QByteArray("endpoints:\n  a:\n    api_key_env: K\n")
                                     << "endpoint 'a' needs a base_url" << 3;
        QTest::newRow("unknown endpoint")
            << QByteArray("models:\n  x: nowhere\n") << "names endpoint 'nowhere'" << 0;
        QTest::newRow("default alias as default")
            << QByteArray("default_model: default\n") << "must name a real model" << 1;
        QTest::newRow("default model list")
            << QByteArray("default_model: [a]\n") << "must be a model name" << 1;
    }
    void workspaceFileErrors()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, message);
        QFETCH(int, line);
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("hako-models.yaml")), yaml);
        const Result<ModelConfig> config = ModelConfig::load(dir.path(), envOf({}));
        QVERIFY(!config.ok());
        QVERIFY2(config.error().message.contains(message), qPrintable(config.error().message));
        QCOMPARE(config.error().span.line, line);
    }

    void globs_data()
    {
        QTest::addColumn<QString>("glob");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("match");
        QTest::newRow("prefix") << "ollama/*"
                                << "ollama/granite3.2:2b" << true;
        QTest::newRow("other prefix") << "ollama/*"
                                      << "ollama_chat/x" << false;
        QTest::newRow("infix") << "*granite-3.1*"
                               << "watsonx/ibm/granite-3.1-8b" << true;
        QTest::newRow("question") << "gpt-4?"
                                  << "gpt-4o" << true;
        QTest::newRow("set") << "gpt-[34]*"
                             << "gpt-5" << false;
        QTest::newRow("whole") << "gpt"
                               << "gpt-4" << false;
    }
    void globs()
    {
        QFETCH(QString, glob);
        QFETCH(QString, name);
        QFETCH(bool, match);
        QCOMPARE(globMatch(glob.toStdString(), name.toStdString()), match);
    }

    void defaultParameters()
    {
        pdl::Dict params;
        params.set("max_tokens", pdl::Value(10));
        pdl::Dict out = applyDefaultParameters("ollama/granite3.2:2b", params);
        // pdl_ast.py get_default_model_parameters: Ollama models get temperature 0 and seed 0.
        QCOMPARE(*out.find("temperature"), pdl::Value(0));
        QCOMPARE(*out.find("seed"), pdl::Value(0));
        QCOMPARE(*out.find("max_tokens"), pdl::Value(10));
        // The block's own value wins; a null one is filled (pdl_utils.py apply_raw_defaults).
        params.set("temperature", pdl::Value(0.7));
        params.set("seed", pdl::Value());
        out = applyDefaultParameters("ollama_chat/x", params);
        QCOMPARE(*out.find("temperature"), pdl::Value(0.7));
        QCOMPARE(*out.find("seed"), pdl::Value(0));
        // No default for OpenAI models.
        QVERIFY(!applyDefaultParameters("gpt-4o", {}).find("temperature"));
        out = applyDefaultParameters("watsonx_text/ibm/granite-3.1-8b", {});
        QCOMPARE(*out.find("decoding_method"), pdl::Value("greedy"));
        QCOMPARE(*out.find("max_tokens"), pdl::Value(1024));
        // `*watsonx_text*` and `*granite-3.1*` both match: the later entry's keys are added too.
        QVERIFY(out.find("roles"));
        // apply_defaults: never for granite-20b-code-instruct-r1.1; sampling defaults on
        // `decoding_method: sample`.
        QCOMPARE(applyDefaultParameters("ollama/granite-20b-code-instruct-r1.1", {}).size(),
                 size_t(0));
        params = pdl::Dict();
        params.set("decoding_method", pdl::Value("sample"));
        out = applyDefaultParameters("gpt-4o", params);
        QCOMPARE(*out.find("top_k"), pdl::Value(50));
        QCOMPARE(*out.find("temperature"), pdl::Value(0.7));
        // A program's own table: a later entry overrides an earlier one key by key, and a
        // default never merges into an object the block set.
        const pdl::Value table = pdl::Value::fromJson(nlohmann::ordered_json::parse(
            "[{\"m*\": {\"opts\": {\"a\": 1, \"b\": 2}, \"x\": 1}}, {\"*\": {\"x\": 2}}]"));
        params = pdl::Dict();
        params.set("opts", pdl::Value(pdl::Dict{{"a", 9}}));
        out = applyDefaultParameters("model", params, table);
        QCOMPARE(out.find("opts")->toOrderedJson().dump(), std::string("{\"a\":9}"));
        QCOMPARE(*out.find("x"), pdl::Value(2));
    }

    void routerSendsToTheResolvedEndpoint()
    {
        OpenAiTestServer server;
        QVERIFY(server.start());
        server.setModels({QStringLiteral("granite3.2:2b")});
        const QString ollamaBase = QStringLiteral("http://127.0.0.1:%1").arg(server.port());
        ModelRouter router(*ModelConfig::load(QString(), envOf({"OLLAMA_API_BASE=" + ollamaBase})));
        const Result<ChatResponse> r =
            router.chat(ask("ollama/granite3.2:2b", "hi"), {}, CancelToken());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->content, std::string("echo: hi"));
        const auto body = nlohmann::json::parse(server.requests().at(0).body.toStdString());
        QCOMPARE(body["model"], "granite3.2:2b");
        // Which model answered: the name sent after resolution, and the server's own.
        QCOMPARE(r->resolvedModel, std::string("granite3.2:2b"));
        QCOMPARE(r->servedModel(), std::string("test-model"));
        // Unknown model: the error names the program's model name and the endpoint.
        const Result<ChatResponse> bad = router.chat(ask("ollama/nope", "hi"), {}, CancelToken());
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.contains(QLatin1String("model 'nope' at ollama (")) &&
                     bad.error().message.contains(QLatin1String("'ollama/nope' in the program")),
                 qPrintable(bad.error().message));
        // Embeddings and the model list go through the same resolution.
        QVERIFY(router.embed("ollama/granite3.2:2b", {"a"}, CancelToken()).ok());
        const Result<QStringList> models = router.listModels(CancelToken());
        QVERIFY(models.ok());
        QVERIFY(models->contains(QStringLiteral("ollama/granite3.2:2b")));
    }

    void routerMockNeedsNoConfiguration()
    {
        ModelRouter router(*ModelConfig::load(QString(), envOf({})));
        ChatRequest req = ask("watsonx/anything", "x");
        req.parameters.set("mock_response", pdl::Value("mocked"));
        const Result<ChatResponse> r = router.chat(req, {}, CancelToken());
        QVERIFY(r.ok());
        QCOMPARE(r->content, std::string("mocked"));
    }

    void replayServesCassette()
    {
        const QString cassette = QStringLiteral(HAKO_TEST_DATA_DIR "/models/cassette.json");
        const auto replay = ReplayProvider::load(cassette);
        QVERIFY2(replay.ok(), qPrintable(replay ? QString() : replay.error().message));
        ChatRequest req = ask("ollama/granite3.2:2b", "What is the capital of France?");
        req.messages[0].mutableDict().set("pdl__defsite", pdl::Value("text.0"));
        req.parameters.set("temperature", pdl::Value(0));
        req.parameters.set("api_key", pdl::Value("ignored"));
        req.stream = true;
        std::string streamed;
        Result<ChatResponse> r = (*replay)->chat(
            req, [&](std::string_view d) { streamed += d; }, CancelToken());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->content, std::string("The capital of France is Paris."));
        QCOMPARE(streamed, r->content);
        QCOMPARE(r->usage.promptTokens, 12);
        // A different parameter is a different request: the miss names it.
        req.parameters.set("temperature", pdl::Value(1));
        r = (*replay)->chat(req, {}, CancelToken());
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QLatin1String("no recorded reply for model "
                                                         "'ollama/granite3.2:2b'")));
        QVERIFY(r.error().message.contains(QLatin1String("\"temperature\":1")));
        // What interaction() writes is found again.
        ChatResponse answer;
        answer.content = "42";
        const pdl::Value written = ReplayProvider::interaction(req, answer);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("c.json"));
        writeFile(file, QByteArray::fromStdString("{\"interactions\": [" +
                                                  written.toOrderedJson().dump() + "]}"));
        QCOMPARE((*ReplayProvider::load(file))->chat(req, {}, CancelToken())->content,
                 std::string("42"));
    }

    void pluginsLoadFromTheBuild()
    {
        // One manager for every kind of plugin: the PDF extractor of the build is found and
        // loaded by it (openai and replay are built in, not plugins).
        PluginManager manager;
        manager.scan({QStringLiteral(HAKO_BINARY_DIR "/lib/hako/plugins")});
        QStringList ids;
        for (const PluginInfo& p : manager.plugins()) {
            QVERIFY2(p.loaded, qPrintable(p.file + QLatin1String(": ") + p.error));
            ids.append(p.id);
        }
        if (ids.isEmpty())
            QSKIP("the plugins are not built (build hako_pdf_extractor)");
        QCOMPARE(ids, QStringList{QStringLiteral("pdf")});
        QCOMPARE(manager.plugins().at(0).interfaceId, QString::fromLatin1(kPdfExtractorPluginIid));
        QCOMPARE(manager.instances(QString::fromLatin1(kPdfExtractorPluginIid)).size(), 1);
        QVERIFY(manager.instances(QString::fromLatin1(kModelProviderPluginIid)).isEmpty());
        // Scanning the same folder again adds nothing.
        manager.scan({QStringLiteral(HAKO_BINARY_DIR "/lib/hako/plugins")});
        QCOMPARE(manager.plugins().size(), 1);
        // A folder with something that is not a plugin is reported, not fatal.
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("libbroken.so")), "not an ELF file");
        manager.scan({dir.path()});
        bool reported = false;
        for (const PluginInfo& p : manager.plugins())
            reported |=
                p.file.endsWith(QLatin1String("libbroken.so")) && !p.loaded && !p.error.isEmpty();
        QVERIFY(reported);
    }
};

QTEST_GUILESS_MAIN(TestModelRouting)
#include "tst_modelrouting.moc"
