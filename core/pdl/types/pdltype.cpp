#include "core/pdl/types/pdltype.h"

#include "core/pdl/types/jsonschema.h"

#include <string_view>

namespace hako::pdl {

namespace {

struct TypeError {
    std::string message;
};

const char* jsonSchemaTypeName(std::string_view name)
{
    static const char* const names[] = {"null",    "boolean", "string", "number",
                                        "integer", "array",   "object"};
    for (const char* n : names) {
        if (name == n)
            return n;
    }
    return nullptr;
}

const char* deprecatedTypeName(std::string_view name)
{
    static const std::pair<const char*, const char*> names[] = {
        {"bool", "boolean"}, {"str", "string"}, {"float", "number"},
        {"int", "integer"},  {"list", "array"}, {"obj", "object"}};
    for (const auto& [old, current] : names) {
        if (name == old)
            return current;
    }
    return nullptr;
}

Value typeSchema(const char* name)
{
    Dict d;
    d.set("type", Value(name));
    return Value(std::move(d));
}

/// `{optional: T}` and nothing else, as the reference's OptionalPdlType (extra keys forbidden).
const Value* optionalInner(const Value& t)
{
    if (!t.isDict() || t.asDict().size() != 1)
        return nullptr;
    return t.asDict().find("optional");
}

class Converter {
public:
    Converter(bool additionalProperties, std::vector<Diagnostic>* warnings)
        : m_additional(additionalProperties), m_warnings(warnings)
    {}

    Value convert(const Value& t, const std::string& where)
    {
        switch (t.type()) {
        case Value::Type::Null:
            return Value(Dict{});
        case Value::Type::String: {
            const std::string& name = t.asString();
            if (const char* n = jsonSchemaTypeName(name))
                return typeSchema(n);
            if (const char* n = deprecatedTypeName(name)) {
                if (m_warnings) {
                    m_warnings->push_back(
                        {Severity::Warning,
                         QStringLiteral("Deprecated type syntax: use %1 instead of %2")
                             .arg(QLatin1String(n), QString::fromStdString(name)),
                         {}});
                }
                return typeSchema(n);
            }
            fail(where, t,
                 "unknown type name (expected null, boolean, string, number, integer, array "
                 "or object)");
        }
        case Value::Type::List: {
            const List& items = t.asList();
            if (items.size() != 1)
                fail(where, t, "a list type has exactly one element type, e.g. [string]");
            Dict d;
            d.set("type", Value("array"));
            d.set("items", convert(items[0], where + "[0]"));
            return Value(std::move(d));
        }
        case Value::Type::Dict:
            return convertDict(t, where);
        default:
            fail(where, t, "a type is a name, a one-element list or a mapping");
        }
    }

private:
    [[noreturn]] void fail(const std::string& where, const Value& t, const std::string& why)
    {
        std::string at = where.empty() ? std::string() : " at " + where;
        throw TypeError{"invalid PDL type " + t.json() + at + ": " + why};
    }

    Value convertDict(const Value& t, const std::string& where)
    {
        const Dict& dict = t.asDict();
        if (const Value* choices = dict.find("enum"); choices && choices->isList()) {
            Dict d;
            d.set("enum", *choices);
            for (const auto& [k, v] : dict) {
                if (!(k.isString() && k.asString() == "enum"))
                    d.set(k, v);
            }
            return Value(std::move(d));
        }
        if (const Value* inner = optionalInner(t)) {
            Dict d;
            d.set("anyOf", Value(List{convert(*inner, where + ".optional"), typeSchema("null")}));
            return Value(std::move(d));
        }
        if (const Value* type = dict.find("type"); type && isSchemaType(*type))
            return t; // a JSON Schema, passed through as the reference does
        if (dict.size() == 1) {
            if (const Value* fields = dict.find("object")) {
                if (fields->isNull())
                    return typeSchema("object");
                if (!fields->isDict())
                    fail(where, t, "'object' takes a mapping of field names to types");
                return objectSchema(fields->asDict(), where);
            }
        }
        return objectSchema(dict, where);
    }

    static bool isSchemaType(const Value& type)
    {
        if (type.isString())
            return true;
        if (!type.isList())
            return false;
        for (const Value& item : type.asList()) {
            if (!item.isString())
                return false;
        }
        return true;
    }

    Value objectSchema(const Dict& fields, const std::string& where)
    {
        Dict properties;
        List required;
        for (const auto& [key, fieldType] : fields) {
            if (!key.isString())
                fail(where, key, "field names must be strings");
            const std::string& name = key.asString();
            const std::string at = where.empty() ? name : where + "." + name;
            if (const Value* inner = optionalInner(fieldType)) {
                properties.set(key, convert(*inner, at));
            } else {
                properties.set(key, convert(fieldType, at));
                required.push_back(key);
            }
        }
        Dict d;
        d.set("type", Value("object"));
        d.set("properties", Value(std::move(properties)));
        d.set("required", Value(std::move(required)));
        if (!m_additional)
            d.set("additionalProperties", Value(false));
        return Value(std::move(d));
    }

    bool m_additional;
    std::vector<Diagnostic>* m_warnings;
};

} // namespace

Result<Value> pdlTypeToJsonSchema(const Value& type, bool additionalProperties,
                                  std::vector<Diagnostic>* warnings)
{
    try {
        return Converter(additionalProperties, warnings).convert(type, {});
    } catch (const TypeError& e) {
        return makeError(QString::fromStdString(e.message));
    }
}

Result<JsonSchema> compilePdlType(const Value& type, bool additionalProperties,
                                  std::vector<Diagnostic>* warnings)
{
    Result<Value> schema = pdlTypeToJsonSchema(type, additionalProperties, warnings);
    if (!schema)
        return schema.error();
    return JsonSchema::compile(*schema);
}

bool isPdlType(const Value& type, QString* why)
{
    Result<JsonSchema> compiled = compilePdlType(type);
    if (!compiled && why)
        *why = compiled.error().message;
    return compiled.ok();
}

} // namespace hako::pdl
