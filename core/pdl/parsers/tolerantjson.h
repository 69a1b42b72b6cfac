#pragma once

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <string_view>

namespace hako::pdl::parsers {

/// Parses `text` as strict JSON (Python's json.loads: NaN/Infinity accepted, surrounding
/// whitespace allowed). Object key order is kept; a repeated key keeps its first place and its
/// last value. On failure the Diagnostic says what was expected and where ("line 1 column 5
/// (char 4)"), with the span's line/column pointing into `text` (no file). Thread-safe.
Result<Value> parseStrictJson(std::string_view text);

/// Parses the JSON a language model replied with. Strict JSON first; then, in order of
/// preference, the content of a ```json (or plain ```) fence and the first `{` or `[` from which
/// a value parses, each read with repairs for the usual slips: trailing commas, missing commas
/// between items, single-quoted strings, unquoted keys and words, Python True/False/None,
/// `//`, `/* */` and `#` comments, raw newlines in strings and, as a last resort, a reply cut
/// off before its closing brackets. When nothing parses the Diagnostic is the strict parser's
/// (with its position). Thread-safe; linear in the text's size.
Result<Value> parseTolerantJson(std::string_view text);

} // namespace hako::pdl::parsers
