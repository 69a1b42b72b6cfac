// Every deterministic evaluator on a table of cases (English and Japanese), and the string and
// JSON distances against Python's own computation (tests/tools/eval_distance_oracle.py).

#include "core/eval/evaluator.h"
#include "core/eval/textmetrics.h"
#include "core/eval/trajectory.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/trace/tracewriter.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace hako;
using namespace hako::eval;

namespace {

QJsonObject obj(const char* json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

QString python()
{
    if (QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
        return QStringLiteral("/usr/bin/python3");
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

} // namespace

class TestEvaluators : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& text)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return f.fileName();
    }

private Q_SLOTS:
    void pdlJudgePrograms_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("output");
        QTest::addColumn<double>("score");
        QTest::addColumn<bool>("error");
        QTest::addColumn<QString>("reasoningHas");
        QTest::newRow("Y/N") << QByteArray("text: \"${ 'Y' if output == reference else 'N' }\"\n")
                             << "東京" << 1.0 << false << "Y";
        QTest::newRow("N") << QByteArray("text: \"${ 'Y' if output == reference else 'N' }\"\n")
                           << "大阪" << 0.0 << false << "N";
        QTest::newRow("object")
            << QByteArray("data:\n  score: ${ (output | length) / 10 }\n  reason: by length\n")
            << "12345" << 0.5 << false << "by length";
        QTest::newRow("inputs") << QByteArray("data: ${ inputs.city == '東京' }\n") << "x" << 1.0
                                << false << "true";
        QTest::newRow("no score") << QByteArray("text: maybe\n") << "x" << 0.0 << true
                                  << "gave no score";
        QTest::newRow("fails") << QByteArray("text: ${ nope + 1 }\n") << "x" << 0.0 << true
                               << "judge program failed";
        // A score off the 0–1 scale is not a judgement: an error, never clamped into a pass.
        QTest::newRow("score 5") << QByteArray("data: 5\n") << "x" << 0.0 << true
                                 << "could not judge: score 5 is outside 0–1";
        QTest::newRow("score -1 in object") << QByteArray("data:\n  score: -1\n  reason: bad\n")
                                            << "x" << 0.0 << true << "score -1 is outside 0–1";
        QTest::newRow("score nan")
            << QByteArray("text: nan\n") << "x" << 0.0 << true << "score NaN is outside 0–1";
    }
    void pdlJudgePrograms()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, output);
        QFETCH(double, score);
        QFETCH(bool, error);
        QFETCH(QString, reasoningHas);
        EvaluatorSpec spec;
        spec.type = QStringLiteral("pdl");
        spec.options = {
            {QStringLiteral("program"), write(QStringLiteral("judge_%1.pdl")
                                                  .arg(QTest::currentDataTag())
                                                  .replace(QLatin1Char('/'), QLatin1Char('_')),
                                              program)}};
        auto e = createEvaluator(spec);
        QVERIFY2(e.ok(), e.ok() ? "" : qPrintable(e.error().message));
        EvalCase c;
        c.output = output;
        c.inputs = {{QStringLiteral("city"), QStringLiteral("東京")}};
        c.reference = QStringLiteral("東京");
        const Score s = (*e)->evaluate(c, {});
        QCOMPARE(s.error, error);
        QVERIFY2(qAbs(s.score - score) < 1e-9, qPrintable(s.reasoning));
        QVERIFY2(s.reasoning.contains(reasoningHas) || s.label == reasoningHas,
                 qPrintable(s.reasoning));
        QVERIFY(!(error && s.pass));
        // A program that does not parse is refused when the evaluator is made.
        spec.options = {{QStringLiteral("program"), write(QStringLiteral("bad.pdl"), "text: [\n")}};
        QVERIFY(!createEvaluator(spec).ok());
    }

    void trajectory_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<double>("score");
        QTest::newRow("in order") << R"({"steps": ["plan", "act"]})" << 1.0;
        QTest::newRow("kinds") << R"({"steps": ["model", "model:act"], "exact": true})" << 1.0;
        QTest::newRow("wrong order") << R"({"steps": ["act", "plan"]})" << 0.0;
        QTest::newRow("not exact") << R"({"steps": ["act"], "exact": true})" << 0.0;
        QTest::newRow("must run") << R"({"must_run": ["plan"], "must_not_run": ["cleanup"]})"
                                  << 1.0;
        QTest::newRow("limits") << R"({"max_model_calls": 1, "max_steps": 2})" << 0.5;
    }
    void trajectory()
    {
        QFETCH(QString, options);
        QFETCH(double, score);
        const QString program =
            write(QStringLiteral("agent.pdl"), "description: agent\ntext:\n"
                                               "- def: plan\n  model: openai/x\n"
                                               "  parameters: {mock_response: first}\n"
                                               "- def: act\n  model: openai/x\n"
                                               "  parameters: {mock_response: second}\n");
        hako::pdl::RunOptions o;
        o.trace = true;
        o.writeStdout = [](std::string_view) {
        };
        hako::pdl::Interpreter interpreter(o);
        hako::pdl::RunResult run = interpreter.runFile(program);
        QVERIFY2(run.ok, qPrintable(run.error.message));
        const QString tracePath = m_dir.filePath(QStringLiteral("agent_trace.json"));
        QString error;
        QVERIFY2(hako::pdl::writeTraceFile(*run.trace, tracePath, &error), qPrintable(error));
        Result<Trajectory> t = Trajectory::load(tracePath);
        QVERIFY(t.ok());
        QCOMPARE(t->modelCalls, 2);

        EvaluatorSpec spec;
        spec.type = QStringLiteral("trajectory");
        spec.options = obj(options.toUtf8().constData());
        auto e = createEvaluator(spec);
        QVERIFY2(e.ok(), e.ok() ? "" : qPrintable(e.error().message));
        EvalCase c;
        c.run.tracePath = tracePath;
        const Score s = (*e)->evaluate(c, {});
        QVERIFY2(!s.error, qPrintable(s.reasoning));
        QVERIFY2(qAbs(s.score - score) < 1e-9, qPrintable(s.reasoning));
        QCOMPARE(s.pass, score == 1.0);
        // Without a trace there is nothing to judge.
        c.run.tracePath.clear();
        QVERIFY((*e)->evaluate(c, {}).error);
    }

    void deterministic_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("options"); // JSON object
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("reference"); // JSON value; "" for none
        QTest::addColumn<double>("score");
        QTest::addColumn<bool>("pass");
        QTest::addColumn<QString>("reasoningHas");

        auto row = [](const char* name, const char* type, const char* options, const QString& out,
                      const QString& ref, double score, bool pass, const QString& why = {}) {
            QTest::newRow(name) << QString::fromLatin1(type) << QString::fromUtf8(options) << out
                                << ref << score << pass << why;
        };
        const QString none;
        row("exact", "exact_match", "{}", QStringLiteral(" Paris\n"), QStringLiteral("\"Paris\""),
            1, true);
        row("exact differs", "exact_match", "{}", QStringLiteral("paris"),
            QStringLiteral("\"Paris\""), 0, false, QStringLiteral("differs"));
        row("exact ignore case", "exact_match", R"({"ignore_case": true})", QStringLiteral("paris"),
            QStringLiteral("\"Paris\""), 1, true);
        row("exact ja", "exact_match", "{}", QStringLiteral("東京都"), QStringLiteral("\"東京都\""),
            1, true);
        row("exact no reference", "exact_match", "{}", QStringLiteral("x"), none, 0, false,
            QStringLiteral("no reference"));
        row("contains", "contains", R"({"value": "cat"})", QStringLiteral("a cat sat"), none, 1,
            true);
        row("contains case", "contains", R"({"value": "Cat"})", QStringLiteral("a cat sat"), none,
            0, false);
        row("icontains", "icontains", R"({"value": "Cat"})", QStringLiteral("a cat sat"), none, 1,
            true);
        row("contains ja", "contains", R"({"value": "猫"})", QStringLiteral("吾輩は猫である"), none,
            1, true);
        row("contains reference", "contains", "{}", QStringLiteral("The answer is 42."),
            QStringLiteral("\"42\""), 1, true);
        row("contains_any", "contains_any", R"({"values": ["dog", "猫"]})",
            QStringLiteral("吾輩は猫である"), none, 1, true);
        row("contains_any none", "contains_any", R"({"values": ["dog", "bird"]})",
            QStringLiteral("a cat"), none, 0, false, QStringLiteral("found none"));
        row("contains_all partial", "contains_all", R"({"values": ["a", "b", "c", "d"]})",
            QStringLiteral("a b"), none, 0.5, false, QStringLiteral("missing"));
        row("contains_all", "contains_all", R"({"values": ["東京", "大阪"]})",
            QStringLiteral("東京と大阪"), none, 1, true);
        row("icontains_all", "icontains-all", R"({"values": ["ABC", "def"]})",
            QStringLiteral("abc DEF"), none, 1, true);
        row("regex", "regex", R"({"pattern": "\\d{3}-\\d{4}"})", QStringLiteral("call 555-1234"),
            none, 1, true);
        row("regex no", "regex", R"({"pattern": "^\\d+$"})", QStringLiteral("12a"), none, 0, false);
        row("regex ja", "regex", R"({"pattern": "^[ぁ-ん]+$"})", QStringLiteral("ひらがな"), none,
            1, true);
        row("starts_with", "starts_with", R"({"value": "はい"})",
            QStringLiteral("  はい、そうです"), none, 1, true);
        row("starts_with no", "starts-with", R"({"value": "No"})", QStringLiteral("Yes"), none, 0,
            false);
        row("number exact", "number_within", "{}", QStringLiteral("3.14"), QStringLiteral("3.14"),
            1, true);
        row("number tolerance", "number_within", R"({"tolerance": 0.01})",
            QStringLiteral("The result is 3.145"), QStringLiteral("3.14"), 1, true);
        row("number off", "number_within", R"({"tolerance": 0.001})", QStringLiteral("3.2"),
            QStringLiteral("3.14"), 0, false, QStringLiteral("off by"));
        row("number commas", "number_within", R"({"value": 1234567})", QStringLiteral("1,234,567"),
            none, 1, true);
        row("number half up", "number_within", R"({"value": "2.35", "tolerance": 0})",
            QStringLiteral("約 2.35 です"), none, 1, true);
        row("number none", "number_within", R"({"value": 3})", QStringLiteral("three"), none, 0,
            false, QStringLiteral("no number"));
        row("is_json", "is_json", "{}", QStringLiteral("{\"a\": [1, 2]}"), none, 1, true);
        row("is_json fenced", "is_json", "{}", QStringLiteral("```json\n{\"a\": 1}\n```"), none, 1,
            true);
        row("is_json no", "is_json", "{}", QStringLiteral("{a: 1}"), none, 0, false,
            QStringLiteral("not JSON"));
        row("schema", "json_schema",
            R"({"schema": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}})",
            QStringLiteral("{\"name\": \"太郎\"}"), none, 1, true);
        row("schema wrong type", "json_schema",
            R"({"schema": {"type": "object", "properties": {"age": {"type": "integer"}}}})",
            QStringLiteral("{\"age\": \"3\"}"), none, 0, false, QStringLiteral("$.age"));
        row("json_equal order", "json_equal", "{}", QStringLiteral("{ \"b\": 2,\n \"a\": [1, 2] }"),
            QStringLiteral("{\"a\": [1, 2], \"b\": 2}"), 1, true);
        row("json_equal reference text", "json_equal", "{}", QStringLiteral("{\"a\":1}"),
            QStringLiteral("\"{\\\"a\\\": 1.0}\""), 1, true);
        row("json_equal differs", "json_equal", "{}", QStringLiteral("{\"a\": 2}"),
            QStringLiteral("{\"a\": 1}"), 0, false);
        row("json_equal not json", "json_equal", "{}", QStringLiteral("nope"),
            QStringLiteral("{\"a\": 1}"), 0, false, QStringLiteral("not JSON"));
        row("json_edit_distance same", "json_edit_distance", "{}",
            QStringLiteral("{\"b\":1, \"a\":2}"), QStringLiteral("{\"a\":2,\"b\":1}"), 1, true);
        row("json_edit_distance near", "json_edit_distance", "{}",
            QStringLiteral("{\"a\":\"abcd\"}"), QStringLiteral("{\"a\":\"abce\"}"), 1 - 1.0 / 12,
            true);
        row("levenshtein", "levenshtein", "{}", QStringLiteral("kitten"),
            QStringLiteral("\"sitting\""), 1 - 3.0 / 7, false, QStringLiteral("3 edits"));
        row("levenshtein ja", "levenshtein", "{}", QStringLiteral("東京都庁"),
            QStringLiteral("\"東京都\""), 0.75, false);
        row("levenshtein threshold", "levenshtein", "{}", QStringLiteral("東京都庁"),
            QStringLiteral("\"東京都\""), 0.75, false);
        row("length chars ja", "length_chars", R"({"min": 5, "max": 10})",
            QStringLiteral("日本語の文章です"), none, 1, true, QStringLiteral("8 characters"));
        row("length chars emoji", "length_chars", R"({"max": 2})", QStringLiteral("🙂🙂"), none,
            1, true);
        row("length width", "length_chars", R"({"max": 10, "east_asian_width": true})",
            QStringLiteral("日本語の文章です"), none, 0, false, QStringLiteral("16 columns"));
        row("length too short", "length_chars", R"({"min": 50, "max": 200})",
            QStringLiteral("短い"), none, 0, false, QStringLiteral("allowed 50–200"));
        row("length tokens", "length_tokens", R"({"max": 4})", QStringLiteral("hello world"), none,
            1, true, QStringLiteral("approximate"));
        row("length tokens ja", "length_tokens", R"({"max": 3})", QStringLiteral("こんにちは"),
            none, 0, false, QStringLiteral("5 tokens"));
    }
    void deterministic()
    {
        QFETCH(QString, type);
        QFETCH(QString, options);
        QFETCH(QString, output);
        QFETCH(QString, reference);
        QFETCH(double, score);
        QFETCH(bool, pass);
        QFETCH(QString, reasoningHas);

        EvaluatorSpec spec;
        spec.type = type;
        spec.options = obj(options.toUtf8().constData());
        auto evaluator = createEvaluator(spec);
        QVERIFY2(evaluator.ok(), evaluator.ok() ? "" : qPrintable(evaluator.error().message));
        EvalCase c;
        c.output = output;
        if (!reference.isEmpty()) {
            QJsonParseError error;
            c.reference =
                QJsonDocument::fromJson("[" + reference.toUtf8() + "]", &error).array().at(0);
            QCOMPARE(error.error, QJsonParseError::NoError);
        }
        const Score s = (*evaluator)->evaluate(c, {});
        QVERIFY2(
            qAbs(s.score - score) < 1e-9,
            qPrintable(QStringLiteral("score %1, reasoning: %2").arg(s.score).arg(s.reasoning)));
        QCOMPARE(s.pass, pass);
        QCOMPARE(s.evaluator, type);
        if (!reasoningHas.isEmpty())
            QVERIFY2(s.reasoning.contains(reasoningHas), qPrintable(s.reasoning));
    }

    void thresholdsDecidePass()
    {
        EvaluatorSpec spec;
        spec.type = QStringLiteral("levenshtein");
        spec.threshold = 0.5;
        auto e = createEvaluator(spec);
        QVERIFY(e.ok());
        EvalCase c;
        c.output = QStringLiteral("kitten");
        c.reference = QStringLiteral("sitting");
        QVERIFY((*e)->evaluate(c, {}).pass);
    }

    void budgets()
    {
        EvaluatorSpec latency{QStringLiteral("fast"),
                              QStringLiteral("latency"),
                              obj(R"({"max_ms": 100})"),
                              {},
                              {},
                              {}};
        EvaluatorSpec cost{
            QStringLiteral("cheap"), QStringLiteral("cost"), obj(R"({"max": 0.01})"), {}, {}, {}};
        auto l = createEvaluator(latency);
        auto c = createEvaluator(cost);
        QVERIFY(l.ok() && c.ok());
        EvalCase ec;
        ec.run.latencyMs = 50;
        QVERIFY((*l)->evaluate(ec, {}).pass);
        ec.run.latencyMs = 150;
        QVERIFY(!(*l)->evaluate(ec, {}).pass);
        // An unknown cost cannot pass a budget.
        const Score unknown = (*c)->evaluate(ec, {});
        QVERIFY(!unknown.pass);
        QVERIFY(unknown.error);
        ec.run.cost = 0.005;
        QVERIFY((*c)->evaluate(ec, {}).pass);
    }

    void badSpecsAreErrors_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown") << "bogus"
                                 << "{}"
                                 << "unknown type";
        QTest::newRow("regex") << "regex"
                               << "{\"pattern\": \"(\"}"
                               << "bad pattern";
        QTest::newRow("contains_any") << "contains_any"
                                      << "{}"
                                      << "needs `values`";
        QTest::newRow("schema") << "json_schema"
                                << R"({"schema": {"type": "nope"}})"
                                << "type";
        QTest::newRow("length") << "length_chars"
                                << "{}"
                                << "needs `min`";
        QTest::newRow("criteria without provider") << "criteria"
                                                   << R"({"criteria": "depth"})"
                                                   << "model provider";
    }
    // Numbers out of their range are refused when the evaluator is made, naming the evaluator,
    // the field and the range (`max: -3` read as "no limit" and passed everything).
    void outOfRangeSpecsAreRefused_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("options");
        QTest::addColumn<double>("threshold");
        QTest::addColumn<QString>("message");
        const double none = -1000; // no threshold given
        const double nan = std::nan("");
        QTest::newRow("threshold -3")
            << "exact_match"
            << "{}" << -3.0 << "`threshold` must be a number from 0 to 1 (it is -3)";
        QTest::newRow("threshold 1.5") << "levenshtein"
                                       << "{}" << 1.5 << "`threshold` must be a number from 0 to 1";
        QTest::newRow("threshold NaN") << "levenshtein"
                                       << "{}" << nan << "`threshold`";
        QTest::newRow("max -3") << "length_chars"
                                << R"({"max": -3})" << none
                                << "`max` must be a whole number of 0 or more (it is -3)";
        QTest::newRow("min 1.5") << "length_chars"
                                 << R"({"min": 1.5})" << none << "`min`";
        QTest::newRow("max text") << "length_tokens"
                                  << R"({"max": "ten"})" << none
                                  << "`max` must be a whole number of 0 or more (it is \"ten\")";
        QTest::newRow("max below min")
            << "length"
            << R"({"min": 10, "max": 5})" << none << "`max` (5) is below `min` (10)";
        QTest::newRow("latency") << "latency"
                                 << R"({"max_ms": -1})" << none << "`max_ms`";
        QTest::newRow("cost") << "cost"
                              << R"({"max": -0.5})" << none << "`max`";
        QTest::newRow("tolerance") << "number_within"
                                   << R"({"tolerance": -1})" << none << "`tolerance`";
    }
    void outOfRangeSpecsAreRefused()
    {
        QFETCH(QString, type);
        QFETCH(QString, options);
        QFETCH(double, threshold);
        QFETCH(QString, message);
        EvaluatorSpec spec;
        spec.name = QStringLiteral("my-check");
        spec.type = type;
        spec.options = obj(options.toUtf8().constData());
        if (threshold != -1000)
            spec.threshold = threshold;
        auto e = createEvaluator(spec);
        QVERIFY(!e.ok());
        QVERIFY2(
            e.error().message.startsWith(QStringLiteral("evaluator my-check (%1): ").arg(type)),
            qPrintable(e.error().message));
        QVERIFY2(e.error().message.contains(message), qPrintable(e.error().message));
        // The aggregate requirements likewise.
        EvaluatorSpec aggregate;
        aggregate.type = QStringLiteral("is_json");
        aggregate.minPassRate = 2;
        QVERIFY(!createEvaluator(aggregate).ok());
        aggregate.minPassRate.reset();
        aggregate.minScore = -0.1;
        QVERIFY(!createEvaluator(aggregate).ok());
        aggregate.minScore = 0.9;
        QVERIFY(createEvaluator(aggregate).ok());
    }

    // Whatever the evaluator, a score off 0–1 or NaN is "could not judge", never a pass.
    void outOfRangeScoresNeverPass()
    {
        for (const double bad :
             {5.0, -0.5, std::nan(""), std::numeric_limits<double>::infinity()}) {
            Score s;
            s.score = bad;
            s.pass = true;
            s.reasoning = QStringLiteral("the judge said so");
            const Score checked = checkedScore(s);
            QVERIFY(checked.error);
            QVERIFY(!checked.pass);
            QVERIFY2(checked.reasoning.startsWith(QLatin1String("could not judge: score ")),
                     qPrintable(checked.reasoning));
            QVERIFY(checked.reasoning.contains(QLatin1String("the judge said so")));
        }
        Score fine;
        fine.score = 0.25;
        QVERIFY(!checkedScore(fine).error);
    }

    void badSpecsAreErrors()
    {
        QFETCH(QString, type);
        QFETCH(QString, options);
        QFETCH(QString, message);
        EvaluatorSpec spec;
        spec.type = type;
        spec.options = obj(options.toUtf8().constData());
        auto e = createEvaluator(spec);
        QVERIFY(!e.ok());
        QVERIFY2(e.error().message.contains(message), qPrintable(e.error().message));
    }

    void textMetrics()
    {
        QCOMPARE(codePointCount(QStringLiteral("a🙂b")), 3);
        QCOMPARE(eastAsianWidth(QStringLiteral("abｱ漢")), 2 + 1 + 2);
        QCOMPARE(levenshtein(QStringLiteral("🙂"), QStringLiteral("🙃")), 1);
        QCOMPARE(canonicalJson(obj(R"({"b": [1, 2.5, "x\n"], "a": null, "あ": true})")),
                 QStringLiteral("{\"a\":null,\"b\":[1,2.5,\"x\\n\"],\"あ\":true}"));
    }

    // The bit-parallel Levenshtein against the textbook dynamic programme on random strings:
    // lengths across the 64-character blocks, small alphabets (many matches), characters
    // beyond the BMP.
    void levenshteinMatchesReferenceDp()
    {
        QRandomGenerator random(2026);
        const QList<QStringList> alphabets{
            {"a", "b"},
            {"a", "b", "c", "d", "e"},
            {QStringLiteral("東"), QStringLiteral("京"), QStringLiteral("🙂"), "x"}};
        auto randomText = [&](const QStringList& alphabet, int length) {
            QString out;
            for (int i = 0; i < length; ++i)
                out += alphabet.at(int(random.bounded(alphabet.size())));
            return out;
        };
        auto reference = [](const QString& x, const QString& y) {
            const QList<uint> a = x.toUcs4(), b = y.toUcs4();
            std::vector<int> row(size_t(b.size()) + 1);
            for (size_t j = 0; j < row.size(); ++j)
                row[j] = int(j);
            for (qsizetype i = 1; i <= a.size(); ++i) {
                int diagonal = row[0];
                row[0] = int(i);
                for (qsizetype j = 1; j <= b.size(); ++j) {
                    const int above = row[size_t(j)];
                    row[size_t(j)] = std::min({above + 1, row[size_t(j) - 1] + 1,
                                               diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
                    diagonal = above;
                }
            }
            return row.back();
        };
        for (int n = 0; n < 600; ++n) {
            const QStringList& alphabet = alphabets.at(n % alphabets.size());
            const int maxLength = n < 500 ? 200 : 1500;
            const QString a = randomText(alphabet, int(random.bounded(maxLength)));
            // Half the pairs are close (a few edits apart), half unrelated.
            QString b = randomText(alphabet, int(random.bounded(maxLength)));
            if (n % 2 && !a.isEmpty()) {
                b = a;
                for (int k = int(random.bounded(5)); k > 0 && !b.isEmpty(); --k)
                    b.remove(int(random.bounded(b.size())), 1);
                b.insert(int(random.bounded(b.size() + 1)), QStringLiteral("z"));
            }
            if (levenshtein(a, b) != reference(a, b))
                QFAIL(qPrintable(QStringLiteral("%1 vs %2: %3, reference %4")
                                     .arg(a.left(80), b.left(80))
                                     .arg(levenshtein(a, b))
                                     .arg(reference(a, b))));
        }
    }

    // Huge outputs are compared on their first kMaxEditDistanceChars characters, and the
    // reasoning says so (200,000 characters took 142 s before).
    void longTextsAreBoundedAndSaySo()
    {
        QString output(200000, QLatin1Char('a'));
        QString reference = output;
        reference[150000] = QLatin1Char('b'); // beyond the bound: not seen
        reference[10] = QLatin1Char('c');
        EvaluatorSpec spec;
        spec.type = QStringLiteral("levenshtein");
        auto e = createEvaluator(spec);
        QVERIFY(e.ok());
        EvalCase c;
        c.output = output;
        c.reference = reference;
        const Score s = (*e)->evaluate(c, {});
        QVERIFY(!s.error);
        QVERIFY2(s.reasoning.startsWith(QLatin1String("1 edits")), qPrintable(s.reasoning));
        QVERIFY2(s.reasoning.contains(QLatin1String("only the first")), qPrintable(s.reasoning));
        // Within the bound the reasoning says nothing of it.
        c.output = QStringLiteral("kitten");
        c.reference = QStringLiteral("sitting");
        QVERIFY(!(*e)->evaluate(c, {}).reasoning.contains(QLatin1String("only the first")));
        bool cut = false;
        QCOMPARE(firstCodePoints(QStringLiteral("a🙂b"), 2, &cut), QStringLiteral("a🙂"));
        QVERIFY(cut);
    }

    // Levenshtein and JSON edit distance against Python's computation of the same definitions.
    void distancesAgainstPython()
    {
        const QString py = python();
        if (py.isEmpty())
            QSKIP("python3 not found");
        QProcess process;
        process.start(py, {QStringLiteral(HAKO_SOURCE_DIR "/tests/tools/eval_distance_oracle.py"),
                           QStringLiteral("14")});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        const QList<QByteArray> lines = process.readAllStandardOutput().split('\n');
        int strings = 0, jsons = 0;
        for (const QByteArray& line : lines) {
            if (line.trimmed().isEmpty())
                continue;
            const QJsonObject c = QJsonDocument::fromJson(line).object();
            QVERIFY2(!c.isEmpty(), line.constData());
            if (c.value(QStringLiteral("kind")).toString() == QLatin1String("levenshtein")) {
                const QString a = c.value(QStringLiteral("a")).toString();
                const QString b = c.value(QStringLiteral("b")).toString();
                QVERIFY2(levenshtein(a, b) == c.value(QStringLiteral("distance")).toInt(),
                         line.constData());
                ++strings;
            } else {
                const QJsonValue a = c.value(QStringLiteral("a"));
                const QJsonValue b = c.value(QStringLiteral("b"));
                QCOMPARE(canonicalJson(a), c.value(QStringLiteral("canonical_a")).toString());
                QVERIFY2(qAbs(jsonEditDistance(a, b) -
                              c.value(QStringLiteral("distance")).toDouble()) < 1e-9,
                         line.constData());
                ++jsons;
            }
        }
        QCOMPARE(strings, 300);
        QCOMPARE(jsons, 300);
    }
};

QTEST_GUILESS_MAIN(TestEvaluators)
#include "tst_evaluators.moc"
