// Compiles a JSON Schema (draft 2020-12) Value into the schema::Node tree of a Document.

#include "core/pdl/types/jsonschema.h"
#include "core/pdl/types/schemanode_p.h"
#include "core/util/chars.h"

#include <cmath>
#include <unordered_map>

namespace hako::pdl {

namespace {

using schema::Document;
using schema::Node;
using schema::Regex;

struct CompileError {
    std::string location;
    std::string message;
};

std::string escapePointerToken(std::string_view token)
{
    std::string out;
    out.reserve(token.size());
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string percentDecode(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            int hi = hexDigitValue(s[i + 1]), lo = hexDigitValue(s[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += char(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

/// ECMA-262's `$` (without the m flag) matches only at the very end, PCRE's also before a final
/// newline: translate unescaped `$` outside character classes to `\z`.
std::string ecmaToPcre(std::string_view pattern)
{
    std::string out;
    out.reserve(pattern.size() + 4);
    bool inClass = false;
    for (size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            out += c;
            out += pattern[++i];
            continue;
        }
        if (inClass) {
            if (c == ']')
                inClass = false;
        } else if (c == '[') {
            inClass = true;
            // A `]` right after `[` or `[^` is a literal member in PCRE.
            out += c;
            if (i + 1 < pattern.size() && pattern[i + 1] == '^')
                out += pattern[++i];
            if (i + 1 < pattern.size() && pattern[i + 1] == ']')
                out += pattern[++i];
            continue;
        } else if (c == '$') {
            out += "\\z";
            continue;
        }
        out += c;
    }
    return out;
}

std::string withoutFragment(const std::string& uri)
{
    return uri.substr(0, uri.find('#'));
}

bool hasScheme(std::string_view uri)
{
    for (size_t i = 0; i < uri.size(); ++i) {
        const char c = uri[i];
        if (c == ':')
            return i > 0;
        const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!alpha && !(i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')))
            return false;
    }
    return false;
}

/// `ref` resolved against `base` (RFC 3986, without dot-segment removal: enough for the
/// `$id`/`$ref` pairs schemas use).
std::string resolveUri(const std::string& base, const std::string& ref)
{
    const std::string b = withoutFragment(base);
    if (ref.empty())
        return b;
    if (ref[0] == '#')
        return b + ref;
    if (hasScheme(ref) || b.empty())
        return ref;
    const size_t schemeEnd = b.find(':');
    if (ref.compare(0, 2, "//") == 0)
        return b.substr(0, schemeEnd + 1) + ref;
    if (ref[0] == '/') {
        size_t authorityEnd =
            b.compare(schemeEnd + 1, 2, "//") == 0 ? b.find('/', schemeEnd + 3) : schemeEnd + 1;
        return b.substr(0, authorityEnd) + ref;
    }
    const size_t slash = b.rfind('/');
    if (slash == std::string::npos || slash < schemeEnd)
        return ref;
    return b.substr(0, slash + 1) + ref;
}

class Compiler {
public:
    explicit Compiler(Document& doc) : m_doc(doc) {}

    void run()
    {
        // Without a root $id, references resolve against the empty base URI.
        m_resources[""] = {"#", &m_doc.source, ""};
        m_doc.root = compile(m_doc.source, "#");
        // Resolving may compile more subschemas (refs into non-keyword locations), which can
        // add more pending refs: hence the index loop.
        for (size_t i = 0; i < m_pending.size(); ++i) {
            Pending p = m_pending[i];
            p.node->ref = resolve(p.ref, p.base, p.node->location);
        }
    }

private:
    struct Pending {
        Node* node;
        std::string ref;
        std::string base; // the base URI in effect where the $ref appears
    };

    /// A schema resource: the document root or a subschema with its own $id.
    struct Resource {
        std::string pointer; // its location in the document
        const Value* value;
        std::string base;
    };

    [[noreturn]] void fail(const std::string& location, std::string message)
    {
        throw CompileError{location, std::move(message)};
    }

    Node* newNode(std::string location)
    {
        auto node = std::make_unique<Node>();
        node->location = std::move(location);
        Node* raw = node.get();
        m_doc.nodes.push_back(std::move(node));
        m_byPointer.emplace(raw->location, raw);
        return raw;
    }

    static std::string child(const std::string& loc, std::string_view key)
    {
        return loc + "/" + escapePointerToken(key);
    }

    double number(const Value& v, const std::string& loc)
    {
        if (!v.isNumber())
            fail(loc, "expected a number, got " + v.json());
        return v.toDouble();
    }

    int64_t count(const Value& v, const std::string& loc)
    {
        if (v.isInt() && v.asInt() >= 0)
            return v.asInt();
        if (v.isFloat() && v.asFloat() >= 0 && std::floor(v.asFloat()) == v.asFloat() &&
            v.asFloat() < 9.2e18)
            return int64_t(v.asFloat());
        fail(loc, "expected a non-negative integer, got " + v.json());
    }

    const Dict& object(const Value& v, const std::string& loc)
    {
        if (!v.isDict())
            fail(loc, "expected an object, got " + v.json());
        return v.asDict();
    }

    const List& array(const Value& v, const std::string& loc, bool nonEmpty = false)
    {
        if (!v.isList())
            fail(loc, "expected an array, got " + v.json());
        if (nonEmpty && v.asList().empty())
            fail(loc, "expected a non-empty array");
        return v.asList();
    }

    std::vector<std::string> strings(const Value& v, const std::string& loc)
    {
        std::vector<std::string> out;
        const List& items = array(v, loc);
        for (size_t i = 0; i < items.size(); ++i) {
            if (!items[i].isString())
                fail(child(loc, std::to_string(i)), "expected a string, got " + items[i].json());
            out.push_back(items[i].asString());
        }
        return out;
    }

    std::unique_ptr<Regex> regex(const std::string& source, const std::string& loc)
    {
        auto r = std::make_unique<Regex>();
        r->source = source;
        r->re.setPattern(QString::fromStdString(ecmaToPcre(source)));
        if (!r->re.isValid()) {
            fail(loc, "invalid regular expression '" + source +
                          "': " + r->re.errorString().toStdString() + " at offset " +
                          std::to_string(r->re.patternErrorOffset()));
        }
        r->re.optimize();
        return r;
    }

    static std::string keyText(const Value& key)
    {
        return key.isString() ? key.asString() : key.str();
    }

    uint8_t typeBit(const Value& name, const std::string& loc)
    {
        if (!name.isString())
            fail(loc, "a type name must be a string, got " + name.json());
        const std::string& s = name.asString();
        if (s == "null")
            return schema::kNull;
        if (s == "boolean")
            return schema::kBoolean;
        if (s == "integer")
            return schema::kInteger;
        if (s == "number")
            return schema::kNumber;
        if (s == "string")
            return schema::kString;
        if (s == "array")
            return schema::kArray;
        if (s == "object")
            return schema::kObject;
        fail(loc, "unknown type '" + s +
                      "' (expected null, boolean, integer, number, string, array or object)");
    }

    Node* compile(const Value& s, const std::string& loc)
    {
        if (auto it = m_byPointer.find(loc); it != m_byPointer.end())
            return it->second;
        if (s.isBool()) {
            Node* node = newNode(loc);
            node->constant = s.asBool();
            return node;
        }
        if (!s.isDict())
            fail(loc, "a schema must be an object or a boolean, got " + s.json());
        Node* n = newNode(loc);
        // A subschema's $id changes the base URI its (and its children's) $refs resolve
        // against, and makes it addressable by that URI.
        const std::string savedBase = m_base;
        if (const Value* id = s.asDict().find("$id"); id && id->isString()) {
            const std::string& text = id->asString();
            if (!text.empty() && text[0] == '#') {
                // Draft-7 location-independent identifier: an anchor.
                m_anchors.emplace(withoutFragment(m_base) + text, n);
            } else {
                m_base = withoutFragment(resolveUri(m_base, text));
                m_resources[m_base] = {loc, &s, m_base};
            }
        }
        struct BaseRestore {
            std::string& base;
            std::string saved;
            ~BaseRestore() { base = saved; }
        } restore{m_base, savedBase};
        for (const auto& [keyValue, v] : s.asDict()) {
            const std::string key = keyText(keyValue);
            const std::string at = child(loc, key);
            compileKeyword(n, key, v, at);
        }
        if (n->properties.size() > 8) {
            for (const auto& rule : n->properties)
                n->propertyIndex.emplace(rule.name, rule.schema);
        }
        return n;
    }

    // Keywords on any value: type, enum, const, numbers and strings.
    bool valueKeyword(Node* n, const std::string& key, const Value& v, const std::string& at)
    {
        if (key == "type") {
            if (v.isList()) {
                const List& names = v.asList();
                for (size_t i = 0; i < names.size(); ++i)
                    n->types |= typeBit(names[i], child(at, std::to_string(i)));
                if (names.empty())
                    fail(at, "expected at least one type name");
            } else {
                n->types = typeBit(v, at);
            }
        } else if (key == "enum") {
            n->enumValues = array(v, at);
            n->hasEnum = true;
        } else if (key == "const") {
            n->constValue = v;
        } else if (key == "minimum") {
            n->minimum = number(v, at);
            n->hasNumeric = true;
        } else if (key == "maximum") {
            n->maximum = number(v, at);
            n->hasNumeric = true;
        } else if (key == "exclusiveMinimum") {
            n->exclusiveMinimum = number(v, at);
            n->hasNumeric = true;
        } else if (key == "exclusiveMaximum") {
            n->exclusiveMaximum = number(v, at);
            n->hasNumeric = true;
        } else if (key == "multipleOf") {
            n->multipleOf = number(v, at);
            if (*n->multipleOf <= 0)
                fail(at, "multipleOf must be greater than 0");
            n->hasNumeric = true;
        } else if (key == "minLength") {
            n->minLength = count(v, at);
        } else if (key == "maxLength") {
            n->maxLength = count(v, at);
        } else if (key == "pattern") {
            if (!v.isString())
                fail(at, "expected a string, got " + v.json());
            n->pattern = regex(v.asString(), at);
        } else {
            return false;
        }
        return true;
    }

    // Keywords on arrays.
    bool arrayKeyword(Node* n, const std::string& key, const Value& v, const std::string& at)
    {
        if (key == "items") {
            if (v.isList())
                fail(at, "'items' must be a schema in draft 2020-12; use 'prefixItems' for "
                         "tuple validation");
            n->items = compile(v, at);
            n->hasArray = true;
        } else if (key == "prefixItems") {
            const List& list = array(v, at, true);
            for (size_t i = 0; i < list.size(); ++i)
                n->prefixItems.push_back(compile(list[i], child(at, std::to_string(i))));
            n->hasArray = true;
        } else if (key == "contains") {
            n->contains = compile(v, at);
            n->hasArray = true;
        } else if (key == "minContains") {
            n->minContains = count(v, at);
            n->hasArray = true;
        } else if (key == "maxContains") {
            n->maxContains = count(v, at);
            n->hasArray = true;
        } else if (key == "minItems") {
            n->minItems = count(v, at);
            n->hasArray = true;
        } else if (key == "maxItems") {
            n->maxItems = count(v, at);
            n->hasArray = true;
        } else if (key == "uniqueItems") {
            if (!v.isBool())
                fail(at, "expected a boolean, got " + v.json());
            n->uniqueItems = v.asBool();
            n->hasArray = true;
        } else {
            return false;
        }
        return true;
    }

    // Keywords on objects.
    bool objectKeyword(Node* n, const std::string& key, const Value& v, const std::string& at)
    {
        if (key == "properties") {
            for (const auto& [name, sub] : object(v, at)) {
                std::string text = keyText(name);
                Node* compiled = compile(sub, child(at, text));
                n->properties.push_back({std::move(text), compiled});
            }
            n->hasObject = true;
        } else if (key == "patternProperties") {
            for (const auto& [name, sub] : object(v, at)) {
                std::string text = keyText(name);
                std::string subAt = child(at, text);
                auto re = regex(text, subAt);
                n->patternProperties.emplace_back(std::move(re), compile(sub, subAt));
            }
            n->hasObject = true;
        } else if (key == "additionalProperties") {
            n->additionalProperties = compile(v, at);
            n->hasObject = true;
        } else if (key == "propertyNames") {
            n->propertyNames = compile(v, at);
            n->hasObject = true;
        } else if (key == "required") {
            n->required = strings(v, at);
            n->hasObject = true;
        } else if (key == "minProperties") {
            n->minProperties = count(v, at);
            n->hasObject = true;
        } else if (key == "maxProperties") {
            n->maxProperties = count(v, at);
            n->hasObject = true;
        } else if (key == "dependentRequired") {
            for (const auto& [name, deps] : object(v, at)) {
                std::string text = keyText(name);
                n->dependentRequired.emplace_back(text, strings(deps, child(at, text)));
            }
            n->hasObject = true;
        } else if (key == "dependentSchemas") {
            for (const auto& [name, sub] : object(v, at)) {
                std::string text = keyText(name);
                n->dependentSchemas.push_back({text, compile(sub, child(at, text))});
            }
            n->hasObject = true;
        } else if (key == "dependencies") {
            // The draft-7 form, still common in hand-written schemas: an array of names is
            // dependentRequired, a schema is dependentSchemas.
            for (const auto& [name, dep] : object(v, at)) {
                std::string text = keyText(name);
                if (dep.isList())
                    n->dependentRequired.emplace_back(text, strings(dep, child(at, text)));
                else
                    n->dependentSchemas.push_back({text, compile(dep, child(at, text))});
            }
            n->hasObject = true;
        } else {
            return false;
        }
        return true;
    }

    void compileKeyword(Node* n, const std::string& key, const Value& v, const std::string& at)
    {
        if (valueKeyword(n, key, v, at) || arrayKeyword(n, key, v, at) ||
            objectKeyword(n, key, v, at))
            return;
        if (key == "allOf" || key == "anyOf" || key == "oneOf") {
            auto& target = key == "allOf" ? n->allOf : key == "anyOf" ? n->anyOf : n->oneOf;
            const List& list = array(v, at, true);
            for (size_t i = 0; i < list.size(); ++i)
                target.push_back(compile(list[i], child(at, std::to_string(i))));
        } else if (key == "not") {
            n->notSchema = compile(v, at);
        } else if (key == "if") {
            n->ifSchema = compile(v, at);
        } else if (key == "then") {
            n->thenSchema = compile(v, at);
        } else if (key == "else") {
            n->elseSchema = compile(v, at);
        } else if (key == "$defs" || key == "definitions") {
            for (const auto& [name, sub] : object(v, at))
                compile(sub, child(at, keyText(name)));
        } else if (key == "$ref") {
            if (!v.isString())
                fail(at, "expected a string, got " + v.json());
            m_pending.push_back({n, v.asString(), m_base});
        } else if (key == "$anchor") {
            if (v.isString())
                m_anchors.emplace(withoutFragment(m_base) + "#" + v.asString(), n);
        } else if (key == "$dynamicRef" || key == "$recursiveRef" ||
                   key == "unevaluatedProperties" || key == "unevaluatedItems") {
            // Ignoring these would silently accept invalid instances; refuse instead.
            fail(at, "the keyword '" + key + "' is not supported");
        }
        // Everything else (format, title, description, default, examples, $schema, $id,
        // $comment, content*, additionalItems from older drafts...) is an annotation here.
    }

    const Node* resolve(const std::string& ref, const std::string& base, const std::string& from)
    {
        const std::string absolute = resolveUri(base, ref);
        const size_t hash = absolute.find('#');
        const std::string uri = absolute.substr(0, hash);
        auto resource = m_resources.find(uri);
        if (resource == m_resources.end())
            fail(from, "cannot resolve $ref '" + ref + "'" +
                           (uri.empty() ? std::string() : " (" + uri + ")") +
                           ": only references within the schema are supported");
        const Resource& res = resource->second;
        std::string fragment =
            hash == std::string::npos ? std::string() : percentDecode(absolute.substr(hash + 1));
        const std::string savedBase = m_base;
        m_base = res.base;
        const Node* target = fragment.empty() ? compile(*res.value, res.pointer)
                                              : resolveFragment(res, uri, fragment, ref, from);
        m_base = savedBase;
        return target;
    }

    const Node* resolveFragment(const Resource& res, const std::string& uri,
                                const std::string& fragment, const std::string& original,
                                const std::string& from)
    {
        if (fragment[0] != '/') {
            if (auto it = m_anchors.find(uri + "#" + fragment); it != m_anchors.end())
                return it->second;
            fail(from,
                 "cannot resolve $ref '" + original + "': no $anchor named '" + fragment + "'");
        }
        // Walk the source value token by token, building the canonical pointer as we go.
        std::string pointer = res.pointer;
        const Value* at = res.value;
        size_t pos = 1;
        while (true) {
            size_t slash = fragment.find('/', pos);
            std::string raw =
                fragment.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos);
            std::string token;
            for (size_t i = 0; i < raw.size(); ++i) {
                if (raw[i] == '~' && i + 1 < raw.size() &&
                    (raw[i + 1] == '0' || raw[i + 1] == '1')) {
                    token += raw[i + 1] == '0' ? '~' : '/';
                    ++i;
                } else if (raw[i] == '~') {
                    fail(from, "invalid JSON pointer in $ref '" + original + "'");
                } else {
                    token += raw[i];
                }
            }
            pointer = child(pointer, token);
            const Value* next = nullptr;
            if (at->isDict()) {
                next = at->asDict().find(std::string_view(token));
            } else if (at->isList()) {
                char* end = nullptr;
                long index = std::strtol(token.c_str(), &end, 10);
                if (!token.empty() && *end == '\0' && index >= 0 &&
                    size_t(index) < at->asList().size())
                    next = &at->asList()[size_t(index)];
            }
            if (!next)
                fail(from, "cannot resolve $ref '" + original + "': nothing at " + pointer);
            at = next;
            if (slash == std::string::npos)
                break;
            pos = slash + 1;
        }
        return compile(*at, pointer);
    }

    Document& m_doc;
    std::unordered_map<std::string, Node*> m_byPointer;
    std::unordered_map<std::string, Node*> m_anchors;      // absolute URI with #name
    std::unordered_map<std::string, Resource> m_resources; // by absolute URI, no fragment
    std::vector<Pending> m_pending;
    std::string m_base;
};

} // namespace

Result<JsonSchema> JsonSchema::compile(const Value& schemaValue)
{
    auto doc = std::make_shared<Document>();
    doc->source = schemaValue;
    try {
        Compiler(*doc).run();
    } catch (const CompileError& e) {
        return makeError(
            QStringLiteral("invalid JSON Schema at %1: %2")
                .arg(QString::fromStdString(e.location), QString::fromStdString(e.message)));
    }
    JsonSchema result;
    result.m_doc = std::move(doc);
    return Result<JsonSchema>(std::move(result));
}

const Value& JsonSchema::source() const
{
    static const Value acceptAll(true);
    return m_doc ? m_doc->source : acceptAll;
}

} // namespace hako::pdl
