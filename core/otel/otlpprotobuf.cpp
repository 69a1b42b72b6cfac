#include "core/otel/otlpdecode.h"

#include <QByteArray>

#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>

// OTLP/protobuf by hand: the handful of messages of opentelemetry/proto/trace/v1 and
// common/v1 do not justify libprotobuf and generated code; field numbers are from those .proto
// files (ExportTraceServiceRequest.resource_spans = 1, ResourceSpans {resource 1, scope_spans 2},
// ScopeSpans {scope 1, spans 2}, Span {trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6,
// start 7, end 8, attributes 9, events 11, status 15}, Event {time 1, name 2, attributes 3},
// Status {message 2, code 3}, KeyValue {key 1, value 2}, AnyValue {string 1, bool 2, int 3,
// double 4, array 5, kvlist 6, bytes 7}).

namespace hako::otel {

namespace {

struct Bad : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum WireType { Varint = 0, Fixed64 = 1, Len = 2, Fixed32 = 5 };

class Reader {
public:
    Reader(std::string_view data, int depth)
        : m_p(data.data()), m_end(data.data() + data.size()), m_depth(depth)
    {
        if (depth > 64)
            throw Bad("nested too deeply");
    }
    bool atEnd() const { return m_p >= m_end; }
    int depth() const { return m_depth; }

    uint64_t varint()
    {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_p >= m_end)
                throw Bad("truncated varint");
            const uint8_t b = uint8_t(*m_p++);
            v |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80))
                return v;
        }
        throw Bad("varint too long");
    }
    // Returns false at the end; sets field and wire type.
    bool next(uint32_t& field, int& wire)
    {
        if (atEnd())
            return false;
        const uint64_t key = varint();
        field = uint32_t(key >> 3);
        wire = int(key & 7);
        if (field == 0)
            throw Bad("field number 0");
        return true;
    }
    std::string_view bytes()
    {
        const uint64_t n = varint();
        if (n > uint64_t(m_end - m_p))
            throw Bad("length past the end");
        std::string_view out(m_p, size_t(n));
        m_p += n;
        return out;
    }
    std::string string()
    {
        const std::string_view s = bytes();
        if (!isValidUtf8(s))
            throw Bad("ill-formed UTF-8 in a string");
        return std::string(s);
    }
    uint64_t fixed64()
    {
        if (m_end - m_p < 8)
            throw Bad("truncated fixed64");
        uint64_t v;
        std::memcpy(&v, m_p, 8); // little-endian hosts only (x86-64, arm64)
        m_p += 8;
        return v;
    }
    uint32_t fixed32()
    {
        if (m_end - m_p < 4)
            throw Bad("truncated fixed32");
        uint32_t v;
        std::memcpy(&v, m_p, 4);
        m_p += 4;
        return v;
    }
    void skip(int wire)
    {
        switch (wire) {
        case Varint:
            varint();
            break;
        case Fixed64:
            fixed64();
            break;
        case Len:
            bytes();
            break;
        case Fixed32:
            fixed32();
            break;
        default:
            throw Bad("unsupported wire type " + std::to_string(wire));
        }
    }
    void expect(int wire, int wanted)
    {
        if (wire != wanted)
            throw Bad("wrong wire type");
    }
    // The bytes of a length-delimited field (a string or a nested message) whose key said
    // `wire`.
    std::string_view len(int wire)
    {
        expect(wire, Len);
        return bytes();
    }
    // The UTF-8 string of a length-delimited field whose key said `wire`.
    std::string lenString(int wire)
    {
        expect(wire, Len);
        return string();
    }

private:
    const char* m_p;
    const char* m_end;
    int m_depth;
};

// Walks the fields of one message at nesting `depth`: onField(reader, field, wire) reads the
// fields it knows and returns true; any other field is skipped, as protobuf wants unknown fields
// to be (a newer sender may add some).
template <typename OnField> void forEachField(std::string_view data, int depth, OnField&& onField)
{
    Reader r(data, depth);
    uint32_t field;
    int wire;
    while (r.next(field, wire)) {
        if (!onField(r, field, wire))
            r.skip(wire);
    }
}

// Calls onBytes(bytes) for each occurrence of the repeated length-delimited field `wanted`.
template <typename OnBytes>
void forEachLen(std::string_view data, int depth, uint32_t wanted, OnBytes&& onBytes)
{
    forEachField(data, depth, [&](Reader& r, uint32_t field, int wire) {
        if (field != wanted)
            return false;
        onBytes(r.len(wire));
        return true;
    });
}

Attributes anyValue(std::string_view data, int depth);

void keyValue(std::string_view data, int depth, AttributesBuilder& into)
{
    std::string key;
    Attributes value;
    forEachField(data, depth, [&](Reader& r, uint32_t field, int wire) {
        if (field == 1)
            key = r.lenString(wire);
        else if (field == 2)
            value = anyValue(r.len(wire), depth + 1);
        else
            return false;
        return true;
    });
    into.set(std::move(key), std::move(value));
}

Attributes anyValue(std::string_view data, int depth)
{
    Attributes out;
    forEachField(data, depth, [&](Reader& r, uint32_t field, int wire) {
        switch (field) {
        case 1:
            out = r.lenString(wire);
            return true;
        case 2:
            r.expect(wire, Varint);
            out = r.varint() != 0;
            return true;
        case 3:
            r.expect(wire, Varint);
            out = int64_t(r.varint());
            return true;
        case 4: {
            r.expect(wire, Fixed64);
            const uint64_t bits = r.fixed64();
            double d;
            std::memcpy(&d, &bits, 8);
            out = d;
            return true;
        }
        case 5:
            out = Attributes::array();
            forEachLen(r.len(wire), depth + 1, 1, [&](std::string_view element) {
                out.push_back(anyValue(element, depth + 2));
            });
            return true;
        case 6: {
            AttributesBuilder members;
            forEachLen(r.len(wire), depth + 1, 1,
                       [&](std::string_view member) { keyValue(member, depth + 2, members); });
            out = members.take();
            return true;
        }
        case 7: {
            const std::string_view b = r.len(wire);
            out = QByteArray(b.data(), qsizetype(b.size())).toBase64().toStdString();
            return true;
        }
        default:
            return false;
        }
    });
    return out;
}

std::string id(std::string_view b, size_t size, const char* what)
{
    if (b.empty())
        return {};
    if (b.size() != size)
        throw Bad(std::string(what) + " has " + std::to_string(b.size()) + " bytes");
    return toHex(b);
}

SpanEvent spanEvent(std::string_view data)
{
    SpanEvent event;
    AttributesBuilder eventAttributes;
    forEachField(data, 4, [&](Reader& e, uint32_t f, int w) {
        if (f == 1) {
            e.expect(w, Fixed64);
            event.timeNanos = int64_t(e.fixed64());
        } else if (f == 2) {
            event.name = e.lenString(w);
        } else if (f == 3) {
            keyValue(e.len(w), 5, eventAttributes);
        } else {
            return false;
        }
        return true;
    });
    event.attributes = eventAttributes.take();
    return event;
}

using SpanOut = std::function<void(Span&&)>;

void span(std::string_view data, const std::shared_ptr<const SpanResource>& resource,
          const SpanOut& out)
{
    Span s;
    AttributesBuilder attributes;
    forEachField(data, 3, [&](Reader& r, uint32_t field, int wire) {
        switch (field) {
        case 1:
            s.traceId = id(r.len(wire), 16, "trace_id");
            return true;
        case 2:
            s.spanId = id(r.len(wire), 8, "span_id");
            return true;
        case 4:
            s.parentSpanId = id(r.len(wire), 8, "parent_span_id");
            return true;
        case 5:
            s.name = r.lenString(wire);
            return true;
        case 6:
            r.expect(wire, Varint);
            s.kind = int(r.varint() & 0xFF);
            return true;
        case 7:
            r.expect(wire, Fixed64);
            s.startNanos = int64_t(r.fixed64());
            return true;
        case 8:
            r.expect(wire, Fixed64);
            s.endNanos = int64_t(r.fixed64());
            return true;
        case 9:
            keyValue(r.len(wire), 4, attributes);
            return true;
        case 11:
            s.events.push_back(spanEvent(r.len(wire)));
            return true;
        case 15:
            forEachField(r.len(wire), 4, [&](Reader& st, uint32_t f, int w) {
                if (f == 2) {
                    s.statusMessage = st.lenString(w);
                } else if (f == 3) {
                    st.expect(w, Varint);
                    s.statusCode = int(st.varint() & 0xFF);
                } else {
                    return false;
                }
                return true;
            });
            return true;
        default:
            return false;
        }
    });
    if (s.traceId.empty() || s.spanId.empty())
        throw Bad("a span without trace_id or span_id");
    s.attributes = attributes.take();
    s.resource = resource;
    out(std::move(s));
}

// One ScopeSpans: its scope's name and version join the resource's attributes; its spans are
// decoded once the whole message is read, so each sees the scope even if it came after them.
void scopeSpans(std::string_view data, const Attributes& resourceAttributes, const SpanOut& spans)
{
    auto resource = std::make_shared<SpanResource>();
    resource->attributes = resourceAttributes;
    std::vector<std::string_view> spanBytes;
    forEachField(data, 2, [&](Reader& ss, uint32_t g, int x) {
        if (g == 1) {
            forEachField(ss.len(x), 3, [&](Reader& sc, uint32_t h, int y) {
                if (h == 1)
                    resource->scopeName = sc.lenString(y);
                else if (h == 2)
                    resource->scopeVersion = sc.lenString(y);
                else
                    return false;
                return true;
            });
        } else if (g == 2) {
            spanBytes.push_back(ss.len(x));
        } else {
            return false;
        }
        return true;
    });
    std::shared_ptr<const SpanResource> shared = resource;
    for (std::string_view sb : spanBytes)
        span(sb, shared, spans);
}

// One ResourceSpans: the resource's attributes are read first, wherever they stand, and given
// to every scope.
void resourceSpans(std::string_view data, const SpanOut& spans)
{
    AttributesBuilder resourceBuilder;
    std::vector<std::string_view> scopes;
    forEachField(data, 1, [&](Reader& rs, uint32_t f, int w) {
        if (f == 1) {
            forEachLen(rs.len(w), 2, 1,
                       [&](std::string_view kv) { keyValue(kv, 3, resourceBuilder); });
        } else if (f == 2) {
            scopes.push_back(rs.len(w));
        } else {
            return false;
        }
        return true;
    });
    const Attributes resourceAttributes = resourceBuilder.take();
    for (std::string_view scopeBytes : scopes)
        scopeSpans(scopeBytes, resourceAttributes, spans);
}

// --- encoding ---------------------------------------------------------------------------

void putVarint(std::string& out, uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(char(uint8_t(v) | 0x80));
        v >>= 7;
    }
    out.push_back(char(v));
}
void putKey(std::string& out, uint32_t field, int wire)
{
    putVarint(out, (uint64_t(field) << 3) | wire);
}
void putLen(std::string& out, uint32_t field, std::string_view bytes)
{
    putKey(out, field, Len);
    putVarint(out, bytes.size());
    out.append(bytes);
}
void putFixed64(std::string& out, uint32_t field, uint64_t v)
{
    putKey(out, field, Fixed64);
    char b[8];
    std::memcpy(b, &v, 8);
    out.append(b, 8);
}
std::string fromHex(const std::string& hex)
{
    std::string out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(char(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return out;
}

std::string encodeAny(const Attributes& v);
std::string encodeKeyValues(const Attributes& object, uint32_t field)
{
    std::string out;
    for (auto it = object.begin(); it != object.end(); ++it) {
        std::string kv;
        putLen(kv, 1, it.key());
        putLen(kv, 2, encodeAny(it.value()));
        putLen(out, field, kv);
    }
    return out;
}
std::string encodeAny(const Attributes& v)
{
    std::string out;
    if (v.is_string()) {
        putLen(out, 1, v.get_ref<const std::string&>());
    } else if (v.is_boolean()) {
        putKey(out, 2, Varint);
        putVarint(out, v.get<bool>() ? 1 : 0);
    } else if (v.is_number_integer()) {
        putKey(out, 3, Varint);
        putVarint(out, uint64_t(v.get<int64_t>()));
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        putFixed64(out, 4, bits);
    } else if (v.is_array()) {
        std::string arr;
        for (const Attributes& e : v)
            putLen(arr, 1, encodeAny(e));
        putLen(out, 5, arr);
    } else if (v.is_object()) {
        putLen(out, 6, encodeKeyValues(v, 1));
    }
    return out;
}

} // namespace

Result<size_t> decodeOtlpProtobuf(std::string_view bytes, const std::function<void(Span&&)>& sink)
{
    size_t count = 0;
    const SpanOut out = [&](Span&& s) {
        ++count;
        sink(std::move(s));
    };
    try {
        forEachLen(bytes, 0, 1, [&](std::string_view rs) { resourceSpans(rs, out); });
    } catch (const Bad& e) {
        return makeError(
            QStringLiteral("malformed OTLP/protobuf: %1").arg(QString::fromUtf8(e.what())));
    }
    return count;
}

Result<std::vector<Span>> decodeOtlpProtobuf(std::string_view bytes)
{
    std::vector<Span> spans;
    auto decoded = decodeOtlpProtobuf(bytes, [&spans](Span&& s) { spans.push_back(std::move(s)); });
    if (!decoded)
        return decoded.error();
    return spans;
}

std::string encodeOtlpProtobuf(const std::vector<Span>& spans)
{
    std::string request;
    size_t i = 0;
    while (i < spans.size()) {
        const SpanResource* resource = spans[i].resource.get();
        std::string scope;
        if (resource) {
            std::string sc;
            putLen(sc, 1, resource->scopeName);
            if (!resource->scopeVersion.empty())
                putLen(sc, 2, resource->scopeVersion);
            putLen(scope, 1, sc);
        }
        for (; i < spans.size() && spans[i].resource.get() == resource; ++i) {
            const Span& s = spans[i];
            std::string b;
            putLen(b, 1, fromHex(s.traceId));
            putLen(b, 2, fromHex(s.spanId));
            if (!s.parentSpanId.empty())
                putLen(b, 4, fromHex(s.parentSpanId));
            putLen(b, 5, s.name);
            putKey(b, 6, Varint);
            putVarint(b, uint64_t(s.kind));
            putFixed64(b, 7, uint64_t(s.startNanos));
            putFixed64(b, 8, uint64_t(s.endNanos));
            if (s.attributes.is_object())
                b += encodeKeyValues(s.attributes, 9);
            for (const SpanEvent& e : s.events) {
                std::string ev;
                putFixed64(ev, 1, uint64_t(e.timeNanos));
                putLen(ev, 2, e.name);
                ev += encodeKeyValues(e.attributes, 3);
                putLen(b, 11, ev);
            }
            if (s.statusCode || !s.statusMessage.empty()) {
                std::string st;
                putLen(st, 2, s.statusMessage);
                putKey(st, 3, Varint);
                putVarint(st, uint64_t(s.statusCode));
                putLen(b, 15, st);
            }
            putLen(scope, 2, b);
        }
        std::string rs;
        std::string res;
        if (resource)
            res = encodeKeyValues(resource->attributes, 1);
        putLen(rs, 1, res);
        putLen(rs, 2, scope);
        putLen(request, 1, rs);
    }
    return request;
}

} // namespace hako::otel
