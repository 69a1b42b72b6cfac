#pragma once

#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace hako::models {
class IModelProvider;
}

namespace hako::memory {

class MemoryStore;
struct ChangeContext;

/// Moving memories in and out of a store. Blocking; run off the GUI thread.

/// The whole store as one JSON document: format marker, embedding model, every memory
/// (every state, with its vector) and the journal (retrievals without their candidates).
Result<QJsonObject> exportStore(MemoryStore& store);

struct ImportReport {
    int memories = 0;
    int observations = 0;
    int chats = 0;
    int reflections = 0;
    int keywords = 0; ///< GA keyword strengths read (kept only in the report)
    /// Everything the import changed or dropped on the way in, one line each ("node_7:
    /// poignancy 99 clamped to 10", "memory 3: evidence 12 is not in the file; dropped").
    QStringList changes;
};

/// Adds the memories of an exportStore() document as new memories (new ids; evidence links
/// are remapped to the new ids), in one transaction, journaled as adds by `ctx`.
Result<ImportReport> importStore(MemoryStore& store, const QJsonObject& document,
                                 const ChangeContext& ctx);

struct GaImportOptions {
    QString agent = QStringLiteral("default");
    /// The model the folder's embeddings came from (Generative Agents used OpenAI's ada-002).
    QString embeddingModel = QStringLiteral("text-embedding-ada-002");
    /// Recompute every embedding with `embeddingModel` through `provider` instead of using the
    /// folder's vectors.
    bool reembed = false;
    models::IModelProvider* provider = nullptr;
};

/// Imports a Generative Agents associative-memory folder (nodes.json, embeddings.json,
/// kw_strength.json): events become observations, chats chats, thoughts reflections (their
/// `filling` becomes evidence); poignancy is the importance (from the model), clamped to 1..10.
/// Malformed data (nodes.json not an object of nodes, a non-numeric poignancy or vector
/// element) is an error naming the node; clamps and dropped evidence are listed in
/// ImportReport::changes.
Result<ImportReport> importGenerativeAgents(MemoryStore& store, const QString& dir,
                                            const GaImportOptions& options,
                                            const ChangeContext& ctx,
                                            const CancelToken& cancel = {});

} // namespace hako::memory
