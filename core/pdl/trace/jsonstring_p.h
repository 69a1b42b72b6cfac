#pragma once

#include <string>
#include <string_view>

namespace hako::pdl {

/// Whether a JSON string's content (between the quotes, escapes as written) holds an escape
/// or a control character, i.e. is not its own text. Thread-safe.
bool jsonStringNeedsUnescape(std::string_view raw);

/// A JSON string's content → its text in `out`. False on what a strict JSON parser refuses:
/// a control character, an unknown or short escape, a lone surrogate. Thread-safe.
bool unescapeJsonString(std::string_view raw, std::string& out);

} // namespace hako::pdl
