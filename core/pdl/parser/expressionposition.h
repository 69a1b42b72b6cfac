#pragma once

#include "core/util/diagnostic.h"

#include <QStringList>

#include <string>

namespace hako::pdl {

/// Maps a position inside an expression string (1-based line/column, code points) to the file,
/// given the string's span and the file's lines. Handles plain, quoted and block scalars by
/// locating the string's first line in the source.
SourceSpan mapExpressionPosition(const QStringList& fileLines, const std::string& source,
                                 const SourceSpan& stringSpan, int line, int column);

} // namespace hako::pdl
