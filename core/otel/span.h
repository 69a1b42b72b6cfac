#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hako::otel {

/// Attributes as plain JSON: an object from key to the decoded OTLP AnyValue (string, bool,
/// int64, double, array, object; bytes become a base64 string). Insertion order is kept.
using Attributes = nlohmann::ordered_json;

/// Builds an Attributes object key by key in time linear in its size. An ordered_json object
/// finds a key by scanning its keys, so assigning n keys one at a time costs n²/2 comparisons
/// (80,000 attributes in one request took half a minute); this keeps a hash index beside the
/// items once there are more than a few dozen, and makes the object once. Below that a scan is
/// cheaper than hashing and allocating an index entry per key (a span has some ten attributes,
/// a million-span file ten million of them). A key set again keeps its first place and takes
/// the last value, as assignment does. A plain value: one thread at a time.
class AttributesBuilder {
public:
    /// Sets `key` to `value` (replacing an earlier value of the key, keeping its place).
    void set(std::string key, Attributes value);
    /// Every member of the object `object` (nothing when it is not an object).
    void update(const Attributes& object);
    /// The value set for `key`, or nullptr.
    Attributes* find(std::string_view key);
    bool empty() const { return m_items.empty(); }
    size_t size() const { return m_items.size(); }
    /// The object, in first-set order; the builder is left empty.
    Attributes take();

private:
    /// Hashes a std::string or a string view alike, so a lookup makes no string.
    struct KeyHash {
        using is_transparent = void;
        size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
    };
    std::vector<std::pair<std::string, Attributes>> m_items;
    /// Key → place in m_items; empty until m_items outgrows a scan.
    std::unordered_map<std::string, size_t, KeyHash, std::equal_to<>> m_index;
};

/// What every span of one `ResourceSpans`/`ScopeSpans` shares: resource attributes
/// (`service.name`, `deployment.environment`, …) and the instrumentation scope.
struct SpanResource {
    Attributes attributes = Attributes::object();
    std::string scopeName;
    std::string scopeVersion;
};

/// A span event (`exception`, the older GenAI per-message events, …).
struct SpanEvent {
    std::string name;
    int64_t timeNanos = 0;
    Attributes attributes = Attributes::object();
};

/// One OpenTelemetry span as OTLP carries it, independent of the encoding (JSON or protobuf).
/// Ids are lower-case hex (32 digits for a trace, 16 for a span); `parentSpanId` is empty for a
/// root. A plain value, safe to move between threads.
struct Span {
    std::string traceId;
    std::string spanId;
    std::string parentSpanId;
    std::string name;
    /// OTLP SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer.
    int kind = 0;
    int64_t startNanos = 0;
    int64_t endNanos = 0;
    Attributes attributes = Attributes::object();
    std::vector<SpanEvent> events;
    /// OTLP StatusCode: 0 unset, 1 ok, 2 error.
    int statusCode = 0;
    std::string statusMessage;
    std::shared_ptr<const SpanResource> resource;

    bool isRoot() const { return parentSpanId.empty(); }
};

/// Lower-case hex of `bytes`.
std::string toHex(std::string_view bytes);
/// Whether `text` is `digits` hex digits (either case) and not all zero.
bool isHexId(std::string_view text, size_t digits);
/// The attribute as a string (numbers and booleans printed), or `fallback` when absent/null.
std::string attrString(const Attributes& attributes, std::string_view key,
                       std::string fallback = {});
/// Whether `bytes` is well-formed UTF-8.
bool isValidUtf8(std::string_view bytes);

} // namespace hako::otel
