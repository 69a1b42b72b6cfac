#pragma once

#include "core/docs/bm25index.h"
#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <vector>

namespace hako::models {
class IModelProvider;
}
namespace hako::memory {
class AnnIndex;
}

namespace hako::reports {

/// One transcribed report: where it is, the hash of its bytes, the company it is about and the
/// Markdown of each page (page 1 first).
struct ReportFile {
    QString file;
    QString sha;
    QString company;
    QStringList pages;
};

/// A piece of a report's text, with where it comes from.
struct ReportChunk {
    QString text;
    QString file;
    int page = 0; ///< 1-based page it starts on
    QString company;
};

/// A chunk chosen as context for a question: its BM25 score (the best over the expanded
/// queries, divided by the best of all chunks chosen, so 0–1) and the chunking it came from.
struct ContextChunk {
    ReportChunk chunk;
    double score = 0;
    docs::ChunkPreset chunking;
};

/// Ranges [start, end) of `text` cut into pieces of `size` characters, each starting
/// `size - overlap` after the previous one; the last ends at the end of the text. A surrogate
/// pair is never cut. Empty for empty text.
std::vector<std::pair<qsizetype, qsizetype>> chunkRanges(const QString& text, int size,
                                                         int overlap);

/// The chunks of one report for a chunking: its pages joined (blank line between), cut by
/// chunkRanges(), each knowing its page and company.
std::vector<ReportChunk> chunkReport(const ReportFile& report, docs::ChunkPreset chunking);

/// The report pipeline's index (the competition write-up, seeds.md §3): each report cut three
/// ways (500/100, 330/50, 810/100) into three vector stores, each store one approximate
/// nearest-neighbour index per company, so a company filter is exact. Embeddings come from
/// `embeddingModel` through a provider and are kept under the cache folder, keyed by the
/// chunks' text, the chunking and the model: indexing the same transcripts again embeds
/// nothing. Immutable after build(); context() may run on any thread, one call at a time.
class ReportIndex {
public:
    ~ReportIndex();
    /// Builds the three stores over `reports` (blocking; network through `provider`).
    static Result<std::shared_ptr<ReportIndex>>
    build(const std::vector<ReportFile>& reports, std::shared_ptr<models::IModelProvider> provider,
          const QString& embeddingModel, const QString& cacheFolder,
          const std::vector<docs::ChunkPreset>& chunkings, const CancelToken& cancel = {});

    /// The companies of the indexed reports, in report order, without repeats.
    QStringList companies() const;
    /// Chunks per chunking, in the order the chunkings were given.
    std::vector<std::pair<docs::ChunkPreset, int>> chunkCounts() const;
    /// How many chunk embeddings build() asked the provider for (0 when all were on disk).
    int embeddedChunks() const { return m_embedded; }

    /// The context for `queries` (the question and its rewrites): for each store and query the
    /// `topK` nearest chunks of the reports of `companies` (all when empty or when none of
    /// them is indexed), duplicates removed, each scored with BM25 against every query — the
    /// maximum kept, divided by the best chunk's —, those below `threshold` dropped, best first.
    Result<std::vector<ContextChunk>> context(const QStringList& queries,
                                              const QStringList& companies, int topK,
                                              double threshold,
                                              const CancelToken& cancel = {}) const;

private:
    struct Store;
    ReportIndex() = default;
    Result<bool> embedStore(Store& store, const QString& cacheFolder, const CancelToken& cancel);

    std::shared_ptr<models::IModelProvider> m_provider;
    QString m_model;
    std::vector<std::unique_ptr<Store>> m_stores;
    QStringList m_companies;
    int m_embedded = 0;
};

} // namespace hako::reports
