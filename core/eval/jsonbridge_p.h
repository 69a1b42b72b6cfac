#pragma once
// QJsonValue <-> pdl::Value, for the JSON Schema validator and the model port (private).

#include "core/pdl/value.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <nlohmann/json.hpp>

namespace hako::eval {

inline pdl::Value toPdlValue(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return pdl::Value();
    case QJsonValue::Bool:
        return pdl::Value(v.toBool());
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (d == double(int64_t(d)) && d > -9.0e15 && d < 9.0e15)
            return pdl::Value(int64_t(d));
        return pdl::Value(d);
    }
    case QJsonValue::String:
        return pdl::Value(v.toString().toStdString());
    case QJsonValue::Array: {
        pdl::List items;
        for (const QJsonValue& x : v.toArray())
            items.push_back(toPdlValue(x));
        return pdl::Value(std::move(items));
    }
    case QJsonValue::Object: {
        pdl::Dict d;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            d.set(it.key().toStdString(), toPdlValue(it.value()));
        return pdl::Value(std::move(d));
    }
    }
    return pdl::Value();
}

inline QJsonValue fromPdlValue(const pdl::Value& v)
{
    const QByteArray text = QByteArray::fromStdString("[" + v.json() + "]");
    return QJsonDocument::fromJson(text).array().at(0);
}

} // namespace hako::eval
