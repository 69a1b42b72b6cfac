#pragma once

#include "core/memory/memorystore.h"
#include "core/util/cancel.h"

#include <memory>

namespace hako::models {
class IModelProvider;
}

namespace hako::memory {

struct ReflectionOptions {
    QString agent = QStringLiteral("default");
    /// Reflect once the importance accumulated since the last reflection reaches this.
    int64_t threshold = 150;
    QString chatModel;
    QString embeddingModel;
    /// At most this many of the newest memories since the last reflection are shown to the model.
    int maxStatements = 100;
    int maxInsights = 3;
};

/// Insight and reflection for one agent (seed §5b steps 4 and 5): stores facts with evidence
/// links, and when enough importance has accumulated asks the chat model for higher-level
/// insights about the memories since the last reflection, storing each as a reflection linked
/// to the memories it cites.
///
/// Threading: blocking (model calls); use from a worker thread. The provider must outlive it.
class Reflector {
public:
    Reflector(std::shared_ptr<MemoryStore> store, models::IModelProvider* provider,
              ReflectionOptions options);

    int64_t accumulatedImportance() const;
    bool isDue() const { return accumulatedImportance() >= m_options.threshold; }

    /// Stores a fact (kind insight) with its evidence (memory ids that must exist) and source;
    /// embeds it with the embedding model when one is set.
    Result<int64_t> addInsight(const QString& text, const std::vector<int64_t>& evidence,
                               const MemorySource& source, int importance, const ChangeContext& ctx,
                               const CancelToken& cancel = {});

    /// Reflects when due (or always when `force`); returns the new reflections' ids (none when
    /// not due or when the model offered no usable insight).
    Result<std::vector<int64_t>> reflect(bool force, const ChangeContext& ctx,
                                         const CancelToken& cancel = {});

    /// Parses "insight (because of 1, 3)" lines; numbers are 1-based statement numbers.
    struct ParsedInsight {
        QString text;
        std::vector<int> statements;
    };
    static std::vector<ParsedInsight> parseInsights(const QString& reply);

private:
    std::shared_ptr<MemoryStore> m_store;
    models::IModelProvider* m_provider;
    ReflectionOptions m_options;
};

} // namespace hako::memory
