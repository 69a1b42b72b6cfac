#include "core/otel/otlpdecode.h"

#include <QByteArray>

#include <cstring>
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

private:
    const char* m_p;
    const char* m_end;
    int m_depth;
};

Attributes anyValue(std::string_view data, int depth);

void keyValue(std::string_view data, int depth, AttributesBuilder& into)
{
    Reader r(data, depth);
    std::string key;
    Attributes value;
    uint32_t field;
    int wire;
    while (r.next(field, wire)) {
        if (field == 1) {
            r.expect(wire, Len);
            key = r.string();
        } else if (field == 2) {
            r.expect(wire, Len);
            value = anyValue(r.bytes(), depth + 1);
        } else {
            r.skip(wire);
        }
    }
    into.set(std::move(key), std::move(value));
}

Attributes anyValue(std::string_view data, int depth)
{
    Reader r(data, depth);
    Attributes out;
    uint32_t field;
    int wire;
    while (r.next(field, wire)) {
        switch (field) {
        case 1:
            r.expect(wire, Len);
            out = r.string();
            break;
        case 2:
            r.expect(wire, Varint);
            out = r.varint() != 0;
            break;
        case 3:
            r.expect(wire, Varint);
            out = int64_t(r.varint());
            break;
        case 4: {
            r.expect(wire, Fixed64);
            const uint64_t bits = r.fixed64();
            double d;
            std::memcpy(&d, &bits, 8);
            out = d;
            break;
        }
        case 5: {
            r.expect(wire, Len);
            Reader a(r.bytes(), depth + 1);
            out = Attributes::array();
            uint32_t f;
            int w;
            while (a.next(f, w)) {
                if (f == 1) {
                    a.expect(w, Len);
                    out.push_back(anyValue(a.bytes(), depth + 2));
                } else {
                    a.skip(w);
                }
            }
            break;
        }
        case 6: {
            r.expect(wire, Len);
            Reader k(r.bytes(), depth + 1);
            AttributesBuilder members;
            uint32_t f;
            int w;
            while (k.next(f, w)) {
                if (f == 1) {
                    k.expect(w, Len);
                    keyValue(k.bytes(), depth + 2, members);
                } else {
                    k.skip(w);
                }
            }
            out = members.take();
            break;
        }
        case 7: {
            r.expect(wire, Len);
            const std::string_view b = r.bytes();
            out = QByteArray(b.data(), qsizetype(b.size())).toBase64().toStdString();
            break;
        }
        default:
            r.skip(wire);
        }
    }
    return out;
}

std::string id(Reader& r, size_t size, const char* what)
{
    const std::string_view b = r.bytes();
    if (b.empty())
        return {};
    if (b.size() != size)
        throw Bad(std::string(what) + " has " + std::to_string(b.size()) + " bytes");
    return toHex(b);
}

void span(std::string_view data, const std::shared_ptr<const SpanResource>& resource,
          std::vector<Span>& out)
{
    Reader r(data, 3);
    Span s;
    AttributesBuilder attributes;
    uint32_t field;
    int wire;
    while (r.next(field, wire)) {
        switch (field) {
        case 1:
            r.expect(wire, Len);
            s.traceId = id(r, 16, "trace_id");
            break;
        case 2:
            r.expect(wire, Len);
            s.spanId = id(r, 8, "span_id");
            break;
        case 4:
            r.expect(wire, Len);
            s.parentSpanId = id(r, 8, "parent_span_id");
            break;
        case 5:
            r.expect(wire, Len);
            s.name = r.string();
            break;
        case 6:
            r.expect(wire, Varint);
            s.kind = int(r.varint() & 0xFF);
            break;
        case 7:
            r.expect(wire, Fixed64);
            s.startNanos = int64_t(r.fixed64());
            break;
        case 8:
            r.expect(wire, Fixed64);
            s.endNanos = int64_t(r.fixed64());
            break;
        case 9:
            r.expect(wire, Len);
            keyValue(r.bytes(), 4, attributes);
            break;
        case 11: {
            r.expect(wire, Len);
            Reader e(r.bytes(), 4);
            SpanEvent event;
            AttributesBuilder eventAttributes;
            uint32_t f;
            int w;
            while (e.next(f, w)) {
                if (f == 1) {
                    e.expect(w, Fixed64);
                    event.timeNanos = int64_t(e.fixed64());
                } else if (f == 2) {
                    e.expect(w, Len);
                    event.name = e.string();
                } else if (f == 3) {
                    e.expect(w, Len);
                    keyValue(e.bytes(), 5, eventAttributes);
                } else {
                    e.skip(w);
                }
            }
            event.attributes = eventAttributes.take();
            s.events.push_back(std::move(event));
            break;
        }
        case 15: {
            r.expect(wire, Len);
            Reader st(r.bytes(), 4);
            uint32_t f;
            int w;
            while (st.next(f, w)) {
                if (f == 2) {
                    st.expect(w, Len);
                    s.statusMessage = st.string();
                } else if (f == 3) {
                    st.expect(w, Varint);
                    s.statusCode = int(st.varint() & 0xFF);
                } else {
                    st.skip(w);
                }
            }
            break;
        }
        default:
            r.skip(wire);
        }
    }
    if (s.traceId.empty() || s.spanId.empty())
        throw Bad("a span without trace_id or span_id");
    s.attributes = attributes.take();
    s.resource = resource;
    out.push_back(std::move(s));
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

Result<std::vector<Span>> decodeOtlpProtobuf(std::string_view bytes)
{
    std::vector<Span> spans;
    try {
        Reader req(bytes, 0);
        uint32_t field;
        int wire;
        while (req.next(field, wire)) {
            if (field != 1) {
                req.skip(wire);
                continue;
            }
            req.expect(wire, Len);
            Reader rs(req.bytes(), 1);
            AttributesBuilder resourceBuilder;
            std::vector<std::string_view> scopes;
            uint32_t f;
            int w;
            while (rs.next(f, w)) {
                if (f == 1) {
                    rs.expect(w, Len);
                    Reader res(rs.bytes(), 2);
                    uint32_t g;
                    int x;
                    while (res.next(g, x)) {
                        if (g == 1) {
                            res.expect(x, Len);
                            keyValue(res.bytes(), 3, resourceBuilder);
                        } else {
                            res.skip(x);
                        }
                    }
                } else if (f == 2) {
                    rs.expect(w, Len);
                    scopes.push_back(rs.bytes());
                } else {
                    rs.skip(w);
                }
            }
            const Attributes resourceAttributes = resourceBuilder.take();
            for (std::string_view scopeBytes : scopes) {
                auto resource = std::make_shared<SpanResource>();
                resource->attributes = resourceAttributes;
                Reader ss(scopeBytes, 2);
                std::vector<std::string_view> spanBytes;
                uint32_t g;
                int x;
                while (ss.next(g, x)) {
                    if (g == 1) {
                        ss.expect(x, Len);
                        Reader sc(ss.bytes(), 3);
                        uint32_t h;
                        int y;
                        while (sc.next(h, y)) {
                            if (h == 1) {
                                sc.expect(y, Len);
                                resource->scopeName = sc.string();
                            } else if (h == 2) {
                                sc.expect(y, Len);
                                resource->scopeVersion = sc.string();
                            } else {
                                sc.skip(y);
                            }
                        }
                    } else if (g == 2) {
                        ss.expect(x, Len);
                        spanBytes.push_back(ss.bytes());
                    } else {
                        ss.skip(x);
                    }
                }
                std::shared_ptr<const SpanResource> shared = resource;
                for (std::string_view sb : spanBytes)
                    span(sb, shared, spans);
            }
        }
    } catch (const Bad& e) {
        return makeError(
            QStringLiteral("malformed OTLP/protobuf: %1").arg(QString::fromUtf8(e.what())));
    }
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
