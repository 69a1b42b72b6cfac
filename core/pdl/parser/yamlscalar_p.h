#pragma once

// Private to the YAML loader (yamlvalue.cpp): PyYAML's scalar resolver.

#include <cstdint>
#include <optional>
#include <string_view>

namespace hako::pdl {

enum class IntParse { NotInt, Ok, Overflow };

/// PyYAML's int forms (binary, octal `0…`, decimal, hex, sexagesimal, underscores).
IntParse parseYamlInt(std::string_view s, int64_t& out);
/// PyYAML's float forms (`1.5`, `.5`, `1e3` only with a dot, sexagesimal, `.inf`, `.nan`).
std::optional<double> parseYamlFloat(std::string_view s);
/// PyYAML's booleans (yes/no/on/off/true/false in its three casings).
bool isYamlBool(std::string_view s, bool& out);
/// PyYAML's nulls (`~`, `null`, `Null`, `NULL`, empty).
bool isYamlNull(std::string_view s);

} // namespace hako::pdl
