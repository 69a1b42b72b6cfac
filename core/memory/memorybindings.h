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
    QString chatModel; ///< for reflect(); empty = reflect() fails with a message
    int64_t reflectionThreshold = 150;
    QString runId;
    QString nodeId;
};

/// The functions a PDL program gets as `memory` (and `thread`):
///   add(text, kind='observation', importance=5, evidence=[]) → id
///   retrieve(query, k=5, mode='seed') → memories in prompt order (dicts: id, text, kind,
///                                       created_at, importance, score)
///   recent(n=20) → the newest n, oldest first
///   reflect(force=False) → the new reflections (empty when the threshold is not reached)
///   thread_context(id) → the messages from the root to `id` (dicts: id, path, author, text)
/// Errors raise pdl::EvalError with a message. Calls block (embedding, chat): the interpreter
/// calls them from its worker thread. The Callables keep the store, provider and thread alive.
pdl::Value makeMemoryBindings(std::shared_ptr<MemoryStore> store,
                              std::shared_ptr<models::IModelProvider> provider,
                              MemoryBindingOptions options,
                              std::shared_ptr<const ThreadIndex> thread = nullptr);

} // namespace hako::memory
