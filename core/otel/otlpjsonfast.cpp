#include "core/otel/otlpjsonfast_p.h"

#include "core/pdl/trace/jsonstring_p.h"
#include "core/util/chars.h"

#include <simdjson.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>

// OTLP/JSON with simdjson's On Demand parser: each value is read once, in file order, straight
// into the Span; nothing else is built. It takes only what it can read exactly as the reference
// reader (otlpjsondecode.cpp, nlohmann's DOM) does and gives up on anything else, so that
// reader alone words the errors: a repeated field (the DOM keeps the last), a field in both
// spellings (`scopeSpans` and `scope_spans`), an AnyValue with several values, nesting past 64,
// a number outside int64/uint64, and every malformed value.

namespace hako::otel {

namespace {

namespace od = simdjson::ondemand;

struct Unsupported {};

template <typename T> T take(simdjson::simdjson_result<T>&& r)
{
    T v;
    if (std::move(r).get(v) != simdjson::SUCCESS)
        throw Unsupported{};
    return v;
}

od::json_type typeOf(od::value& v)
{
    return take(v.type());
}

// Null is what the reference reader treats as an absent field: consumed here.
bool consumeNull(od::value& v)
{
    if (typeOf(v) != od::json_type::null)
        return false;
    if (!take(v.is_null()))
        throw Unsupported{};
    return true;
}

// A string's text: the raw token unescaped by the rules the reference reader's parser has
// (control characters, unknown escapes and lone surrogates refused).
std::string text(od::value& v)
{
    if (typeOf(v) != od::json_type::string)
        throw Unsupported{};
    std::string_view token = v.raw_json_token();
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                              token.back() == '\t'))
        token.remove_suffix(1);
    if (token.size() < 2 || token.front() != '"' || token.back() != '"')
        throw Unsupported{};
    (void)take(v.get_raw_json_string());
    const std::string_view raw = token.substr(1, token.size() - 2);
    if (!pdl::jsonStringNeedsUnescape(raw))
        return std::string(raw);
    std::string out;
    if (!pdl::unescapeJsonString(raw, out))
        throw Unsupported{};
    return out;
}

static_assert(std::endian::native == std::endian::little, "key() reads a word's bytes low first");

// A key's text: a view of the input when it holds no escape, else unescaped into `scratch`.
std::string_view key(od::field& f, std::string& scratch)
{
    const char* start = f.key().raw();
    // Eight bytes at a time to the first quote, backslash or control character (the document
    // is padded, so a word read past the key's end stays inside it): a key that ends at a
    // quote before any of the others is its text as it stands.
    const char* p = start;
    for (;;) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        if (const uint64_t hit = jsonEscapeBits(w, true)) {
            p += __builtin_ctzll(hit) / 8; // the lowest flagged byte is a true match
            break;
        }
        p += 8;
    }
    if (*p == '"')
        return std::string_view(start, size_t(p - start));
    while (*p != '"')
        p += *p == '\\' ? 2 : 1;
    const std::string_view raw(start, size_t(p - start));
    if (!pdl::jsonStringNeedsUnescape(raw))
        return raw;
    scratch.clear();
    if (!pdl::unescapeJsonString(raw, scratch))
        throw Unsupported{};
    return scratch;
}

// Calls `visit(key, value)` for each field of the object `object`, in order: the key is a view
// that lives for the call, the value is the field's (consumed by `visit`, or skipped).
template <class Visit> void eachField(od::value& object, Visit&& visit)
{
    for (auto f : take(object.get_object())) {
        od::field field = take(std::move(f));
        std::string scratch;
        const std::string_view k = key(field, scratch);
        od::value fv = field.value();
        visit(k, fv);
    }
}

// A number as the DOM holds it: int64, uint64 or double.
Attributes number(od::value& v)
{
    od::number n = take(v.get_number());
    switch (n.get_number_type()) {
    case od::number_type::signed_integer:
        (void)take(v.get_int64());
        return n.get_int64();
    case od::number_type::unsigned_integer:
        (void)take(v.get_uint64());
        return n.get_uint64();
    case od::number_type::floating_point_number:
        (void)take(v.get_double());
        return n.get_double();
    default:
        throw Unsupported{};
    }
}

// The reference reader's toInt64: an integer, an integral double or a decimal string.
int64_t int64(od::value& v)
{
    if (typeOf(v) == od::json_type::string) {
        const std::string s = text(v);
        if (s.empty())
            throw Unsupported{};
        size_t i = s[0] == '-' ? 1 : 0;
        if (i == s.size())
            throw Unsupported{};
        uint64_t acc = 0;
        for (; i < s.size(); ++i) {
            if (s[i] < '0' || s[i] > '9')
                throw Unsupported{};
            const uint64_t next = acc * 10 + uint64_t(s[i] - '0');
            if (next / 10 != acc)
                throw Unsupported{};
            acc = next;
        }
        return s[0] == '-' ? -static_cast<int64_t>(acc) : static_cast<int64_t>(acc);
    }
    if (typeOf(v) != od::json_type::number)
        throw Unsupported{};
    const Attributes n = number(v);
    if (n.is_number_integer())
        return n.get<int64_t>();
    if (n.is_number_unsigned())
        return static_cast<int64_t>(n.get<uint64_t>());
    const double d = n.get<double>();
    if (std::floor(d) == d && std::fabs(d) < 9.2e18)
        return static_cast<int64_t>(d);
    throw Unsupported{};
}

int enumValue(od::value& v, const char* const* names, int count)
{
    if (typeOf(v) == od::json_type::string) {
        const std::string s = text(v);
        for (int i = 0; i < count; ++i)
            if (s == names[i])
                return i;
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
            throw Unsupported{};
        uint64_t acc = 0;
        for (char c : s) {
            const uint64_t next = acc * 10 + uint64_t(c - '0');
            if (next / 10 != acc)
                throw Unsupported{};
            acc = next;
        }
        return int(static_cast<int64_t>(acc));
    }
    const int64_t n = int64(v);
    if (n < 0 || n > 1000)
        throw Unsupported{};
    return int(n);
}

// Reads every scalar of a value nobody uses, so that a malformed one is refused as the
// reference reader's parser refuses it.
void skip(od::value v, int depth)
{
    if (depth > 64)
        throw Unsupported{};
    switch (typeOf(v)) {
    case od::json_type::object:
        for (auto f : take(v.get_object())) {
            od::field field = take(std::move(f));
            std::string scratch;
            (void)key(field, scratch);
            skip(field.value(), depth + 1);
        }
        return;
    case od::json_type::array:
        for (auto e : take(v.get_array()))
            skip(take(std::move(e)), depth + 1);
        return;
    case od::json_type::string:
        (void)text(v);
        return;
    case od::json_type::number:
        (void)number(v);
        return;
    case od::json_type::boolean:
        (void)take(v.get_bool());
        return;
    case od::json_type::null:
        (void)consumeNull(v);
        return;
    }
    throw Unsupported{};
}

// Marks field `bit` seen; a field seen twice goes to the reference reader.
void once(unsigned& seen, unsigned bit)
{
    if (seen & (1u << bit))
        throw Unsupported{};
    seen |= 1u << bit;
}

const char* const kSpanKinds[] = {"SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL",
                                  "SPAN_KIND_SERVER",      "SPAN_KIND_CLIENT",
                                  "SPAN_KIND_PRODUCER",    "SPAN_KIND_CONSUMER"};
const char* const kStatusCodes[] = {"STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"};

Attributes anyValue(od::value v, int depth);

// A list of {key, value} (null: none).
Attributes keyValues(od::value v, int depth)
{
    AttributesBuilder out;
    if (consumeNull(v))
        return out.take();
    for (auto e : take(v.get_array())) {
        od::value kv = take(std::move(e));
        if (typeOf(kv) != od::json_type::object)
            throw Unsupported{};
        std::string name;
        Attributes value;
        unsigned seen = 0;
        eachField(kv, [&](std::string_view k, od::value& fv) {
            if (k == "key") {
                once(seen, 0);
                name = text(fv);
            } else if (k == "value") {
                once(seen, 1);
                if (!consumeNull(fv))
                    value = anyValue(fv, depth + 1);
            } else {
                skip(fv, depth + 1);
            }
        });
        if (!(seen & 1))
            throw Unsupported{};
        out.set(std::move(name), std::move(value));
    }
    return out.take();
}

// The one value of an AnyValue object (both spellings of each name).
Attributes anyValueField(std::string_view k, od::value& v, int depth)
{
    if (k == "stringValue" || k == "string_value" || k == "bytesValue" || k == "bytes_value")
        return text(v);
    if (k == "boolValue" || k == "bool_value")
        return take(v.get_bool());
    if (k == "intValue" || k == "int_value")
        return int64(v);
    if (k == "doubleValue" || k == "double_value") {
        if (typeOf(v) == od::json_type::number)
            return number(v).get<double>();
        const std::string s = text(v);
        if (s == "NaN" || s == "Infinity" || s == "-Infinity")
            return s;
        throw Unsupported{};
    }
    if (typeOf(v) != od::json_type::object)
        throw Unsupported{};
    const bool array = k == "arrayValue" || k == "array_value";
    Attributes out = array ? Attributes::array() : Attributes::object();
    bool values = false;
    for (auto f : take(v.get_object())) {
        od::field field = take(std::move(f));
        od::value fv = field.value();
        std::string scratch;
        if (key(field, scratch) != "values") {
            skip(fv, depth + 1);
            continue;
        }
        if (values)
            throw Unsupported{};
        values = true;
        if (!array) {
            out = keyValues(fv, depth + 1);
        } else if (!consumeNull(fv)) {
            for (auto e : take(fv.get_array()))
                out.push_back(anyValue(take(std::move(e)), depth + 1));
        }
    }
    return out;
}

Attributes anyValue(od::value v, int depth)
{
    if (depth > 64 || typeOf(v) != od::json_type::object)
        throw Unsupported{};
    // Views: their lengths are known, so a name of another length is passed over unread.
    static constexpr std::string_view kNames[] = {
        "stringValue", "string_value", "boolValue",    "bool_value", "intValue",
        "int_value",   "doubleValue",  "double_value", "arrayValue", "array_value",
        "kvlistValue", "kvlist_value", "bytesValue",   "bytes_value"};
    Attributes out;
    unsigned seen = 0;
    int fields = 0, values = 0;
    eachField(v, [&](std::string_view k, od::value& fv) {
        ++fields;
        int known = -1;
        for (int i = 0; i < 14; ++i)
            if (k == kNames[i])
                known = i;
        if (known < 0) {
            skip(fv, depth + 1);
            return;
        }
        once(seen, unsigned(known));
        if (consumeNull(fv))
            return;
        if (++values > 1)
            throw Unsupported{};
        out = anyValueField(k, fv, depth);
    });
    if (values == 0 && fields > 0)
        throw Unsupported{}; // the reference reader: "unknown AnyValue"
    return out;
}

std::string idField(od::value& v, size_t digits)
{
    std::string s = text(v);
    if (s.empty())
        return s;
    if (!isHexId(s, digits))
        throw Unsupported{};
    for (char& c : s)
        if (c >= 'A' && c <= 'F')
            c = char(c - 'A' + 'a');
    return s;
}

SpanEvent spanEvent(od::value v)
{
    if (typeOf(v) != od::json_type::object)
        throw Unsupported{};
    SpanEvent event;
    unsigned seen = 0;
    eachField(v, [&](std::string_view k, od::value& fv) {
        if (k == "name") {
            once(seen, 0);
            event.name = consumeNull(fv) ? std::string() : text(fv);
        } else if (k == "timeUnixNano") {
            once(seen, 1);
            event.timeNanos = consumeNull(fv) ? 0 : int64(fv);
        } else if (k == "attributes") {
            once(seen, 2);
            event.attributes = keyValues(fv, 0);
        } else {
            skip(fv, 1);
        }
    });
    return event;
}

void status(od::value& v, Span& span)
{
    if (typeOf(v) != od::json_type::object)
        throw Unsupported{};
    unsigned seen = 0;
    eachField(v, [&](std::string_view k, od::value& fv) {
        if (k == "code") {
            once(seen, 0);
            span.statusCode = consumeNull(fv) ? 0 : enumValue(fv, kStatusCodes, 3);
        } else if (k == "message") {
            once(seen, 1);
            span.statusMessage = consumeNull(fv) ? std::string() : text(fv);
        } else {
            skip(fv, 1);
        }
    });
}

// One span's fields, in whatever order they come.
void spanField(std::string_view k, od::value& fv, Span& span, unsigned& seen)
{
    enum { TraceId, SpanId, Parent, Name, Kind, Start, End, Attrs, Events, Status };
    if (k == "traceId") {
        once(seen, TraceId);
        span.traceId = consumeNull(fv) ? std::string() : idField(fv, 32);
    } else if (k == "spanId") {
        once(seen, SpanId);
        span.spanId = consumeNull(fv) ? std::string() : idField(fv, 16);
    } else if (k == "parentSpanId") {
        once(seen, Parent);
        span.parentSpanId = consumeNull(fv) ? std::string() : idField(fv, 16);
    } else if (k == "name") {
        once(seen, Name);
        span.name = consumeNull(fv) ? std::string() : text(fv);
    } else if (k == "kind") {
        once(seen, Kind);
        span.kind = consumeNull(fv) ? 0 : enumValue(fv, kSpanKinds, 6);
    } else if (k == "startTimeUnixNano") {
        once(seen, Start);
        span.startNanos = consumeNull(fv) ? 0 : int64(fv);
    } else if (k == "endTimeUnixNano") {
        once(seen, End);
        span.endNanos = consumeNull(fv) ? 0 : int64(fv);
    } else if (k == "attributes") {
        once(seen, Attrs);
        span.attributes = keyValues(fv, 0);
    } else if (k == "events") {
        once(seen, Events);
        if (!consumeNull(fv))
            for (auto e : take(fv.get_array()))
                span.events.push_back(spanEvent(take(std::move(e))));
    } else if (k == "status") {
        once(seen, Status);
        if (!consumeNull(fv))
            status(fv, span);
    } else {
        skip(fv, 1);
    }
}

// Hands spans on in document order: at once when their resource and scope have been read
// (their usual place, before the spans), else when the whole ResourceSpans has been.
struct Emitter {
    const std::function<void(Span&&)>& sink;
    std::vector<Span> pending;
    bool resourceKnown = false;
    bool scopeKnown = false;

    void span(Span&& s)
    {
        if (resourceKnown && scopeKnown && pending.empty())
            sink(std::move(s));
        else
            pending.push_back(std::move(s));
    }
    void resourceDone()
    {
        for (Span& s : pending)
            sink(std::move(s));
        pending.clear();
    }
};

void decodeSpan(od::value v, const std::shared_ptr<const SpanResource>& resource, Emitter& out)
{
    if (typeOf(v) != od::json_type::object)
        throw Unsupported{};
    Span span;
    unsigned seen = 0;
    eachField(v, [&](std::string_view k, od::value& fv) { spanField(k, fv, span, seen); });
    if (span.traceId.empty() || span.spanId.empty())
        throw Unsupported{};
    span.resource = resource;
    out.span(std::move(span));
}

// A scope object: its name and version when they are strings (anything else is ignored, as
// the reference reader does).
void scope(od::value& v, SpanResource& into)
{
    if (typeOf(v) != od::json_type::object)
        throw Unsupported{};
    unsigned seen = 0;
    eachField(v, [&](std::string_view k, od::value& fv) {
        const bool name = k == "name";
        if (!name && k != "version") {
            skip(fv, 1);
            return;
        }
        once(seen, name ? 0 : 1);
        if (typeOf(fv) != od::json_type::string) {
            skip(fv, 1);
            return;
        }
        (name ? into.scopeName : into.scopeVersion) = text(fv);
    });
}

// One ScopeSpans; its spans point at `resource`, whose scope fields are filled in here and
// whose attributes the caller fills in once the whole ResourceSpans is read.
void scopeSpans(od::value v, const std::shared_ptr<SpanResource>& resource, Emitter& out)
{
    out.scopeKnown = false;
    if (typeOf(v) != od::json_type::object)
        throw Unsupported{};
    unsigned seen = 0;
    eachField(v, [&](std::string_view k, od::value& fv) {
        if (k == "scope" || k == "instrumentationLibrary") {
            // Both spellings at once: the reference reader prefers `scope`; leave it to it.
            once(seen, 0);
            if (!consumeNull(fv))
                scope(fv, *resource);
            out.scopeKnown = true;
        } else if (k == "spans") {
            once(seen, 1);
            if (!consumeNull(fv))
                for (auto e : take(fv.get_array()))
                    decodeSpan(take(std::move(e)), resource, out);
        } else {
            skip(fv, 1);
        }
    });
}

void resourceSpans(od::value v, Emitter& out)
{
    out.resourceKnown = false;
    if (typeOf(v) != od::json_type::object)
        throw Unsupported{};
    Attributes attributes = Attributes::object();
    std::vector<std::shared_ptr<SpanResource>> resources;
    unsigned seen = 0;
    eachField(v, [&](std::string_view k, od::value& fv) {
        if (k == "resource") {
            once(seen, 0);
            out.resourceKnown = true;
            if (consumeNull(fv))
                return;
            if (typeOf(fv) != od::json_type::object)
                throw Unsupported{};
            unsigned seenAttributes = 0;
            for (auto g : take(fv.get_object())) {
                od::field inner = take(std::move(g));
                od::value iv = inner.value();
                std::string scratch;
                if (key(inner, scratch) == "attributes") {
                    once(seenAttributes, 0);
                    attributes = keyValues(iv, 0);
                } else {
                    skip(iv, 2);
                }
            }
        } else if (k == "scopeSpans" || k == "scope_spans" || k == "instrumentationLibrarySpans") {
            once(seen, 1); // two spellings at once go to the reference reader
            if (consumeNull(fv))
                return;
            for (auto e : take(fv.get_array())) {
                auto resource = std::make_shared<SpanResource>();
                if (out.resourceKnown)
                    resource->attributes = attributes;
                else
                    resources.push_back(resource); // its attributes come later
                scopeSpans(take(std::move(e)), resource, out);
            }
        } else {
            skip(fv, 1);
        }
    });
    for (const auto& r : resources)
        r->attributes = attributes;
    out.resourceDone();
}

struct Buffer {
    od::parser parser;
    std::unique_ptr<char[]> bytes;
    size_t capacity = 0;
};

} // namespace

bool decodeOtlpJsonFast(std::string_view json, const std::function<void(Span&&)>& sink)
{
    // Surrogates written as escapes are left to the reference reader (they are rare in OTLP,
    // whose exporters write UTF-8).
    for (size_t at = json.find("\\u"); at != std::string_view::npos; at = json.find("\\u", at + 2))
        if (at + 2 < json.size() && (json[at + 2] == 'd' || json[at + 2] == 'D'))
            return false;
    // A thread keeps its parser for requests (up to 64 MB); a larger one (a whole file
    // pretty-printed) gets a parser of its own, so that no thread holds its memory after.
    thread_local Buffer kept;
    std::unique_ptr<Buffer> own;
    if (json.size() > (64u << 20))
        own = std::make_unique<Buffer>();
    Buffer& buffer = own ? *own : kept;
    const size_t need = json.size() + simdjson::SIMDJSON_PADDING;
    if (buffer.capacity < need || buffer.capacity > 4 * need + (64 << 20)) {
        buffer.bytes.reset(new char[need]);
        buffer.capacity = need;
    }
    std::memcpy(buffer.bytes.get(), json.data(), json.size());
    std::memset(buffer.bytes.get() + json.size(), 0, simdjson::SIMDJSON_PADDING);
    Emitter emitter{sink, {}, false, false};
    try {
        od::document doc =
            take(buffer.parser.iterate(buffer.bytes.get(), json.size(), buffer.capacity));
        const char* end = buffer.bytes.get() + json.size();
        while (end > buffer.bytes.get() &&
               (end[-1] == ' ' || end[-1] == '\n' || end[-1] == '\r' || end[-1] == '\t'))
            --end;
        unsigned seen = 0;
        const char* afterField = nullptr;
        for (auto f : take(doc.get_object())) {
            od::field field = take(std::move(f));
            std::string scratch;
            const std::string_view k = key(field, scratch);
            od::value fv = field.value();
            if (k == "resourceSpans" || k == "resource_spans") {
                once(seen, 0);
                if (!consumeNull(fv))
                    for (auto e : take(fv.get_array()))
                        resourceSpans(take(std::move(e)), emitter);
            } else {
                skip(fv, 1);
            }
            // On Demand ends a loop quietly on some syntax errors (it jumps to the end): after
            // each field the parser must still be inside the request.
            afterField = take(doc.current_location());
        }
        if (afterField == nullptr ? end - buffer.bytes.get() < 2 : afterField != end - 1)
            return false;
        if (*(end - 1) != '}')
            return false;
        const char* trailing = nullptr;
        if (doc.current_location().get(trailing) == simdjson::SUCCESS)
            return false;
    } catch (const Unsupported&) {
        return false;
    } catch (const simdjson::simdjson_error&) {
        return false;
    }
    return true;
}

std::optional<std::vector<Span>> decodeOtlpJsonFast(std::string_view json)
{
    std::vector<Span> spans;
    if (!decodeOtlpJsonFast(json, [&spans](Span&& s) { spans.push_back(std::move(s)); }))
        return std::nullopt;
    return spans;
}

} // namespace hako::otel
