#pragma once

#include "core/pdl/interp/tracenode.h"

#include <nlohmann/json_fwd.hpp>

#include <QString>

#include <string>

namespace hako::pdl {

/// The reference interpreter's trace JSON for `node` and its subtree (`kind`, `pdl__id`,
/// `pdl__result`, `pdl__timing`, `pdl__is_leaf`, `{pdl__expr, pdl__result}` records, children
/// in their fields, `pdl__trace` for iterations and calls), plus Hako's `pdl__location` on
/// every block. A failed block is written as `{kind: error, msg, program}`.
nlohmann::ordered_json traceToJson(const TraceNode& node);
/// The same JSON as text (what trace files hold), written directly without a JSON tree.
std::string traceToString(const TraceNode& node);

/// Writes the trace of a run to `path` atomically (QSaveFile): a crash mid-write leaves the old
/// file. Returns false with `error` set on failure.
bool writeTraceFile(const TraceNode& root, const QString& path, QString* error);

} // namespace hako::pdl
