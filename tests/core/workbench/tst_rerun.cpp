// Re-run from here: a finished run's trace and one of its nodes give a new run in which every
// block that finished before the node is replayed and the node and all after it run live,
// checked against the local OpenAI-compatible server's request log.
#include "core/models/modelrouter.h"
#include "core/pdl/debug/rerun.h"
#include "core/workbench/runcontroller.h"
#include "tests/support/openaitestserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;

Q_DECLARE_METATYPE(hako::Diagnostic)

namespace {

const QByteArray kProgram = "text:\n"
                            "- repeat:\n"
                            "    text:\n"
                            "    - \"Q${ i }. \"\n"
                            "    - model: openai/test\n"
                            "  for:\n"
                            "    i: [1, 2, 3, 4]\n";

QJsonArray messagesOf(const testing::RecordedRequest& r)
{
    return QJsonDocument::fromJson(r.body).object().value(QStringLiteral("messages")).toArray();
}

const pdl::TraceNode* findNode(const pdl::TraceNode& n, const std::string& id)
{
    if (n.id == id)
        return &n;
    for (const auto& c : n.children)
        for (const auto& x : c.nodes)
            if (x)
                if (const pdl::TraceNode* f = findNode(*x, id))
                    return f;
    return nullptr;
}

std::string modelId(int iteration)
{
    return "text.0.repeat." + std::to_string(iteration) + ".text.1.model";
}

} // namespace

class TestRerun : public QObject {
    Q_OBJECT

    testing::OpenAiTestServer m_server;
    std::shared_ptr<models::IModelProvider> m_provider;
    QTemporaryDir m_dir;

    bool runToEnd(RunController& run, QSignalSpy& finished)
    {
        if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 20000))
            return false;
        return finished.takeFirst()[0].toBool();
    }

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<hako::Diagnostic>();
        QVERIFY(m_server.start());
        qputenv("OPENAI_BASE_URL", m_server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test");
        Result<std::shared_ptr<models::IModelProvider>> provider =
            models::createDefaultProvider(QDir::tempPath());
        QVERIFY(provider.ok());
        m_provider = *provider;
    }

    void rerunFromTheThirdIterationSendsOnlyWhatFollows()
    {
        const QString path = m_dir.filePath(QStringLiteral("loop.pdl"));
        RunController run;
        run.setModelProvider(m_provider);
        QSignalSpy finished(&run, &RunController::finished);
        m_server.clearRequests();
        QVERIFY(run.start(kProgram, path));
        QVERIFY(runToEnd(run, finished));
        const QList<testing::RecordedRequest> first = m_server.requests();
        QCOMPARE(first.size(), 4);
        const pdl::TracePtr recorded = run.lastTrace();
        QVERIFY(recorded);
        const QString firstRun = run.lastRunId();
        const QString firstResult = QString::fromStdString(recorded->result.toText());

        m_server.clearRequests();
        QString error;
        QVERIFY2(run.startRerun(kProgram, path, *recorded, firstRun,
                                QString::fromStdString(modelId(2)), &error),
                 qPrintable(error));
        QVERIFY(runToEnd(run, finished));
        const QList<testing::RecordedRequest> second = m_server.requests();
        // Exactly the calls from the node on, each as the first run sent it.
        QCOMPARE(second.size(), 2);
        QCOMPARE(messagesOf(second[0]), messagesOf(first[2]));
        QCOMPARE(messagesOf(second[1]), messagesOf(first[3]));
        QCOMPARE(QString::fromStdString(run.lastTrace()->result.toText()), firstResult);
        QCOMPARE(run.forkedFromRun(), firstRun);
        QCOMPARE(run.forkedFromNode(), QString::fromStdString(modelId(2)));
        QVERIFY(run.rerunDivergedAt().isEmpty());
        // Replayed nodes are marked; the node and what follows are not.
        for (int i = 0; i < 4; ++i) {
            const pdl::TraceNode* n = findNode(*run.lastTrace(), modelId(i));
            QVERIFY(n);
            QCOMPARE(n->replayed, i < 2);
            // A replayed call shows the prompt its recording sent (what the reply answers).
            const pdl::TraceNode* was = findNode(*recorded, modelId(i));
            QCOMPARE(QString::fromStdString(n->modelInput.json()),
                     QString::fromStdString(was->modelInput.json()));
            QVERIFY(!n->modelInput.isNull());
        }
        QVERIFY(run.lastRunId() != firstRun);

        // A plain run afterwards is no fork.
        QVERIFY(run.start(kProgram, path));
        QVERIFY(runToEnd(run, finished));
        QVERIFY(run.forkedFromRun().isEmpty());
    }

    void aChangedPrefixRunsLiveFromWhereItDiverges()
    {
        const QString path = m_dir.filePath(QStringLiteral("changed.pdl"));
        const QByteArray program = "text:\n"
                                   "- model: openai/test\n"
                                   "  input: \"first\"\n"
                                   "- model: openai/test\n"
                                   "  input: \"second\"\n"
                                   "- model: openai/test\n"
                                   "  input: \"third\"\n";
        RunController run;
        run.setModelProvider(m_provider);
        QSignalSpy finished(&run, &RunController::finished);
        QVERIFY(run.start(program, path));
        QVERIFY(runToEnd(run, finished));
        const pdl::TracePtr recorded = run.lastTrace();

        // The second call's input changed: replayed is the first only.
        QByteArray changed = program;
        changed.replace("\"second\"", "\"SECOND\"");
        m_server.clearRequests();
        QVERIFY(run.startRerun(changed, path, *recorded, run.lastRunId(),
                               QStringLiteral("text.2.model")));
        QVERIFY(runToEnd(run, finished));
        QCOMPARE(m_server.requests().size(), 2);
        QCOMPARE(run.rerunDivergedAt(), QStringLiteral("text.1.model"));
        QCOMPARE(run.rerunDivergedSpan().line, 4);
        QVERIFY(findNode(*run.lastTrace(), "text.0.model")->replayed);
        QVERIFY(!findNode(*run.lastTrace(), "text.1.model")->replayed);
        QVERIFY(QString::fromStdString(run.lastTrace()->result.toText())
                    .contains(QLatin1String("SECOND")));
    }

    void unknownNodeIsRefused()
    {
        RunController run;
        pdl::TraceNode root;
        root.id = "text";
        QString error;
        QVERIFY(!run.startRerun("text: x\n", QStringLiteral("/tmp/x.pdl"), root, QString(),
                                QStringLiteral("text.9.model"), &error));
        QVERIFY(error.contains(QLatin1String("text.9.model")));
        QVERIFY(!run.isRunning());
    }

    void planCountsOnlyBlocksFinishedBeforeTheNode()
    {
        // Leaves before the node; its ancestors and its own subtree are not.
        auto leaf = [](const char* id) {
            auto n = std::make_shared<pdl::TraceNode>();
            n->id = id;
            n->kind = pdl::BlockKind::Model;
            n->hasResult = true;
            n->result = pdl::Value(std::string(id));
            return n;
        };
        pdl::TraceNode root;
        root.id = "text";
        root.isLeaf = false;
        root.addChild("text", leaf("text.0.model"));
        auto body = std::make_shared<pdl::TraceNode>();
        body->id = "text.1.text";
        body->isLeaf = false;
        body->addChild("text", leaf("text.1.text.0.model"));
        body->addChild("text", leaf("text.1.text.1.model"));
        root.addChild("text", body);
        root.addChild("text", leaf("text.2.model"));
        pdl::RerunPlan plan = pdl::planRerun(root, "text.1.text.1.model");
        QVERIFY(plan.ok);
        QCOMPARE(plan.replay->size(), size_t(2));
        QVERIFY(plan.replay->count("text.0.model"));
        QVERIFY(plan.replay->count("text.1.text.0.model"));
        plan = pdl::planRerun(root, "text.1.text");
        QCOMPARE(plan.replay->size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestRerun)
#include "tst_rerun.moc"
