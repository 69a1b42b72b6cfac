#pragma once

#include "core/docs/documentindex.h"
#include "core/util/cancel.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace hako::docs {

/// Chunking of the normalised text into overlapping passages (sizes in characters).
struct ChunkPreset {
    int size = 500;
    int overlap = 100;
    bool operator==(const ChunkPreset&) const = default;
};

/// The three presets of the RAG write-up: chunks then start at different offsets.
inline const ChunkPreset kChunkPresets[] = {{500, 100}, {330, 50}, {810, 100}};

/// A ranked passage: a range of the normalised text and the 1-based line it starts on.
struct Passage {
    qsizetype normStart = 0;
    qsizetype normEnd = 0;
    qsizetype line = 0;
    qsizetype unit = -1; ///< the unit index when passages are units
};

struct ScoredPassage {
    int passage = 0;
    double score = 0;
};

/// Okapi BM25 over the units of a document or over chunks of it. Terms are character bigrams
/// inside runs of Japanese (kanji, kana) plus single characters, and lower-cased words
/// elsewhere, so no dictionary is needed. Postings are stored compressed (delta-coded passage
/// numbers as varints, a flag bit for tf > 1): about 2 bytes a posting instead of 8 plus the
/// slack of a growing vector, so the index stays well under the size of the text.
///
/// Immutable after build(); rank() may be called from several threads at once.
class Bm25Index {
public:
    double k1 = 1.5;
    double b = 0.75;

    /// Indexes the units of `index`, or chunks of its normalised text when `chunks` is given.
    /// Returns null when cancelled.
    static std::shared_ptr<const Bm25Index> build(std::shared_ptr<const DocumentIndex> index,
                                                  std::optional<ChunkPreset> chunks = {},
                                                  const CancelToken& cancel = {});

    const DocumentIndex& index() const { return *m_index; }
    /// Number of passages (units or chunks) and passage `index` of them.
    qsizetype passageCount() const;
    Passage passage(int index) const;
    std::optional<ChunkPreset> chunks() const { return m_chunks; }
    size_t termCount() const { return m_keys.size() - m_free; }

    /// The best `topK` passages for `query` (raw text; normalised here), best first; passages
    /// sharing no term with the query are left out.
    std::vector<ScoredPassage> rank(QStringView query, int topK) const;
    /// BM25 of one passage for `query`.
    double score(QStringView query, int passage) const;
    /// Bytes held by the postings (for the memory figures of the bench).
    size_t postingBytes() const;
    /// The RAG write-up's filter over expanded queries: the top `topKPerQuery` passages of each
    /// query, each scored with the maximum over all queries, those below `threshold` dropped,
    /// best first.
    std::vector<ScoredPassage> rankExpanded(const QStringList& queries, int topKPerQuery,
                                            double threshold) const;

    /// The term keys of `text` (already normalised), in order, duplicates kept. With
    /// `unigrams` every Japanese character is also a term (documents are indexed so, so that
    /// one-character queries match); queries use unigrams only for lone characters.
    static void tokenize(QStringView text, std::vector<uint64_t>& out, bool unigrams = false);

private:
    // One term's postings: passage numbers ascending, each stored as
    // varint((passage - previous) << 1 | (tf > 1)) followed by varint(tf) when tf > 1.
    struct Postings {
        std::vector<uint8_t> bytes;
        uint32_t count = 0;
        uint32_t last = 0;
        void add(uint32_t passage, uint32_t tf);
        template <typename F> void forEach(F&& f) const;
    };
    int termId(uint64_t key) const;
    int addTerm(uint64_t key);
    std::vector<std::pair<int, int>> queryTerms(QStringView query) const;
    // Every passage's score for `query`, accumulated into `scores` (sized to the passages);
    // `touched` gets the passages with a non-zero score.
    void accumulate(QStringView query, std::vector<double>& scores,
                    std::vector<uint32_t>& touched) const;

    std::shared_ptr<const DocumentIndex> m_index;
    std::optional<ChunkPreset> m_chunks;
    std::vector<Passage> m_passages; // chunks only; units are read from the index
    std::vector<uint32_t> m_lengths;
    double m_avgLength = 0;
    // Open addressing: key -> term id; keys of 0 are empty slots.
    std::vector<uint64_t> m_keys;
    std::vector<int> m_ids;
    size_t m_free = 0;
    std::vector<Postings> m_postings;
};

} // namespace hako::docs
