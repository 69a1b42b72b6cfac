#pragma once

#include "core/pdl/value.h"

#include <string_view>

namespace hako::pdl::builtins {

/// Jinja2 filters, tests, globals and the Python methods of str/list/dict values, with Python
/// semantics. Every function throws EvalError with a user-readable message on bad input.
/// All functions are pure and thread-safe.

/// A filter: `value | name(args)`. `value` may be Undefined only for filters that accept it
/// (default/d); the others throw "'x' is undefined".
using FilterFn = Value (*)(const Value& value, const CallArgs& args);
/// A test: `value is name(args)`. `value` may be Undefined (defined/undefined accept it).
using TestFn = bool (*)(const Value& value, const CallArgs& args);

/// The filter named `name`, or nullptr. Resolve once at parse time, call many times.
FilterFn findFilter(std::string_view name);
/// The test named `name` (including operator spellings like `==`, `eq`, `lessthan`), or nullptr.
TestFn findTest(std::string_view name);
/// Whether the filter or test accepts an Undefined input (default, d, defined, undefined).
bool filterAcceptsUndefined(std::string_view name);
bool testAcceptsUndefined(std::string_view name);

/// Whether `self`'s Python type has method `name` (str.split, list.index, dict.items, ...).
bool hasMethod(const Value& self, std::string_view name);
/// Calls method `name` of `self`. Throws EvalError when there is no such method.
Value callMethod(const Value& self, std::string_view name, const CallArgs& args);

/// Python's `list(value)`: the items of a list, the keys of a dict in order, the characters of
/// a string. Throws EvalError for a value that is not iterable. Thread-safe.
List listOf(const Value& value);

/// Jinja's `obj.name`: a method becomes a bound callable; otherwise `obj[name]`; otherwise
/// Undefined (named after the attribute).
Value getAttribute(const Value& obj, std::string_view name);
/// Jinja's `obj[key]`: list/str indexes (negative allowed), dict keys; otherwise Undefined.
Value getItem(const Value& obj, const Value& key);
/// Python slicing `obj[start:stop:step]` of str/list/tuple; null bounds mean "omitted".
Value getSlice(const Value& obj, const Value& start, const Value& stop, const Value& step);

/// Global callables available in every expression: range, dict, lipsum, namespace, ...; or
/// nullptr when `name` is not a global.
const Value* findGlobal(std::string_view name);

/// Python `fmt % args` (the `format` filter), and `str.format(*args, **kwargs)`.
std::string percentFormat(std::string_view fmt, const Value& args);
std::string strFormat(std::string_view fmt, const CallArgs& args);

} // namespace hako::pdl::builtins
