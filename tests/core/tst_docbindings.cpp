// The `doc` object a PDL program calls: the same outputs and costs as the command line.
#include "core/docs/docbindings.h"
#include "core/docs/documentsession.h"

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
};

QTEST_GUILESS_MAIN(TestDocBindings)
#include "tst_docbindings.moc"
