#pragma once

#include "core/run/loggingprovider.h"
#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace hako::docs {
class DocumentSession;
}
namespace hako::memory {
class MemoryStore;
}
namespace hako::promptlog {
class PromptLog;
}

namespace hako::models {
class IModelProvider;
}
namespace hako::pdl {
struct RunOptions;
}

namespace hako {

/// What a run is given besides its program and options: the open document, the memory store and
/// whose memories they are, the embedding model, the folder its model configuration comes from,
/// the sandbox decision, or a provider to use instead of the configured one. The one place a run
/// is composed: `hako run` and the workbench (RunController) fill one and call compose() on the
/// run's worker, which creates the model provider once and builds the `doc`, `memory`,
/// `thread` and `report` bindings over it (from the module libhako_runbindings, loaded only for
/// a run that has one of them: core/run/featurebindings_p.h).
///
/// A plain value: fill and copy it on any thread; compose() runs on the run's worker.
class RunEnvironment {
public:
    /// The program's folder: `hako-models.yaml` and memory's relative paths resolve against it.
    QString baseFolder;
    /// A document the program sees as `doc` (the same session as the Documents pane, so the
    /// commands the program runs appear in its transcript and cost). Null: no `doc`.
    std::shared_ptr<docs::DocumentSession> documentSession;
    /// The agent-memory store the program sees as `memory` and `thread`. Null: neither.
    std::shared_ptr<memory::MemoryStore> memoryStore;
    /// Whose memories they are.
    QString memoryAgent = QStringLiteral("default");
    /// Embeds memories; empty: the store's model, else `hash`.
    QString embeddingModel;
    /// Code blocks run under the sandbox (bubblewrap).
    bool sandbox = false;
    /// Used for model blocks instead of the configured endpoints (tests); null: compose()
    /// creates the configured provider for baseFolder.
    std::shared_ptr<models::IModelProvider> modelProvider;
    /// Where every model call of the run is recorded (see LoggingModelProvider); null: the
    /// calls are not recorded.
    std::shared_ptr<promptlog::PromptLog> promptLog;
    /// Used when promptLog is null: opens the log on the run's first model call (any thread,
    /// called at most once per composed provider), so that a run calling no model never opens
    /// the store nor starts its writer (`hako run`). May give null: the calls are not recorded.
    std::function<std::shared_ptr<promptlog::PromptLog>()> openPromptLog;
    /// The run as the prompt log names it; compose() fills an empty run id with a UUID and an
    /// empty hash from programPath.
    RunLogInfo runLog;
    /// When not empty: the run's trace is kept there under its run id (RunArchive), so the
    /// prompt log's calls lead back to it. The workbench keeps every run's.
    QString traceArchiveFolder;

    /// Completes `options` on the run's worker: options.models (modelProvider, else the provider
    /// configured for baseFolder, created here once; none when options.replay answers the model
    /// calls, unless options.replayCheck says the replay is a re-run's partial one),
    /// options.sandbox, and `doc`, `memory`, `thread` in options.initialScope (over that
    /// same provider; each memory run gets its own run id for the journal). Returns the
    /// configuration error when the provider could not be created (or, when there is none, why
    /// the bindings' module could not be loaded): the rest is composed anyway,
    /// and callers decide whether that error matters (`hako run` stops; the workbench lets
    /// programs without model blocks run).
    std::optional<Diagnostic> compose(pdl::RunOptions& options) const;

    /// The model provider a run of this environment calls, alone (the playground, an
    /// evaluation's judge): modelProvider, else the one configured for baseFolder, recording
    /// its calls in promptLog (or the log openPromptLog gives on the first call) with runLog's
    /// tags, the folder's and `extraTags`.
    /// The configuration's error when no provider can be made. Any thread.
    Result<std::shared_ptr<models::IModelProvider>>
    composeProvider(const QStringList& extraTags = {}) const;
    /// `provider` recording its calls as composeProvider() does (itself when there is neither
    /// promptLog nor openPromptLog).
    std::shared_ptr<models::IModelProvider>
    loggedProvider(std::shared_ptr<models::IModelProvider> provider,
                   const QStringList& extraTags = {}) const;

    /// Registers the hover and completion documentation of everything a composed run may be
    /// given (`doc.*`, `memory.*`, `thread.*`) along with the language's own (idempotent,
    /// thread-safe). Called by the editor before it asks.
    static void registerBindingDocs();
};

} // namespace hako
