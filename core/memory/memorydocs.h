#pragma once

#include "core/pdl/lang/builtindocs.h"

#include <QList>

namespace hako::memory {

/// Hover and completion documentation of the `memory` and `thread` objects a run gets with
/// `hako run --memory STORE` (see makeAgentBindings()) and of each of their functions.
/// A plain value; call from any thread.
QList<pdl::BuiltinDoc> memoryBuiltinDocs();

} // namespace hako::memory
