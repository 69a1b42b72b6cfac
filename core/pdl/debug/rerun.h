#pragma once

#include "core/pdl/interp/interpreter.h"

#include <QString>

#include <memory>
#include <string>
#include <unordered_map>

namespace hako::pdl {

/// "Re-run from here": what a new run of a program reuses from a finished run's trace so that
/// everything before a chosen node is replayed and the node and everything after it run live.
struct RerunPlan {
    bool ok = false;
    QString error; ///< when !ok: why (no such node)
    std::string nodeId;
    /// Recorded leaf results (model replies, code results, reads) of the blocks that finished
    /// before the node started, by `pdl__id`.
    std::shared_ptr<const std::unordered_map<std::string, Value>> replay;
    /// The recorded nodes of those blocks (what they were asked: evaluated fields, prompt).
    std::shared_ptr<const std::unordered_map<std::string, TracePtr>> records;
    /// What each of those blocks was (kind and source, see blockSignature), to notice that the
    /// program changed since.
    std::shared_ptr<const std::unordered_map<std::string, std::string>> signatures;
    /// The chosen node's block as recorded: earlier executions of that same block (a loop's
    /// earlier iterations) are replayed even when the block was edited for the re-run.
    std::string nodeSignature;

    /// Sets options.replay and options.replayCheck: a block whose source no longer matches its
    /// recording ends the replay there (RunResult::replayDivergedAt).
    void apply(RunOptions& options) const;
};

/// The plan for re-running `root`'s program from the node `nodeId` (a `pdl__id`). Blocks that
/// finished before it started are the leaves met before it in execution order (defs, then the
/// children in their order) that are not among its ancestors.
RerunPlan planRerun(const TraceNode& root, const std::string& nodeId);

/// A block's kind and source (its YAML without Hako's and the reference's `pdl__*` run data, so
/// a block read back from a trace compares equal to its program's); a block without source
/// gives its kind alone.
std::string blockSignature(const Block& block);

} // namespace hako::pdl
