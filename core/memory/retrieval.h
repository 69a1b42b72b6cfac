#pragma once

#include "core/memory/memoryrecord.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <array>
#include <cstdint>
#include <vector>

namespace hako::memory {

/// How memories are chosen for a prompt.
enum class RetrievalMode : uint8_t {
    Seed,   ///< top k by cosine similarity, then re-sorted by created_at, oldest first
    Ga,     ///< Generative Agents: weighted min-max normalised recency, importance, relevance
    Recent, ///< the newest N, in time order (for summarisation)
};
QString modeName(RetrievalMode m);
std::optional<RetrievalMode> modeFromName(const QString& name);

/// Why a candidate did not reach the prompt.
enum class CutReason : uint8_t {
    None,        ///< selected
    BelowTopK,   ///< ranked after the first k
    NoEmbedding, ///< has no vector from the query's model (relevance unknown)
    NotNearest,  ///< the approximate index did not return it among the nearest
};
QString cutReasonText(CutReason r, int k);

/// Parameters of one retrieval. `weights` are recency, importance, relevance (GA mode).
struct RetrievalParams {
    RetrievalMode mode = RetrievalMode::Seed;
    int k = 5; ///< top k (seed, ga); N for recent mode (default 20 there)
    double decay = 0.995;
    std::array<double, 3> weights{1.0, 1.0, 1.0};
    QString agent;       ///< only this agent's memories; empty = all
    bool whatIf = false; ///< leave the store untouched (no access update, no journal entry)
    Millis now = 0;      ///< the time recency is measured from; 0 = the current time

    QJsonObject toJson() const;
    static RetrievalParams fromJson(const QJsonObject& o);
    /// The default k of a mode: 5, or 20 for recent.
    static int defaultK(RetrievalMode m) { return m == RetrievalMode::Recent ? 20 : 5; }
};

/// What the scorer needs to know about one candidate: enough to re-run any past retrieval with
/// other parameters (the what-if view does exactly that from the journal).
struct CandidateInput {
    int64_t id = 0;
    Millis createdAt = 0;
    float hoursSinceAccess = 0;
    float relevance = 0; ///< cosine similarity to the query
    float importance = 0;
    bool hasEmbedding = true;
    bool nearest = true; ///< false when an approximate search left it out
};

/// One candidate's full breakdown.
struct Candidate {
    CandidateInput input;
    float recency = 0; ///< decay^hours
    float relevanceNorm = 0;
    float recencyNorm = 0;
    float importanceNorm = 0;
    float score = 0;
    int rank = 0;        ///< 1-based by score (ties by id)
    int promptOrder = 0; ///< 1-based position in the prompt; 0 when cut
    CutReason cut = CutReason::None;

    bool selected() const { return cut == CutReason::None; }
};

/// The outcome: every candidate, sorted by rank, and the selected ids in prompt order.
struct RetrievalResult {
    RetrievalParams params;
    std::vector<Candidate> candidates;
    std::vector<int64_t> promptOrder;
    bool approximate = false;

    const Candidate* find(int64_t id) const;
};

/// Scores and ranks `inputs` under `params`. Pure and thread-safe. Every component is min-max
/// normalised over the candidates that have it (max == min gives 0.5).
RetrievalResult rankCandidates(std::vector<CandidateInput> inputs, const RetrievalParams& params);

/// The difference between two retrievals' selections.
struct RetrievalDiff {
    struct Move {
        int64_t id;
        int fromRank;
        int toRank;
    };
    std::vector<int64_t> added;   ///< selected now, not before
    std::vector<int64_t> removed; ///< selected before, not now
    std::vector<Move> moved;      ///< selected in both at another rank among the selected
    std::vector<int64_t> kept;    ///< selected in both at the same place
};
RetrievalDiff diffRetrievals(const RetrievalResult& before, const RetrievalResult& after);

/// Compact binary form of the candidates for the journal (little-endian, fixed-size rows).
QByteArray encodeCandidates(const std::vector<Candidate>& candidates);
std::vector<Candidate> decodeCandidates(const QByteArray& data);

/// Everything about one candidate as JSON (for `--json` and export).
QJsonObject candidateToJson(const Candidate& c, const RetrievalParams& params);

/// Cosine similarity of two vectors of equal size (0 when either is all zeros).
float cosine(const float* a, const float* b, size_t n);
/// Dot product, written for the compiler to vectorise (independent partial sums).
float dot(const float* a, const float* b, size_t n);
/// `v` scaled to unit length (unchanged when all zeros).
std::vector<float> normalized(std::vector<float> v);

} // namespace hako::memory
