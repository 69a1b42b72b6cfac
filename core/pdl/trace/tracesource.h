#pragma once

#include "core/pdl/trace/tracemodel.h"
#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

namespace hako::pdl {

/// The source lines of `span` from the file it names (or `fallbackFile` when the span has no
/// file), with `context` lines around it, decoded as UTF-8. Returns the text and the 1-based
/// number of its first line. Reads only up to the last needed line. Any thread.
Result<std::pair<QString, int>>
readSourceSnippet(const SourceSpan& span, const QString& fallbackFile = {}, int context = 0);

/// A PDL (YAML) rendering of the block a trace item came from, rebuilt from the trace alone for
/// traces without source files or locations: kind, def, description, contribute, evaluated
/// fields (with their values: a trace keeps values, not the expressions) and the child blocks
/// in their fields, `pdl__` keys left out. `maxLines` bounds the output (a loop of 100,000
/// iterations is summarised). GUI thread (reads the model's items).
QString reconstructSource(const TraceItem* item, int maxLines = 400);

/// The variables visible at `item`: its captured scope when the run recorded one
/// (`node.hasScope`), else rebuilt from the trace — the results of `def`s of earlier siblings
/// of the item and of each ancestor (and the ancestors' `defs`), nearest definition winning,
/// in definition order. `reconstructed` tells which of the two it was.
std::vector<std::pair<QString, Value>> scopeAt(const TraceItem* item,
                                               bool* reconstructed = nullptr);

/// The def name of an item: its `def`, or for an entry of a block's `defs` the name in its
/// `pdl__id` (`text.defs.name.data` → `name`), else empty.
QString defName(const TraceItem* item);

} // namespace hako::pdl
