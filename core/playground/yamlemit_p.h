#pragma once

#include <QJsonValue>
#include <QString>

namespace hako::playground::detail {

/// How a string is written as a YAML scalar.
enum class ScalarStyle { Plain, SingleQuoted, DoubleQuoted, Literal };

/// True when `text` reads back as the same string when written plain (YAML 1.1 as PyYAML reads
/// it: no value that would become a number, bool or null; in flow context no `,[]{}`).
bool isPlainSafe(const QString& text, bool flow);

/// True when a literal block scalar (`|` or `|-`) keeps `text` exactly wherever it is put.
bool isLiteralSafe(const QString& text);

/// `text` as a double-quoted YAML scalar (JSON escapes, which YAML accepts).
QString doubleQuoted(const QString& text);

/// `text` as a scalar after `key: ` or `- `. `preferred` is the style to keep when it can hold
/// the text; otherwise plain when safe, a literal block (content lines indented by `indent`
/// spaces) for several lines in block context, else double-quoted. `flow`: inside `{…}`/`[…]`.
QString scalar(const QString& text, ScalarStyle preferred, int indent, bool flow);

/// A JSON value written as YAML: strings via scalar() (never a block), the rest as compact JSON
/// (valid YAML flow).
QString flowValue(const QJsonValue& value, bool flow);

} // namespace hako::playground::detail
