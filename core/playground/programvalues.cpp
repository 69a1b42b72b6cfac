#include "core/playground/programvalues.h"

#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/valuejson.h"

#include <optional>

namespace hako::playground {

namespace {

// Whether `v` holds a `${ }` anywhere (its value is computed when the program runs).
bool hasExpression(const pdl::YamlValue& v)
{
    if (v.isString())
        return v.scalar().asString().find("${") != std::string::npos;
    for (const pdl::YamlValue& item : v.items())
        if (hasExpression(item))
            return true;
    for (const pdl::YamlValue::Entry& e : v.entries())
        if (hasExpression(e.key) || hasExpression(e.value))
            return true;
    return false;
}

// The fields a `data:` block may carry beside its value and still be a plain value.
bool isPlainDataField(const std::string& name)
{
    return name == "data" || name == "raw" || name == "description" || name == "contribute" ||
           name == "spec";
}

// The plain value an entry of `defs:` holds, or nothing when it is computed.
std::optional<QJsonValue> plainValue(const pdl::YamlValue& v)
{
    const pdl::YamlValue* value = &v;
    bool raw = false;
    if (v.isMapping() && v.value("data")) {
        for (const pdl::YamlValue::Entry& e : v.entries())
            if (!isPlainDataField(e.name))
                return std::nullopt;
        const pdl::YamlValue* r = v.value("raw");
        raw = r && r->scalar().isBool() && r->scalar().asBool();
        value = v.value("data");
    } else if (v.isMapping()) {
        // A mapping of PDL keywords is a block (`model:`, `read:`, `text:`, …), not a record:
        // a record is only taken when it is a `data:` value.
        return std::nullopt;
    }
    if (!raw && hasExpression(*value))
        return std::nullopt;
    try {
        return pdl::toQJsonValue(value->toValue());
    } catch (const std::exception&) {
        return std::nullopt; // nested too deeply to hand over
    }
}

} // namespace

QJsonObject programOwnValues(const pdl::YamlValue* document)
{
    QJsonObject values;
    const pdl::YamlValue* defs =
        document && document->isMapping() ? document->value("defs") : nullptr;
    if (!defs || !defs->isMapping())
        return values;
    for (const pdl::YamlValue::Entry& e : defs->entries())
        if (const std::optional<QJsonValue> v = plainValue(e.value))
            values.insert(QString::fromStdString(e.name), *v);
    return values;
}

} // namespace hako::playground
