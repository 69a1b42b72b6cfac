// The `memory` and `thread` objects as a program sees them: inside a run, each retrieval and
// change records the pdl__id of the block that made it; thread.load/context/get/messages;
// merge and accumulated; the hover documentation covers every function.
#include "core/memory/hashembedding.h"
#include "core/memory/memorybindings.h"
#include "core/memory/memorydocs.h"
#include "core/memory/memorystore.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/interp/tracenode.h"
#include "core/pdl/lang/builtindocs.h"
#include "core/pdl/parser/programparser.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace hako;
using namespace hako::memory;

namespace {

pdl::Value call(const pdl::Value& object, const char* name, pdl::List positional = {},
                std::vector<std::pair<std::string, pdl::Value>> kw = {})
{
    pdl::CallArgs a;
    a.positional = std::move(positional);
    a.keyword = std::move(kw);
    return object.asDict().find(name)->asCallable()->call(a);
}

void collectIds(const pdl::TraceNode& n, std::map<std::string, pdl::BlockKind>& out)
{
    out[n.id] = n.kind;
    for (const auto& c : n.children)
        for (const auto& child : c.nodes)
            if (child)
                collectIds(*child, out);
    for (const auto& d : n.defs)
        if (d.second)
            collectIds(*d.second, out);
}

const QString kThread = QStringLiteral(HAKO_TEST_DATA_DIR "/memory/thread.json");

// Runs `program` with the agent's memory and thread bound, traced or not.
pdl::RunResult runWithAgent(const QByteArray& program, const AgentBindings& b, bool trace)
{
    pdl::ParseResult parsed = pdl::parseProgramText(program, QStringLiteral("agent.pdl"));
    if (!parsed.ok())
        qFatal("the test's program does not parse");
    pdl::RunOptions ro;
    ro.trace = trace;
    ro.initialScope.set("memory", b.memory);
    ro.initialScope.set("thread", b.thread);
    pdl::Interpreter interp(ro);
    return interp.run(parsed.program);
}

} // namespace

class TestMemoryBindings : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;
    std::shared_ptr<MemoryStore> fresh()
    {
        return MemoryStore::open(m_dir.filePath(QStringLiteral("b%1.hakomem").arg(++m_n))).value();
    }
    AgentBindings bindings(std::shared_ptr<MemoryStore> store, MemoryBindingOptions o = {})
    {
        return makeAgentBindings(std::move(store), std::make_shared<HashFallbackProvider>(nullptr),
                                 std::move(o));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void runsRecordTheCallingBlock()
    {
        auto store = fresh();
        MemoryBindingOptions o;
        o.runId = QStringLiteral("run-42");
        o.nodeId = QStringLiteral("outside");
        const AgentBindings b = bindings(store, o);
        const QByteArray program = "text:\n"
                                   "- def: first\n"
                                   "  data: ${ memory.add('the ramen broth was rich') }\n"
                                   "- lastOf:\n"
                                   "  - \"x\"\n"
                                   "  - def: found\n"
                                   "    data: ${ memory.retrieve('ramen broth', 3) }\n"
                                   "- ${ found[0].text }\n";
        const pdl::RunResult r = runWithAgent(program, b, true);
        QVERIFY2(r.ok, qPrintable(r.error.message));
        QVERIFY(QString::fromStdString(r.result.toText()).endsWith(u"the ramen broth was rich"));
        QVERIFY(r.trace);
        std::map<std::string, pdl::BlockKind> ids;
        collectIds(*r.trace, ids);

        const auto added = store->get(1).value();
        // The first child of the top-level text block, as the reference numbers it.
        QCOMPARE(added.source.nodeId, QStringLiteral("text.0.data"));
        QCOMPARE(added.source.runId, QStringLiteral("run-42"));
        const auto adds = store->journal(1, -1, QStringLiteral("add")).value();
        QCOMPARE(adds.size(), size_t(1));
        QCOMPARE(adds[0].nodeId, QStringLiteral("text.0.data"));

        const auto retrievals = store->retrievals().value();
        QCOMPARE(retrievals.size(), size_t(1));
        const std::string node = retrievals[0].nodeId.toStdString();
        // Nested inside lastOf: a data block of this run's trace, not the enclosing block.
        QVERIFY2(ids.count(node) && ids[node] == pdl::BlockKind::Data, node.c_str());
        QVERIFY(node != "text.0.data" && node.find("lastOf") != std::string::npos);
        QCOMPARE(retrievals[0].runId, QStringLiteral("run-42"));
        // The access update of the retrieved memory names the same node.
        const auto access = store->journal(1, -1, QStringLiteral("access")).value();
        QVERIFY(!access.empty());
        QCOMPARE(access.back().nodeId.toStdString(), node);

        // Called outside any run: the options' node id.
        call(b.memory, "add", {pdl::Value("outside the run")});
        QCOMPARE(store->get(2)->source.nodeId, QStringLiteral("outside"));
        QVERIFY(pdl::currentBlockId().empty());
    }

    void untracedRunsRecordTheBlocksATraceNames()
    {
        // Untraced, a data block that only makes its value runs without a frame of its own;
        // the block a memory call names is still the one the traced run has.
        const QByteArray program = "text:\n"
                                   "- ${ memory.add('first') }\n"
                                   "- repeat:\n"
                                   "    text: \"${ memory.add('again ' ~ i) }\"\n"
                                   "  index: i\n"
                                   "  maxIterations: 2\n"
                                   "- lastOf:\n"
                                   "  - ${ memory.add('last') }\n"
                                   "- text: \"${ memory.add('single') }\"\n"
                                   "- array:\n"
                                   "  - data: ${ memory.add('in an array') }\n"
                                   "- if: ${ true }\n"
                                   "  then: ${ memory.add('then') }\n"
                                   "- defs:\n"
                                   "    f:\n"
                                   "      function: {x: integer}\n"
                                   "      return: ${ memory.add('in a function ' ~ x) }\n"
                                   "  call: ${ f }\n"
                                   "  args: {x: 1}\n";
        auto runRecording = [&](bool trace, std::map<std::string, pdl::BlockKind>* ids) {
            auto store = fresh();
            const pdl::RunResult r = runWithAgent(program, bindings(store), trace);
            if (!r.ok)
                qFatal("run failed: %s", qPrintable(r.error.message));
            if (ids)
                collectIds(*r.trace, *ids);
            QStringList nodes;
            for (const auto& e : store->journal(0, -1, QStringLiteral("add")).value())
                nodes.append(e.nodeId);
            return nodes;
        };
        std::map<std::string, pdl::BlockKind> traced;
        const QStringList withTrace = runRecording(true, &traced);
        const QStringList without = runRecording(false, nullptr);
        QCOMPARE(withTrace.size(), 8);
        QCOMPARE(without, withTrace);
        for (const QString& node : withTrace) {
            const std::string id = node.toStdString();
            QVERIFY2(traced.count(id) && traced[id] == pdl::BlockKind::Data, id.c_str());
        }
        QVERIFY(pdl::currentBlockId().empty());
    }

    void threadObject()
    {
        MemoryBindingOptions o;
        o.baseDir = QFileInfo(kThread).absolutePath();
        const AgentBindings b = bindings(fresh(), o);
        QCOMPARE(call(b.thread, "messages").asList().size(), size_t(0));
        QVERIFY_THROWS_EXCEPTION(pdl::EvalError, call(b.thread, "context", {pdl::Value("8938b")}));
        // Relative to the program's folder.
        QCOMPARE(call(b.thread, "load", {pdl::Value("thread.json")}).asInt(), int64_t(7));
        const pdl::Value chain = call(b.thread, "context", {pdl::Value("8938b")});
        QStringList got;
        for (const pdl::Value& m : chain.asList())
            got.append(QString::fromStdString(m.asDict().find("id")->asString()));
        // Never the sibling branches 1a2b3/4c4c4 or 77777.
        QCOMPARE(got, (QStringList{"cbddc", "fa950", "32411", "8938b"}));
        QCOMPARE(chain.asList()[1].asDict().find("author")->asString(), std::string("jun"));
        QCOMPARE(chain.asList()[3].asDict().find("path")->asList().size(), size_t(4));
        // memory.thread_context shares the loaded thread.
        QCOMPARE(call(b.memory, "thread_context", {pdl::Value("4c4c4")}).asList().size(),
                 size_t(3));
        QCOMPARE(call(b.thread, "get", {pdl::Value("1a2b3")}).asDict().find("text")->asString(),
                 std::string("Is it vegetarian friendly?"));
        QVERIFY_THROWS_EXCEPTION(pdl::EvalError, call(b.thread, "get", {pdl::Value("abcde")}));
        QVERIFY_THROWS_EXCEPTION(pdl::EvalError,
                                 call(b.thread, "load", {pdl::Value("no-such-thread.json")}));
        QCOMPARE(call(b.thread, "messages").asList().size(), size_t(7)); // still loaded
    }

    void addRecordsSourceMessages()
    {
        auto store = fresh();
        const AgentBindings b = bindings(store);
        call(b.thread, "load", {pdl::Value(kThread.toStdString())});
        pdl::List msgs{pdl::Value("8938b")};
        const int64_t id =
            call(b.memory, "add", {pdl::Value("jun waited forty minutes")},
                 {{"kind", pdl::Value("insight")}, {"messages", pdl::Value(std::move(msgs))}})
                .asInt();
        const MemoryRecord r = store->get(id).value();
        QCOMPARE(r.source.messageIds, QStringList{"8938b"});
        QCOMPARE(r.source.threadId, QStringLiteral("cbddc")); // the root post
        QCOMPARE(r.kind, Kind::Insight);
    }

    void mergeAndAccumulated()
    {
        auto store = fresh();
        const AgentBindings b = bindings(store);
        const int64_t a =
            call(b.memory, "add", {pdl::Value("a")}, {{"importance", pdl::Value(4)}}).asInt();
        const int64_t c =
            call(b.memory, "add", {pdl::Value("c")}, {{"importance", pdl::Value(7)}}).asInt();
        QCOMPARE(call(b.memory, "accumulated").asInt(), int64_t(11));
        pdl::List ids{pdl::Value(a), pdl::Value(c)};
        const int64_t m = call(b.memory, "merge", {pdl::Value(ids), pdl::Value("a and c")}).asInt();
        const MemoryRecord merged = store->get(m).value();
        QCOMPARE(merged.kind, Kind::Reflection);
        QCOMPARE(merged.importance, 7); // the highest of the originals
        QCOMPARE(merged.evidence, (std::vector<int64_t>{a, c}));
        QCOMPARE(store->get(a)->state, State::Archived);
        QCOMPARE(store->get(c)->state, State::Archived);
        // A reflection resets the accumulator.
        QCOMPARE(call(b.memory, "accumulated").asInt(), int64_t(0));
        // Merging archived memories again is refused.
        QVERIFY_THROWS_EXCEPTION(pdl::EvalError,
                                 call(b.memory, "merge", {pdl::Value(ids), pdl::Value("again")}));
        QVERIFY_THROWS_EXCEPTION(
            pdl::EvalError,
            call(b.memory, "merge", {pdl::Value(pdl::List{}), pdl::Value("nothing")}));
    }

    void reflectNeedsAModel()
    {
        const AgentBindings b = bindings(fresh());
        call(b.memory, "add", {pdl::Value("x")});
        // Forced, with neither options.chatModel nor `model`: a message, not a crash.
        QVERIFY_THROWS_EXCEPTION(pdl::EvalError, call(b.memory, "reflect", {pdl::Value(true)}));
    }

    void everyFunctionIsDocumented()
    {
        pdl::BuiltinDocs::add(memoryBuiltinDocs());
        const AgentBindings b = bindings(fresh());
        int checked = 0;
        const std::pair<const char*, pdl::Value> objects[] = {{"memory", b.memory},
                                                              {"thread", b.thread}};
        for (const auto& [object, value] : objects) {
            QVERIFY(pdl::BuiltinDocs::find(QString::fromLatin1(object)));
            for (const auto& [name, fn] : value.asDict()) {
                QVERIFY(fn.isCallable());
                const QString full =
                    QString::fromLatin1(object) + u'.' + QString::fromStdString(name.toText());
                const pdl::BuiltinDoc* doc = pdl::BuiltinDocs::find(full);
                QVERIFY2(doc, qPrintable(full));
                QCOMPARE(doc->area, QStringLiteral("memory"));
                QVERIFY2(doc->signature.startsWith(full + u'('), qPrintable(doc->signature));
                QVERIFY(!doc->summary.isEmpty());
                ++checked;
            }
        }
        QCOMPARE(checked, 11); // seven memory.* and four thread.* functions
        // And nothing documented that a program cannot call.
        for (const pdl::BuiltinDoc& d : memoryBuiltinDocs()) {
            const QStringList parts = d.name.split(u'.');
            if (parts.size() != 2)
                continue;
            const pdl::Value& object = parts[0] == u"memory" ? b.memory : b.thread;
            QVERIFY2(object.asDict().find(parts[1].toStdString()), qPrintable(d.name));
        }
    }

    void hashFallbackRoutesEmbeddings()
    {
        HashFallbackProvider alone(nullptr);
        auto v = alone.embed("hash", {"ramen"}, {});
        QVERIFY(v.ok());
        QCOMPARE(v->front(), HashEmbeddingProvider::embedText(QStringLiteral("ramen")));
        QVERIFY(!alone.embed("nomic-embed-text", {"ramen"}, {}).ok());
        QVERIFY(alone.listModels({})->contains(QStringLiteral("hash")));
    }
};

QTEST_GUILESS_MAIN(TestMemoryBindings)
#include "tst_memorybindings.moc"
