#pragma once

// The filter implementations, split over filters*.cpp. Not part of the public API.

#include "core/pdl/expr/builtins_p.h"

namespace hako::pdl::builtins::detail {

// filterscollections.cpp
Value filterBatch(const Value& v, const CallArgs& args);
Value filterDictsort(const Value& v, const CallArgs& args);
Value filterFirst(const Value& v, const CallArgs& args);
Value filterLast(const Value& v, const CallArgs& args);
Value filterGroupby(const Value& v, const CallArgs& args);
Value filterItems(const Value& v, const CallArgs& args);
Value filterJoin(const Value& v, const CallArgs& args);
Value filterLength(const Value& v, const CallArgs& args);
Value filterList(const Value& v, const CallArgs& args);
Value filterMap(const Value& v, const CallArgs& args);
Value filterMax(const Value& v, const CallArgs& args);
Value filterMin(const Value& v, const CallArgs& args);
Value filterSelect(const Value& v, const CallArgs& args);
Value filterReject(const Value& v, const CallArgs& args);
Value filterSelectattr(const Value& v, const CallArgs& args);
Value filterRejectattr(const Value& v, const CallArgs& args);
Value filterReverse(const Value& v, const CallArgs& args);
Value filterSlice(const Value& v, const CallArgs& args);
Value filterSort(const Value& v, const CallArgs& args);
Value filterSum(const Value& v, const CallArgs& args);
Value filterUnique(const Value& v, const CallArgs& args);
Value filterTojson(const Value& v, const CallArgs& args);
Value filterUrlencode(const Value& v, const CallArgs& args);
Value filterXmlattr(const Value& v, const CallArgs& args);

// filterstext.cpp
Value filterWordwrap(const Value& v, const CallArgs& args);
Value filterTruncate(const Value& v, const CallArgs& args);
Value filterIndent(const Value& v, const CallArgs& args);
Value filterTitle(const Value& v, const CallArgs& args);
Value filterWordcount(const Value& v, const CallArgs& args);
Value filterStriptags(const Value& v, const CallArgs& args);
std::string htmlEscape(std::string_view s);

/// Python `a + b` for sum().
Value addValues(const Value& a, const Value& b);

} // namespace hako::pdl::builtins::detail
