// Validates instances against a compiled schema::Document.

#include "core/pdl/types/jsonschema.h"
#include "core/pdl/types/schemanode_p.h"

#include <cfloat>
#include <cmath>

namespace hako::pdl {

using schema::Node;

namespace {

/// A step of the instance path, kept on the stack and only turned into text on failure.
struct PathSeg {
    const PathSeg* parent = nullptr;
    std::string_view key;
    int64_t index = -1;
};

bool isIdentifier(std::string_view s)
{
    if (s.empty())
        return false;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

std::string quoted(std::string_view s, char quote)
{
    std::string out(1, quote);
    for (char c : s) {
        if (c == quote || c == '\\')
            out += '\\';
        out += c;
    }
    out += quote;
    return out;
}

std::string pathText(const PathSeg* seg)
{
    std::vector<const PathSeg*> chain;
    for (; seg && seg->parent; seg = seg->parent)
        chain.push_back(seg);
    std::string out = "$";
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const PathSeg* s = *it;
        if (s->index >= 0)
            out += "[" + std::to_string(s->index) + "]";
        else if (isIdentifier(s->key))
            out += "." + std::string(s->key);
        else
            out += "[" + quoted(s->key, '"') + "]";
    }
    return out;
}

/// A short JSON rendering of a value for messages.
std::string brief(const Value& v)
{
    if (v.isUndefined())
        return "undefined";
    if (v.isCallable())
        return "a function";
    std::string text = v.json();
    if (utf8::length(text) > 60)
        text = text.substr(0, utf8::offsetOf(text, 57)) + "...";
    return text;
}

std::string numberText(double d)
{
    if (std::floor(d) == d && std::abs(d) < 1e15)
        return std::to_string(int64_t(d));
    return formatFloat(d);
}

std::string keyText(const Value& key)
{
    return key.isString() ? key.asString() : key.str();
}

bool isIntegral(const Value& v)
{
    if (v.isInt())
        return true;
    return v.isFloat() && std::isfinite(v.asFloat()) && std::floor(v.asFloat()) == v.asFloat();
}

bool typeMatches(uint8_t mask, const Value& v)
{
    switch (v.type()) {
    case Value::Type::Null:
        return mask & schema::kNull;
    case Value::Type::Bool:
        return mask & schema::kBoolean;
    case Value::Type::Int:
        return mask & (schema::kInteger | schema::kNumber);
    case Value::Type::Float:
        return (mask & schema::kNumber) || ((mask & schema::kInteger) && isIntegral(v));
    case Value::Type::String:
        return mask & schema::kString;
    case Value::Type::List:
        return mask & schema::kArray;
    case Value::Type::Dict:
        return mask & schema::kObject;
    default:
        return false;
    }
}

std::string typeNames(uint8_t mask)
{
    static const std::pair<uint8_t, const char*> names[] = {
        {schema::kString, "string"},   {schema::kNumber, "number"}, {schema::kInteger, "integer"},
        {schema::kBoolean, "boolean"}, {schema::kObject, "object"}, {schema::kArray, "array"},
        {schema::kNull, "null"}};
    std::vector<std::string> parts;
    for (const auto& [bit, name] : names) {
        if (!(mask & bit))
            continue;
        if (bit == schema::kInteger && (mask & schema::kNumber))
            continue;
        parts.push_back(name);
    }
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            out += i + 1 == parts.size() ? " or " : ", ";
        out += parts[i];
    }
    return out;
}

bool isMultiple(const Value& v, double divisor)
{
    if (v.isInt() && std::floor(divisor) == divisor && divisor < 9.2e18)
        return v.asInt() % int64_t(divisor) == 0;
    double q = v.toDouble() / divisor;
    if (!std::isfinite(q))
        return false;
    // Binary floats cannot represent most decimal divisors (0.01), so allow rounding noise.
    return std::abs(q - std::round(q)) <= 1e-9 + std::abs(q) * 4 * DBL_EPSILON;
}

struct Error {
    ValidationError error;
    uint8_t expectedTypes = 0; // set for a plain type mismatch, to merge anyOf alternatives
};

struct DepthError {
    std::string path;
};

class Validator {
public:
    explicit Validator(int maxErrors) : m_maxErrors(std::max(1, maxErrors)) {}

    std::vector<Error> errors;

    template <bool Collect> bool check(const Node* n, const Value& v, const PathSeg* path);

private:
    bool full() const { return int(errors.size()) >= m_maxErrors; }

    void add(const PathSeg* path, std::string message, uint8_t types = 0)
    {
        if (!full())
            errors.push_back({{pathText(path), std::move(message)}, types});
    }

    /// The errors `n` reports for `v`, without touching `errors`.
    std::vector<Error> errorsOf(const Node* n, const Value& v, const PathSeg* path, int limit)
    {
        std::vector<Error> saved;
        saved.swap(errors);
        int savedMax = m_maxErrors;
        m_maxErrors = limit;
        check<true>(n, v, path);
        m_maxErrors = savedMax;
        saved.swap(errors);
        return saved;
    }

    void reportAlternatives(const std::vector<const Node*>& options, const Value& v,
                            const PathSeg* path, const char* keyword);

    template <bool Collect> bool checkNumber(const Node* n, const Value& v, const PathSeg* path);
    template <bool Collect> bool checkString(const Node* n, const Value& v, const PathSeg* path);
    template <bool Collect> bool checkArray(const Node* n, const Value& v, const PathSeg* path);
    template <bool Collect> bool checkObject(const Node* n, const Value& v, const PathSeg* path);

    int m_maxErrors;
    int m_depth = 0;
};

// In collecting mode a failure is recorded and checking goes on (until the error budget is
// spent); in the fast mode the first failure decides.
#define HAKO_FAIL(message)                                                                         \
    do {                                                                                           \
        if constexpr (Collect) {                                                                   \
            ok = false;                                                                            \
            add(path, message);                                                                    \
            if (full())                                                                            \
                return false;                                                                      \
        } else {                                                                                   \
            return false;                                                                          \
        }                                                                                          \
    } while (0)

#define HAKO_SUB(expr)                                                                             \
    do {                                                                                           \
        if (!(expr)) {                                                                             \
            if constexpr (Collect) {                                                               \
                ok = false;                                                                        \
                if (full())                                                                        \
                    return false;                                                                  \
            } else {                                                                               \
                return false;                                                                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

template <bool Collect> bool Validator::check(const Node* n, const Value& v, const PathSeg* path)
{
    if (n->constant) {
        if (*n->constant)
            return true;
        if constexpr (Collect)
            add(path, "no value is allowed here, got " + brief(v));
        return false;
    }
    struct DepthGuard {
        int& depth;
        ~DepthGuard() { --depth; }
    } guard{++m_depth};
    if (m_depth > JsonSchema::kMaxDepth)
        throw DepthError{pathText(path)};

    bool ok = true;
    if (n->types && !typeMatches(n->types, v)) {
        if constexpr (Collect) {
            add(path, "expected " + typeNames(n->types) + ", got " + brief(v), n->types);
        }
        // Other keywords would mostly restate the same mismatch.
        return false;
    }
    if (n->constValue && !jsonEquals(*n->constValue, v))
        HAKO_FAIL("expected " + brief(*n->constValue) + ", got " + brief(v));
    if (n->hasEnum) {
        bool found = false;
        for (const Value& e : n->enumValues) {
            if (jsonEquals(e, v)) {
                found = true;
                break;
            }
        }
        if (!found) {
            std::string options;
            for (size_t i = 0; i < n->enumValues.size() && i < 10; ++i)
                options += (i ? ", " : "") + brief(n->enumValues[i]);
            if (n->enumValues.size() > 10)
                options += ", ...";
            HAKO_FAIL("expected one of " + options + ", got " + brief(v));
        }
    }
    switch (v.type()) {
    case Value::Type::Int:
    case Value::Type::Float:
        if (n->hasNumeric)
            HAKO_SUB(checkNumber<Collect>(n, v, path));
        break;
    case Value::Type::String:
        if (n->minLength >= 0 || n->maxLength >= 0 || n->pattern)
            HAKO_SUB(checkString<Collect>(n, v, path));
        break;
    case Value::Type::List:
        if (n->hasArray)
            HAKO_SUB(checkArray<Collect>(n, v, path));
        break;
    case Value::Type::Dict:
        if (n->hasObject)
            HAKO_SUB(checkObject<Collect>(n, v, path));
        break;
    default:
        break;
    }
    if (n->ref)
        HAKO_SUB(check<Collect>(n->ref, v, path));
    for (const Node* sub : n->allOf)
        HAKO_SUB(check<Collect>(sub, v, path));
    if (!n->anyOf.empty()) {
        bool any = false;
        for (const Node* sub : n->anyOf) {
            if (check<false>(sub, v, path)) {
                any = true;
                break;
            }
        }
        if (!any) {
            if constexpr (Collect) {
                ok = false;
                reportAlternatives(n->anyOf, v, path, "anyOf");
                if (full())
                    return false;
            } else {
                return false;
            }
        }
    }
    if (!n->oneOf.empty()) {
        std::vector<size_t> matching;
        for (size_t i = 0; i < n->oneOf.size(); ++i) {
            if (check<false>(n->oneOf[i], v, path))
                matching.push_back(i);
        }
        if (matching.empty()) {
            if constexpr (Collect) {
                ok = false;
                reportAlternatives(n->oneOf, v, path, "oneOf");
                if (full())
                    return false;
            } else {
                return false;
            }
        } else if (matching.size() > 1) {
            HAKO_FAIL("matches more than one of the oneOf schemas (#" +
                      std::to_string(matching[0]) + " and #" + std::to_string(matching[1]) +
                      "), expected exactly one");
        }
    }
    if (n->notSchema && check<false>(n->notSchema, v, path))
        HAKO_FAIL("must not match the schema at " + n->notSchema->location + ", got " + brief(v));
    if (n->ifSchema) {
        if (check<false>(n->ifSchema, v, path)) {
            if (n->thenSchema)
                HAKO_SUB(check<Collect>(n->thenSchema, v, path));
        } else if (n->elseSchema) {
            HAKO_SUB(check<Collect>(n->elseSchema, v, path));
        }
    }
    return ok;
}

void Validator::reportAlternatives(const std::vector<const Node*>& options, const Value& v,
                                   const PathSeg* path, const char* keyword)
{
    std::vector<std::vector<Error>> perOption;
    std::vector<size_t> relevant; // options the value has the right type for
    const std::string here = pathText(path);
    for (size_t i = 0; i < options.size(); ++i) {
        perOption.push_back(errorsOf(options[i], v, path, 3));
        const auto& errs = perOption.back();
        if (errs.size() != 1 || !errs[0].expectedTypes || errs[0].error.path != here)
            relevant.push_back(i);
    }
    if (relevant.empty()) {
        // `{optional: string}` becomes anyOf [string, null]: say "expected string or null".
        uint8_t mask = 0;
        for (const auto& errs : perOption)
            mask |= errs[0].expectedTypes;
        add(path, "expected " + typeNames(mask) + ", got " + brief(v), mask);
        return;
    }
    if (relevant.size() == 1) {
        // Only one alternative accepts this kind of value (an object for `{optional: {...}}`):
        // its own errors say what is wrong, more precisely than "matches no alternative".
        std::vector<Error> saved;
        saved.swap(errors);
        errors.reserve(saved.size());
        for (Error& e : saved)
            errors.push_back(std::move(e));
        check<true>(options[relevant[0]], v, path);
        return;
    }
    std::string message = "does not match any of the " + std::string(keyword) + " alternatives";
    bool first = true;
    for (size_t i = 0; i < perOption.size(); ++i) {
        if (perOption[i].empty())
            continue;
        const ValidationError& e = perOption[i][0].error;
        message += first ? ": #" : "; #";
        first = false;
        message += std::to_string(i) + " ";
        if (e.path != here)
            message += e.path + ": ";
        message += e.message;
    }
    add(path, std::move(message));
}

template <bool Collect>
bool Validator::checkNumber(const Node* n, const Value& v, const PathSeg* path)
{
    bool ok = true;
    const double d = v.toDouble();
    if (n->minimum && d < *n->minimum)
        HAKO_FAIL(brief(v) + " is less than the minimum " + numberText(*n->minimum));
    if (n->maximum && d > *n->maximum)
        HAKO_FAIL(brief(v) + " is greater than the maximum " + numberText(*n->maximum));
    if (n->exclusiveMinimum && d <= *n->exclusiveMinimum)
        HAKO_FAIL(brief(v) + " is not greater than the exclusive minimum " +
                  numberText(*n->exclusiveMinimum));
    if (n->exclusiveMaximum && d >= *n->exclusiveMaximum)
        HAKO_FAIL(brief(v) + " is not less than the exclusive maximum " +
                  numberText(*n->exclusiveMaximum));
    if (n->multipleOf && !isMultiple(v, *n->multipleOf))
        HAKO_FAIL(brief(v) + " is not a multiple of " + numberText(*n->multipleOf));
    return ok;
}

template <bool Collect>
bool Validator::checkString(const Node* n, const Value& v, const PathSeg* path)
{
    bool ok = true;
    const std::string& s = v.asString();
    if (n->minLength >= 0 || n->maxLength >= 0) {
        const int64_t length = utf8::length(s);
        if (n->minLength >= 0 && length < n->minLength)
            HAKO_FAIL("expected at least " + std::to_string(n->minLength) + " character" +
                      (n->minLength == 1 ? "" : "s") + ", got " + std::to_string(length));
        if (n->maxLength >= 0 && length > n->maxLength)
            HAKO_FAIL("expected at most " + std::to_string(n->maxLength) + " character" +
                      (n->maxLength == 1 ? "" : "s") + ", got " + std::to_string(length));
    }
    if (n->pattern && !n->pattern->search(s))
        HAKO_FAIL(brief(v) + " does not match the pattern " + quoted(n->pattern->source, '\''));
    return ok;
}

template <bool Collect>
bool Validator::checkArray(const Node* n, const Value& v, const PathSeg* path)
{
    bool ok = true;
    const List& list = v.asList();
    const int64_t size = int64_t(list.size());
    auto plural = [](int64_t k) {
        return std::to_string(k) + (k == 1 ? " item" : " items");
    };
    if (n->minItems >= 0 && size < n->minItems)
        HAKO_FAIL("expected at least " + plural(n->minItems) + ", got " + std::to_string(size));
    if (n->maxItems >= 0 && size > n->maxItems)
        HAKO_FAIL("expected at most " + plural(n->maxItems) + ", got " + std::to_string(size));
    for (size_t i = 0; i < list.size(); ++i) {
        const Node* itemSchema = i < n->prefixItems.size() ? n->prefixItems[i] : n->items;
        if (!itemSchema)
            continue;
        PathSeg seg{path, {}, int64_t(i)};
        HAKO_SUB(check<Collect>(itemSchema, list[i], &seg));
    }
    if (n->contains) {
        int64_t matches = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            PathSeg seg{path, {}, int64_t(i)};
            if (check<false>(n->contains, list[i], &seg))
                ++matches;
        }
        if (matches < n->minContains)
            HAKO_FAIL("expected at least " + plural(n->minContains) +
                      " matching the 'contains' schema, got " + std::to_string(matches));
        if (n->maxContains >= 0 && matches > n->maxContains)
            HAKO_FAIL("expected at most " + plural(n->maxContains) +
                      " matching the 'contains' schema, got " + std::to_string(matches));
    }
    if (n->uniqueItems) {
        for (size_t i = 0; i < list.size(); ++i) {
            for (size_t j = i + 1; j < list.size(); ++j) {
                if (jsonEquals(list[i], list[j]))
                    HAKO_FAIL("expected unique items, but items " + std::to_string(i) + " and " +
                              std::to_string(j) + " are equal (" + brief(list[i]) + ")");
            }
        }
    }
    return ok;
}

template <bool Collect>
bool Validator::checkObject(const Node* n, const Value& v, const PathSeg* path)
{
    bool ok = true;
    const Dict& dict = v.asDict();
    const int64_t size = int64_t(dict.size());
    for (const std::string& name : n->required) {
        if (!dict.find(std::string_view(name)))
            HAKO_FAIL("missing required property " + quoted(name, '\''));
    }
    if (n->minProperties >= 0 && size < n->minProperties)
        HAKO_FAIL("expected at least " + std::to_string(n->minProperties) + " properties, got " +
                  std::to_string(size));
    if (n->maxProperties >= 0 && size > n->maxProperties)
        HAKO_FAIL("expected at most " + std::to_string(n->maxProperties) + " properties, got " +
                  std::to_string(size));
    for (const auto& [name, deps] : n->dependentRequired) {
        if (!dict.find(std::string_view(name)))
            continue;
        for (const std::string& dep : deps) {
            if (!dict.find(std::string_view(dep)))
                HAKO_FAIL("missing property " + quoted(dep, '\'') + ", required when " +
                          quoted(name, '\'') + " is present");
        }
    }
    for (const auto& rule : n->dependentSchemas) {
        if (dict.find(std::string_view(rule.name)))
            HAKO_SUB(check<Collect>(rule.schema, v, path));
    }
    const bool perProperty = !n->properties.empty() || !n->patternProperties.empty() ||
                             n->additionalProperties || n->propertyNames;
    if (!perProperty)
        return ok;
    for (const auto& [keyValue, item] : dict) {
        std::string keyStorage;
        std::string_view key;
        if (keyValue.isString()) {
            key = keyValue.asString();
        } else {
            keyStorage = keyText(keyValue);
            key = keyStorage;
        }
        PathSeg seg{path, key};
        bool matched = false;
        if (const Node* sub = n->property(key)) {
            matched = true;
            HAKO_SUB(check<Collect>(sub, item, &seg));
        }
        for (const auto& [regex, sub] : n->patternProperties) {
            if (regex->search(key)) {
                matched = true;
                HAKO_SUB(check<Collect>(sub, item, &seg));
            }
        }
        if (!matched && n->additionalProperties) {
            const Node* extra = n->additionalProperties;
            if (extra->constant == false) {
                HAKO_FAIL("unexpected property " + quoted(key, '\''));
            } else {
                HAKO_SUB(check<Collect>(extra, item, &seg));
            }
        }
        if (n->propertyNames) {
            Value name{std::string(key)};
            if (!check<false>(n->propertyNames, name, path)) {
                if constexpr (Collect) {
                    auto why = errorsOf(n->propertyNames, name, path, 1);
                    HAKO_FAIL("invalid property name " + quoted(key, '\'') +
                              (why.empty() ? std::string() : ": " + why[0].error.message));
                } else {
                    return false;
                }
            }
        }
    }
    return ok;
}

#undef HAKO_FAIL
#undef HAKO_SUB

} // namespace

namespace schema {

bool Regex::search(std::string_view text) const
{
    return re.match(QString::fromUtf8(text.data(), qsizetype(text.size()))).hasMatch();
}

const Node* Node::property(std::string_view name) const
{
    if (!propertyIndex.empty()) {
        auto it = propertyIndex.find(name);
        return it == propertyIndex.end() ? nullptr : it->second;
    }
    for (const PropertyRule& rule : properties) {
        if (rule.name == name)
            return rule.schema;
    }
    return nullptr;
}

} // namespace schema

std::string ValidationError::toString() const
{
    return path + ": " + message;
}

std::vector<ValidationError> JsonSchema::validate(const Value& instance, int maxErrors) const
{
    std::vector<ValidationError> out;
    if (!m_doc)
        return out;
    Validator validator(maxErrors);
    PathSeg root;
    try {
        if (validator.check<false>(m_doc->root, instance, &root))
            return out;
        validator.check<true>(m_doc->root, instance, &root);
    } catch (const DepthError& e) {
        out.push_back({e.path, "schema nesting exceeds " + std::to_string(kMaxDepth) +
                                   " levels (a $ref cycle that does not descend into the value?)"});
        return out;
    }
    for (Error& e : validator.errors)
        out.push_back(std::move(e.error));
    if (out.empty()) // cannot happen unless the fast and collecting paths disagree
        out.push_back({"$", "the value does not match the schema"});
    return out;
}

bool JsonSchema::isValid(const Value& instance) const
{
    if (!m_doc)
        return true;
    Validator validator(1);
    PathSeg root;
    try {
        return validator.check<false>(m_doc->root, instance, &root);
    } catch (const DepthError&) {
        return false;
    }
}

bool jsonEquals(const Value& a, const Value& b)
{
    if (a.isNumber() && b.isNumber()) {
        if (a.isInt() && b.isInt())
            return a.asInt() == b.asInt();
        if (a.isFloat() && b.isFloat())
            return a.asFloat() == b.asFloat();
        const Value& i = a.isInt() ? a : b;
        const Value& f = a.isInt() ? b : a;
        const double d = f.asFloat();
        // Compare exactly: only integral doubles inside int64's range can equal an int.
        if (!(std::floor(d) == d) || d < -9.223372036854775808e18 || d >= 9.223372036854775808e18)
            return false;
        return int64_t(d) == i.asInt();
    }
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case Value::Type::Null:
        return true;
    case Value::Type::Bool:
        return a.asBool() == b.asBool();
    case Value::Type::String:
        return a.asString() == b.asString();
    case Value::Type::List: {
        const List& x = a.asList();
        const List& y = b.asList();
        if (x.size() != y.size())
            return false;
        for (size_t i = 0; i < x.size(); ++i) {
            if (!jsonEquals(x[i], y[i]))
                return false;
        }
        return true;
    }
    case Value::Type::Dict: {
        const Dict& x = a.asDict();
        const Dict& y = b.asDict();
        if (x.size() != y.size())
            return false;
        for (const auto& [key, value] : x) {
            const Value* other = y.find(key);
            if (!other || !jsonEquals(value, *other))
                return false;
        }
        return true;
    }
    default:
        return false;
    }
}

const char* jsonTypeName(const Value& v)
{
    switch (v.type()) {
    case Value::Type::Null:
        return "null";
    case Value::Type::Bool:
        return "boolean";
    case Value::Type::Int:
        return "integer";
    case Value::Type::Float:
        return "number";
    case Value::Type::String:
        return "string";
    case Value::Type::List:
        return "array";
    case Value::Type::Dict:
        return "object";
    case Value::Type::Undefined:
        return "undefined";
    case Value::Type::Callable:
        return "function";
    }
    return "undefined";
}

} // namespace hako::pdl
