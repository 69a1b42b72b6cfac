#pragma once

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <vector>

namespace hako::pdl {

class JsonSchema;

/// Converts a PDL type expression (a block's `spec`, a function's parameter types) into the
/// JSON Schema the reference interpreter checks values against:
/// - `null` (the YAML null, not the string) → `{}`: any value;
/// - `null boolean string number integer array object` → `{"type": name}`; the deprecated
///   `bool str float int list obj` map to the same with a warning;
/// - `[T]` → `{"type": "array", "items": T}` (exactly one element type);
/// - `{enum: [...], ...}` → `{"enum": [...], ...}` (other keys copied);
/// - `{optional: T}` → `{"anyOf": [T, {"type": "null"}]}`; as an object field it instead
///   makes the field not required;
/// - `{type: ..., ...}` → the mapping itself, a JSON Schema passed through unchanged;
/// - `{object: {f: T, ...}}` or `{f: T, ...}` → an object with those properties, all required
///   except optional ones; `{object: null}` → `{"type": "object"}`.
/// When `additionalProperties` is false (what PDL uses for `spec` and function parameters)
/// object types also get `"additionalProperties": false`.
/// Deprecation warnings are appended to `warnings` when given.
Result<Value> pdlTypeToJsonSchema(const Value& type, bool additionalProperties = false,
                                  std::vector<Diagnostic>* warnings = nullptr);

/// Whether `type` is a well-formed PDL type expression; `why` receives the reason if not.
/// Also compiles the resulting JSON Schema, so bad regexes or type names in passed-through
/// schemas are caught.
bool isPdlType(const Value& type, QString* why = nullptr);

/// pdlTypeToJsonSchema() followed by JsonSchema::compile(): what a `spec` check needs.
Result<JsonSchema> compilePdlType(const Value& type, bool additionalProperties = false,
                                  std::vector<Diagnostic>* warnings = nullptr);

} // namespace hako::pdl
