// The agent side of memory: the hash embedding, reply-tree context, insight, reflection and the
// PDL bindings, with a fake model provider that answers deterministically.
#include "core/memory/hashembedding.h"
#include "core/memory/memorybindings.h"
#include "core/memory/memorystore.h"
#include "core/memory/reflector.h"
#include "core/memory/threadindex.h"
#include "core/pdl/model/modelprovider.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <mutex>

using namespace hako;
using namespace hako::memory;

namespace {

// Embeds like the hash model under another name; chat replies with a canned text and keeps
// the prompts it was sent.
class FakeProvider : public models::IModelProvider {
public:
    QString reply;
    mutable std::mutex mutex;
    std::vector<std::string> prompts;

    QString id() const override { return QStringLiteral("fake"); }
    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback&, const CancelToken&) override
    {
        std::lock_guard lock(mutex);
        prompts.push_back(request.messages.back().asDict().find("content")->asString());
        models::ChatResponse r;
        r.content = reply.toStdString();
        return r;
    }
    Result<std::vector<std::vector<float>>> embed(const std::string& model,
                                                  const std::vector<std::string>& texts,
                                                  const CancelToken&) override
    {
        if (model != "fake-embed")
            return makeError(QStringLiteral("unknown model"));
        std::vector<std::vector<float>> out;
        for (const auto& t : texts)
            out.push_back(HashEmbeddingProvider::embedText(QString::fromStdString(t)));
        return out;
    }
    Result<QStringList> listModels(const CancelToken&) override
    {
        return QStringList{QStringLiteral("fake-embed")};
    }
};

template <typename R> QByteArray why(const R& r)
{
    return r.ok() ? QByteArray() : r.error().message.toUtf8();
}

const ChangeContext kAgent{Actor::Agent, QStringLiteral("test"), QStringLiteral("run-7"), {}};

QStringList ids(const std::vector<ThreadMessage>& chain)
{
    QStringList out;
    for (const auto& m : chain)
        out.append(m.id);
    return out;
}

pdl::Value call(const pdl::Value& bindings, const char* name, pdl::List positional = {},
                std::vector<std::pair<std::string, pdl::Value>> kw = {})
{
    pdl::CallArgs a;
    a.positional = std::move(positional);
    a.keyword = std::move(kw);
    return bindings.asDict().find(name)->asCallable()->call(a);
}

} // namespace

class TestMemoryAgent : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;
    std::shared_ptr<MemoryStore> fresh()
    {
        return MemoryStore::open(m_dir.filePath(QStringLiteral("a%1.hakomem").arg(++m_n))).value();
    }

private Q_SLOTS:
    void hashEmbeddingIsDeterministicAndLexical()
    {
        const auto a =
            HashEmbeddingProvider::embedText(QStringLiteral("The ramen broth was great"));
        const auto b =
            HashEmbeddingProvider::embedText(QStringLiteral("the RAMEN broth, was great!"));
        const auto c = HashEmbeddingProvider::embedText(QStringLiteral("Ramen broth"));
        const auto d = HashEmbeddingProvider::embedText(QStringLiteral("quarterly tax filing"));
        QCOMPARE(a.size(), size_t(HashEmbeddingProvider::kDimension));
        QCOMPARE(a, b); // case and punctuation do not matter
        QVERIFY(cosine(a.data(), c.data(), a.size()) > cosine(a.data(), d.data(), a.size()) + 0.3f);
        QVERIFY(std::abs(dot(a.data(), a.data(), a.size()) - 1.0f) < 1e-5);
        HashEmbeddingProvider p;
        QVERIFY(!p.embed("nomic-embed-text", {"x"}, {}).ok());
        QVERIFY(!p.chat({}, {}, {}).ok());
    }

    void threadContextIsTheChainOnly_data()
    {
        QTest::addColumn<QString>("event");
        QTest::addColumn<QStringList>("chain");
        QTest::newRow("deep") << "8938b" << QStringList{"cbddc", "fa950", "32411", "8938b"};
        QTest::newRow("sibling branch") << "77777" << QStringList{"cbddc", "fa950", "77777"};
        QTest::newRow("other branch") << "4c4c4" << QStringList{"cbddc", "1a2b3", "4c4c4"};
        QTest::newRow("root") << "cbddc" << QStringList{"cbddc"};
    }
    void threadContextIsTheChainOnly()
    {
        QFETCH(QString, event);
        QFETCH(QStringList, chain);
        auto t = ThreadIndex::load(QStringLiteral(HAKO_TEST_DATA_DIR "/memory/thread.json"));
        QVERIFY2(t.ok(), why(t).constData());
        QCOMPARE(t->messages().size(), size_t(7));
        auto c = t->context(event);
        QVERIFY(c.ok());
        QCOMPARE(ids(*c), chain);
        QVERIFY(!t->context(QStringLiteral("00000")).ok());
    }

    void threadRejectsBadIds()
    {
        const QJsonArray bad{QJsonObject{{"id", "xyz12"}, {"path", QJsonArray{"xyz12"}}}};
        auto r = ThreadIndex::fromJson(bad);
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QLatin1String("5 hexadecimal digits")));
        const QJsonArray wrongEnd{QJsonObject{{"id", "aaaaa"}, {"path", QJsonArray{"bbbbb"}}}};
        QVERIFY(!ThreadIndex::fromJson(wrongEnd).ok());
    }

    void insightKeepsEvidence()
    {
        auto store = fresh();
        FakeProvider fake;
        ReflectionOptions o;
        o.embeddingModel = QStringLiteral("fake-embed");
        Reflector r(store, &fake, o);
        MemorySource src{QStringLiteral("cbddc"), {QStringLiteral("fa950")}, {}, {}};
        QVERIFY(!r.addInsight(QStringLiteral("orphan"), {99}, src, 5, kAgent).ok());
        auto first =
            r.addInsight(QStringLiteral("Jun has eaten at the ramen place"), {}, src, 4, kAgent);
        QVERIFY2(first.ok(), why(first).constData());
        auto second = r.addInsight(QStringLiteral("The queue is long on Saturdays"), {*first}, src,
                                   5, kAgent);
        QVERIFY(second.ok());
        const MemoryRecord m = store->get(*second, true).value();
        QCOMPARE(m.kind, Kind::Insight);
        QCOMPARE(m.evidence, std::vector<int64_t>{*first});
        QCOMPARE(m.source.threadId, QStringLiteral("cbddc"));
        QCOMPARE(m.embeddingModel, QStringLiteral("fake-embed"));
        QCOMPARE(m.embedding.size(), size_t(HashEmbeddingProvider::kDimension));
    }

    void reflectionTriggersAtThreshold()
    {
        auto store = fresh();
        FakeProvider fake;
        fake.reply = QStringLiteral("1. Jun likes ramen (because of 1, 3)\n"
                                    "noise line\n"
                                    "2. Weekends are busy (because of 2)\n");
        ReflectionOptions o;
        o.threshold = 20;
        o.chatModel = QStringLiteral("fake-chat");
        o.embeddingModel = QStringLiteral("fake-embed");
        Reflector r(store, &fake, o);
        std::vector<int64_t> obs;
        for (int i = 0; i < 3; ++i) {
            MemoryRecord m;
            m.text = QStringLiteral("observation %1").arg(i);
            m.importance = 6;
            obs.push_back(store->add(m, kAgent).value());
        }
        QCOMPARE(r.accumulatedImportance(), int64_t(18));
        QVERIFY(!r.isDue());
        QCOMPARE(r.reflect(false, kAgent)->size(), size_t(0)); // below the threshold: nothing
        QVERIFY(fake.prompts.empty());
        MemoryRecord m;
        m.text = QStringLiteral("observation 3");
        m.importance = 3;
        QVERIFY(store->add(m, kAgent).ok());
        QVERIFY(r.isDue());
        auto made = r.reflect(false, kAgent);
        QVERIFY2(made.ok(), why(made).constData());
        QCOMPARE(made->size(), size_t(2));
        QCOMPARE(fake.prompts.size(), size_t(1));
        QVERIFY(QString::fromStdString(fake.prompts[0])
                    .startsWith(QLatin1String("1. observation 0\n")));
        const MemoryRecord first = store->get(made->at(0)).value();
        QCOMPARE(first.kind, Kind::Reflection);
        QCOMPARE(first.text, QStringLiteral("Jun likes ramen"));
        QCOMPARE(first.evidence, (std::vector<int64_t>{obs[0], obs[2]}));
        QCOMPARE(first.source.runId, QStringLiteral("run-7"));
        QCOMPARE(r.accumulatedImportance(), int64_t(0));
        QVERIFY(!r.isDue());
    }

    void parseInsightsForms()
    {
        const auto p =
            Reflector::parseInsights(QStringLiteral("- A (because of 1,2)\n* B (Because of 3).\nC "
                                                    "without evidence\n4) D (because of 10, 2)"));
        QCOMPARE(p.size(), size_t(3));
        QCOMPARE(p[0].text, QStringLiteral("A"));
        QCOMPARE(p[0].statements, (std::vector<int>{1, 2}));
        QCOMPARE(p[1].text, QStringLiteral("B"));
        QCOMPARE(p[2].statements, (std::vector<int>{10, 2}));
    }

    void bindingsCallTheStore()
    {
        auto store = fresh();
        auto fake = std::make_shared<FakeProvider>();
        fake->reply = QStringLiteral("Ramen is popular (because of 1, 2)");
        auto thread = std::make_shared<ThreadIndex>(
            ThreadIndex::load(QStringLiteral(HAKO_TEST_DATA_DIR "/memory/thread.json")).value());
        MemoryBindingOptions o;
        o.agent = QStringLiteral("mika");
        o.embeddingModel = QStringLiteral("fake-embed");
        o.chatModel = QStringLiteral("fake-chat");
        o.reflectionThreshold = 10;
        o.runId = QStringLiteral("run-9");
        const pdl::Value memory = makeMemoryBindings(store, fake, o, thread);
        QVERIFY(memory.isDict());
        for (const char* name : {"add", "retrieve", "recent", "reflect", "thread_context"})
            QVERIFY2(memory.asDict().find(name) && memory.asDict().find(name)->isCallable(), name);

        const pdl::Value a = call(memory, "add", {pdl::Value("the ramen queue was long")});
        const pdl::Value b = call(memory, "add", {pdl::Value("ramen broth is rich")},
                                  {{"importance", pdl::Value(8)}});
        call(memory, "add", {pdl::Value("tax forms are due in April")},
             {{"kind", pdl::Value("insight")}});
        QVERIFY(a.isInt() && b.isInt());
        QCOMPARE(store->get(b.asInt())->importanceSource, ImportanceSource::Model);
        QCOMPARE(store->get(a.asInt())->agent, QStringLiteral("mika"));

        const pdl::Value found = call(memory, "retrieve", {pdl::Value("ramen"), pdl::Value(2)});
        QCOMPARE(found.asList().size(), size_t(2));
        // Seed mode: the two ramen memories, oldest first.
        QCOMPARE(found.asList()[0].asDict().find("id")->asInt(), a.asInt());
        QCOMPARE(found.asList()[1].asDict().find("id")->asInt(), b.asInt());
        QVERIFY(found.asList()[0].asDict().find("score")->isFloat());
        QCOMPARE(store->retrievals()->front().runId, QStringLiteral("run-9"));

        const pdl::Value recent = call(memory, "recent", {pdl::Value(2)});
        QCOMPARE(recent.asList().size(), size_t(2));
        QCOMPARE(recent.asList()[1].asDict().find("text")->asString(),
                 std::string("tax forms are due in April"));

        const pdl::Value refl = call(memory, "reflect");
        QCOMPARE(refl.asList().size(), size_t(1));
        QCOMPARE(refl.asList()[0].asDict().find("kind")->asString(), std::string("reflection"));

        const pdl::Value chain = call(memory, "thread_context", {pdl::Value("32411")});
        QCOMPARE(chain.asList().size(), size_t(3));
        QCOMPARE(chain.asList()[2].asDict().find("author")->asString(), std::string("mika"));

        QVERIFY_THROWS_EXCEPTION(pdl::EvalError, call(memory, "retrieve", {pdl::Value("x")},
                                                      {{"mode", pdl::Value("best")}}));
        QVERIFY_THROWS_EXCEPTION(pdl::EvalError,
                                 call(memory, "thread_context", {pdl::Value("fffff")}));
        QVERIFY_THROWS_EXCEPTION(pdl::EvalError, call(memory, "add", {pdl::Value(3)}));
    }
};

QTEST_GUILESS_MAIN(TestMemoryAgent)
#include "tst_memoryagent.moc"
