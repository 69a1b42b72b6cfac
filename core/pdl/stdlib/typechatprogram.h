#pragma once

#include "core/pdl/value.h"

#include <string>
#include <vector>

namespace hako::models {

/// TypeChat's JSON programs run against PDL functions:
/// `{"@steps": [{"@func": "mul", "@args": [2, 3]}, {"@func": "add", "@args": [{"@ref": 0}, 4]}]}`.
/// An argument is a JSON value, a nested call `{"@func", "@args"}` or `{"@ref": i}` (the result
/// of an earlier step i, counted from 0); objects and arrays are evaluated member by member.
/// The "API" is the set of callable functions: a dict name → function (`${ {"add": add} }`) or a
/// list of PDL functions defined with `def:` (`${ [add, mul] }`, named by it).
///
/// PDL programs reach it as `stdlib.typechat`: `validate_program(program, api)` (a list of
/// problems, empty when valid), `run_program(program, api)` (validates, then calls each step in
/// order and returns the last step's result; errors name the step) and `describe_api(api)`
/// (TypeScript-like signatures and the program format, for the prompt). A program may also be
/// given as JSON text.
///
/// Threading: stateless; functions are called on the evaluating thread, as any expression call.
class TypeChatProgram {
public:
    /// The problems of `program` against `api`, each naming the step (`step 1 ('add'): …`).
    /// Arguments written literally are checked against the PDL function's parameter types.
    static std::vector<std::string> validate(const pdl::Value& program, const pdl::Value& api);

    /// Validates and evaluates `program`; throws pdl::EvalError naming the step on failure.
    static pdl::Value run(const pdl::Value& program, const pdl::Value& api);

    /// The API as TypeScript-like declarations, with the program format explained.
    static std::string describeApi(const pdl::Value& api);

    /// The `stdlib.typechat` module: validate_program, run_program, describe_api.
    static pdl::Value stdlibModule();
};

} // namespace hako::models
