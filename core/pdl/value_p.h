#pragma once

// What value.cpp (the payload, access and comparison) and valuetext.cpp (text and JSON) share.
// Not part of the public API.

#include "core/pdl/value.h"
#include "core/util/stackguard.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hako::pdl {

namespace detail {

// Walking a value nested deeper than the stack allows (repr, JSON, comparison) raises an error
// as Python's RecursionError does, instead of crashing.
inline void checkNestingStack()
{
    if (stackExhausted())
        throw EvalError("maximum recursion depth exceeded: the value is nested too deeply");
}

} // namespace detail

// The payloads a Value points to, by its type (value.h): each starts with the reference count.
struct StringPayload : detail::ValuePayload {
    explicit StringPayload(std::string s) : text(std::move(s)) {}
    std::string text;
};
struct ListPayload : detail::ValuePayload {
    explicit ListPayload(List l) : items(std::move(l)) {}
    List items;
};
struct DictPayload : detail::ValuePayload {
    explicit DictPayload(Dict d) : items(std::move(d)) {}
    Dict items;
};
struct CallablePayload : detail::ValuePayload {
    explicit CallablePayload(std::shared_ptr<const Callable> f) : fn(std::move(f)) {}
    std::shared_ptr<const Callable> fn;
};

// The payload of a lazily joined string (TextJoin): its pieces, rendered once when first read.
// Thread-safe to read from several threads (the text is rendered once).
struct JoinedText : detail::ValuePayload {
    std::vector<Value> pieces;
    std::string separator;
    int chain = 1; ///< 1 + the longest chain of joined texts among the pieces
    mutable std::once_flag once;
    mutable std::atomic<bool> rendered{false};
    mutable std::string text;

    /// The joined text, rendered on the first call.
    const std::string& get() const;

    /// Appends the text to `out`, calling flush(out) now and then (defined in valuetext.cpp,
    /// its only user).
    template <typename Flush> void write(std::string& out, Flush&& flush) const;
};

} // namespace hako::pdl
