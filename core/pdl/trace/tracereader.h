#pragma once

#include "core/pdl/interp/tracenode.h"
#include "core/util/diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <QString>

#include <memory>
#include <unordered_map>

namespace hako::pdl {

/// Rebuilds a trace tree from trace JSON written by Hako or by the reference interpreter,
/// including older reference traces (`result`, `trace`, `context` without the `pdl__` prefix,
/// `requirements`). Nodes have kind, id, result, timing, location (when recorded), evaluated
/// expressions and children by field; `block` is null (the source may not exist).
TracePtr traceFromJson(const nlohmann::ordered_json& json);

/// Reads a trace file. Large files are fine (a 3 MB trace loads in tens of milliseconds).
Result<TracePtr> loadTraceFile(const QString& path);

/// The recorded results of the leaf blocks that reach outside the program (model, code, read,
/// command), by `pdl__id`, for a replay run. Null with `error` set when the file cannot be read.
std::shared_ptr<const std::unordered_map<std::string, Value>> loadReplayTable(const QString& path,
                                                                              QString* error);

} // namespace hako::pdl
