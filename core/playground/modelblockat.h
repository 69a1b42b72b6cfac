#pragma once

#include "core/util/diagnostic.h"

#include <optional>

namespace hako::pdl {
struct Program;
}

namespace hako::playground {

/// The model block around 1-based (line, column) of `program` — the innermost block read from
/// a mapping with a `model` field whose span holds the position — as its Block::span (what
/// promptFromSource() and saveToProgram() take); none when the position is in no model block.
/// Pure.
std::optional<SourceSpan> modelBlockAt(const pdl::Program& program, int line, int column);

} // namespace hako::playground
