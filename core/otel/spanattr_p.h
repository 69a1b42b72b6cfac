#pragma once

// What the span mapper's two halves share (spanmapper.cpp reads a span into its view,
// spannode.cpp makes the view a trace node or a prompt-log call): attribute values read as
// the conventions want them.

#include "core/otel/span.h"

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

namespace hako::otel::attr {

/// A value that may be JSON text (what attributes can only carry as strings): parsed when it
/// is an object or array, else as given.
Attributes maybeJson(const Attributes& v);
/// The same for a value no longer needed: moved, not copied, when it is not JSON text.
Attributes maybeJson(Attributes&& v);
/// An integer, an integral part of a float, or a decimal string; nothing else.
std::optional<int64_t> asInt(const Attributes& v);
/// A string as it is, null as empty, anything else as its JSON.
std::string text(const Attributes& v);

/// An attribute's value handed to where it is kept: moved out of a span being taken (a
/// non-const attribute), copied from a span that stays as it is (a const one).
template <class J> decltype(auto) handOn(J& value)
{
    if constexpr (std::is_const_v<J>)
        return static_cast<const Attributes&>(value);
    else
        return static_cast<Attributes&&>(value);
}

} // namespace hako::otel::attr
