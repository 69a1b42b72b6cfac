// Output parsers (core/pdl/parsers): regex, csv and strict JSON against Python's own re, csv
// and json (a stored fixture made by tests/tools/gen_parser_cases.py, plus a live run when
// python3 is present), and the tolerant JSON repairs, jsonl, yaml and parseOutput by hand.

#include "core/pdl/parsers/csvreader.h"
#include "core/pdl/parsers/outputparser.h"
#include "core/pdl/parsers/pyregex.h"
#include "core/pdl/parsers/tolerantjson.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::pdl;
using ojson = nlohmann::ordered_json;

namespace {

const QString kScript = QStringLiteral(HAKO_SOURCE_DIR "/tests/tools/gen_parser_cases.py");
const QString kFixture = QStringLiteral(HAKO_TEST_DATA_DIR "/parsers/python_cases.json");

/// A Value in the tagged form gen_parser_cases.py writes.
ojson tag(const Value& v)
{
    switch (v.type()) {
    case Value::Type::Null:
        return nullptr;
    case Value::Type::Bool:
        return v.asBool();
    case Value::Type::Int:
        return v.asInt();
    case Value::Type::Float:
        return ojson{{"float", formatFloat(v.asFloat())}};
    case Value::Type::String:
        return v.asString();
    case Value::Type::List: {
        ojson items = ojson::array();
        for (const Value& item : v.asList())
            items.push_back(tag(item));
        if (v.isTuple())
            return ojson{{"tuple", items}};
        return items;
    }
    case Value::Type::Dict: {
        ojson items = ojson::array();
        for (const auto& [key, item] : v.asDict())
            items.push_back(ojson::array({tag(key), tag(item)}));
        return ojson{{"dict", items}};
    }
    default:
        return ojson{{"other", v.typeName()}};
    }
}

QString findPython()
{
    if (QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
        return QStringLiteral("/usr/bin/python3");
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

QString show(const ojson& j)
{
    return QString::fromStdString(j.dump(-1, ' ', false, ojson::error_handler_t::replace));
}

QString showResult(const Result<Value>& r)
{
    return r ? show(tag(*r)) : QStringLiteral("ERROR: ") + r.error().message;
}

/// Runs every case of a gen_parser_cases.py document through Hako; returns the disagreements.
QStringList compareAll(const ojson& doc, int& total)
{
    QStringList bad;
    auto check = [&](const QString& what, const ojson& c, const Result<Value>& r) {
        ++total;
        const bool ok = c["ok"].get<bool>();
        if (ok == r.ok() && (!ok || tag(*r) == c["value"]))
            return;
        bad << QStringLiteral("%1\n    python: %2\n    hako:   %3")
                   .arg(what,
                        ok ? show(c["value"])
                           : QStringLiteral("ERROR ") + QString::fromStdString(c["error"]),
                        showResult(r));
    };
    for (const ojson& c : doc["regex"]) {
        const std::string pattern = c["pattern"], text = c["text"], mode = c["mode"];
        const Value spec = Value::fromJson(c["spec"]);
        check(QStringLiteral("regex %1 %2 on %3")
                  .arg(QString::fromStdString(mode), show(c["pattern"]), show(c["text"])),
              c, parsers::parseRegexOutput(pattern, mode, spec, text));
    }
    for (const ojson& c : doc["csv"]) {
        const std::string text = c["text"];
        check(QStringLiteral("csv %1").arg(show(c["text"])), c, parsers::readCsv(text));
    }
    for (const ojson& c : doc["json"]) {
        const std::string text = c["text"];
        check(QStringLiteral("strict json %1").arg(show(c["text"])), c,
              parsers::parseStrictJson(text));
        // What json.loads accepts, the tolerant parser must read the same way.
        if (c["ok"].get<bool>())
            check(QStringLiteral("tolerant json %1").arg(show(c["text"])), c,
                  parsers::parseTolerantJson(text));
    }
    return bad;
}

Value parsedJson(const char* text)
{
    return Value::fromJson(ojson::parse(text));
}

} // namespace

class TstOutputParser : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pythonFixture()
    {
        QFile file(kFixture);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(kFixture));
        const ojson doc = ojson::parse(file.readAll().toStdString());
        int total = 0;
        const QStringList bad = compareAll(doc, total);
        qInfo("%d fixture cases", total);
        QVERIFY(total > 250);
        for (const QString& b : bad)
            qWarning("%s", qPrintable(b));
        QVERIFY2(
            bad.isEmpty(),
            qPrintable(
                QStringLiteral("%1 of %2 cases disagree with Python").arg(bad.size()).arg(total)));
    }

    void pythonLive()
    {
        const QString python = findPython();
        if (python.isEmpty())
            QSKIP("python3 not found; the stored fixture is checked instead");
        QProcess p;
        p.start(python, {kScript});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const ojson doc = ojson::parse(p.readAllStandardOutput().toStdString());
        int total = 0;
        const QStringList bad = compareAll(doc, total);
        for (const QString& b : bad)
            qWarning("%s", qPrintable(b));
        QVERIFY2(
            bad.isEmpty(),
            qPrintable(
                QStringLiteral("%1 of %2 cases disagree with Python").arg(bad.size()).arg(total)));
    }

    void tolerantJson_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected"); // strict JSON of the expected value

        QTest::newRow("fenced with prose and trailing comma")
            << "Sure! Here is the JSON:\n```json\n{\"a\": 1, \"b\": [1, 2,],}\n```\nHope it helps."
            << R"({"a": 1, "b": [1, 2]})";
        QTest::newRow("python literals and single quotes")
            << "{'name': 'Bob', 'ok': True, 'gone': None, 'no': False}"
            << R"({"name": "Bob", "ok": true, "gone": null, "no": false})";
        QTest::newRow("unquoted keys") << "{name: \"Bob\", age: 3}"
                                       << R"({"name": "Bob", "age": 3})";
        QTest::newRow("comments") << "// answer\n{\"a\": 1 /* one */, # hash comment\n \"b\": 2}"
                                  << R"({"a": 1, "b": 2})";
        QTest::newRow("surrounding prose") << "The answer is {\"a\": [1, 2]} as requested."
                                           << R"({"a": [1, 2]})";
        QTest::newRow("prose with a list") << "Numbers: [1, 2, 3]. Done"
                                           << "[1, 2, 3]";
        QTest::newRow("missing commas") << "{\"a\": 1\n\"b\": 2}"
                                        << R"({"a": 1, "b": 2})";
        QTest::newRow("missing commas in a list") << "[\"x\" \"y\"]"
                                                  << R"(["x", "y"])";
        QTest::newRow("unquoted word value") << "{\"a\": hello there}"
                                             << R"({"a": "hello there"})";
        QTest::newRow("raw newline in a string") << "{\"a\": \"l1\nl2\"}"
                                                 << R"({"a": "l1\nl2"})";
        QTest::newRow("escaped single quote") << R"({'a': 'it\'s'})"
                                              << R"({"a": "it's"})";
        QTest::newRow("truncated reply") << "```json\n{\"a\": [1, 2"
                                         << R"({"a": [1, 2]})";
        QTest::newRow("truncated string") << "{\"a\": \"unfinis"
                                          << R"({"a": "unfinis"})";
        QTest::newRow("plain fence") << "```\n[true]\n```"
                                     << "[true]";
        QTest::newRow("second fence holds the json")
            << "```text\nnot json\n```\nand\n```json\n{\"k\": 1}\n```"
            << R"({"k": 1})";
        QTest::newRow("strict wins over the fence") << "\"```json\""
                                                    << R"("```json")";
        QTest::newRow("leading plus and dot") << "[+1, .5, 5.]"
                                              << "[1, 0.5, 5.0]";
        QTest::newRow("regex backslash kept") << R"({"re": "\d+"})"
                                              << R"({"re": "\\d+"})";
        QTest::newRow("top-level python bool") << "True"
                                               << "true";
    }

    void tolerantJson()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const Result<Value> r = parsers::parseTolerantJson(text.toStdString());
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        const Value want = parsedJson(expected.toUtf8().constData());
        QVERIFY2(*r == want, qPrintable(showResult(r) + " != " + expected));
        // Order matters too: Python dicts keep the document's order.
        QCOMPARE(QString::fromStdString(r->json()), QString::fromStdString(want.json()));
    }

    void keyOrderKept()
    {
        const Result<Value> r = parsers::parseTolerantJson("{\"z\": 1, \"a\": 2, \"m\": 3}");
        QVERIFY(r.ok());
        QCOMPARE(QString::fromStdString(r->str()), QStringLiteral("{'z': 1, 'a': 2, 'm': 3}"));
    }

    void tolerantJsonErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");

        QTest::newRow("prose") << "no json here"
                               << "Expecting value: line 1 column 1 (char 0)" << 1 << 1;
        QTest::newRow("double comma") << "{\"a\": 1,, }"
                                      << "Expecting property name enclosed in double quotes: "
                                         "line 1 column 9 (char 8)"
                                      << 1 << 9;
        QTest::newRow("empty") << ""
                               << "Expecting value: line 1 column 1 (char 0)" << 1 << 1;
        QTest::newRow("second line") << "[1,\n  }"
                                     << "Expecting value: line 2 column 3 (char 6)" << 2 << 3;
    }

    void tolerantJsonErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QFETCH(int, line);
        QFETCH(int, column);
        const Result<Value> r = parsers::parseTolerantJson(text.toStdString());
        QVERIFY2(!r.ok(), qPrintable(showResult(r)));
        QCOMPARE(r.error().message, message);
        QCOMPARE(r.error().span.line, line);
        QCOMPARE(r.error().span.column, column);
    }

    void deepNestingIsAnError()
    {
        const std::string deep(100000, '[');
        const Result<Value> r = parsers::parseTolerantJson(deep);
        QVERIFY(!r.ok());
    }

    void jsonl()
    {
        const Result<Value> r = parsers::parseJsonl("{\"a\": 1}\n\n  \n[2]\r\n\"s\"");
        QVERIFY2(r.ok(), qPrintable(showResult(r)));
        QCOMPARE(QString::fromStdString(r->json()), QStringLiteral("[{\"a\": 1}, [2], \"s\"]"));

        const Result<Value> bad = parsers::parseJsonl("1\n2\n{x}\n");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.startsWith(QStringLiteral("line 3: ")),
                 qPrintable(bad.error().message));
        QCOMPARE(bad.error().span.line, 3);
    }

    void yaml()
    {
        const Result<Value> r =
            parsers::parseYaml("questions:\n  - Why?\nanswers: [{a: 1}]\nok: yes\n");
        QVERIFY2(r.ok(), qPrintable(showResult(r)));
        QCOMPARE(QString::fromStdString(r->str()),
                 QStringLiteral("{'questions': ['Why?'], 'answers': [{'a': 1}], 'ok': True}"));
        const Result<Value> empty = parsers::parseYaml("");
        QVERIFY(empty.ok());
        QVERIFY(empty->isNull());
        QVERIFY(!parsers::parseYaml("a: [1, 2\nb: 3").ok());
    }

    void parseOutputDispatch()
    {
        ParserSpec p;
        p.span.line = 7;
        p.span.column = 5;

        p.kind = ParserSpec::Kind::None;
        QCOMPARE(QString::fromStdString(parseOutput(p, "as is")->asString()),
                 QStringLiteral("as is"));

        p.kind = ParserSpec::Kind::Json;
        QCOMPARE(QString::fromStdString(parseOutput(p, "```json\n{'a': 1,}\n```")->json()),
                 QStringLiteral("{\"a\": 1}"));
        Result<Value> bad = parseOutput(p, "nothing");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().message, QStringLiteral("Attempted to parse ill-formed JSON: "
                                                     "Expecting value: line 1 column 1 (char 0)"));
        QCOMPARE(bad.error().span, p.span); // points at the program's `parser` field

        p.kind = ParserSpec::Kind::Csv;
        QCOMPARE(QString::fromStdString(parseOutput(p, "a,b\n1,\"2,3\"\n")->json()),
                 QStringLiteral("[[\"a\", \"b\"], [\"1\", \"2,3\"]]"));

        p.kind = ParserSpec::Kind::Yaml;
        QCOMPARE(QString::fromStdString(parseOutput(p, "x: 1")->json()),
                 QStringLiteral("{\"x\": 1}"));
        bad = parseOutput(p, "x: [");
        QVERIFY(!bad.ok());
        QVERIFY(
            bad.error().message.startsWith(QStringLiteral("Attempted to parse ill-formed YAML")));

        p.kind = ParserSpec::Kind::Jsonl;
        QCOMPARE(QString::fromStdString(parseOutput(p, "1\n2\n")->json()),
                 QStringLiteral("[1, 2]"));

        // The tutorial's parser-regex.pdl and parser_findall.pdl.
        p.kind = ParserSpec::Kind::Regex;
        p.regex = "\\s*(?P<name>.*)\\s*";
        p.mode = "fullmatch";
        p.spec = parsedJson(R"({"name": "string"})");
        QCOMPARE(QString::fromStdString(parseOutput(p, "Hello")->json()),
                 QStringLiteral("{\"name\": \"Hello\"}"));
        p.regex = "[0-9]+";
        p.mode = "findall";
        p.spec = Value();
        QCOMPARE(QString::fromStdString(parseOutput(p, "1 -- 2 -- 3 -- 4")->json()),
                 QStringLiteral("[\"1\", \"2\", \"3\", \"4\"]"));
        p.mode = "search";
        QVERIFY(parseOutput(p, "no digits")->isNull());
        p.regex = "(";
        bad = parseOutput(p, "x");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.startsWith(QStringLiteral("Fail to parse with regex (: ")),
                 qPrintable(bad.error().message));
    }

    void regexSpecObjForm()
    {
        const Value spec = parsedJson(R"({"obj": {"a": "string"}})");
        const Result<Value> r = parsers::parseRegexOutput("(?P<a>x+)", "search", spec, "yxxz");
        QVERIFY(r.ok());
        QCOMPARE(QString::fromStdString(r->json()), QStringLiteral("{\"a\": \"xx\"}"));
    }

    void regexTranslation_data()
    {
        QTest::addColumn<QString>("python");
        QTest::addColumn<QString>("pcre");
        QTest::newRow("\\Z") << "a\\Z"
                             << "a\\z";
        QTest::newRow("{,n}") << "x{,3}"
                              << "x{0,3}";
        QTest::newRow("{,} stays") << "x{,}"
                                   << "x{,}";
        QTest::newRow("\\u") << "\\u00e9"
                             << "\\x{e9}";
        QTest::newRow("\\v") << "\\v"
                             << "\\x0b";
        QTest::newRow("escaped brace") << "\\{,3}"
                                       << "\\{,3}";
        QTest::newRow("in a class") << "[{,3}\\Z^]"
                                    << "[{,3}\\Z^]";
        QTest::newRow("caret") << "^a"
                               << R"((?:^|(?<=\n)\z)a)";
        QTest::newRow("negated class") << "[^]a]"
                                       << "[^]a]";
    }

    void regexTranslation()
    {
        QFETCH(QString, python);
        QFETCH(QString, pcre);
        QCOMPARE(parsers::PyRegex::translate(python.toStdString()), pcre);
    }
};

QTEST_GUILESS_MAIN(TstOutputParser)
#include "tst_outputparser.moc"
