#include "core/pdl/valuejson.h"

#include <QCborValue>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace hako::pdl {

namespace {

void checkDepth(int depth)
{
    if (depth > kMaxValueJsonDepth)
        throw EvalError("JSON nested deeper than " + std::to_string(kMaxValueJsonDepth) +
                        " levels");
}

QString keyText(const Value& key)
{
    return QString::fromStdString(key.isString() ? key.asString() : key.json());
}

QJsonValue toQJson(const Value& v, int depth)
{
    switch (v.type()) {
    case Value::Type::Undefined:
    case Value::Type::Null:
    case Value::Type::Callable:
        return QJsonValue(QJsonValue::Null);
    case Value::Type::Bool:
        return QJsonValue(v.asBool());
    case Value::Type::Int:
        return QJsonValue(qint64(v.asInt()));
    case Value::Type::Float:
        // Qt would store NaN/infinity and write them as null anyway; say so up front.
        return std::isfinite(v.asFloat()) ? QJsonValue(v.asFloat()) : QJsonValue(QJsonValue::Null);
    case Value::Type::String:
        return QJsonValue(QString::fromStdString(v.asString()));
    case Value::Type::List: {
        checkDepth(depth + 1);
        QJsonArray array;
        for (const Value& item : v.asList())
            array.append(toQJson(item, depth + 1));
        return array;
    }
    case Value::Type::Dict: {
        checkDepth(depth + 1);
        QJsonObject object;
        for (const auto& [key, item] : v.asDict())
            object.insert(keyText(key), toQJson(item, depth + 1));
        return object;
    }
    }
    return QJsonValue(QJsonValue::Null);
}

Value fromQJson(const QJsonValue& v, int depth)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return Value();
    case QJsonValue::Bool:
        return Value(v.toBool());
    case QJsonValue::Double: {
        // QJsonValue does not say publicly whether it holds an integer; its CBOR form does, and
        // keeps integers beyond 2^53 exact where toDouble() would round them.
        const QCborValue c = QCborValue::fromJsonValue(v);
        if (c.isInteger())
            return Value(int64_t(c.toInteger()));
        return Value(v.toDouble());
    }
    case QJsonValue::String:
        return Value(v.toString().toStdString());
    case QJsonValue::Array: {
        checkDepth(depth + 1);
        const QJsonArray array = v.toArray();
        List items;
        items.reserve(size_t(array.size()));
        for (const QJsonValue& item : array)
            items.push_back(fromQJson(item, depth + 1));
        return Value(std::move(items));
    }
    case QJsonValue::Object: {
        checkDepth(depth + 1);
        const QJsonObject object = v.toObject();
        Dict dict;
        for (auto it = object.begin(); it != object.end(); ++it)
            dict.set(it.key().toStdString(), fromQJson(it.value(), depth + 1));
        return Value(std::move(dict));
    }
    }
    return Value();
}

void nullNonFinite(nlohmann::ordered_json& j)
{
    if (j.is_number_float() && !std::isfinite(j.get<double>()))
        j = nullptr;
    else if (j.is_structured())
        for (auto& item : j)
            nullNonFinite(item);
}

} // namespace

QJsonValue toQJsonValue(const Value& value)
{
    return toQJson(value, 0);
}

QJsonObject toQJsonObject(const Value& value)
{
    return value.isDict() ? toQJson(value, 0).toObject() : QJsonObject();
}

QJsonObject toQJsonObject(const Dict& dict)
{
    return toQJson(Value(dict), 0).toObject();
}

Value fromQJsonValue(const QJsonValue& value)
{
    return fromQJson(value, 0);
}

Dict fromQJsonObject(const QJsonObject& object)
{
    return fromQJson(object, 0).asDict();
}

QByteArray toJsonText(const Value& value)
{
    if (value.nestingDepth() > kMaxValueJsonDepth)
        checkDepth(value.nestingDepth());
    nlohmann::ordered_json j = value.toOrderedJson();
    nullNonFinite(j);
    return QByteArray::fromStdString(
        j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

std::optional<Value> fromJsonText(const QByteArray& text)
{
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(
        text.constData(), text.constData() + text.size(), nullptr, false);
    if (j.is_discarded())
        return std::nullopt;
    try {
        Value v = Value::fromJson(j);
        if (v.nestingDepth() > kMaxValueJsonDepth)
            return std::nullopt;
        return v;
    } catch (const EvalError&) {
        return std::nullopt;
    }
}

} // namespace hako::pdl
