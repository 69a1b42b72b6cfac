#pragma once

#include "core/pdl/ast/block.h"
#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace hako::pdl {

/// Applies a block's `parser` to the block's text result, as the reference interpreter does:
/// - json: parseTolerantJson (strict JSON, then repairs of LLM-style slips);
/// - jsonl: one strict JSON value per non-blank line → a list;
/// - yaml: PyYAML safe_load typing (core/pdl/parser/yamlvalue.h);
/// - csv: Python's csv.reader → a list of lists of strings;
/// - regex: Python `re` with flags=re.MULTILINE; see parseRegexOutput.
/// Kind::None returns the text unchanged; Kind::Pdl is the interpreter's (an error here).
/// Errors say what failed and where inside `text`; their span is `parser.span` (the `parser`
/// field in the program) so the caller can point at the source. The result is not checked
/// against `parser.spec`: that is the caller's job. Thread-safe.
Result<Value> parseOutput(const ParserSpec& parser, std::string_view text);

namespace parsers {

/// jsonl: every line that is not blank holds one JSON value (strict, like json.loads).
Result<Value> parseJsonl(std::string_view text);
/// yaml: one document, typed like PyYAML's safe_load; an empty text is None.
Result<Value> parseYaml(std::string_view text);

/// The reference's regex parser:
/// - search / match / fullmatch: no match → None; with a `spec` mapping (or `{obj: mapping}`)
///   a dict of the named groups listed in its keys (None for a group that did not take part;
///   an error for a name the pattern lacks); otherwise `list(m.groups())`.
/// - split: re.split (groups included); findall: re.findall (strings, or tuples of strings
///   for several groups).
/// `mode` is one of search, match, fullmatch, split, findall.
Result<Value> parseRegexOutput(std::string_view regex, std::string_view mode, const Value& spec,
                               std::string_view text);

/// The group names a regex parser's `spec` asks for (its keys), or empty when the spec is not
/// a mapping (then the parser returns the list of groups).
std::vector<std::string> regexSpecGroupNames(const Value& spec);

} // namespace parsers

} // namespace hako::pdl
