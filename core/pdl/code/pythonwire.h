#pragma once

#include "core/pdl/value.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hako::pdl::code {

struct PythonSessionState;

/// The key that marks a tagged value on the wire to the Python driver: {"\u0000hako": "float",
/// "v": "nan"}, {…: "tuple", "items": […]}, {…: "dict", "items": [[k, v], …]} (dicts whose keys
/// are not all strings), {…: "object", "id": n, "repr", "type", "callable"} (a handle) and
/// {…: "opaque", "repr"} (a PDL function).
inline constexpr const char* kWireTag = "\x00hako"; // NOLINT: the NUL is the point

/// Encodes a PDL value for the driver. A PythonObject must belong to `state`'s current
/// subprocess (`generation`); otherwise returns false with a message in `error`. Sets
/// `*usedHandles` when the encoding names an object handle. With `callables`, every other
/// callable (a PDL function) is appended to it and its opaque value carries its index as
/// "fid", so that Python can call it back.
bool encodeWireValue(const Value& value, nlohmann::ordered_json& out,
                     const PythonSessionState* state, uint64_t generation, std::string* error,
                     bool* usedHandles = nullptr,
                     std::vector<std::shared_ptr<const Callable>>* callables = nullptr);

/// Decodes a value the driver sent; handles become PythonObject callables of `session`.
Value decodeWireValue(const nlohmann::ordered_json& json,
                      const std::weak_ptr<PythonSessionState>& session, uint64_t generation);

} // namespace hako::pdl::code
