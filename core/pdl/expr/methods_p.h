#pragma once

// Method tables of the Python types (str, list/tuple, dict). Not part of the public API.

#include "core/pdl/expr/builtins_p.h"

#include <string_view>
#include <unordered_map>

namespace hako::pdl::builtins::detail {

using MethodFn = Value (*)(const Value& self, const CallArgs& args);
using MethodTable = std::unordered_map<std::string_view, MethodFn>;

const MethodTable& strMethods();
const MethodTable& listMethods();
const MethodTable& tupleMethods();
const MethodTable& dictMethods();

} // namespace hako::pdl::builtins::detail
