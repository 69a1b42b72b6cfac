#pragma once

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <string_view>

namespace hako::pdl::parsers {

/// Reads `text` as Python's `list(csv.reader(io.StringIO(text)))` with the default (excel)
/// dialect: `,` separates fields, `"` quotes them, `""` inside quotes is one `"`, quoted
/// fields may hold newlines, a blank line is an empty row, `\r\n` ends a line like `\n`.
/// Returns a list of lists of strings. Like Python (non-strict), text after a closing quote is
/// kept and an unterminated quote runs to the end; a lone `\r` inside an unquoted field is an
/// error, as in Python. Thread-safe.
Result<Value> readCsv(std::string_view text);

} // namespace hako::pdl::parsers
