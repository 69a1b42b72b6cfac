// The `doc` object a PDL program calls: the same outputs and costs as the command line.
#include "core/docs/docbindings.h"
#include "core/docs/documentbuiltindocs.h"
#include "core/docs/documentsession.h"
#include "core/pdl/lang/builtindocs.h"

#include <QTest>

using namespace hako;
using namespace hako::docs;

class TestDocBindings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void callablesRunCommands()
    {
        auto doc = std::make_shared<Document>(
            QStringLiteral("もうじき白鳥の停車場だねえ。\nああ、十一時かっきりには着くんだよ。\n"));
        auto session = std::make_shared<DocumentSession>(DocumentIndex::build(doc));
        const pdl::Value bindings = makeDocumentBindings(session);
        QVERIFY(bindings.isDict());
        auto call = [&](const char* name, pdl::CallArgs args) {
            const pdl::Value* fn = bindings.asDict().find(name);
            if (!fn || !fn->isCallable())
                return pdl::Value::undefined(name);
            return fn->asCallable()->call(args);
        };
        pdl::CallArgs search;
        search.positional = {pdl::Value("白鳥"), pdl::Value("停車場")};
        QCOMPARE(call("search", search).asString(),
                 std::string("line1: もうじき**白鳥**の**停車場**だねえ。……\n[page1/1]"));
        pdl::CallArgs show;
        show.positional = {pdl::Value(2), pdl::Value("1-1")};
        QCOMPARE(call("show", show).asString(),
                 std::string("line2: ああ、十一時かっきりには着くんだよ。\nline1: "
                             "もうじき白鳥の停車場だねえ。"));
        pdl::CallArgs paged;
        paged.positional = {pdl::Value("白鳥")};
        paged.keyword = {{"page", pdl::Value(2)}};
        QCOMPARE(call("search", paged).asString(), std::string("No page 2 (1 pages)."));
        pdl::CallArgs answer;
        answer.positional = {pdl::Value("十一時")};
        QCOMPARE(call("answer", answer).asString(), std::string("Answer recorded."));
        QCOMPARE(call("cost", {}).asInt(), 5 + 2 + 5 + 1);
        QCOMPARE(session->transcript().size(), 4);
        QCOMPARE(session->answer(), QStringLiteral("十一時"));
        pdl::CallArgs runArgs;
        runArgs.positional = {pdl::Value("show 9")};
        QCOMPARE(call("run", runArgs).asString(), std::string("line9: Not found."));
        QVERIFY_THROWS_EXCEPTION(pdl::EvalError, call("run", {}));
    }

    void submittedAndLast()
    {
        auto doc = std::make_shared<Document>(QStringLiteral("一行目\n二行目\n"));
        auto session = std::make_shared<DocumentSession>(DocumentIndex::build(doc));
        const pdl::Value bindings = makeDocumentBindings(session);
        auto call = [&](const char* name, pdl::CallArgs args = {}) {
            return bindings.asDict().find(name)->asCallable()->call(args);
        };
        QVERIFY(call("submitted").isNull());
        QVERIFY(call("last").isNull());
        // A model's whole reply: the command comes from its code block.
        pdl::CallArgs reply;
        reply.positional = {pdl::Value("Memo: looking\n```\nshow 1-2\n```\n")};
        QCOMPARE(call("run", reply).asString(), std::string("line1: 一行目\nline2: 二行目"));
        const pdl::Value last = call("last");
        QVERIFY(last.isDict());
        QCOMPARE(last.asDict().find("input")->asString(), std::string("show 1-2"));
        QCOMPARE(last.asDict().find("cost")->asInt(), 2);
        QCOMPARE(last.asDict().find("total_cost")->asInt(), 2);
        pdl::CallArgs answer;
        answer.positional = {pdl::Value("二行目")};
        call("answer", answer);
        QCOMPARE(call("submitted").asString(), std::string("二行目"));
        QCOMPARE(call("last").asDict().find("total_cost")->asInt(), 3);
    }

    void everyFunctionHasHoverDocs()
    {
        pdl::BuiltinDocs::add(documentBuiltinDocs());
        auto doc = std::make_shared<Document>(QStringLiteral("x\n"));
        const pdl::Value bindings =
            makeDocumentBindings(std::make_shared<DocumentSession>(DocumentIndex::build(doc)));
        QVERIFY(pdl::BuiltinDocs::find(QStringLiteral("doc")));
        int functions = 0;
        for (const auto& [key, value] : bindings.asDict()) {
            const QString name = QStringLiteral("doc.") + QString::fromStdString(key.asString());
            const pdl::BuiltinDoc* d = pdl::BuiltinDocs::find(name);
            QVERIFY2(d, qPrintable(name));
            QVERIFY(d->signature.startsWith(name + QLatin1Char('(')));
            QVERIFY(!d->summary.isEmpty());
            QCOMPARE(d->area, QStringLiteral("documents"));
            ++functions;
        }
        // Every documented function exists too.
        QCOMPARE(documentBuiltinDocs().size(), functions + 1);
        QCOMPARE(pdl::BuiltinDocs::withPrefix(QStringLiteral("doc.")).size(), functions);
    }
};

QTEST_GUILESS_MAIN(TestDocBindings)
#include "tst_docbindings.moc"
