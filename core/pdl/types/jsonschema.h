#pragma once

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <memory>
#include <string>
#include <vector>

namespace hako::pdl {

namespace schema {
struct Document;
}

/// One reason an instance does not satisfy a schema.
struct ValidationError {
    /// Where in the instance: `$`, `$.answers[2]`, `$["odd key"]`.
    std::string path;
    /// What was expected there: `expected string, got 3`.
    std::string message;

    /// `$.answers[2]: expected string, got 3`.
    std::string toString() const;
};

/// A JSON Schema (draft 2020-12) compiled once into a validator tree.
///
/// Supported: boolean schemas, type, enum, const, numeric bounds, multipleOf, string lengths
/// (code points) and pattern (ECMA-262 via QRegularExpression, unanchored), items, prefixItems,
/// contains/minContains/maxContains, min/maxItems, uniqueItems, properties, required,
/// additionalProperties, patternProperties, propertyNames, min/maxProperties,
/// dependentRequired, dependentSchemas (and draft-7 `dependencies`), allOf/anyOf/oneOf/not,
/// if/then/else, $defs/definitions and $ref within the schema (`#`, JSON pointers, `$anchor`,
/// embedded resources with their own `$id`; recursion allowed). Remote references are refused.
/// `format` is an annotation only. Equality for enum/const/uniqueItems is JSON equality (1 == 1.0
/// but true != 1).
///
/// Copies share the compiled tree; a JsonSchema is immutable and safe to use from several
/// threads at once. A default-constructed JsonSchema accepts every value (the schema `true`).
class JsonSchema {
public:
    JsonSchema() = default;

    /// Validation stops descending once this many schema levels are nested (a $ref cycle that
    /// never consumes the instance) and reports an error instead of overflowing the stack.
    static constexpr int kMaxDepth = 400;

    /// Compiles `schema` (an object or a boolean). Invalid schemas (unknown type names, bad
    /// regular expressions, unresolvable $ref, unsupported keywords) give a Diagnostic whose
    /// message names the schema location, e.g. `#/properties/age/type`.
    static Result<JsonSchema> compile(const Value& schema);

    /// Up to `maxErrors` reasons why `instance` is invalid; empty when it is valid.
    std::vector<ValidationError> validate(const Value& instance, int maxErrors = 20) const;
    /// Faster than validate() when the reasons are not needed.
    bool isValid(const Value& instance) const;

    /// The schema this was compiled from.
    const Value& source() const;

private:
    std::shared_ptr<const schema::Document> m_doc;
};

/// JSON equality as JSON Schema defines it: numbers by mathematical value (1 == 1.0), booleans
/// only equal booleans (true != 1), arrays element-wise, objects by key set regardless of order.
bool jsonEquals(const Value& a, const Value& b);

/// The JSON type of a value: `null`, `boolean`, `integer` (an Int), `number`, `string`, `array`,
/// `object`; `undefined`/`function` for values JSON cannot represent.
const char* jsonTypeName(const Value& v);

} // namespace hako::pdl
