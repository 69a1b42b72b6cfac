#pragma once

#include "core/docs/bm25index.h"
#include "core/pdl/model/modelprovider.h"
#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <vector>

namespace hako::docs {

/// Hybrid ranking: the best `candidates` BM25 passages for `query` are embedded together with
/// the query through `provider` (model `embeddingModel`), ranked by cosine similarity, and the
/// two rankings fused by reciprocal rank (k = 60). Returns the best `topK`, score = fused score.
///
/// Blocks on the provider: call from a worker thread, never the GUI thread.
Result<std::vector<ScoredPassage>> hybridRank(const Bm25Index& bm25, QStringView query,
                                              models::IModelProvider& provider,
                                              const std::string& embeddingModel, int topK,
                                              int candidates = 30, const CancelToken& cancel = {});

} // namespace hako::docs
