#include "core/pdl/types/jsonschema.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <QtConcurrent>

#include <nlohmann/json.hpp>

using namespace hako::pdl;

namespace {

Value parse(const char* json)
{
    return Value::fromJson(nlohmann::json::parse(json));
}

std::string joined(const std::vector<ValidationError>& errors)
{
    std::string out;
    for (const auto& e : errors)
        out += (out.empty() ? "" : "\n") + e.toString();
    return out;
}

/// Where the official suite's draft7 folder is: $JSON_SCHEMA_TEST_SUITE (the suite's root) or
/// the Debian package's location.
QString suiteDir()
{
    QStringList roots;
    if (qEnvironmentVariableIsSet("JSON_SCHEMA_TEST_SUITE"))
        roots << qEnvironmentVariable("JSON_SCHEMA_TEST_SUITE");
    roots << QStringLiteral("/usr/share/json-schema-test-suite");
    for (const QString& root : roots) {
        QString dir = root + QStringLiteral("/tests/draft7");
        if (QFileInfo(dir).isDir())
            return dir;
    }
    return {};
}

// Draft-7 files that do not carry over to 2020-12 (or to a validator without remote refs).
const std::map<QString, const char*> kSkippedFiles = {
    {"additionalItems.json", "additionalItems was replaced by items-after-prefixItems in "
                             "2020-12 (covered by our own fixtures)"},
    {"definitions.json", "validates against the remote draft-07 metaschema"},
    {"refRemote.json", "remote references are not supported"},
    {"optional/content.json", "contentMediaType/contentEncoding are annotations only in 2020-12"},
    {"optional/ecmascript-regex.json", "format is an annotation only"},
};

// Individual groups (file, group description) whose expected results differ in 2020-12 or need
// unsupported features.
const std::map<std::pair<QString, QString>, const char*> kSkippedGroups = {
    {{"ref.json", "ref overrides any sibling keywords"},
     "draft-7 ignores $ref siblings; 2020-12 applies them (covered by our own fixtures)"},
    {{"ref.json", "remote ref, containing refs itself"},
     "refers to the remote draft-07 metaschema"},
};

/// Whether a draft-7 schema uses a feature whose meaning changed or that we do not support;
/// returns the reason.
const char* skipReason(const nlohmann::json& schema)
{
    if (schema.is_object()) {
        if (schema.contains("items") && schema["items"].is_array())
            return "array-form items is prefixItems in 2020-12";
        if (schema.contains("additionalItems"))
            return "additionalItems is not a 2020-12 keyword";
        for (const auto& [key, sub] : schema.items()) {
            if (const char* why = skipReason(sub))
                return why;
        }
    } else if (schema.is_array()) {
        for (const auto& sub : schema) {
            if (const char* why = skipReason(sub))
                return why;
        }
    }
    return nullptr;
}

struct SuiteCounts {
    int run = 0, passed = 0, skipped = 0;
};
SuiteCounts g_official, g_ours;

/// Runs one file in the official suite's format; returns failure descriptions.
QStringList runSuiteFile(const QString& path, const QString& name, bool allowSkips,
                         SuiteCounts& counts)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {QStringLiteral("cannot open %1").arg(path)};
    nlohmann::json groups;
    try {
        groups = nlohmann::json::parse(file.readAll().toStdString());
    } catch (const std::exception& e) {
        return {QStringLiteral("%1: %2").arg(name, QString::fromUtf8(e.what()))};
    }
    QStringList failures;
    for (const auto& group : groups) {
        const QString groupName = QString::fromStdString(group["description"].get<std::string>());
        const auto& tests = group["tests"];
        const char* why = nullptr;
        if (allowSkips) {
            auto it = kSkippedGroups.find({name, groupName});
            why = it != kSkippedGroups.end() ? it->second : skipReason(group["schema"]);
        }
        if (why) {
            qInfo("skipping %s / %s: %s", qPrintable(name), qPrintable(groupName), why);
            counts.skipped += int(tests.size());
            continue;
        }
        auto compiled = JsonSchema::compile(Value::fromJson(group["schema"]));
        for (const auto& test : tests) {
            ++counts.run;
            const QString label =
                QStringLiteral("%1 / %2 / %3")
                    .arg(name, groupName,
                         QString::fromStdString(test["description"].get<std::string>()));
            if (!compiled) {
                failures << label + QStringLiteral(": compile error: ") + compiled.error().message;
                continue;
            }
            const Value data = Value::fromJson(test["data"]);
            const bool expected = test["valid"].get<bool>();
            const bool fast = compiled->isValid(data);
            const auto errors = compiled->validate(data);
            if (fast != expected || errors.empty() != expected) {
                failures << label + QStringLiteral(": expected %1, isValid %2, errors: %3")
                                        .arg(expected ? "valid" : "invalid",
                                             fast ? "true" : "false",
                                             QString::fromStdString(joined(errors)));
                continue;
            }
            ++counts.passed;
        }
    }
    return failures;
}

} // namespace

class TestJsonSchema : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void officialSuite_data();
    void officialSuite();
    void ownFixtures_data();
    void ownFixtures();
    void errorMessages_data();
    void errorMessages();
    void compileErrors_data();
    void compileErrors();
    void recursiveTree();
    void refCycleIsDepthLimited();
    void maxErrorsIsRespected();
    void defaultAcceptsEverything();
    void jsonEquality_data();
    void jsonEquality();
    void patternIsUnanchoredAndUnicode();
    void concurrentValidation();
    void cleanupTestCase();
};

void TestJsonSchema::officialSuite_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("name");
    const QString dir = suiteDir();
    if (dir.isEmpty()) {
        QTest::newRow("suite-missing") << QString() << QString();
        return;
    }
    QDir root(dir);
    QStringList names = root.entryList({"*.json"}, QDir::Files, QDir::Name);
    for (const QString& f : QDir(dir + "/optional").entryList({"*.json"}, QDir::Files, QDir::Name))
        names << "optional/" + f;
    for (const QString& name : names)
        QTest::newRow(qPrintable(name)) << root.filePath(name) << name;
}

void TestJsonSchema::officialSuite()
{
    QFETCH(QString, path);
    QFETCH(QString, name);
    if (path.isEmpty())
        QSKIP("JSON-Schema-Test-Suite not found (install json-schema-test-suite or set "
              "JSON_SCHEMA_TEST_SUITE)");
    if (auto skipped = kSkippedFiles.find(name); skipped != kSkippedFiles.end()) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        for (const auto& group : nlohmann::json::parse(file.readAll().toStdString()))
            g_official.skipped += int(group["tests"].size());
        QSKIP(skipped->second);
    }
    const QStringList failures = runSuiteFile(path, name, true, g_official);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
}

void TestJsonSchema::ownFixtures_data()
{
    QTest::addColumn<QString>("path");
    QDir dir(QStringLiteral(HAKO_TEST_DATA_DIR "/jsonschema"));
    const QStringList names = dir.entryList({"*.json"}, QDir::Files, QDir::Name);
    QVERIFY(!names.isEmpty());
    for (const QString& name : names)
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
}

void TestJsonSchema::ownFixtures()
{
    QFETCH(QString, path);
    const QStringList failures = runSuiteFile(path, QFileInfo(path).fileName(), false, g_ours);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
}

void TestJsonSchema::errorMessages_data()
{
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("instance");
    QTest::addColumn<QString>("expected"); // all errors, one per line

    QTest::newRow("type in array")
        << R"({"properties": {"answers": {"items": {"type": "string"}}}})"
        << R"({"answers": ["a", "b", 3]})"
        << "$.answers[2]: expected string, got 3";
    QTest::newRow("required") << R"({"required": ["name"]})"
                              << "{}"
                              << "$: missing required property 'name'";
    QTest::newRow("maximum") << R"({"properties": {"age": {"maximum": 120}}})"
                             << R"({"age": 150})"
                             << "$.age: 150 is greater than the maximum 120";
    QTest::newRow("minimum float") << R"({"minimum": 0.5})"
                                   << "0.25"
                                   << "$: 0.25 is less than the minimum 0.5";
    QTest::newRow("exclusiveMaximum") << R"({"exclusiveMaximum": 10})"
                                      << "10"
                                      << "$: 10 is not less than the exclusive maximum 10";
    QTest::newRow("maxItems") << R"({"properties": {"tags": {"maxItems": 3}}})"
                              << R"({"tags": [1, 2, 3, 4, 5]})"
                              << "$.tags: expected at most 3 items, got 5";
    QTest::newRow("minItems") << R"({"minItems": 1})"
                              << "[]"
                              << "$: expected at least 1 item, got 0";
    QTest::newRow("type list") << R"({"type": ["string", "null"]})"
                               << "true"
                               << "$: expected string or null, got true";
    QTest::newRow("integer vs float") << R"({"type": "integer"})"
                                      << "1.5"
                                      << "$: expected integer, got 1.5";
    QTest::newRow("anyOf of types merges")
        << R"({"anyOf": [{"type": "integer"}, {"type": "null"}]})"
        << R"("x")"
        << R"($: expected integer or null, got "x")";
    QTest::newRow("anyOf with one alternative of the right type")
        << R"({"anyOf": [{"type": "string", "minLength": 3}, {"type": "integer"}]})"
        << R"("ab")"
        << "$: expected at least 3 characters, got 2";
    QTest::newRow("anyOf general")
        << R"({"anyOf": [{"type": "string", "minLength": 3}, {"pattern": "^a"}]})"
        << R"("b")"
        << R"($: does not match any of the anyOf alternatives: #0 expected at least 3 )"
           R"(characters, got 1; #1 "b" does not match the pattern '^a')";
    QTest::newRow("oneOf both") << R"({"oneOf": [{"type": "integer"}, {"minimum": 0}]})"
                                << "3"
                                << "$: matches more than one of the oneOf schemas (#0 and #1), "
                                   "expected exactly one";
    QTest::newRow("enum") << R"({"enum": ["red", "green"]})"
                          << R"("blue")"
                          << R"($: expected one of "red", "green", got "blue")";
    QTest::newRow("const") << R"({"const": 1})"
                           << "true"
                           << "$: expected 1, got true";
    QTest::newRow("pattern") << R"({"pattern": "^[0-9]+$"})"
                             << R"("12a")"
                             << R"($: "12a" does not match the pattern '^[0-9]+$')";
    QTest::newRow("maxLength code points") << R"({"maxLength": 2})"
                                           << R"("héé")"
                                           << "$: expected at most 2 characters, got 3";
    QTest::newRow("additionalProperties false")
        << R"({"properties": {"a": {}}, "additionalProperties": false})"
        << R"({"a": 1, "b": 2})"
        << "$: unexpected property 'b'";
    QTest::newRow("odd key path") << R"({"properties": {"a b": {"type": "string"}}})"
                                  << R"({"a b": 1})"
                                  << R"($["a b"]: expected string, got 1)";
    QTest::newRow("multiple errors")
        << R"({"required": ["x", "y"], "properties": {"z": {"type": "boolean"}}})"
        << R"({"z": null})"
        << "$: missing required property 'x'\n$: missing required property 'y'\n"
           "$.z: expected boolean, got null";
    QTest::newRow("uniqueItems") << R"({"uniqueItems": true})"
                                 << "[1, 2, 1.0]"
                                 << "$: expected unique items, but items 0 and 2 are equal (1)";
    QTest::newRow("contains") << R"({"contains": {"type": "string"}})"
                              << "[1]"
                              << "$: expected at least 1 item matching the 'contains' schema, "
                                 "got 0";
    QTest::newRow("dependentRequired")
        << R"({"dependentRequired": {"card": ["billing"]}})"
        << R"({"card": 1})"
        << "$: missing property 'billing', required when 'card' is present";
    QTest::newRow("false schema") << R"({"prefixItems": [true], "items": false})"
                                  << "[1, 2]"
                                  << "$[1]: no value is allowed here, got 2";
    QTest::newRow("propertyNames") << R"({"propertyNames": {"maxLength": 2}})"
                                   << R"({"abc": 1})"
                                   << "$: invalid property name 'abc': expected at most 2 "
                                      "characters, got 3";
    QTest::newRow("multipleOf") << R"({"multipleOf": 0.5})"
                                << "1.25"
                                << "$: 1.25 is not a multiple of 0.5";
    QTest::newRow("not") << R"({"not": {"type": "null"}})"
                         << "null"
                         << "$: must not match the schema at #/not, got null";
    QTest::newRow("then") << R"({"if": {"minimum": 10}, "then": {"multipleOf": 5}})"
                          << "12"
                          << "$: 12 is not a multiple of 5";
    QTest::newRow("anyOf reports the alternative of the right type")
        << R"({"anyOf": [{"type": "object", "properties": {"name": {"type": "string"}}},
                          {"type": "null"}]})"
        << R"({"name": 3})"
        << "$.name: expected string, got 3";
    QTest::newRow("ref with path")
        << R"({"$defs": {"pos": {"type": "integer", "minimum": 1}}, "items": {"$ref": "#/$defs/pos"}})"
        << "[1, 0]"
        << "$[1]: 0 is less than the minimum 1";
}

void TestJsonSchema::errorMessages()
{
    QFETCH(QString, schema);
    QFETCH(QString, instance);
    QFETCH(QString, expected);
    auto compiled = JsonSchema::compile(parse(qPrintable(schema)));
    QVERIFY2(compiled.ok(), qPrintable(compiled ? QString() : compiled.error().message));
    const Value value = parse(qPrintable(instance));
    QCOMPARE(QString::fromStdString(joined(compiled->validate(value))), expected);
    QVERIFY(!compiled->isValid(value));
}

void TestJsonSchema::compileErrors_data()
{
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown type") << R"({"properties": {"age": {"type": "int"}}})"
                                  << "invalid JSON Schema at #/properties/age/type: unknown type "
                                     "'int'";
    QTest::newRow("bad regex") << R"({"pattern": "a("})"
                               << "invalid JSON Schema at #/pattern: invalid regular expression "
                                  "'a('";
    QTest::newRow("bad pattern property") << R"({"patternProperties": {"[": {}}})"
                                          << "at #/patternProperties/[: invalid regular";
    QTest::newRow("missing ref") << R"({"items": {"$ref": "#/$defs/missing"}})"
                                 << "at #/items: cannot resolve $ref '#/$defs/missing'";
    QTest::newRow("remote ref") << R"({"$ref": "http://example.com/s.json"})"
                                << "only references within the schema";
    QTest::newRow("relative ref without base") << R"({"$ref": "other.json"})"
                                               << "cannot resolve $ref 'other.json' (other.json)";
    QTest::newRow("missing anchor") << R"({"$ref": "#nowhere"})"
                                    << "no $anchor named 'nowhere'";
    QTest::newRow("array items") << R"({"items": [{"type": "string"}]})"
                                 << "at #/items: 'items' must be a schema";
    QTest::newRow("not a schema") << R"({"properties": {"a": 3}})"
                                  << "at #/properties/a: a schema must be an object or a boolean";
    QTest::newRow("negative minLength") << R"({"minLength": -1})"
                                        << "at #/minLength: expected a non-negative integer";
    QTest::newRow("unsupported") << R"({"unevaluatedProperties": false})"
                                 << "'unevaluatedProperties' is not supported";
    QTest::newRow("zero multipleOf") << R"({"multipleOf": 0})"
                                     << "greater than 0";
    QTest::newRow("top-level number") << "5"
                                      << "at #: a schema must be an object or a boolean";
}

void TestJsonSchema::compileErrors()
{
    QFETCH(QString, schema);
    QFETCH(QString, expected);
    auto compiled = JsonSchema::compile(parse(qPrintable(schema)));
    QVERIFY(!compiled.ok());
    QVERIFY2(compiled.error().message.contains(expected), qPrintable(compiled.error().message));
}

void TestJsonSchema::recursiveTree()
{
    auto tree = JsonSchema::compile(parse(R"({
        "$defs": {"node": {"type": "object", "required": ["value"],
                           "properties": {"value": {"type": "integer"},
                                          "children": {"type": "array",
                                                       "items": {"$ref": "#/$defs/node"}}}}},
        "$ref": "#/$defs/node"})"));
    QVERIFY(tree.ok());
    QVERIFY(tree->isValid(parse(R"({"value": 1, "children": [{"value": 2, "children": []},
                                                            {"value": 3}]})")));
    const Value bad =
        parse(R"({"value": 1, "children": [{"value": 2, "children": [{"value": "x"}]}]})");
    QCOMPARE(QString::fromStdString(joined(tree->validate(bad))),
             QStringLiteral(R"($.children[0].children[0].value: expected integer, got "x")"));

    // A deep but finite instance is fine: depth counts schema levels, which follow the value.
    nlohmann::json deep = {{"value", 0}};
    for (int i = 1; i < 100; ++i)
        deep = {{"value", i}, {"children", {deep}}};
    QVERIFY(tree->isValid(Value::fromJson(deep)));
}

void TestJsonSchema::refCycleIsDepthLimited()
{
    for (const char* text :
         {R"({"$ref": "#"})",
          R"({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}},
                                 "$ref": "#/$defs/a"})"}) {
        auto schema = JsonSchema::compile(parse(text));
        QVERIFY(schema.ok());
        QVERIFY(!schema->isValid(Value(1)));
        const auto errors = schema->validate(Value(1));
        QCOMPARE(errors.size(), size_t(1));
        QVERIFY2(errors[0].message.find("schema nesting exceeds") != std::string::npos,
                 errors[0].message.c_str());
    }
}

void TestJsonSchema::maxErrorsIsRespected()
{
    auto schema = JsonSchema::compile(parse(R"({"items": {"type": "string"}})"));
    QVERIFY(schema.ok());
    nlohmann::json many = nlohmann::json::array();
    for (int i = 0; i < 50; ++i)
        many.push_back(i);
    const Value value = Value::fromJson(many);
    QCOMPARE(schema->validate(value).size(), size_t(20));
    QCOMPARE(schema->validate(value, 3).size(), size_t(3));
    QCOMPARE(schema->validate(value, 3).back().path, std::string("$[2]"));
}

void TestJsonSchema::defaultAcceptsEverything()
{
    JsonSchema any;
    QVERIFY(any.isValid(Value(1)));
    QVERIFY(any.validate(parse(R"({"a": [null]})")).empty());
    QVERIFY(jsonEquals(any.source(), Value(true)));
}

void TestJsonSchema::jsonEquality_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("equal");
    QTest::newRow("int float") << "1"
                               << "1.0" << true;
    QTest::newRow("true one") << "true"
                              << "1" << false;
    QTest::newRow("false zero") << "false"
                                << "0" << false;
    QTest::newRow("null false") << "null"
                                << "false" << false;
    QTest::newRow("objects unordered") << R"({"a": 1, "b": [2]})"
                                       << R"({"b": [2.0], "a": 1})" << true;
    QTest::newRow("object extra key") << R"({"a": 1})"
                                      << R"({"a": 1, "b": 2})" << false;
    QTest::newRow("nested bool") << "[[true]]"
                                 << "[[1]]" << false;
    QTest::newRow("float fraction") << "1.5"
                                    << "1" << false;
    QTest::newRow("big ints") << "9007199254740993"
                              << "9007199254740992" << false;
}

void TestJsonSchema::jsonEquality()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, equal);
    QCOMPARE(jsonEquals(parse(qPrintable(a)), parse(qPrintable(b))), equal);
    QCOMPARE(jsonEquals(parse(qPrintable(b)), parse(qPrintable(a))), equal);
}

void TestJsonSchema::patternIsUnanchoredAndUnicode()
{
    auto schema = JsonSchema::compile(parse(R"({"pattern": "é+"})"));
    QVERIFY(schema.ok());
    QVERIFY(schema->isValid(Value("caféé au lait")));
    QVERIFY(!schema->isValid(Value("cafe")));
    QVERIFY(schema->isValid(Value(42))); // pattern only constrains strings
    auto anchored = JsonSchema::compile(parse(R"({"pattern": "^\\d{3}$"})"));
    QVERIFY(anchored.ok());
    QVERIFY(anchored->isValid(Value("123")));
    QVERIFY(!anchored->isValid(Value("1234")));
    // ECMA-262 `$` is the very end: unlike PCRE's, it does not match before a final newline.
    QVERIFY(!anchored->isValid(Value("123\n")));
    auto literalDollar = JsonSchema::compile(parse(R"({"pattern": "^a\\$[$]$"})"));
    QVERIFY(literalDollar.ok());
    QVERIFY(literalDollar->isValid(Value("a$$")));
    QVERIFY(!literalDollar->isValid(Value("a$")));
}

void TestJsonSchema::concurrentValidation()
{
    auto schema = JsonSchema::compile(parse(R"({"items": {"type": "object", "required": ["id"],
        "properties": {"id": {"type": "string", "pattern": "^[a-z]+[0-9]+$"}}}})"));
    QVERIFY(schema.ok());
    nlohmann::json items = nlohmann::json::array();
    for (int i = 0; i < 200; ++i)
        items.push_back({{"id", (i % 50 ? "abc" : "ABC") + std::to_string(i)}});
    const Value value = Value::fromJson(items);
    const JsonSchema& shared = *schema;
    QList<int> counts = QtConcurrent::blockingMapped(QList<int>{0, 1, 2, 3}, [&](int) {
        int errors = 0;
        for (int round = 0; round < 20; ++round)
            errors += int(shared.validate(value).size());
        return errors;
    });
    QCOMPARE(counts, (QList<int>{80, 80, 80, 80})); // 4 bad ids x 20 rounds per thread
}

void TestJsonSchema::cleanupTestCase()
{
    qInfo("official draft7 suite: %d cases run, %d passed, %d skipped", g_official.run,
          g_official.passed, g_official.skipped);
    qInfo("own 2020-12 fixtures: %d cases run, %d passed", g_ours.run, g_ours.passed);
}

QTEST_GUILESS_MAIN(TestJsonSchema)
#include "tst_jsonschema.moc"
