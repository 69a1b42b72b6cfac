#pragma once
// Between RunEnvironment (hako_run) and the bindings of the features it composes into a run,
// `doc` (hako_docs), `memory` and `thread` (hako_memory) and `report` (hako_reports), which live
// in the module libhako_runbindings (core/runbindings): a run given none of them (`hako run` of
// most programs) never loads those floors, nor what they load (uchardet).

namespace hako::pdl {
struct RunOptions;
}

namespace hako {

class RunEnvironment;

/// What the module gives. Both are called on any thread.
struct RunFeatureBindings {
    /// Sets `doc` (when environment.documentSession), `memory` and `thread` (when
    /// environment.memoryStore) and, with `report`, `report` in options.initialScope, over
    /// options.models (already composed).
    void (*bind)(const RunEnvironment& environment, pdl::RunOptions& options, bool report);
    /// Registers the hover and completion documentation of `doc.*`, `memory.*`, `thread.*` and
    /// `report.*` along with the language's own.
    void (*registerDocs)();
};

/// The module's entry: its bindings, alive for the life of the process.
using RunFeatureBindingsEntry = const RunFeatureBindings* (*)();
inline constexpr const char* kRunBindingsModuleFile = "libhako_runbindings.so";
inline constexpr const char* kRunBindingsEntry = "hakoRunFeatureBindings";

} // namespace hako
