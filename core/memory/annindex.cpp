#include "core/memory/annindex.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
// hnswlib's SSE paths prefetch through `*(datal + j + 1)`, one link past the end of a node's
// list (upstream nmslib/hnswlib#578, open): only a prefetch hint, but AddressSanitizer rightly
// reports the read. Sanitizer builds (scripts/dev test --asan) use the plain loops instead, so
// that the rest of the index is checked; release builds keep the vectorised distances.
#if defined(__SANITIZE_ADDRESS__) && !defined(NO_MANUAL_VECTORIZATION)
#define NO_MANUAL_VECTORIZATION
#endif
#include <hnswlib/hnswlib.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <unordered_set>

namespace hako::memory {

struct AnnIndex::Impl {
    explicit Impl(int dim, size_t capacity, int m, int ef)
        : space(size_t(dim)), index(&space, capacity, size_t(m), size_t(ef), 42)
    {}
    hnswlib::InnerProductSpace space;
    hnswlib::HierarchicalNSW<float> index;
    std::unordered_set<int64_t> deleted;
};

AnnIndex::AnnIndex(int dimension, size_t capacity, int m, int efConstruction)
    : d(std::make_unique<Impl>(dimension, std::max<size_t>(capacity, 16), m, efConstruction)),
      m_dimension(dimension)
{}

AnnIndex::~AnnIndex() = default;

size_t AnnIndex::size() const
{
    return d->index.cur_element_count - d->deleted.size();
}

void AnnIndex::add(int64_t id, const float* unitVector)
{
    if (d->index.cur_element_count >= d->index.max_elements_)
        d->index.resizeIndex(d->index.max_elements_ * 2);
    if (d->deleted.erase(id) > 0)
        d->index.unmarkDelete(hnswlib::labeltype(id));
    // With replace_deleted off, adding an existing label updates its vector in place.
    d->index.addPoint(unitVector, hnswlib::labeltype(id));
}

void AnnIndex::remove(int64_t id)
{
    if (d->deleted.count(id))
        return;
    try {
        d->index.markDelete(hnswlib::labeltype(id));
        d->deleted.insert(id);
    } catch (const std::exception&) {
        // Not in the index: nothing to hide.
    }
}

std::vector<int64_t> AnnIndex::nearest(const float* unitQuery, size_t k, size_t ef) const
{
    std::vector<int64_t> out;
    if (size() == 0 || k == 0)
        return out;
    d->index.setEf(std::max(ef, k));
    auto heap = d->index.searchKnn(unitQuery, std::min(k, size()));
    out.resize(heap.size());
    // The heap pops the farthest first.
    for (size_t i = heap.size(); i-- > 0;) {
        out[i] = int64_t(heap.top().second);
        heap.pop();
    }
    return out;
}

} // namespace hako::memory
