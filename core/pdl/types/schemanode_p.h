#pragma once

// Internal to the JSON Schema implementation: the compiled validator tree.

#include "core/pdl/value.h"

#include <QRegularExpression>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace hako::pdl::schema {

enum TypeBit : uint8_t {
    kNull = 1,
    kBoolean = 2,
    kInteger = 4,
    kNumber = 8, // includes integers
    kString = 16,
    kArray = 32,
    kObject = 64,
};

struct Node;

struct Regex {
    std::string source;
    QRegularExpression re;

    /// Unanchored search, as ECMA-262's RegExp.test.
    bool search(std::string_view text) const;
};

struct PropertyRule {
    std::string name;
    const Node* schema = nullptr;
};

/// One compiled (sub)schema. Pointers to other nodes are owned by the Document; `ref` may
/// point back up the tree (recursive schemas), so walking must be depth-limited.
struct Node {
    std::string location; // JSON pointer of this schema in the document, e.g. "#/properties/a"

    std::optional<bool> constant; // a boolean schema: true accepts all, false nothing
    const Node* ref = nullptr;

    uint8_t types = 0; // TypeBit mask; 0 = no type constraint
    std::vector<Value> enumValues;
    bool hasEnum = false;
    std::optional<Value> constValue;

    std::optional<double> minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf;
    bool hasNumeric = false;

    int64_t minLength = -1, maxLength = -1;
    std::unique_ptr<Regex> pattern;

    std::vector<const Node*> prefixItems;
    const Node* items = nullptr; // items after prefixItems
    const Node* contains = nullptr;
    int64_t minContains = 1, maxContains = -1;
    int64_t minItems = -1, maxItems = -1;
    bool uniqueItems = false;
    bool hasArray = false;

    std::vector<PropertyRule> properties;
    std::unordered_map<std::string_view, const Node*> propertyIndex; // when many properties
    std::vector<std::string> required;
    std::vector<std::pair<std::unique_ptr<Regex>, const Node*>> patternProperties;
    const Node* additionalProperties = nullptr;
    const Node* propertyNames = nullptr;
    int64_t minProperties = -1, maxProperties = -1;
    std::vector<std::pair<std::string, std::vector<std::string>>> dependentRequired;
    std::vector<PropertyRule> dependentSchemas;
    bool hasObject = false;

    std::vector<const Node*> allOf, anyOf, oneOf;
    const Node* notSchema = nullptr;
    const Node* ifSchema = nullptr;
    const Node* thenSchema = nullptr;
    const Node* elseSchema = nullptr;

    const Node* property(std::string_view name) const;
};

struct Document {
    Value source;
    std::vector<std::unique_ptr<Node>> nodes;
    const Node* root = nullptr;
};

/// Thrown inside validation when schemas nest deeper than JsonSchema::kMaxDepth.
struct DepthExceeded {};

} // namespace hako::pdl::schema
