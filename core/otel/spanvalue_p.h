#pragma once

#include "core/otel/span.h"
#include "core/pdl/value.h"

#include <QJsonValue>

#include <string>

namespace hako::otel {

/// `s` as a string Value shared with every other span's equal short string (keys of messages
/// and dicts, roles, model, service and scope names, a parent's id repeat in thousands of spans,
/// and a Value shares its text). A pool per thread, bounded; longer strings are not pooled.
pdl::Value sharedText(std::string_view s);

/// Value::fromJson with the short strings shared (sharedText): the same value, the same depth
/// limit and error (EvalError). Any thread.
pdl::Value spanValue(const Attributes& json);

/// The same JSON as Qt's: what QJsonDocument reads from nlohmann's text of it (NaN and infinity
/// null, an integer past int64 a double, text that is not UTF-8 with U+FFFD), without the text.
/// Any thread.
QJsonValue spanQJson(const Attributes& json);

} // namespace hako::otel
