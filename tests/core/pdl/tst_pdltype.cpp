#include "core/pdl/types/jsonschema.h"
#include "core/pdl/types/pdltype.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace hako::pdl;

namespace {

Value parse(const QString& json)
{
    return Value::fromJson(nlohmann::json::parse(json.toStdString()));
}

} // namespace

class TestPdlType : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void toJsonSchema_data();
    void toJsonSchema();
    void fieldOrderIsKept();
    void openObjects();
    void deprecatedNamesWarn_data();
    void deprecatedNamesWarn();
    void invalidTypes_data();
    void invalidTypes();
    void checking_data();
    void checking();
};

void TestPdlType::toJsonSchema_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("schema");

    QTest::newRow("yaml null is any") << "null"
                                      << "{}";
    for (const char* name : {"null", "boolean", "string", "number", "integer", "array", "object"})
        QTest::newRow(name) << QStringLiteral("\"%1\"").arg(name)
                            << QStringLiteral(R"({"type": "%1"})").arg(name);
    QTest::newRow("list") << R"(["string"])"
                          << R"({"type": "array", "items": {"type": "string"}})";
    QTest::newRow("nested list")
        << R"([["integer"]])"
        << R"({"type": "array", "items": {"type": "array", "items": {"type": "integer"}}})";
    QTest::newRow("optional") << R"({"optional": "string"})"
                              << R"({"anyOf": [{"type": "string"}, {"type": "null"}]})";
    QTest::newRow("enum") << R"({"enum": ["red", "green", 3]})"
                          << R"({"enum": ["red", "green", 3]})";
    QTest::newRow("enum keeps extra keys") << R"({"enum": ["a"], "description": "one letter"})"
                                           << R"({"enum": ["a"], "description": "one letter"})";
    QTest::newRow("object with fields")
        << R"({"object": {"name": "string", "age": {"optional": "integer"}}})"
        << R"({"type": "object", "properties": {"name": {"type": "string"},
               "age": {"type": "integer"}}, "required": ["name"], "additionalProperties": false})";
    QTest::newRow("object null") << R"({"object": null})"
                                 << R"({"type": "object"})";
    // The test inputs go through nlohmann::json, which sorts keys: hence `required` in key order.
    QTest::newRow("fields mapping")
        << R"({"question": "string", "answers": ["string"]})"
        << R"({"type": "object", "properties": {"question": {"type": "string"},
               "answers": {"type": "array", "items": {"type": "string"}}},
               "required": ["answers", "question"], "additionalProperties": false})";
    QTest::newRow("nested fields")
        << R"({"person": {"name": "string"}})"
        << R"({"type": "object", "properties": {"person": {"type": "object",
               "properties": {"name": {"type": "string"}}, "required": ["name"],
               "additionalProperties": false}}, "required": ["person"],
               "additionalProperties": false})";
    QTest::newRow("field of any type") << R"({"x": null})"
                                       << R"({"type": "object", "properties": {"x": {}},
                                              "required": ["x"], "additionalProperties": false})";
    QTest::newRow("optional with other keys is a field named optional")
        << R"({"optional": "string", "b": "integer"})"
        << R"({"type": "object", "properties": {"optional": {"type": "string"},
               "b": {"type": "integer"}}, "required": ["b", "optional"],
               "additionalProperties": false})";
    QTest::newRow("json schema passthrough") << R"({"type": "string", "minLength": 1})"
                                             << R"({"type": "string", "minLength": 1})";
    QTest::newRow("json schema type list") << R"({"type": ["string", "null"]})"
                                           << R"({"type": ["string", "null"]})";
    QTest::newRow("json schema nested unchanged")
        << R"({"type": "object", "properties": {"x": {"type": "integer"}}})"
        << R"({"type": "object", "properties": {"x": {"type": "integer"}}})";
    QTest::newRow("optional of list") << R"({"optional": ["integer"]})"
                                      << R"({"anyOf": [{"type": "array", "items": {"type":
                                             "integer"}}, {"type": "null"}]})";
}

void TestPdlType::toJsonSchema()
{
    QFETCH(QString, type);
    QFETCH(QString, schema);
    std::vector<hako::Diagnostic> warnings;
    auto result = pdlTypeToJsonSchema(parse(type), false, &warnings);
    QVERIFY2(result.ok(), qPrintable(result ? QString() : result.error().message));
    QCOMPARE(QString::fromStdString(result->toJson().dump()),
             QString::fromStdString(nlohmann::json::parse(schema.toStdString()).dump()));
    QVERIFY(warnings.empty());
    QVERIFY(JsonSchema::compile(*result).ok());
}

void TestPdlType::fieldOrderIsKept()
{
    Dict fields;
    fields.set("zeta", Value("string"));
    fields.set("alpha", Value(Dict{{Value("optional"), Value("integer")}}));
    fields.set("mid", Value("boolean"));
    auto result = pdlTypeToJsonSchema(Value(fields));
    QVERIFY(result.ok());
    QCOMPARE(QString::fromStdString(result->json()),
             QStringLiteral(R"({"type": "object", "properties": {"zeta": {"type": "string"}, )"
                            R"("alpha": {"type": "integer"}, "mid": {"type": "boolean"}}, )"
                            R"("required": ["zeta", "mid"], "additionalProperties": false})"));
}

void TestPdlType::openObjects()
{
    auto closed = pdlTypeToJsonSchema(parse(R"({"a": "string"})"), false);
    auto open = pdlTypeToJsonSchema(parse(R"({"a": "string"})"), true);
    QVERIFY(closed.ok() && open.ok());
    QVERIFY(closed->asDict().find("additionalProperties"));
    QVERIFY(!open->asDict().find("additionalProperties"));
    auto schema = JsonSchema::compile(*open);
    QVERIFY(schema.ok());
    QVERIFY(schema->isValid(parse(R"({"a": "x", "b": 1})")));
}

void TestPdlType::deprecatedNamesWarn_data()
{
    QTest::addColumn<QString>("old");
    QTest::addColumn<QString>("current");
    QTest::newRow("bool") << "bool"
                          << "boolean";
    QTest::newRow("str") << "str"
                         << "string";
    QTest::newRow("float") << "float"
                           << "number";
    QTest::newRow("int") << "int"
                         << "integer";
    QTest::newRow("list") << "list"
                          << "array";
    QTest::newRow("obj") << "obj"
                         << "object";
}

void TestPdlType::deprecatedNamesWarn()
{
    QFETCH(QString, old);
    QFETCH(QString, current);
    std::vector<hako::Diagnostic> warnings;
    // Inside a list, so the warning must come from the nested conversion.
    auto result = pdlTypeToJsonSchema(Value(List{Value(old.toStdString())}), false, &warnings);
    QVERIFY(result.ok());
    QCOMPARE(QString::fromStdString(result->toJson().dump()),
             QStringLiteral(R"({"items":{"type":"%1"},"type":"array"})").arg(current));
    QCOMPARE(warnings.size(), size_t(1));
    QCOMPARE(warnings[0].severity, hako::Severity::Warning);
    QCOMPARE(warnings[0].message,
             QStringLiteral("Deprecated type syntax: use %1 instead of %2").arg(current, old));
}

void TestPdlType::invalidTypes_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown name") << R"("strng")"
                                  << R"(invalid PDL type "strng": unknown type)";
    QTest::newRow("two element list") << R"(["string", "integer"])"
                                      << "a list type has exactly one element type";
    QTest::newRow("empty list") << "[]"
                                << "a list type has exactly one element type";
    QTest::newRow("number") << "3"
                            << "invalid PDL type 3: a type is a name";
    QTest::newRow("bool") << "true"
                          << "invalid PDL type true";
    QTest::newRow("bad field") << R"({"a": {"b": "nope"}})"
                               << R"(invalid PDL type "nope" at a.b: unknown type name)";
    QTest::newRow("object not mapping") << R"({"object": 3})"
                                        << "'object' takes a mapping";
    QTest::newRow("bad list element") << R"([{"x": 1}])"
                                      << "invalid PDL type 1 at [0].x";
}

void TestPdlType::invalidTypes()
{
    QFETCH(QString, type);
    QFETCH(QString, message);
    auto result = pdlTypeToJsonSchema(parse(type));
    QVERIFY(!result.ok());
    QVERIFY2(result.error().message.contains(message), qPrintable(result.error().message));
    QString why;
    QVERIFY(!isPdlType(parse(type), &why));
    QCOMPARE(why, result.error().message);
}

void TestPdlType::checking_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("error"); // empty when valid; else the first error

    const QString person = R"({"name": "string", "age": {"optional": "integer"}})";
    QTest::newRow("person ok") << person << R"({"name": "Ada", "age": 36})"
                               << "";
    QTest::newRow("person without age") << person << R"({"name": "Ada"})"
                                        << "";
    QTest::newRow("optional field is not nullable") << person << R"({"name": "Ada", "age": null})"
                                                    << "$.age: expected integer, got null";
    QTest::newRow("missing field") << person << "{}"
                                   << "$: missing required property 'name'";
    QTest::newRow("extra field") << person << R"({"name": "Ada", "x": 1})"
                                 << "$: unexpected property 'x'";
    QTest::newRow("optional null") << R"({"optional": "string"})"
                                   << "null"
                                   << "";
    QTest::newRow("optional wrong") << R"({"optional": "string"})"
                                    << "3"
                                    << "$: expected string or null, got 3";
    QTest::newRow("integral float is integer") << R"(["integer"])"
                                               << "[1, 2.0]"
                                               << "";
    QTest::newRow("bool is not integer") << R"(["integer"])"
                                         << "[1, true]"
                                         << "$[1]: expected integer, got true";
    QTest::newRow("enum") << R"({"enum": ["yes", "no"]})"
                          << R"("maybe")"
                          << R"($: expected one of "yes", "no", got "maybe")";
    QTest::newRow("enum is not python equality") << R"({"enum": [1]})"
                                                 << "true"
                                                 << "$: expected one of 1, got true";
    QTest::newRow("any") << "null"
                         << R"({"whatever": [1]})"
                         << "";
    QTest::newRow("passthrough constraint") << R"({"type": "string", "maxLength": 3})"
                                            << R"("abcd")"
                                            << "$: expected at most 3 characters, got 4";
}

void TestPdlType::checking()
{
    QFETCH(QString, type);
    QFETCH(QString, value);
    QFETCH(QString, error);
    auto schema = compilePdlType(parse(type));
    QVERIFY2(schema.ok(), qPrintable(schema ? QString() : schema.error().message));
    const auto errors = schema->validate(parse(value));
    QCOMPARE(errors.empty() ? QString() : QString::fromStdString(errors[0].toString()), error);
    QCOMPARE(schema->isValid(parse(value)), error.isEmpty());
}

QTEST_GUILESS_MAIN(TestPdlType)
#include "tst_pdltype.moc"
