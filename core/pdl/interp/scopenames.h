#pragma once

#include <string_view>

namespace hako::pdl {

/// Whether `name` is a variable a run gets from Hako rather than from the program: the
/// interpreter's own (`pdl_context`, `pdl_scope`, `pdl_usage`, …, `stdlib`) and the report object
/// the run's environment gives a program that calls it (`report`). The lists of a program's
/// variables (the debugger's, a trace's rebuilt scope) leave them out or put them last.
inline bool isBuiltinScopeName(std::string_view name)
{
    return name.substr(0, 4) == "pdl_" || name == "stdlib" || name == "report";
}

} // namespace hako::pdl
