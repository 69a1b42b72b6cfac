// The one place a run is composed: what a RunEnvironment gives a program (`doc` over the given
// session, `memory`/`thread` over the given store and agent, the provider), what it reports when
// the model configuration is broken, the documentation it registers, and the workbench context
// publishing the open document and store.
#include "core/docs/documentindex.h"
#include "core/docs/documentsession.h"
#include "core/memory/memorystore.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/lang/builtindocs.h"
#include "core/pdl/model/modelprovider.h"
#include "core/pdl/parser/programparser.h"
#include "core/promptlog/promptlog.h"
#include "core/run/loggingprovider.h"
#include "core/run/runenvironment.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace hako;

Q_DECLARE_METATYPE(hako::Diagnostic)

namespace {

// A provider that answers every chat with a fixed text and counts the calls.
class CannedProvider : public models::IModelProvider {
public:
    QString id() const override { return QStringLiteral("canned"); }
    Result<models::ChatResponse> chat(const models::ChatRequest&, const models::DeltaCallback&,
                                      const CancelToken&) override
    {
        ++calls;
        models::ChatResponse r;
        r.content = "canned reply";
        return r;
    }
    Result<std::vector<std::vector<float>>>
    embed(const std::string&, const std::vector<std::string>&, const CancelToken&) override
    {
        return makeError(QStringLiteral("no embeddings here"));
    }
    Result<QStringList> listModels(const CancelToken&) override { return QStringList(); }
    std::atomic<int> calls = 0;
};

std::shared_ptr<docs::DocumentSession> sessionOver(const QString& text)
{
    return std::make_shared<docs::DocumentSession>(
        docs::DocumentIndex::build(std::make_shared<docs::Document>(text)));
}

pdl::RunResult runProgram(const QByteArray& text, pdl::RunOptions options)
{
    pdl::ParseResult parsed = pdl::parseProgramText(text, QStringLiteral("env.pdl"));
    if (!parsed.ok())
        qFatal("test program does not parse");
    pdl::Interpreter interpreter(options);
    return interpreter.run(parsed.program);
}

} // namespace

class TestRunEnvironment : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void tagsFromTheEnvironmentSplitAtCommasAndSpaces()
    {
        // HAKO_TAGS="team:docs, 実験　二" tags every logged call of the run. Held to the
        // regular expression [,\s]+ with Unicode white space (a full-width space typed with a
        // Japanese input method separates tags too), on generated mixtures of tags, commas
        // and every kind of space.
        const QStringList pieces = {
            QStringLiteral("team:docs"), QStringLiteral("実験"), QStringLiteral("a"),
            QStringLiteral("ok-1"),      QStringLiteral(","),    QStringLiteral(" "),
            QStringLiteral("\t"),        QStringLiteral("\n"),   QString(QChar(0x3000)),
            QString(QChar(0x00a0)),      QString(QChar(0x2003)), QStringLiteral(",,")};
        const QRegularExpression separators(QStringLiteral("[,\\s]+"),
                                            QRegularExpression::UseUnicodePropertiesOption);
        QRandomGenerator random(43);
        for (int i = 0; i < 2000; ++i) {
            QString value;
            for (int n = int(random.bounded(8)); n > 0; --n)
                value += pieces.at(int(random.bounded(pieces.size())));
            qputenv("HAKO_TAGS", value.toUtf8());
            QCOMPARE(tagsFromEnvironment(), value.split(separators, Qt::SkipEmptyParts));
        }
        qunsetenv("HAKO_TAGS");
        QVERIFY(tagsFromEnvironment().isEmpty());
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qRegisterMetaType<hako::Diagnostic>();
    }

    void theDocumentSessionIsTheProgramsDoc()
    {
        RunEnvironment env;
        env.baseFolder = m_dir.path();
        env.modelProvider = std::make_shared<CannedProvider>();
        env.documentSession = sessionOver(QStringLiteral("apples are red\npears are green\n"));
        pdl::RunOptions options;
        QVERIFY(!env.compose(options));
        const pdl::RunResult r = runProgram("text: \"${ doc.search('pears') }\"\n", options);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QVERIFY2(QString::fromStdString(r.result.toText()).contains(QStringLiteral("pears")),
                 r.result.toText().c_str());
        // The same session: what the program asked is in its transcript (the Documents pane's).
        QCOMPARE(env.documentSession->transcript().size(), 1);
        QVERIFY(env.documentSession->totalCost() > 0);
    }

    void theMemoryStoreIsTheProgramsMemoryForTheGivenAgent()
    {
        auto store = memory::MemoryStore::open(m_dir.filePath(QStringLiteral("agent.db")));
        QVERIFY2(store.ok(), store.ok() ? "" : qPrintable(store.error().message));
        RunEnvironment env;
        env.baseFolder = m_dir.path();
        env.modelProvider = std::make_shared<CannedProvider>();
        env.memoryStore = *store;
        env.memoryAgent = QStringLiteral("bob");
        pdl::RunOptions options;
        QVERIFY(!env.compose(options));
        QVERIFY(options.initialScope.find("thread"));
        const pdl::RunResult r = runProgram(
            "lastOf:\n- ${ memory.add('the broth was rich') }\n- ${ memory.recent(5)[0].text }\n",
            options);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.toText()), QStringLiteral("the broth was rich"));
        memory::MemoryFilter bob;
        bob.agent = QStringLiteral("bob");
        QCOMPARE(int((*store)->list(bob).value().size()), 1);
        memory::MemoryFilter alice;
        alice.agent = QStringLiteral("default");
        QCOMPARE(int((*store)->list(alice).value().size()), 0);
    }

    void theGivenProviderAnswersModelBlocks()
    {
        auto provider = std::make_shared<CannedProvider>();
        RunEnvironment env;
        env.baseFolder = m_dir.path();
        env.modelProvider = provider;
        pdl::RunOptions options;
        QVERIFY(!env.compose(options));
        QCOMPARE(options.models.get(), provider.get());
        const pdl::RunResult r = runProgram("model: openai/any\ninput: hi\n", options);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QCOMPARE(QString::fromStdString(r.result.toText()), QStringLiteral("canned reply"));
        QCOMPARE(provider->calls.load(), 1);
    }

    // `hako run` of a program without model blocks must not pay for the prompt log's store
    // and writer thread; one with a model block records its calls as before.
    void thePromptLogIsOpenedOnlyByTheFirstModelCall()
    {
        const QString path = m_dir.filePath(QStringLiteral("lazy.sqlite"));
        auto opens = std::make_shared<std::atomic<int>>(0);
        RunEnvironment env;
        env.baseFolder = m_dir.path();
        env.modelProvider = std::make_shared<CannedProvider>();
        env.openPromptLog = [path, opens]() -> std::shared_ptr<promptlog::PromptLog> {
            ++*opens;
            return promptlog::PromptLog::open(path);
        };
        {
            pdl::RunOptions options;
            QVERIFY(!env.compose(options));
            const pdl::RunResult r = runProgram("text: no model here\n", options);
            QVERIFY2(r.ok, qPrintable(r.error.message));
        }
        QCOMPARE(opens->load(), 0);
        QVERIFY(!QFileInfo::exists(path));
        {
            pdl::RunOptions options;
            QVERIFY(!env.compose(options));
            const pdl::RunResult r = runProgram(
                "text:\n- model: openai/any\n  input: one\n- model: openai/any\n  input: two\n",
                options);
            QVERIFY2(r.ok, qPrintable(r.error.message));
        }
        QCOMPARE(opens->load(), 1);
        std::unique_ptr<promptlog::PromptLog> log = promptlog::PromptLog::open(path);
        QVERIFY(log);
        Result<int64_t> calls = log->count({});
        QVERIFY(calls.ok());
        QCOMPARE(*calls, int64_t(2));
    }

    void aBrokenModelConfigurationIsReportedAndTheRestComposed()
    {
        QTemporaryDir folder;
        QFile yaml(folder.filePath(QStringLiteral("hako-models.yaml")));
        QVERIFY(yaml.open(QIODevice::WriteOnly));
        yaml.write("endpoints: [unclosed\n");
        yaml.close();
        RunEnvironment env;
        env.baseFolder = folder.path();
        env.documentSession = sessionOver(QStringLiteral("text\n"));
        pdl::RunOptions options;
        const std::optional<Diagnostic> error = env.compose(options);
        QVERIFY(error);
        QVERIFY2(error->span.file.endsWith(QStringLiteral("hako-models.yaml")) ||
                     error->message.contains(QStringLiteral("hako-models.yaml")),
                 qPrintable(error->toString()));
        QVERIFY(!options.models);
        QVERIFY(options.initialScope.find("doc"));
    }

    void aReplayNeedsNoProvider()
    {
        QTemporaryDir folder;
        QFile yaml(folder.filePath(QStringLiteral("hako-models.yaml")));
        QVERIFY(yaml.open(QIODevice::WriteOnly));
        yaml.write("endpoints: [unclosed\n");
        yaml.close();
        RunEnvironment env;
        env.baseFolder = folder.path();
        pdl::RunOptions options;
        options.replay = std::make_shared<const std::unordered_map<std::string, pdl::Value>>();
        QVERIFY(!env.compose(options));
        QVERIFY(!options.models);
    }

    void theSandboxDecisionReachesTheRun()
    {
        RunEnvironment env;
        env.modelProvider = std::make_shared<CannedProvider>();
        pdl::RunOptions options;
        env.compose(options);
        QVERIFY(!options.sandbox);
        env.sandbox = true;
        env.compose(options);
        QVERIFY(options.sandbox);
    }

    void aProgramNamingReportGetsTheReportObjectOthersNone()
    {
        RunEnvironment env;
        env.modelProvider = std::make_shared<CannedProvider>();
        QTemporaryDir dir;
        const QString plain = dir.filePath(QStringLiteral("plain.pdl"));
        const QString asks = dir.filePath(QStringLiteral("asks.pdl"));
        for (const auto& [path, text] :
             {std::pair{plain, QByteArray("text: Hello\n")},
              std::pair{asks, QByteArray("text: ${ report.round('1.5', '整数で') }\n")}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        }
        // Any other program's scope stays the reference's (pdl_scope lists every variable).
        env.runLog.programPath = plain;
        pdl::RunOptions none;
        env.compose(none);
        QVERIFY(!none.initialScope.find("report"));
        env.runLog.programPath = asks;
        pdl::RunOptions options;
        env.compose(options);
        const pdl::Value* report = options.initialScope.find("report");
        QVERIFY(report && report->isDict());
        pdl::CallArgs args;
        args.positional = {pdl::Value("12,345.6百万円"),
                           pdl::Value("小数第一位を四捨五入してください")};
        QCOMPARE(report->asDict().find("round")->asCallable()->call(args).asString(),
                 std::string("12346"));
        pdl::RunOptions own;
        own.initialScope.set("report", pdl::Value("the caller's"));
        env.compose(own);
        QCOMPARE(own.initialScope.find("report")->asString(), std::string("the caller's"));
    }

    void onlyTheWordReportFollowedByADotCounts_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("gets");
        QTest::newRow("call") << QByteArray("text: ${ report.round(x) }\n") << true;
        QTest::newRow("space before the dot") << QByteArray("text: ${ report .round }\n") << true;
        QTest::newRow("line break before the dot")
            << QByteArray("text: ${ report\n .round }") << true;
        QTest::newRow("at the very start") << QByteArray("report.x") << true;
        QTest::newRow("a longer name") << QByteArray("text: ${ myreport.round }\n") << false;
        QTest::newRow("a plural") << QByteArray("text: ${ reports.round }\n") << false;
        QTest::newRow("after a Japanese letter")
            << QByteArray("text: ${ 年report.round }\n") << false;
        QTest::newRow("the word alone") << QByteArray("text: the report\n") << false;
        QTest::newRow("at the very end") << QByteArray("text: report") << false;
    }

    void onlyTheWordReportFollowedByADotCounts()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, gets);
        QTemporaryDir dir;
        RunEnvironment env;
        env.modelProvider = std::make_shared<CannedProvider>();
        env.runLog.programPath = dir.filePath(QStringLiteral("p.pdl"));
        QFile f(env.runLog.programPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        pdl::RunOptions options;
        env.compose(options);
        QCOMPARE(options.initialScope.find("report") != nullptr, gets);
    }

    void bindingDocsAreRegisteredWithTheLanguagesOwn()
    {
        RunEnvironment::registerBindingDocs();
        RunEnvironment::registerBindingDocs(); // idempotent
        for (const char* name :
             {"pdl_context", "doc", "doc.search", "memory", "memory.add", "thread", "report",
              "report.pages", "report.image", "report.context", "report.round"})
            QVERIFY2(pdl::BuiltinDocs::find(QString::fromLatin1(name)), name);
        QCOMPARE(pdl::BuiltinDocs::withPrefix(QStringLiteral("memory.add")).size(), 1);
    }

    void theWorkbenchRunGetsTheContextsDocument()
    {
        RunController run;
        RunEnvironment env;
        env.modelProvider = std::make_shared<CannedProvider>();
        env.documentSession = sessionOver(QStringLiteral("one line about kiwis\n"));
        run.setEnvironment(env);
        QSignalSpy finished(&run, &RunController::finished);
        QVERIFY(run.start("text: \"${ doc.search('kiwis') }\"\n",
                          m_dir.filePath(QStringLiteral("w.pdl"))));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][2].value<Diagnostic>().message));
        QVERIFY(finished[0][1].toString().contains(QStringLiteral("kiwis")));
        QCOMPARE(env.documentSession->transcript().size(), 1);
    }

    void theContextPublishesTheOpenDocumentAndStore()
    {
        WorkbenchContext context;
        QSignalSpy docs(&context, &WorkbenchContext::documentSessionChanged);
        QSignalSpy stores(&context, &WorkbenchContext::memoryStoreChanged);
        auto session = sessionOver(QStringLiteral("x\n"));
        context.setDocumentSession(session, this);
        context.setDocumentSession(session, this); // the same: no signal
        QCOMPARE(docs.count(), 1);
        QCOMPARE(docs[0][0].value<QObject*>(), static_cast<QObject*>(this));
        QCOMPARE(context.documentSession(), session);
        auto store = memory::MemoryStore::open(m_dir.filePath(QStringLiteral("ctx.db")));
        QVERIFY(store.ok());
        context.setMemoryStore(*store);
        QCOMPARE(stores.count(), 1);
        QCOMPARE(context.memoryStore(), *store);
        context.setDocumentSession(nullptr);
        QCOMPARE(docs.count(), 2);
        QVERIFY(!context.documentSession());
    }
};

QTEST_GUILESS_MAIN(TestRunEnvironment)
#include "tst_runenvironment.moc"
