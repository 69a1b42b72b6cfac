#pragma once
// PDL function values as other parts of the language see them (stdlib, traces), without the
// interpreter's private closure type.

#include "core/pdl/value.h"

namespace hako::pdl {

struct FunctionBlock;

/// The function block behind `fn` when it is a PDL function (a `def:`/`function:` closure made
/// by the interpreter), nullptr for any other callable (a builtin, a Python object). Pure.
const FunctionBlock* pdlFunctionBlock(const Callable& fn);

} // namespace hako::pdl
