#pragma once

#include "core/pdl/ast/block.h"

#include <string_view>

namespace hako::pdl {

/// The block kind a trace names in `kind` (Empty for names it does not know). Both trace
/// readers use it, so that they agree. Thread-safe.
BlockKind traceKindFromName(std::string_view name);

} // namespace hako::pdl
