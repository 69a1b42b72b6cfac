#pragma once
// The one bridge between PDL values and Qt's JSON types (QJsonValue, QJsonObject, JSON text).

#include "core/pdl/value.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <optional>

namespace hako::pdl {

/// Deepest nesting of lists/dicts (arrays/objects) either direction converts; deeper input throws
/// EvalError, as Value::fromJson does, so that no conversion can exhaust the stack.
inline constexpr int kMaxValueJsonDepth = 1000;

/// A PDL value as a QJsonValue. Null, undefined and callables become null; ints stay exact over
/// the whole int64 range (Qt 6 keeps integers); NaN and ±infinity become null (JSON has no
/// spelling for them); dict keys that are not strings become their JSON text (`1`, `true`), as
/// json.dumps does. QJsonObject sorts its keys, so a dict's own key order is not kept: use
/// toJsonText() where the order matters. Throws EvalError past kMaxValueJsonDepth. Reentrant.
QJsonValue toQJsonValue(const Value& value);
/// toQJsonValue() of a dict (or an empty object for anything that is not a dict).
QJsonObject toQJsonObject(const Value& value);
QJsonObject toQJsonObject(const Dict& dict);

/// A QJsonValue as a PDL value. Integers (how Qt stores every whole number, including 2.0 and
/// -0.0) become Int, other numbers Float; undefined becomes null; objects become dicts in
/// QJsonObject's (sorted) key order. Throws EvalError past kMaxValueJsonDepth. Reentrant.
Value fromQJsonValue(const QJsonValue& value);
/// fromQJsonValue() of an object, as a dict.
Dict fromQJsonObject(const QJsonObject& object);

/// A PDL value as compact UTF-8 JSON text in the dict's own key order (Value::toOrderedJson; NaN
/// and infinity become null). Throws EvalError past kMaxValueJsonDepth. Reentrant.
QByteArray toJsonText(const Value& value);
/// JSON text as a PDL value, keeping the document's key order; nullopt when the text is not
/// JSON or is nested deeper than kMaxValueJsonDepth. Reentrant.
std::optional<Value> fromJsonText(const QByteArray& text);

} // namespace hako::pdl
