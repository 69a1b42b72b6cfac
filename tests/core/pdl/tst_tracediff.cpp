// TraceDiff: the alignment of two traces (insertions and deletions as such, changes only where
// the outcome differs, timings never), the prompt diff message by message, the reports (the
// word diffs themselves are tested in tests/core/util/tst_worddiff), a real run against a fork
// with one edited model block, and the item model over a diff.
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/trace/tracediff.h"
#include "core/pdl/trace/tracediffmodel.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracemodel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace hako;
using namespace hako::pdl;

namespace {

TracePtr leaf(BlockKind kind, const std::string& id, const std::string& result,
              const std::string& def = {}, int line = 0)
{
    auto n = std::make_shared<TraceNode>();
    n->kind = kind;
    n->id = id;
    n->def = def;
    n->result = Value(result);
    n->hasResult = true;
    n->span.line = line;
    n->span.column = 3;
    n->startNanos = 1000;
    n->endNanos = 2000;
    return n;
}

TracePtr textOf(std::vector<TracePtr> children)
{
    auto n = std::make_shared<TraceNode>();
    n->kind = BlockKind::Text;
    n->id = "text";
    std::string joined;
    for (TracePtr& c : children) {
        joined += c->result.toText();
        n->addChild("text", std::move(c));
    }
    n->result = Value(joined);
    n->hasResult = true;
    n->startNanos = 100;
    n->endNanos = 5000;
    n->isLeaf = false;
    return n;
}

// The statuses of the root's children, as "s" (same), "c", "+", "-" in row order.
QString childStatuses(const TraceDiff& diff, int row = 0)
{
    QString s;
    for (int c : diff.node(row).children) {
        switch (diff.node(c).status) {
        case TraceDiff::Status::Same:
            s += QLatin1Char('s');
            break;
        case TraceDiff::Status::Changed:
            s += QLatin1Char('c');
            break;
        case TraceDiff::Status::Inserted:
            s += QLatin1Char('+');
            break;
        case TraceDiff::Status::Deleted:
            s += QLatin1Char('-');
            break;
        }
    }
    return s;
}

TracePtr load(const QString& path)
{
    Result<TraceLoadResult> r = readTraceFile(path);
    if (!r.ok())
        return nullptr;
    return r->root;
}

RunResult runProgram(const QString& path)
{
    RunOptions o;
    o.trace = true;
    Interpreter interp(std::move(o));
    return interp.runFile(path);
}

void writeFile(const QString& path, const QByteArray& content)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}

} // namespace

class TestTraceDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // --- alignment ----------------------------------------------------------------------------

    void identicalTracesAreSame()
    {
        auto make = [] {
            return textOf({leaf(BlockKind::Data, "text.0.data", "a"),
                           leaf(BlockKind::Model, "text.1.model", "b", "answer"),
                           leaf(BlockKind::Data, "text.2.data", "c")});
        };
        const TraceDiff d = TraceDiff::compare(make(), make());
        QVERIFY(d.isSame());
        QCOMPARE(d.counts().same, 4);
        QCOMPARE(childStatuses(d), QStringLiteral("sss"));
        QVERIFY(!d.node(0).differs());
    }

    void timingsAreIgnored()
    {
        TracePtr a = textOf({leaf(BlockKind::Model, "m", "x")});
        TracePtr b = textOf({leaf(BlockKind::Model, "m", "x")});
        b->endNanos = 9'000'000'100;
        b->children[0].nodes[0]->startNanos = 5;
        b->children[0].nodes[0]->endNanos = 2'000'000'005;
        Dict u;
        u.set("prompt_tokens", Value(int64_t(10)));
        u.set("completion_tokens", Value(int64_t(5)));
        b->children[0].nodes[0]->usage = Value(u);
        const TraceDiff d = TraceDiff::compare(a, b);
        QVERIFY(d.isSame());
        const TraceDiff::Node& m = d.node(d.node(0).children[0]);
        QCOMPARE(m.leftOwn.durationNanos, int64_t(1000));
        QCOMPARE(m.rightOwn.durationNanos, int64_t(2'000'000'000));
        QVERIFY(m.rightOwn.hasTokens);
        QCOMPARE(d.node(0).rightSubtree.tokens(), int64_t(15));
        QCOMPARE(d.node(0).leftSubtree.tokens(), int64_t(0));
        QVERIFY(d.report(QStringLiteral("a"), QStringLiteral("b"))
                    .contains(QStringLiteral("tokens: 0 → 15 (+15)")));
    }

    void insertionShowsAsInsertion()
    {
        TracePtr a = textOf({leaf(BlockKind::Data, "text.0.data", "a", {}, 2),
                             leaf(BlockKind::Model, "text.1.model", "b", {}, 3),
                             leaf(BlockKind::Data, "text.2.data", "c", {}, 5)});
        TracePtr b = textOf({leaf(BlockKind::Data, "text.0.data", "a", {}, 2),
                             leaf(BlockKind::Code, "text.1.code", "new", {}, 3),
                             leaf(BlockKind::Model, "text.2.model", "b", {}, 4),
                             leaf(BlockKind::Data, "text.3.data", "c", {}, 6)});
        const TraceDiff d = TraceDiff::compare(a, b);
        QCOMPARE(childStatuses(d), QStringLiteral("s+ss"));
        QCOMPARE(d.counts().inserted, 1);
        QCOMPARE(d.counts().deleted, 0);
        QCOMPARE(d.node(0).status, TraceDiff::Status::Changed); // its text grew
        const TraceDiff::Node& ins = d.node(d.node(0).children[1]);
        QVERIFY(!ins.left);
        QCOMPARE(ins.right->id, std::string("text.1.code"));
        QCOMPARE(ins.path, QStringLiteral("text.1.code"));
    }

    void deletionShowsAsDeletion()
    {
        TracePtr a = textOf({leaf(BlockKind::Data, "x", "1"), leaf(BlockKind::Data, "y", "2"),
                             leaf(BlockKind::Data, "z", "3")});
        TracePtr b = textOf({leaf(BlockKind::Data, "x", "1"), leaf(BlockKind::Data, "z", "3")});
        const TraceDiff d = TraceDiff::compare(a, b);
        QCOMPARE(childStatuses(d), QStringLiteral("s-s"));
        QCOMPARE(d.counts().deleted, 1);
    }

    void changeIsOneChangeNotACascade()
    {
        // Same shape, one result differs: a change, not delete + insert; the loop's other
        // iterations (all alike in kind and source) stay matched to their own counterparts.
        std::vector<TracePtr> ca, cb;
        for (int i = 0; i < 50; ++i) {
            ca.push_back(leaf(BlockKind::Model, "m" + std::to_string(i), std::to_string(i), {}, 4));
            cb.push_back(leaf(BlockKind::Model, "m" + std::to_string(i),
                              i == 20 ? std::string("twenty") : std::to_string(i), {}, 4));
        }
        const TraceDiff d = TraceDiff::compare(textOf(std::move(ca)), textOf(std::move(cb)));
        QString expected(50, QLatin1Char('s'));
        expected[20] = QLatin1Char('c');
        QCOMPARE(childStatuses(d), expected);
        const int row = d.node(0).children[20];
        QCOMPARE(d.node(row).changes, uint32_t(TraceDiff::ResultChanged));
        QCOMPARE(formatWordDiff(d.resultDiff(row)), QStringLiteral("[-20-]{+twenty+}"));
    }

    void insertedIterationInALoop()
    {
        std::vector<TracePtr> ca, cb;
        for (int i = 0; i < 10; ++i)
            ca.push_back(leaf(BlockKind::Data, "d", std::to_string(i), {}, 4));
        for (int i = 0; i < 10; ++i) {
            cb.push_back(leaf(BlockKind::Data, "d", std::to_string(i), {}, 4));
            if (i == 6)
                cb.push_back(leaf(BlockKind::Data, "d", "extra", {}, 4));
        }
        const TraceDiff d = TraceDiff::compare(textOf(std::move(ca)), textOf(std::move(cb)));
        QCOMPARE(childStatuses(d), QStringLiteral("sssssss+sss"));
    }

    void kindChangeIsDeleteAndInsert()
    {
        TracePtr a = textOf({leaf(BlockKind::Data, "x", "1")});
        TracePtr b = textOf({leaf(BlockKind::Code, "x", "1")});
        const TraceDiff d = TraceDiff::compare(a, b);
        QCOMPARE(childStatuses(d), QStringLiteral("-+"));
    }

    void defsAlignByName()
    {
        TracePtr a = textOf({leaf(BlockKind::Data, "t", "x")});
        TracePtr b = textOf({leaf(BlockKind::Data, "t", "x")});
        a->defs.emplace_back("first", leaf(BlockKind::Data, "", "1"));
        a->defs.emplace_back("second", leaf(BlockKind::Data, "", "2"));
        b->defs.emplace_back("second", leaf(BlockKind::Data, "", "2!"));
        const TraceDiff d = TraceDiff::compare(a, b);
        QCOMPARE(childStatuses(d), QStringLiteral("-cs"));
        QCOMPARE(d.node(d.node(0).children[1]).path, QStringLiteral("text.defs.second"));
    }

    void promptDiffMessageByMessage()
    {
        auto model = [](const std::vector<std::pair<std::string, std::string>>& messages) {
            TracePtr m = leaf(BlockKind::Model, "text.0.model", "reply");
            List input;
            for (const auto& [role, content] : messages)
                input.push_back(
                    Value(Dict{{Value("role"), Value(role)}, {Value("content"), Value(content)}}));
            m->modelInput = Value(std::move(input));
            return textOf({m});
        };
        const TraceDiff d = TraceDiff::compare(
            model({{"system", "Be brief."}, {"user", "Name a red fruit."}}),
            model({{"system", "Be brief."}, {"user", "Name a green fruit."}, {"user", "Thanks"}}));
        const int row = d.node(0).children[0];
        QCOMPARE(d.node(row).status, TraceDiff::Status::Changed);
        QCOMPARE(d.node(row).changes, uint32_t(TraceDiff::PromptChanged));
        const std::vector<MessageDiff> m = d.promptDiff(row);
        QCOMPARE(m.size(), size_t(3));
        QCOMPARE(m[0].status, MessageDiff::Status::Same);
        QCOMPARE(m[1].status, MessageDiff::Status::Changed);
        QCOMPARE(formatWordDiff(m[1].words), QStringLiteral("Name a [-red-]{+green+} fruit."));
        QCOMPARE(m[2].status, MessageDiff::Status::Inserted);
        QCOMPARE(m[2].role, QStringLiteral("user"));
        const QString report = d.report(QStringLiteral("a"), QStringLiteral("b"));
        QVERIFY2(report.contains(
                     QStringLiteral("message 2 (user) changed: Name a [-red-]{+green+} fruit.")),
                 qPrintable(report));
    }

    void reportsAndJson()
    {
        TracePtr a = textOf({leaf(BlockKind::Data, "text.0.data", "Hello brave world", {}, 7)});
        TracePtr b = textOf({leaf(BlockKind::Data, "text.0.data", "Hello new world", {}, 7)});
        const TraceDiff d = TraceDiff::compare(a, b);
        const QString report = d.report(QStringLiteral("a.json"), QStringLiteral("b.json"));
        QVERIFY2(report.contains(QStringLiteral("~ text.0.data (data) line 7: result\n"
                                                "    result: Hello [-brave-]{+new+} world\n")),
                 qPrintable(report));
        QVERIFY(report.contains(QStringLiteral("2 changed, 0 inserted, 0 deleted, 0 same")));
        QVERIFY(report.contains(QStringLiteral("the runs differ")));
        const QJsonObject json = d.toJson(QStringLiteral("a.json"), QStringLiteral("b.json"));
        QCOMPARE(json[QStringLiteral("same")].toBool(), false);
        const QJsonArray differences = json[QStringLiteral("differences")].toArray();
        QCOMPARE(differences.size(), 2);
        const QJsonObject child = differences[1].toObject();
        QCOMPARE(child[QStringLiteral("path")].toString(), QStringLiteral("text.0.data"));
        QCOMPARE(child[QStringLiteral("status")].toString(), QStringLiteral("changed"));
        QCOMPARE(child[QStringLiteral("right_line")].toInt(), 7);
        QCOMPARE(child[QStringLiteral("result_diff")].toArray().size(), 4);
    }

    void codeOutputAndExpressions()
    {
        TracePtr a = textOf({leaf(BlockKind::Code, "text.0.code", "0")});
        TracePtr b = textOf({leaf(BlockKind::Code, "text.0.code", "0")});
        a->children[0].nodes[0]->out = "printed one line\n";
        b->children[0].nodes[0]->out = "printed two lines\n";
        a->children[0].nodes[0]->exprs.emplace_back("lang", Value("python"));
        b->children[0].nodes[0]->exprs.emplace_back("lang", Value("command"));
        const TraceDiff d = TraceDiff::compare(a, b);
        const int row = d.node(0).children[0];
        QCOMPARE(d.node(row).changes,
                 uint32_t(TraceDiff::OutputChanged | TraceDiff::ExpressionsChanged));
        QCOMPARE(formatWordDiff(d.outputDiff(row)),
                 QStringLiteral("printed [-one line-]{+two lines+}\n"));
        const QString report = d.report(QStringLiteral("a"), QStringLiteral("b"));
        QVERIFY2(report.contains(QStringLiteral("    lang: \"python\" → \"command\"\n")),
                 qPrintable(report));
        QVERIFY(
            report.contains(QStringLiteral("    output: printed [-one line-]{+two lines+}\\n")));
        // The root's own outcome (its result) is the same: only the code block differs.
        QCOMPARE(d.node(0).status, TraceDiff::Status::Same);
        QVERIFY(d.node(0).descendantsDiffer);
    }

    void nullSides()
    {
        const TraceDiff d = TraceDiff::compare(nullptr, textOf({leaf(BlockKind::Data, "x", "1")}));
        QCOMPARE(d.counts().inserted, 2);
        QVERIFY(!d.isSame());
        QVERIFY(TraceDiff::compare(nullptr, nullptr).isEmpty());
    }

    // --- real traces --------------------------------------------------------------------------

    void realTraceAgainstItself_data()
    {
        QTest::addColumn<QString>("path");
        for (const char* name : {"data/traces/reference-demo.trace.json",
                                 "data/traces/ibm-demo4.json", "data/traces/ibm-demo9.json",
                                 "conformance/pdl/traces/examples/tutorial/for.trace.json"})
            QTest::newRow(name) << QStringLiteral(HAKO_SHARED_DIR "/") + QLatin1String(name);
    }

    void realTraceAgainstItself()
    {
        QFETCH(QString, path);
        if (!QFile::exists(path))
            QSKIP(qPrintable(QStringLiteral("%1 is not there (shared corpus absent)").arg(path)));
        TracePtr a = load(path);
        TracePtr b = load(path);
        QVERIFY(a && b);
        const TraceDiff d = TraceDiff::compare(a, b);
        QVERIFY(d.isSame());
        QVERIFY(d.counts().same > 1);
    }

    void twoDifferentRealTraces()
    {
        const QString dir =
            QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl/traces/examples/tutorial/");
        const QString a = dir + QStringLiteral("for.trace.json");
        const QString b = dir + QStringLiteral("for_array.trace.json");
        if (!QFile::exists(a) || !QFile::exists(b))
            QSKIP("shared conformance traces absent");
        const TraceDiff d = TraceDiff::compare(load(a), load(b));
        QVERIFY(!d.isSame());
        // Every row is exactly one of the four.
        const TraceDiff::Counts& c = d.counts();
        QCOMPARE(c.same + c.changed + c.inserted + c.deleted, d.size());
        QVERIFY(!d.report(a, b).isEmpty());
    }

    void runAgainstForkWithOneEditedModelBlock()
    {
        // A program of three model blocks (mock replies) where each sees the context so far; the
        // fork edits the second block's reply. Exactly that block changes (its result), the third
        // (its prompt now holds the new reply) and the enclosing text; the first and the plain
        // data blocks stay the same.
        QTemporaryDir dir;
        const QByteArray original = "description: fork demo\n"
                                    "text:\n"
                                    "- \"Question: name a fruit.\\n\"\n"
                                    "- model: none/echo\n"
                                    "  def: first\n"
                                    "  parameters: {mock_response: 'An apple.'}\n"
                                    "- \"\\n\"\n"
                                    "- model: none/echo\n"
                                    "  def: second\n"
                                    "  parameters: {mock_response: 'A red apple.'}\n"
                                    "- \"\\n\"\n"
                                    "- model: none/echo\n"
                                    "  def: third\n"
                                    "  parameters: {mock_response: 'Done.'}\n";
        QByteArray fork = original;
        fork.replace("A red apple.", "A green apple.");
        writeFile(dir.filePath(QStringLiteral("run.pdl")), original);
        writeFile(dir.filePath(QStringLiteral("fork.pdl")), fork);
        const RunResult a = runProgram(dir.filePath(QStringLiteral("run.pdl")));
        const RunResult b = runProgram(dir.filePath(QStringLiteral("fork.pdl")));
        QVERIFY2(a.ok, qPrintable(a.error.message));
        QVERIFY2(b.ok, qPrintable(b.error.message));
        QVERIFY(a.trace && b.trace);

        const TraceDiff d = TraceDiff::compare(a.trace, b.trace);
        QVERIFY(!d.isSame());
        QCOMPARE(d.counts().inserted, 0);
        QCOMPARE(d.counts().deleted, 0);
        std::set<std::string> changed;
        for (const TraceDiff::Node& n : d.nodes())
            if (n.status == TraceDiff::Status::Changed)
                changed.insert(n.right->def.empty() ? n.right->id : n.right->def);
        QCOMPARE(changed, (std::set<std::string>{"second", "third", b.trace->id}));
        for (const TraceDiff::Node& n : d.nodes()) {
            if (n.status != TraceDiff::Status::Changed)
                continue;
            if (n.right->def == "second") {
                QCOMPARE(n.changes & TraceDiff::ResultChanged, uint32_t(TraceDiff::ResultChanged));
                QCOMPARE(formatWordDiff(d.resultDiff(d.rowOfRight(n.right))),
                         QStringLiteral("A [-red-]{+green+} apple."));
                const std::vector<ExpressionDiff> e = d.expressionDiff(d.rowOfRight(n.right));
                QCOMPARE(e.size(), size_t(1));
                QCOMPARE(e[0].name, QStringLiteral("parameters"));
                QVERIFY(e[0].right.contains(QStringLiteral("A green apple.")));
            }
            if (n.right->def == "third") {
                QCOMPARE(n.changes & TraceDiff::ResultChanged, 0u);
                QCOMPARE(n.changes & TraceDiff::PromptChanged, uint32_t(TraceDiff::PromptChanged));
            }
        }

        // Written and read back, the same comparison holds.
        const RunResult again = runProgram(dir.filePath(QStringLiteral("run.pdl")));
        QVERIFY(TraceDiff::compare(a.trace, again.trace).isSame());
    }

    void fromTraceModelItems()
    {
        TracePtr a = textOf({leaf(BlockKind::Data, "text.0.data", "a"),
                             leaf(BlockKind::Model, "text.1.model", "b", "answer")});
        a->defs.emplace_back("x", leaf(BlockKind::Data, "", "1", "x"));
        TraceModel model;
        model.setTrace(a);
        TracePtr copy = traceFromItems(model.root());
        QVERIFY(copy);
        QVERIFY(TraceDiff::compare(a, copy).isSame());
        QVERIFY(!traceFromItems(nullptr));
    }

    // --- the item model -------------------------------------------------------------------------

    void model()
    {
        TraceDiffModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        TracePtr a = textOf({leaf(BlockKind::Data, "x", "1"), leaf(BlockKind::Data, "y", "2")});
        TracePtr b = textOf({leaf(BlockKind::Data, "x", "1"), leaf(BlockKind::Code, "n", "new"),
                             leaf(BlockKind::Data, "y", "two")});
        auto diff = std::make_shared<TraceDiff>(TraceDiff::compare(a, b));
        model.setDiff(diff, QStringLiteral("a.json"), QStringLiteral("b.json"));
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex root = model.index(0, 0);
        QCOMPARE(model.rowCount(root), 3);
        const QModelIndex inserted = model.index(1, TraceDiffModel::LeftNameColumn, root);
        QCOMPARE(inserted.data().toString(), QString());
        QCOMPARE(model.index(1, TraceDiffModel::RightNameColumn, root).data().toString(),
                 QStringLiteral("code"));
        QCOMPARE(inserted.data(TraceDiffModel::StatusRole).toInt(),
                 int(TraceDiff::Status::Inserted));
        const QModelIndex changed = model.index(2, TraceDiffModel::StatusColumn, root);
        QCOMPARE(changed.data().toString(), QStringLiteral("changed: result"));
        QCOMPARE(model.index(2, TraceDiffModel::RightResultColumn, root).data().toString(),
                 QStringLiteral("two"));
        const int row = model.diffRow(changed);
        QCOMPARE(model.indexOfDiffRow(row, TraceDiffModel::StatusColumn), changed);
        QCOMPARE(model.parent(changed), root);
        QCOMPARE(model.headerData(TraceDiffModel::LeftNameColumn, Qt::Horizontal).toString(),
                 QStringLiteral("a.json"));
        model.setDiff(std::make_shared<TraceDiff>(TraceDiff::compare(b, a)));
        QCOMPARE(model.rowCount(model.index(0, 0)), 3);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestTraceDiff)
#include "tst_tracediff.moc"
