#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace hako {

/// One matched pair of a shortest edit script: (index in a, index in b).
using EditMatch = std::pair<int, int>;

/// The matches of a shortest edit script (Myers) between a[0,n) and b[0,m), in order, appended to
/// `out` offset by (aOff, bOff); everything not matched is a deletion from `a` or an insertion
/// from `b`. Elements are compared as numbers (hashes or interned ids). Returns false when it
/// gives up: past 2,000 edits or about 50 million steps only the common head and tail are
/// matched, so two long, mostly different inputs cost milliseconds, not seconds; the caller
/// decides what to do with the unmatched middle. Pure; any thread.
bool shortestEdit(const uint64_t* a, int n, const uint64_t* b, int m, int aOff, int bOff,
                  std::vector<EditMatch>& out);

} // namespace hako
