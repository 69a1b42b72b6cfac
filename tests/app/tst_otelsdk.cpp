#include "hakoprocess.h"

#include "core/otel/otlpreceiver.h"
#include "core/otel/traceassembler.h"
#include "core/pdl/value.h"
#include "core/promptlog/promptlog.h"

#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <mutex>

using namespace hako;

namespace {

const QString kClientDir = QStringLiteral(HAKO_SOURCE_DIR "/tests/tools/otel-sdk");

std::string field(const pdl::Value& dict, const char* key)
{
    const pdl::Value* v = dict.asDict().find(pdl::Value(key));
    return v ? (v->isString() ? v->asString() : v->json()) : std::string();
}

} // namespace

// Spans made by the real OpenTelemetry JavaScript SDK (tests/tools/otel-sdk, pinned in its
// package.json and package-lock.json; `npm ci` there installs it) sent over OTLP/HTTP in JSON
// and in protobuf: to an in-process receiver (the tree, kinds, messages and usage Hako shows)
// and to `hako serve --otlp` (the prompt log).
class TestOtelSdk : public QObject {
    Q_OBJECT
private:
    QString m_node;

    bool send(const QString& url, const char* encoding)
    {
        QProcess p;
        p.setWorkingDirectory(kClientDir);
        p.start(m_node, {QStringLiteral("send.mjs"), url, QLatin1String(encoding)});
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            qWarning() << p.readAllStandardError();
            return false;
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (m_node.isEmpty())
            QSKIP("node is not installed");
        if (!QDir(kClientDir + QLatin1String("/node_modules/@opentelemetry/sdk-trace")).exists())
            QSKIP("the SDK client is not installed: npm ci --prefix tests/tools/otel-sdk");
    }

    void sdkSpansBecomeATrace_data()
    {
        QTest::addColumn<QByteArray>("encoding");
        QTest::newRow("json") << QByteArray("json");
        QTest::newRow("protobuf") << QByteArray("protobuf");
    }
    void sdkSpansBecomeATrace()
    {
        QFETCH(QByteArray, encoding);
        otel::ReceiverOptions options;
        options.port = 0;
        otel::OtlpReceiver receiver(options);
        std::mutex mutex;
        otel::TraceAssembler assembler;
        receiver.setSink([&](std::vector<otel::Span>&& spans) {
            std::lock_guard lock(mutex);
            assembler.add(spans);
        });
        auto port = receiver.start();
        QVERIFY(port.ok());
        QVERIFY(
            send(QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(*port), encoding.constData()));
        receiver.stop();
        QCOMPARE(assembler.traces().size(), size_t(1));
        const pdl::TracePtr root = assembler.build(assembler.traces().front().traceId);
        QCOMPARE(root->def, std::string("sdk-agent"));
        QCOMPARE(root->kind, pdl::BlockKind::LastOf);
        const auto& kids = root->children.front().nodes;
        QCOMPARE(kids.size(), size_t(3));
        QCOMPARE(kids[0]->def, std::string("sdk-llm"));
        QCOMPARE(kids[0]->kind, pdl::BlockKind::Model);
        QCOMPARE(field(kids[0]->modelInput.asList()[0], "content"), std::string("What is 2+2?"));
        QCOMPARE(kids[0]->result.asString(), std::string("4"));
        QCOMPARE(field(kids[0]->usage, "prompt_tokens"), std::string("7"));
        QCOMPARE(kids[1]->kind, pdl::BlockKind::Call);
        QCOMPARE(kids[1]->result.asString(), std::string("4"));
        QCOMPARE(kids[2]->kind, pdl::BlockKind::Model);
        QCOMPARE(field(kids[2]->modelInput.asList()[0], "content"), std::string("Thanks!"));
        QCOMPARE(kids[2]->result.asString(), std::string("You are welcome."));
        QCOMPARE(field(kids[2]->usage, "completion_tokens"), std::string("4"));
    }

    void sdkSpansReachThePromptLogThroughServe()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("log.sqlite"));
        QProcess serve;
        serve.start(hakoBinary(), {QStringLiteral("serve"), QStringLiteral("--otlp"),
                                   QStringLiteral("127.0.0.1:0"), QStringLiteral("--log"), db,
                                   QStringLiteral("--quiet")});
        QVERIFY(serve.waitForStarted());
        QByteArray err;
        static const QRegularExpression listening(QStringLiteral(":(\\d+)/v1/traces"));
        QRegularExpressionMatch m;
        QTRY_VERIFY_WITH_TIMEOUT((err += serve.readAllStandardError(),
                                  m = listening.match(QString::fromUtf8(err)), m.hasMatch()),
                                 15000);
        const QString url = QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(m.captured(1));
        QVERIFY(send(url, "json"));
        QVERIFY(send(url, "protobuf"));
        ::kill(pid_t(serve.processId()), SIGTERM);
        QVERIFY(serve.waitForFinished(15000));
        QCOMPARE(serve.exitCode(), 0);
        QString error;
        auto log = promptlog::PromptLog::open(db, &error);
        QVERIFY(log);
        auto calls = log->list({}, true);
        QVERIFY(calls.ok());
        QCOMPARE(calls->size(), 4);
        QStringList models;
        for (const promptlog::CallRecord& c : *calls) {
            models << c.model;
            QVERIFY(c.tags.contains(QStringLiteral("env:ci")));
        }
        models.sort();
        QCOMPARE(models, (QStringList{"gpt-4o", "gpt-4o", "gpt-4o-mini", "gpt-4o-mini"}));
    }
};

QTEST_GUILESS_MAIN(TestOtelSdk)
#include "tst_otelsdk.moc"
