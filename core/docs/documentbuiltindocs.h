#pragma once

#include "core/pdl/lang/builtindocs.h"

namespace hako::docs {

/// Hover and completion help for the `doc` object PDL programs get from
/// `hako run --document FILE` (makeDocumentBindings): the object itself and each of its
/// functions. Pure; safe on any thread.
QList<pdl::BuiltinDoc> documentBuiltinDocs();

} // namespace hako::docs
