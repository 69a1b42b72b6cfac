// A message whose content is a list of OpenAI parts with an image reaches the server unchanged:
// written as a message block in the context, or as a model block's `input`; the trace keeps the
// bytes (a replay sends the same image) and reads back through the fast trace reader.
#include "core/models/modelrouter.h"
#include "core/pdl/imagecontent.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracewriter.h"
#include "tests/support/openaitestserver.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::pdl;

namespace {

QByteArray pageBytes()
{
    QFile f(QStringLiteral(HAKO_TEST_DATA_DIR "/images/page1.png"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The PNG an `image_url` part of a request carries, after checking the part's shape.
QByteArray imageOfPart(const nlohmann::json& part)
{
    if (!part.is_object() || part.value("type", "") != "image_url" || !part.contains("image_url") ||
        !part["image_url"].is_object())
        return {};
    const std::string url = part["image_url"].value("url", "");
    const std::string prefix = "data:image/png;base64,";
    if (url.rfind(prefix, 0) != 0)
        return {};
    return QByteArray::fromBase64(QByteArray::fromStdString(url.substr(prefix.size())));
}

RunResult runProgram(const QString& dir, const QByteArray& text,
                     const std::shared_ptr<models::IModelProvider>& provider)
{
    const QString file = QDir(dir).filePath(QStringLiteral("transcribe.pdl"));
    ParseResult parsed = parseProgramText(text, file);
    if (!parsed.ok()) {
        RunResult r;
        r.error = makeError(parsed.diagnostics.empty() ? QStringLiteral("does not parse")
                                                       : parsed.diagnostics.front().message);
        return r;
    }
    RunOptions o;
    o.models = provider;
    o.trace = true;
    Interpreter interp(o);
    return interp.run(parsed.program);
}

} // namespace

class TestImageParts : public QObject {
    Q_OBJECT

    testing::OpenAiTestServer m_server;
    std::shared_ptr<models::IModelProvider> m_provider;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_server.start());
        qputenv("OPENAI_BASE_URL", m_server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test");
        Result<std::shared_ptr<models::IModelProvider>> provider =
            models::createDefaultProvider(QDir::tempPath());
        QVERIFY(provider.ok());
        m_provider = *provider;
        QVERIFY(m_dir.isValid());
        QVERIFY(QFile::copy(QStringLiteral(HAKO_TEST_DATA_DIR "/images/page1.png"),
                            m_dir.filePath(QStringLiteral("page1.png"))));
    }

    void init() { m_server.clearRequests(); }

    void partsInTheContextReachTheServer_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::newRow("message in the context")
            << QByteArray("text:\n"
                          "- role: user\n"
                          "  content:\n"
                          "    data:\n"
                          "    - {type: text, text: \"Transcribe this page to Markdown.\"}\n"
                          "    - {type: image_url, image_url: {url: \"${ image_url('page1.png') "
                          "}\"}}\n"
                          "- model: openai/vision\n");
        QTest::newRow("model input") << QByteArray(
            "model: openai/vision\n"
            "input:\n"
            "  role: user\n"
            "  content:\n"
            "    data:\n"
            "    - {type: text, text: \"Transcribe this page to Markdown.\"}\n"
            "    - {type: image_url, image_url: {url: \"${ image_url('page1.png') }\"}}\n");
    }

    void partsInTheContextReachTheServer()
    {
        QFETCH(QByteArray, program);
        m_server.enqueueChat(testing::ScriptedReply::chat(QStringLiteral("# Page 1"), -1));
        RunResult r = runProgram(m_dir.path(), program, m_provider);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QVERIFY(QString::fromStdString(r.result.toText()).endsWith(QStringLiteral("# Page 1")));

        const auto requests = m_server.requests();
        QCOMPARE(requests.size(), 1);
        const nlohmann::json body = nlohmann::json::parse(requests[0].body.toStdString());
        const nlohmann::json& messages = body["messages"];
        QCOMPARE(messages.size(), size_t(1));
        QCOMPARE(messages[0]["role"], "user");
        const nlohmann::json& content = messages[0]["content"];
        QVERIFY2(content.is_array(), content.dump().substr(0, 200).c_str());
        QCOMPARE(content.size(), size_t(2));
        QCOMPARE(content[0],
                 nlohmann::json({{"type", "text"}, {"text", "Transcribe this page to Markdown."}}));
        // The image arrives byte for byte, and is the PNG on disk.
        const QByteArray png = imageOfPart(content[1]);
        QCOMPARE(png, pageBytes());
        const ImageFacts facts = sniffImage(png);
        QCOMPARE(facts.format, QStringLiteral("PNG"));
        QCOMPARE(facts.width, 160);
        QCOMPARE(facts.height, 220);

        // No usage from the server: the estimate counts the image as a few tokens, not as
        // its base64 text.
        QVERIFY(r.trace);
        const TraceNode* model = r.trace.get();
        std::vector<const TraceNode*> stack{model};
        while (!stack.empty()) {
            const TraceNode* n = stack.back();
            stack.pop_back();
            if (n->kind == BlockKind::Model) {
                model = n;
                break;
            }
            for (const auto& c : n->children)
                for (const auto& x : c.nodes)
                    stack.push_back(x.get());
        }
        QCOMPARE(model->kind, BlockKind::Model);
        QVERIFY(model->usage.isDict());
        const Value* prompt = model->usage.asDict().find("prompt_tokens");
        QVERIFY(prompt && prompt->isInt());
        QVERIFY2(prompt->asInt() < 200, qPrintable(QString::number(prompt->asInt())));
    }

    void traceKeepsTheImageForReplay()
    {
        m_server.enqueueChat(testing::ScriptedReply::chat(QStringLiteral("# Page 1")));
        const QByteArray program =
            "text:\n"
            "- role: user\n"
            "  content:\n"
            "    data:\n"
            "    - {type: text, text: \"Transcribe.\"}\n"
            "    - {type: image_url, image_url: {url: \"${ image_url('page1.png') }\"}}\n"
            "- model: openai/vision\n";
        RunResult r = runProgram(m_dir.path(), program, m_provider);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        const QString path = m_dir.filePath(QStringLiteral("trace.json"));
        QString error;
        QVERIFY2(writeTraceFile(*r.trace, path, &error), qPrintable(error));
        Result<TraceLoadResult> loaded = readTraceFile(path);
        QVERIFY(loaded.ok());
        QVERIFY(!loaded->partial);
        const std::string url = "data:image/png;base64," + pageBytes().toBase64().toStdString();
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains(QByteArray::fromStdString(url)));
        // The model node read back holds the image part in the messages it sent.
        std::vector<const TraceNode*> stack{loaded->root.get()};
        bool found = false;
        while (!stack.empty() && !found) {
            const TraceNode* n = stack.back();
            stack.pop_back();
            const Value& sent = n->modelInput.isList() ? n->modelInput : n->context;
            if (n->kind == BlockKind::Model && sent.isList() && !sent.asList().empty()) {
                const Value* content = sent.asList()[0].asDict().find("content");
                const auto urls =
                    content ? contentImageUrls(*content) : std::vector<std::string_view>();
                found = urls.size() == 1 && urls[0] == url;
            }
            for (const auto& c : n->children)
                for (const auto& x : c.nodes)
                    stack.push_back(x.get());
        }
        QVERIFY(found);
    }

    void bigImageTraceLoads()
    {
        // Twenty pages of 2 MB each, one call per page: the trace reader takes the long strings
        // in its stride (the fast reader, without falling back to the tolerant one).
        QByteArray big = pageBytes();
        big.append(QByteArray(2 * 1024 * 1024, '\x01'));
        QFile f(m_dir.filePath(QStringLiteral("big.png")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(big);
        f.close();
        for (int i = 0; i < 20; ++i)
            m_server.enqueueChat(testing::ScriptedReply::chat(QStringLiteral("page %1").arg(i)));
        const QByteArray program =
            "for:\n"
            "  page: ${ range(20) }\n"
            "repeat:\n"
            "  model: openai/vision\n"
            "  input:\n"
            "    role: user\n"
            "    content:\n"
            "      data:\n"
            "      - {type: text, text: \"Transcribe page ${ page }.\"}\n"
            "      - {type: image_url, image_url: {url: \"${ image_url('big.png') }\"}}\n";
        RunResult r = runProgram(m_dir.path(), program, m_provider);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(m_server.requests().size(), 20);
        const QString path = m_dir.filePath(QStringLiteral("big-trace.json"));
        QString error;
        QVERIFY2(writeTraceFile(*r.trace, path, &error), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 20 * 2 * 1024 * 1024);
        Result<TraceLoadResult> loaded = readTraceFile(path);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().message));
        QVERIFY(!loaded->partial);
        int models = 0;
        std::vector<const TraceNode*> stack{loaded->root.get()};
        while (!stack.empty()) {
            const TraceNode* n = stack.back();
            stack.pop_back();
            if (n->kind == BlockKind::Model) {
                ++models;
                QCOMPARE(
                    contentImageUrls(*n->modelInput.asList()[0].asDict().find("content")).size(),
                    size_t(1));
            }
            for (const auto& c : n->children)
                for (const auto& x : c.nodes)
                    stack.push_back(x.get());
        }
        QCOMPARE(models, 20);
    }
};

QTEST_GUILESS_MAIN(TestImageParts)
#include "tst_imageparts.moc"
