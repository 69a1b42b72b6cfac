#include "core/otel/otlpdecode.h"

#include "core/otel/otlpjsonfast_p.h"

#include <QByteArray>

#include <cmath>
#include <stdexcept>

namespace hako::otel {

namespace {

using json = nlohmann::json;

struct Bad : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Where in the request a value is, spelled out only when something is wrong there (building
// the path text for every span and attribute would cost more than decoding them).
struct Path {
    const Path* up = nullptr;
    const char* name = "";
    long index = -1;

    Path at(const char* child) const { return Path{this, child, -1}; }
    Path item(long i) const { return Path{this, "", i}; }
    std::string str() const
    {
        std::string head = up ? up->str() : std::string();
        if (index >= 0)
            return head + "[" + std::to_string(index) + "]";
        if (!*name)
            return head;
        return head.empty() ? std::string(name) : head + "." + name;
    }
};

[[noreturn]] void fail(const Path& where, const std::string& what)
{
    throw Bad(where.str() + ": " + what);
}

const json* member(const json& object, const char* name, const char* altName = nullptr)
{
    auto it = object.find(name);
    if (it != object.end() && !it->is_null())
        return &*it;
    if (altName) {
        it = object.find(altName);
        if (it != object.end() && !it->is_null())
            return &*it;
    }
    return nullptr;
}

const json& expectArray(const json* v, const Path& where)
{
    static const json empty = json::array();
    if (!v)
        return empty;
    if (!v->is_array())
        fail(where, "expected an array");
    return *v;
}

int64_t toInt64(const json& v, const Path& where)
{
    if (v.is_number_integer())
        return v.get<int64_t>();
    if (v.is_number_unsigned()) {
        const uint64_t u = v.get<uint64_t>();
        return static_cast<int64_t>(u);
    }
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        if (s.empty())
            fail(where, "expected an integer, got an empty string");
        size_t i = s[0] == '-' ? 1 : 0;
        if (i == s.size())
            fail(where, "expected an integer");
        uint64_t acc = 0;
        for (; i < s.size(); ++i) {
            if (s[i] < '0' || s[i] > '9')
                fail(where, "expected an integer, got \"" + s.substr(0, 40) + "\"");
            const uint64_t next = acc * 10 + uint64_t(s[i] - '0');
            if (next / 10 != acc)
                fail(where, "integer out of range");
            acc = next;
        }
        return s[0] == '-' ? -static_cast<int64_t>(acc) : static_cast<int64_t>(acc);
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::floor(d) == d && std::fabs(d) < 9.2e18)
            return static_cast<int64_t>(d);
    }
    fail(where, "expected an integer");
}

int toEnum(const json& v, const Path& where, const char* const* names, int count)
{
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        for (int i = 0; i < count; ++i)
            if (s == names[i])
                return i;
        if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos)
            return int(toInt64(v, where));
        fail(where, "unknown value \"" + s.substr(0, 40) + "\"");
    }
    const int64_t n = toInt64(v, where);
    if (n < 0 || n > 1000)
        fail(where, "value out of range");
    return int(n);
}

std::string idField(const json& span, const char* name, size_t digits, bool required,
                    const Path& where)
{
    const json* v = member(span, name);
    if (!v || (v->is_string() && v->get_ref<const std::string&>().empty())) {
        if (required)
            fail(where.at(name), "missing");
        return {};
    }
    if (!v->is_string())
        fail(where.at(name), "expected a hex string");
    std::string s = v->get<std::string>();
    if (!isHexId(s, digits))
        fail(where.at(name), "expected " + std::to_string(digits) + " hex digits");
    for (char& c : s)
        if (c >= 'A' && c <= 'F')
            c = char(c - 'A' + 'a');
    return s;
}

Attributes anyValue(const json& v, const Path& where, int depth);

Attributes keyValues(const json* list, const Path& where, int depth)
{
    AttributesBuilder out;
    const json& arr = expectArray(list, where);
    size_t i = 0;
    for (const json& kv : arr) {
        const Path at = where.item(long(i++));
        if (!kv.is_object())
            fail(at, "expected {key, value}");
        const json* key = member(kv, "key");
        if (!key || !key->is_string())
            fail(at.at("key"), "expected a string");
        const json* value = member(kv, "value");
        out.set(key->get<std::string>(),
                value ? anyValue(*value, at.at("value"), depth + 1) : Attributes());
    }
    return out.take();
}

Attributes anyValue(const json& v, const Path& where, int depth)
{
    if (depth > 64)
        fail(where, "nested too deeply");
    if (!v.is_object())
        fail(where, "expected an AnyValue object");
    if (v.empty())
        return Attributes();
    if (const json* s = member(v, "stringValue", "string_value")) {
        if (!s->is_string())
            fail(where.at("stringValue"), "expected a string");
        return *s;
    }
    if (const json* b = member(v, "boolValue", "bool_value")) {
        if (!b->is_boolean())
            fail(where.at("boolValue"), "expected a boolean");
        return *b;
    }
    if (const json* i = member(v, "intValue", "int_value"))
        return toInt64(*i, where.at("intValue"));
    if (const json* d = member(v, "doubleValue", "double_value")) {
        if (d->is_number())
            return d->get<double>();
        if (d->is_string()) {
            const std::string& s = d->get_ref<const std::string&>();
            if (s == "NaN" || s == "Infinity" || s == "-Infinity")
                return s; // JSON cannot hold them as numbers
        }
        fail(where.at("doubleValue"), "expected a number");
    }
    if (const json* a = member(v, "arrayValue", "array_value")) {
        if (!a->is_object())
            fail(where.at("arrayValue"), "expected an object");
        Attributes out = Attributes::array();
        size_t i = 0;
        for (const json& e : expectArray(member(*a, "values"), where.at("arrayValue.values")))
            out.push_back(anyValue(e, where.at("arrayValue.values").item(long(i++)), depth + 1));
        return out;
    }
    if (const json* k = member(v, "kvlistValue", "kvlist_value")) {
        if (!k->is_object())
            fail(where.at("kvlistValue"), "expected an object");
        return keyValues(member(*k, "values"), where.at("kvlistValue.values"), depth + 1);
    }
    if (const json* b = member(v, "bytesValue", "bytes_value")) {
        if (!b->is_string())
            fail(where.at("bytesValue"), "expected a base64 string");
        return *b;
    }
    fail(where, "unknown AnyValue");
}

const char* const kSpanKinds[] = {"SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL",
                                  "SPAN_KIND_SERVER",      "SPAN_KIND_CLIENT",
                                  "SPAN_KIND_PRODUCER",    "SPAN_KIND_CONSUMER"};
const char* const kStatusCodes[] = {"STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"};

void decodeSpan(const json& s, const Path& where,
                const std::shared_ptr<const SpanResource>& resource, std::vector<Span>& out)
{
    if (!s.is_object())
        fail(where, "expected a span object");
    Span span;
    span.traceId = idField(s, "traceId", 32, true, where);
    span.spanId = idField(s, "spanId", 16, true, where);
    span.parentSpanId = idField(s, "parentSpanId", 16, false, where);
    if (const json* n = member(s, "name")) {
        if (!n->is_string())
            fail(where.at("name"), "expected a string");
        span.name = n->get<std::string>();
    }
    if (const json* k = member(s, "kind"))
        span.kind = toEnum(*k, where.at("kind"), kSpanKinds, 6);
    if (const json* t = member(s, "startTimeUnixNano"))
        span.startNanos = toInt64(*t, where.at("startTimeUnixNano"));
    if (const json* t = member(s, "endTimeUnixNano"))
        span.endNanos = toInt64(*t, where.at("endTimeUnixNano"));
    span.attributes = keyValues(member(s, "attributes"), where.at("attributes"), 0);
    size_t i = 0;
    for (const json& e : expectArray(member(s, "events"), where.at("events"))) {
        const Path events = where.at("events");
        const Path at = events.item(long(i++));
        if (!e.is_object())
            fail(at, "expected an event object");
        SpanEvent event;
        if (const json* n = member(e, "name")) {
            if (!n->is_string())
                fail(at.at("name"), "expected a string");
            event.name = n->get<std::string>();
        }
        if (const json* t = member(e, "timeUnixNano"))
            event.timeNanos = toInt64(*t, at.at("timeUnixNano"));
        event.attributes = keyValues(member(e, "attributes"), at.at("attributes"), 0);
        span.events.push_back(std::move(event));
    }
    if (const json* st = member(s, "status")) {
        if (!st->is_object())
            fail(where.at("status"), "expected an object");
        if (const json* c = member(*st, "code"))
            span.statusCode = toEnum(*c, where.at("status.code"), kStatusCodes, 3);
        if (const json* m = member(*st, "message")) {
            if (!m->is_string())
                fail(where.at("status.message"), "expected a string");
            span.statusMessage = m->get<std::string>();
        }
    }
    span.resource = resource;
    out.push_back(std::move(span));
}

} // namespace

Result<std::vector<Span>> decodeOtlpJson(std::string_view text)
{
    if (std::optional<std::vector<Span>> fast = decodeOtlpJsonFast(text))
        return std::move(*fast);
    return decodeOtlpJsonReference(text);
}

Result<std::vector<Span>> decodeOtlpJsonReference(std::string_view text)
{
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
        // The reader's words without its own tag ("[json.exception.parse_error.101] "): the
        // place and what was expected are what a person needs.
        QString why = QString::fromUtf8(e.what());
        if (why.startsWith(QLatin1Char('[')) && why.indexOf(QLatin1String("] ")) > 0)
            why = why.mid(why.indexOf(QLatin1String("] ")) + 2);
        return makeError(QStringLiteral("not OTLP/JSON: %1").arg(why));
    }
    std::vector<Span> spans;
    try {
        if (!doc.is_object())
            fail(Path{nullptr, "request"}, "expected an object");
        size_t r = 0;
        const Path top{nullptr, "resourceSpans"};
        for (const json& rs : expectArray(member(doc, "resourceSpans", "resource_spans"), top)) {
            const Path rwhere = top.item(long(r++));
            if (!rs.is_object())
                fail(rwhere, "expected an object");
            Attributes resourceAttributes = Attributes::object();
            if (const json* res = member(rs, "resource")) {
                if (!res->is_object())
                    fail(rwhere.at("resource"), "expected an object");
                resourceAttributes =
                    keyValues(member(*res, "attributes"), rwhere.at("resource.attributes"), 0);
            }
            size_t sc = 0;
            const json* scopes = member(rs, "scopeSpans", "scope_spans");
            if (!scopes)
                scopes = member(rs, "instrumentationLibrarySpans");
            const Path scopesAt = rwhere.at("scopeSpans");
            for (const json& ss : expectArray(scopes, scopesAt)) {
                const Path swhere = scopesAt.item(long(sc++));
                if (!ss.is_object())
                    fail(swhere, "expected an object");
                auto resource = std::make_shared<SpanResource>();
                resource->attributes = resourceAttributes;
                const json* scope = member(ss, "scope", "instrumentationLibrary");
                if (scope) {
                    if (!scope->is_object())
                        fail(swhere.at("scope"), "expected an object");
                    if (const json* n = member(*scope, "name"); n && n->is_string())
                        resource->scopeName = n->get<std::string>();
                    if (const json* v = member(*scope, "version"); v && v->is_string())
                        resource->scopeVersion = v->get<std::string>();
                }
                size_t i = 0;
                const Path spansAt = swhere.at("spans");
                for (const json& s : expectArray(member(ss, "spans"), spansAt))
                    decodeSpan(s, spansAt.item(long(i++)), resource, spans);
            }
        }
    } catch (const Bad& e) {
        return makeError(
            QStringLiteral("malformed OTLP/JSON: %1").arg(QString::fromUtf8(e.what())));
    } catch (const json::exception& e) {
        return makeError(
            QStringLiteral("malformed OTLP/JSON: %1").arg(QString::fromUtf8(e.what())));
    }
    return spans;
}

} // namespace hako::otel
