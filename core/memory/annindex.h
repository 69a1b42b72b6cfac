#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace hako::memory {

/// An approximate nearest-neighbour index (HNSW, from Debian's header-only hnswlib) over unit
/// vectors, searched by inner product (= cosine). Not thread-safe: the owner serialises calls.
/// Labels are memory ids.
class AnnIndex {
public:
    /// `m` and `efConstruction` are HNSW's graph degree and build beam; the defaults suit
    /// embeddings of a few hundred dimensions.
    explicit AnnIndex(int dimension, size_t capacity = 1024, int m = 16, int efConstruction = 200);
    ~AnnIndex();
    AnnIndex(const AnnIndex&) = delete;
    AnnIndex& operator=(const AnnIndex&) = delete;

    int dimension() const { return m_dimension; }
    size_t size() const;
    /// Adds (or replaces) the vector of `id`; grows the index as needed.
    void add(int64_t id, const float* unitVector);
    /// Hides `id` from searches (HNSW cannot unlink a node).
    void remove(int64_t id);
    /// The ids of the (approximately) `k` nearest vectors, nearest first. `ef` is the search
    /// beam (at least k); larger is slower and more exact.
    std::vector<int64_t> nearest(const float* unitQuery, size_t k, size_t ef = 0) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
    int m_dimension;
};

} // namespace hako::memory
