#pragma once

#include "core/pdl/value.h"

#include <QString>

#include <memory>

namespace hako::models {
class IModelProvider;
}

namespace hako::memory {

class MemoryStore;
class ThreadIndex;

struct MemoryBindingOptions {
    QString agent = QStringLiteral("default");
    QString embeddingModel = QStringLiteral("hash");
    QString chatModel; ///< for reflect(); empty = reflect() needs its `model` argument
    int64_t reflectionThreshold = 150;
    QString runId;
    /// Recorded as the source node when no block is running (pdl::currentBlockId() is empty).
    QString nodeId;
    /// Folder that relative paths of thread.load() resolve against (the program's folder).
    QString baseDir;
};

/// The two objects a run gets: `memory` and `thread`.
struct AgentBindings {
    pdl::Value memory;
    pdl::Value thread;
};

/// The functions a PDL program gets as `memory`:
///   add(text, kind='observation', importance=5, evidence=[], messages=[]) → id
///   retrieve(query, k=5, mode='seed') → memories in prompt order (dicts: id, text, kind,
///                                       created_at, importance, score)
///   recent(n=20) → the newest n, oldest first
///   accumulated() → importance accumulated since the last reflection
///   reflect(force=False, model=None) → the new reflections (empty below the threshold)
///   merge(ids, text, importance=None, kind='reflection') → id of the merged memory
///   thread_context(id) → as thread.context(id)
/// and as `thread`:
///   load(file) → number of messages (a reply-tree JSON file, see ThreadIndex::load)
///   context(id) → the messages from the root to `id` (dicts: id, path, author, text,
///                 created_at), never sibling branches
///   get(id) → one message;  messages() → every message in file order
/// Every call that reads or changes the store records the pdl__id of the calling block
/// (pdl::currentBlockId()) and options.runId. Errors raise pdl::EvalError with a message.
/// Calls block (embedding, chat): the interpreter calls them from its worker thread. The
/// Callables keep the store, provider and thread alive; both objects share the loaded thread.
AgentBindings makeAgentBindings(std::shared_ptr<MemoryStore> store,
                                std::shared_ptr<models::IModelProvider> provider,
                                MemoryBindingOptions options,
                                std::shared_ptr<const ThreadIndex> thread = nullptr);

/// The `memory` object alone (see makeAgentBindings()).
pdl::Value makeMemoryBindings(std::shared_ptr<MemoryStore> store,
                              std::shared_ptr<models::IModelProvider> provider,
                              MemoryBindingOptions options,
                              std::shared_ptr<const ThreadIndex> thread = nullptr);

} // namespace hako::memory
