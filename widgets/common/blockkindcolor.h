#pragma once

#include "core/pdl/ast/block.h"

#include <QColor>
#include <QPalette>

namespace hako {

/// The one table of block-kind colours: boxes, their legend, the trace tree, the timeline and
/// the detail pane all take a kind's colour from here. Every kind has its own colour, none close
/// to failureColor() (only pdl::BlockKind::Error has that). Lighter for dark palettes.
QColor blockKindColor(pdl::BlockKind kind, bool dark);
/// The colour of failure (failed blocks, error nodes); only pdl::BlockKind::Error has it.
QColor failureColor(bool dark);
/// blockKindColor mixed into the palette's base: a background that keeps text readable, of
/// the same hue.
QColor blockKindTint(pdl::BlockKind kind, const QPalette& palette);

} // namespace hako
