#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <map>

using namespace hako::pdl;
using hako::Diagnostic;

namespace {

QStringList messages(const ParseResult& r)
{
    QStringList out;
    for (const Diagnostic& d : r.diagnostics)
        out << d.toString();
    return out;
}

const Block* child(const Program& p, int i)
{
    auto* text = p.root->as<TextBlock>();
    return text && i < int(text->children.size()) ? text->children[i].get() : nullptr;
}

QString str(const Value& v)
{
    return QString::fromStdString(v.str());
}

} // namespace

class TstPdlParser : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyKindParses()
    {
        const QString path = QStringLiteral(HAKO_TEST_DATA_DIR "/pdl/all_kinds.pdl");
        ParseResult r = parseProgram(path);
        QVERIFY2(r.ok(), qPrintable(messages(r).join('\n')));
        QVERIFY(r.program);
        const Program& p = *r.program;
        QCOMPARE(p.root->kind, BlockKind::Text);
        QCOMPARE(p.root->description.value_or(""), std::string("every block kind"));

        // defs: an import, a function, an aggregator, in order.
        QCOMPARE(p.root->defs.size(), size_t(3));
        QCOMPARE(p.root->defs[0].first, std::string("lib"));
        QCOMPARE(p.root->defs[0].second->as<ImportBlock>()->import, std::string("helpers"));
        auto* fn = p.root->defs[1].second->as<FunctionBlock>();
        QVERIFY(fn);
        QCOMPARE(fn->params.size(), size_t(2));
        QCOMPARE(fn->params[1].first, std::string("y"));
        QVERIFY(fn->returns->as<DataBlock>());
        auto* agg = p.root->defs[2].second->as<AggregatorBlock>();
        QVERIFY(agg && !agg->isContext);
        QCOMPARE(str(agg->file.value), QString("out.txt"));

        const std::vector<BlockKind> kinds = {
            BlockKind::Model,   BlockKind::Read,   BlockKind::LastOf,   BlockKind::Array,
            BlockKind::Object,  BlockKind::Object, BlockKind::Sequence, BlockKind::Get,
            BlockKind::Message, BlockKind::If,     BlockKind::Match,    BlockKind::Repeat,
            BlockKind::Map,     BlockKind::Call,   BlockKind::Code,     BlockKind::Args,
            BlockKind::Include, BlockKind::Data,   BlockKind::Empty,    BlockKind::Data};
        auto* text = p.root->as<TextBlock>();
        QCOMPARE(text->children.size(), kinds.size());
        for (size_t i = 0; i < kinds.size(); ++i)
            QCOMPARE(int(text->children[i]->kind), int(kinds[i]));

        auto* model = child(p, 0)->as<ModelBlock>();
        QCOMPARE(str(model->model.value), QString("ollama/granite"));
        QCOMPARE(model->model.span.line, 15);
        QCOMPARE(model->model.span.column, 10);
        QCOMPARE(model->model.span.endColumn, 23);
        QCOMPARE(model->span.line, 15);
        QCOMPARE(model->span.column, 3);
        QCOMPARE(model->span.endLine, 19);
        QVERIFY(model->input->as<DataBlock>());
        QCOMPARE(str(model->parameters.value), QString("{'temperature': 0}"));
        QCOMPARE(model->modelResponse.value_or(""), std::string("raw"));
        QCOMPARE(model->fieldSpan("parameters").line, 17);

        auto* read = child(p, 1)->as<ReadBlock>();
        QVERIFY(read->multiline);
        QCOMPARE(read->message.value_or(""), std::string("File? "));

        QVERIFY(!child(p, 4)->as<ObjectBlock>()->listForm);
        QCOMPARE(child(p, 4)->as<ObjectBlock>()->fields[0].first, std::string("k"));
        QVERIFY(child(p, 5)->as<ObjectBlock>()->listForm);
        QCOMPARE(int(child(p, 6)->as<SequenceBlock>()->join.as), int(JoinSpec::As::Array));
        QCOMPARE(child(p, 8)->role.value_or(""), std::string("system"));

        auto* iff = child(p, 9)->as<IfBlock>();
        QVERIFY(iff->then && iff->elseBlock);

        auto* match = child(p, 10)->as<MatchBlock>();
        QCOMPARE(match->cases.size(), size_t(4));
        QCOMPARE(int(match->cases[0].pattern->kind), int(Pattern::Kind::Literal));
        QCOMPARE(int(match->cases[1].pattern->kind), int(Pattern::Kind::Any));
        QCOMPARE(match->cases[1].pattern->def.value_or(""), std::string("n"));
        QVERIFY(match->cases[1].guard);
        QCOMPARE(int(match->cases[2].pattern->kind), int(Pattern::Kind::AnyOf));
        QCOMPARE(int(match->cases[2].pattern->items[0].kind), int(Pattern::Kind::Array));
        QCOMPARE(int(match->cases[2].pattern->items[1].kind), int(Pattern::Kind::Object));
        QVERIFY(!match->cases[3].pattern);

        auto* rep = child(p, 11)->as<RepeatBlock>();
        QCOMPARE(rep->forVars.size(), size_t(1));
        QCOMPARE(str(rep->forVars[0].second.value), QString("[1, 2, 3]"));
        QCOMPARE(rep->index.value_or(""), std::string("idx"));
        QVERIFY(rep->whileCond && rep->until);
        QCOMPARE(rep->maxIterations.value.asInt(), int64_t(5));
        QCOMPARE(str(rep->join.with.value), QString(", "));

        auto* map = child(p, 12)->as<MapBlock>();
        QCOMPARE(map->maxWorkers.value.asInt(), int64_t(2));
        QCOMPARE(int(map->join.as), int(JoinSpec::As::Reduce));
        QVERIFY(map->join.reduce);

        QCOMPARE(str(child(p, 13)->as<CallBlock>()->args.value), QString("{'x': 1, 'y': 2}"));
        QCOMPARE(int(child(p, 14)->as<CodeBlock>()->lang), int(CodeBlock::Lang::Jinja));
        QCOMPARE(child(p, 15)->as<ArgsBlock>()->args.size(), size_t(2));
        QCOMPARE(child(p, 16)->as<IncludeBlock>()->include, std::string("other.pdl"));

        const Block* data = child(p, 17);
        QVERIFY(data->as<DataBlock>()->raw);
        QCOMPARE(data->def.value_or(""), std::string("d"));
        QCOMPARE(data->contribute->size(), size_t(3));
        QCOMPARE((*data->contribute)[1].name, std::string("context"));
        QCOMPARE(str((*data->contribute)[1].value.value), QString("['m']"));
        QCOMPARE((*data->contribute)[2].name, std::string("agg"));
        QCOMPARE(int(data->parser.kind), int(ParserSpec::Kind::Regex));
        QCOMPARE(data->parser.mode, std::string("search"));
        QCOMPARE(data->retry.tries.value.asInt(), int64_t(3));
        QCOMPARE(data->retry.exceptions, std::vector<std::string>{"ValueError"});
        QVERIFY(data->traceErrorOnRetry);
        QVERIFY(data->fallback);
        QCOMPARE(str(*data->spec), QString("str"));

        auto* scalar = child(p, 19)->as<DataBlock>();
        QCOMPARE(scalar->data.value.asInt(), int64_t(42));
        QCOMPARE(scalar->span.line, 90);
        QCOMPARE(scalar->span.column, 3);
    }

    void kindDetection_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("kind");
        QTest::newRow("scalar") << QByteArray("hello") << int(BlockKind::Data);
        QTest::newRow("null") << QByteArray("~") << int(BlockKind::Data);
        QTest::newRow("explicit kind wins")
            << QByteArray("kind: data\ndata: 1\n") << int(BlockKind::Data);
        QTest::newRow("content is a message")
            << QByteArray("content: hi\nrole: user\n") << int(BlockKind::Message);
        QTest::newRow("empty with defs") << QByteArray("defs: {x: 1}\n") << int(BlockKind::Empty);
        QTest::newRow("code args form")
            << QByteArray("kind: code\nargs: [ls]\n") << int(BlockKind::Args);
        QTest::newRow("call before args")
            << QByteArray("args: {x: 1}\ncall: ${ f }\n") << int(BlockKind::Call);
        QTest::newRow("aggregator")
            << QByteArray("aggregator: context\n") << int(BlockKind::Aggregator);
        QTest::newRow("error trace")
            << QByteArray("kind: error\nmsg: boom\nprogram: {data: 1}\n") << int(BlockKind::Error);
    }

    void kindDetection()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, kind);
        ParseResult r = parseProgramText(text, "k.pdl");
        QVERIFY2(r.ok(), qPrintable(messages(r).join('\n')));
        QCOMPARE(int(r.program->root->kind), kind);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("unknown field with suggestion")
            << QByteArray("repeat: hi\nnum_iterations: 3\n")
            << QStringList{"p.pdl:2:1: error: field 'num_iterations' is not allowed in a repeat "
                           "block (did you mean 'maxIterations'?)"};
        QTest::newRow("unknown field without suggestion")
            << QByteArray("text: hi\nshow_result: false\n")
            << QStringList{"p.pdl:2:1: error: field 'show_result' is not allowed in a text "
                           "block; to give the program a value named 'show_result', put it "
                           "under 'defs:'"};
        // A model block's field that lost its indentation says where it belongs.
        QTest::newRow("field of another block kind")
            << QByteArray("text:\n- model: ollama/x\ninput: hi\n")
            << QStringList{"p.pdl:3:1: error: field 'input' is not allowed in a text block; "
                           "'input' is a field of model blocks: if it belongs to the block "
                           "above, indent it to line up with that block's other fields"};
        // Two swapped letters are one edit: the misspelling is named in both errors.
        QTest::newRow("swapped letters")
            << QByteArray("text:\n- modle: ollama/x\n  input: hi\n")
            << QStringList{"p.pdl:2:3: error: a model block needs a 'model' field (is 'modle' "
                           "meant to be 'model'?)",
                           "p.pdl:2:3: error: field 'modle' is not allowed in a model block (did "
                           "you mean 'model'?)"};
        QTest::newRow("typo of a kind keyword")
            << QByteArray("texts: hi\n")
            << QStringList{"p.pdl:1:1: error: field 'texts' is not allowed in an empty block "
                           "(did you mean 'text'?)"};
        QTest::newRow("kind guessed from its fields")
            << QByteArray("lang: python\ncodea: x = 1\n")
            << QStringList{"p.pdl:1:1: error: a code block needs a 'code' field (is 'codea' "
                           "meant to be 'code'?)",
                           "p.pdl:2:1: error: field 'codea' is not allowed in a code block (did "
                           "you mean 'code'?)"};
        QTest::newRow("missing then")
            << QByteArray("if: ${ x }\n")
            << QStringList{"p.pdl:1:1: error: an if block needs a 'then' field"};
        QTest::newRow("explicit kind without its field")
            << QByteArray("kind: call\nargs: {}\n")
            << QStringList{"p.pdl:1:1: error: a call block needs a 'call' field"};
        QTest::newRow("maxIterations string")
            << QByteArray("repeat: x\nmaxIterations: \"x\"\n")
            << QStringList{"p.pdl:2:16: error: field 'maxIterations' of a repeat block must be "
                           "an integer or a ${ } expression, not the string \"x\""};
        QTest::newRow("list as a block")
            << QByteArray("if: true\nthen: [a, b]\n")
            << QStringList{"p.pdl:2:7: error: a list is not a block here; wrap it in 'text:', "
                           "'lastOf:' or 'array:'"};
        QTest::newRow("top-level list")
            << QByteArray("- a\n- b\n")
            << QStringList{"p.pdl:1:1: error: a list is not a block here; wrap it in 'text:', "
                           "'lastOf:' or 'array:'"};
        QTest::newRow("defs not a mapping")
            << QByteArray("data: 1\ndefs: QUESTION\n")
            << QStringList{"p.pdl:2:7: error: field 'defs' must be a mapping from variable names "
                           "to blocks, not a string"};
        QTest::newRow("contribute target")
            << QByteArray("data: 1\ncontribute: [result, {context: 3}]\n")
            << QStringList{"p.pdl:2:32: error: a contribute target 'context' takes {value: …}, "
                           "not an integer"};
        QTest::newRow("parser mode")
            << QByteArray("data: 1\nparser: {regex: a, mode: grep}\n")
            << QStringList{"p.pdl:2:26: error: parser mode must be search, match, fullmatch, "
                           "split or findall"};
        QTest::newRow("retry field")
            << QByteArray("data: 1\nretry: {tries: 2, wait: 1}\n")
            << QStringList{"p.pdl:2:19: error: field 'wait' is not allowed in 'retry' (allowed: "
                           "tries, exceptions, delay, backoff, max_delay, jitter)"};
        QTest::newRow("join as")
            << QByteArray("repeat: x\njoin: {as: set}\n")
            << QStringList{"p.pdl:2:12: error: join 'as' must be text, array, object, lastOf or "
                           "reduce"};
        QTest::newRow("join with on array")
            << QByteArray("repeat: x\njoin: {as: array, with: ','}\n")
            << QStringList{"p.pdl:2:19: error: field 'with' is not allowed in a join as array"};
        QTest::newRow("for not a mapping")
            << QByteArray("for: x\nrepeat: y\n")
            << QStringList{"p.pdl:1:6: error: field 'for' must be a mapping from loop variables "
                           "to lists, not a string"};
        QTest::newRow("unknown kind") << QByteArray("kind: loop\n")
                                      << QStringList{"p.pdl:1:7: error: unknown block kind 'loop'"};
        QTest::newRow("lang")
            << QByteArray("lang: ruby\ncode: x\n")
            << QStringList{"p.pdl:1:7: error: field 'lang' must be python, ipython, command, "
                           "jinja or pdl, not 'ruby'"};
        QTest::newRow("match case")
            << QByteArray("match: 1\nwith:\n- case: {some: 1}\n  then: x\n- case: 2\n")
            << QStringList{"p.pdl:3:9: error: a mapping pattern needs one of any, array, object "
                           "or anyOf",
                           "p.pdl:3:10: error: field 'some' is not allowed in a pattern (use "
                           "any, array, object, anyOf and def)",
                           "p.pdl:5:3: error: a match case needs a 'then' field"};
        QTest::newRow("yaml syntax")
            << QByteArray("text: [a,\n")
            << QStringList{"p.pdl:2:1: error: YAML syntax error: end of sequence flow not found"};
    }

    void errors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, expected);
        ParseResult r = parseProgramText(text, "p.pdl");
        QCOMPARE(messages(r), expected);
        QVERIFY(!r.ok());
    }

    void allErrorsInOnePass()
    {
        ParseResult r = parseProgram(QStringLiteral(HAKO_TEST_DATA_DIR "/pdl/many_errors.pdl"));
        QStringList got;
        for (const Diagnostic& d : r.diagnostics)
            got << QStringLiteral("%1:%2: %3").arg(d.span.line).arg(d.span.column).arg(d.message);
        const QStringList expected = {
            "4:3: field 'num_iterations' is not allowed in a repeat block (did you mean "
            "'maxIterations'?)",
            "6:9: field 'args' of a call block must be a mapping of arguments or an expression, "
            "not a list",
            "7:3: a code block needs a 'code' field (is 'codea' meant to be 'code'?)",
            "8:3: field 'codea' is not allowed in a code block (did you mean 'code'?)",
            "10:24: invalid contribute target: expected result, context, stdout, stderr, an "
            "aggregator name or {target: {value: …}}, not an integer",
            "11:11: unknown parser 'xml': use json, jsonl, yaml, csv, {regex: …} or {pdl: …}",
            "12:10: field 'retry' must be a number of tries or {tries, exceptions, delay, "
            "backoff, max_delay, jitter}, not a string",
            "13:12: field 'context' must be 'dependent' or 'independent', not 'sideways'",
            "14:8: field 'for' must be a mapping from loop variables to lists, not a list",
            "16:18: field 'maxIterations' of a repeat block must be an integer or a ${ } "
            "expression, not the string \"x\"",
            "19:11: join 'with' must be a string, not an integer",
            "20:3: a list is not a block here; wrap it in 'text:', 'lastOf:' or 'array:'",
            "21:3: an if block needs a 'then' field",
        };
        QCOMPARE(got, expected);
        QVERIFY(r.program); // the rest of the program is still there for the editor
    }

    void traceFieldsAccepted()
    {
        const QByteArray text =
            "kind: repeat\npdl__id: repeat\npdl__result: ab\npdl__is_leaf: false\n"
            "pdl__timing: {start_nanos: 1, end_nanos: 2, timezone: UTC}\n"
            "for: {pdl__expr: {x: '${ xs }'}, pdl__result: {x: [a, b]}}\n"
            "maxIterations: {pdl__expr: '${ n }', pdl__result: 2}\n"
            "repeat: '${ x }'\npdl__trace: [a, b]\nresult: ab\ntrace: []\n"
            "requirements: []\nexpectations: []\ncontext: [{role: user, content: hi}]\n";
        ParseResult r = parseProgramText(text, "t.json");
        QVERIFY2(r.ok(), qPrintable(messages(r).join('\n')));
        auto* rep = r.program->root->as<RepeatBlock>();
        QVERIFY(rep);
        QCOMPARE(rep->forVars.size(), size_t(1));
        QCOMPARE(str(rep->forVars[0].second.value), QString("${ xs }"));
        QCOMPARE(str(rep->maxIterations.value), QString("${ n }"));
    }

    void expressionHookSeesEveryExpression()
    {
        std::vector<std::pair<std::string, int>> seen;
        ParseOptions options;
        options.checkExpression = [&](const std::string& src, const hako::SourceSpan& span,
                                      std::vector<Diagnostic>& out) {
            seen.emplace_back(src, span.line);
            if (src.find("${ (") != std::string::npos)
                out.push_back(hako::makeError("unbalanced parenthesis", span));
        };
        ParseResult r = parseProgramText("text:\n- ${ a }\n- if: ${ (b }\n  then: c\n"
                                         "- data: {k: '${ d }'}\n  raw: true\n",
                                         "h.pdl", options);
        QCOMPARE(messages(r), QStringList{"h.pdl:3:7: error: unbalanced parenthesis"});
        QCOMPARE(seen.size(), size_t(3)); // raw data is not an expression
        QCOMPARE(seen[0], std::make_pair(std::string("${ a }"), 2));
        QCOMPARE(seen[1].first, std::string("${ (b }"));
        QCOMPARE(seen[2], std::make_pair(std::string("c"), 4));
    }

    void conformancePrograms()
    {
        const QString root = QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl/programs");
        if (!QDir(root).exists())
            QSKIP("shared conformance corpus not present");
        // Programs the reference rejected before running for a structural reason (cases.json:
        // exit 1 with "Field not allowed" / "Missing required field" / "should be an object").
        const std::map<QString, QString> structural = {
            {"tests/data/line/hello.pdl", "'texts' is not a field"},
            {"tests/data/line/hello1.pdl", "'num_iterations' is not a repeat field"},
            {"tests/data/line/hello4.pdl", "'repeats' instead of 'repeat'"},
            {"tests/data/line/hello7.pdl", "'lans' instead of 'lang'"},
            {"tests/data/line/hello8.pdl", "'codea' instead of 'code'"},
            {"tests/data/line/hello10.pdl", "'defs' given a string"},
            {"tests/data/line/hello11.pdl", "'defss' instead of 'defs'"},
            {"tests/data/line/hello31.pdl", "'show_result' is not a field"},
        };
        // Every structural failure in cases.json must be in the list above.
        QFile casesFile(QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl/cases.json"));
        QVERIFY(casesFile.open(QIODevice::ReadOnly));
        int structuralCases = 0;
        for (const auto& c : QJsonDocument::fromJson(casesFile.readAll()).array()) {
            const QJsonObject o = c.toObject();
            const QString program = o["program"].toString();
            const QString stderrText = QJsonDocument(o["stderr"].toArray()).toJson();
            if (o["exit"].toInt() != 1 || !(stderrText.contains("Field not allowed") ||
                                            stderrText.contains("Missing required field") ||
                                            stderrText.contains("should be an object")))
                continue;
            ++structuralCases;
            QVERIFY2(structural.count(program), qPrintable(program));
            // Every line the reference names (> 0) has one of our errors on it.
            ParseResult r = parseProgram(root + "/" + program);
            QSet<int> ours;
            for (const Diagnostic& d : r.diagnostics)
                ours.insert(d.span.line);
            for (const auto& line : o["stderr"].toArray()) {
                const QStringList parts = line.toString().split(" - ").first().split(':');
                const int refLine = parts.value(1).toInt();
                if (refLine > 0)
                    QVERIFY2(ours.contains(refLine),
                             qPrintable(program + ": no error on line " + QString::number(refLine) +
                                        "\n" + messages(r).join('\n')));
            }
        }
        QCOMPARE(structuralCases, int(structural.size()));

        int parsed = 0;
        QDirIterator it(root, {"*.pdl"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString rel = QDir(root).relativeFilePath(path);
            ParseResult r = parseProgram(path);
            QVERIFY2(r.program, qPrintable(rel + ": " + messages(r).join('\n')));
            if (structural.count(rel))
                QVERIFY2(!r.ok(), qPrintable(rel + " should be rejected"));
            else
                QVERIFY2(r.ok(), qPrintable(messages(r).join('\n')));
            ++parsed;
        }
        QVERIFY(parsed >= 83);
        qInfo("parsed %d conformance programs, %d rejected as expected", parsed,
              int(structural.size()));
    }

    void tracesAreProgramsToo()
    {
        QStringList roots = {QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl/traces"),
                             QStringLiteral(HAKO_SHARED_DIR "/data/traces")};
        int count = 0;
        for (const QString& root : roots) {
            QDirIterator it(root, {"*.json"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                ParseResult r = parseProgram(path);
                QVERIFY2(r.ok(), qPrintable(path + "\n" + messages(r).join('\n')));
                ++count;
            }
        }
        if (count == 0)
            QSKIP("shared traces not present");
        qInfo("%d traces parsed as programs", count);
    }
};

QTEST_GUILESS_MAIN(TstPdlParser)
#include "tst_pdlparser.moc"
