#pragma once

// Helpers shared by the builtins implementation files (filters, tests, methods, formatting).
// Not part of the public API.

#include "core/pdl/expr/builtins.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace hako::pdl::builtins::detail {

[[noreturn]] void fail(const std::string& message);

/// Throws Jinja's "'name' is undefined" for an Undefined value.
void requireDefined(const Value& v);

/// Binds `args` to the named parameters of a Python signature; a slot is nullptr when the
/// argument was not given. Throws on surplus, unknown or duplicate arguments.
std::vector<const Value*> bindArgs(std::string_view fn, const CallArgs& args,
                                   std::initializer_list<std::string_view> names);

/// Python's operator.index: ints and bools; other types throw a TypeError-like message.
int64_t toIndex(const Value& v);
/// Python's int() of a float: truncated toward zero; NaN, infinity and numbers past 64 bits
/// throw. Any thread.
int64_t truncateToInt(double d);
/// Python truthiness of an optional argument (nullptr → fallback).
bool argBool(const Value* v, bool fallback);
int64_t argInt(const Value* v, int64_t fallback);
/// The str() of an optional argument (nullptr → fallback).
std::string argStr(const Value* v, std::string_view fallback);

/// `list(value)`: characters of a string, items of a list, keys of a dict.
List iterate(const Value& v);

/// Jinja's make_attrgetter: `attribute` may be dotted ("a.b", "items.0"); missing → `dflt`
/// (or Undefined when dflt is nullptr). With `lowerStrings` string results are lowercased.
Value getAttrPath(const Value& item, const Value& attribute, const Value* dflt = nullptr,
                  bool lowerStrings = false);
/// Lowercases strings (Jinja's ignore_case), other values unchanged.
Value ignoreCase(const Value& v);

/// Calls a filter/test by name with `args`; throws when it does not exist.
Value applyFilter(std::string_view name, const Value& value, const CallArgs& args);
bool applyTest(std::string_view name, const Value& value, const CallArgs& args);

/// Undefined results of failed lookups: named after the attribute, or for other keys carrying
/// Jinja's message ("list object has no element 5"; the evaluator shows a name with spaces as
/// the whole message).
Value missingAttribute(const Value& obj, std::string_view name);
Value missingElement(const Value& obj, const Value& key);

/// A bound method object for `self.name`.
Value boundMethod(const Value& self, std::string_view name);

// --- Unicode (code points) -----------------------------------------------------------------

std::u32string u32(std::string_view s);
std::string u8(std::u32string_view s);

bool isPySpace(char32_t c);
bool isLineBreak(char32_t c);
bool isAlphaCp(char32_t c);
bool isDecimalCp(char32_t c);
bool isDigitCp(char32_t c);
bool isNumericCp(char32_t c);
bool isUpperCp(char32_t c);
bool isLowerCp(char32_t c);
bool isTitleCp(char32_t c);
/// Word character as in Python's `\w` (alphanumeric or underscore).
bool isWordCp(char32_t c);

std::string toUpper(std::string_view s);
std::string toLower(std::string_view s);
std::string caseFold(std::string_view s);
std::u32string upperCp(char32_t c);
std::u32string lowerCp(char32_t c);
std::u32string titleCp(char32_t c);
/// Python str.title / str.capitalize / str.swapcase.
std::string pyTitle(std::string_view s);
std::string pyCapitalize(std::string_view s);
std::string pySwapcase(std::string_view s);

/// Python's str.split()/strip() without arguments.
std::vector<std::u32string> splitWhitespace(const std::u32string& s, int64_t maxsplit,
                                            bool fromRight);
std::u32string stripChars(const std::u32string& s, const std::u32string* chars, bool left,
                          bool right);
std::vector<std::u32string> splitLines(const std::u32string& s, bool keepends);

/// Padding on code points: align '<' (ljust), '>' (rjust), '^' (format's centre) or 'c'
/// (str.center, which puts an odd space on the other side).
std::string padString(std::string_view s, int64_t width, char32_t fill, char align);

// --- formatting --------------------------------------------------------------------------

/// Python `format(value, spec)`.
std::string formatWithSpec(const Value& v, std::string_view spec);
/// Python int() of a string with a base (whitespace, sign, underscores, 0x prefixes).
bool parseInt(std::string_view s, int base, int64_t& out);
/// Python float() of a string.
bool parseFloat(std::string_view s, double& out);
/// json.dumps(sort_keys=sortKeys, indent=...): `indent` is the text of one level, nullptr for
/// the one-line form.
std::string dumpJson(const Value& v, bool sortKeys, const std::string* indent);

} // namespace hako::pdl::builtins::detail
