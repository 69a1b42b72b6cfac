#include "core/otel/otlpwriter.h"

#include "core/models/httptransport.h"
#include "core/models/openaiprotocol.h"
#include "core/otel/otlpreceiver.h"
#include "core/pdl/value.h"
#include "core/util/chars.h"
#include "core/util/outputfile.h"

#include <QRandomGenerator>

#include <functional>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace hako::otel {

namespace {

using json = Attributes;

std::string randomHex(int bytes)
{
    std::string raw(size_t(bytes), '\0');
    for (char& c : raw)
        c = char(QRandomGenerator::global()->bounded(256));
    if (raw.find_first_not_of('\0') == std::string::npos)
        raw[0] = 1;
    return toHex(raw);
}

json toJson(const pdl::Value& v)
{
    try {
        return v.toOrderedJson();
    } catch (...) {
        return json(v.str());
    }
}

std::string jsonText(const pdl::Value& v)
{
    try {
        return v.json();
    } catch (...) {
        return json(v.str()).dump();
    }
}

const pdl::Value* exprValue(const pdl::TraceNode& n, const char* name)
{
    for (const auto& [k, v] : n.exprs)
        if (k == name)
            return &v;
    return nullptr;
}

void writeMessages(json& a, const pdl::Value& messages, const std::string& reply)
{
    if (!messages.isList())
        return;
    json genai = json::array();
    size_t i = 0;
    for (const pdl::Value& m : messages.asList()) {
        std::string role = "user", content;
        if (m.isDict()) {
            if (const pdl::Value* r = m.asDict().find(pdl::Value("role")); r && r->isString())
                role = r->asString();
            if (const pdl::Value* c = m.asDict().find(pdl::Value("content")))
                content = c->isString() ? c->asString() : jsonText(*c);
        } else {
            content = m.isString() ? m.asString() : jsonText(m);
        }
        const std::string base = "llm.input_messages." + std::to_string(i++) + ".message.";
        a[base + "role"] = role;
        a[base + "content"] = content;
        genai.push_back(json{{"role", role},
                             {"parts", json::array({{{"type", "text"}, {"content", content}}})}});
    }
    a["gen_ai.input.messages"] = genai.dump();
    a["llm.output_messages.0.message.role"] = "assistant";
    a["llm.output_messages.0.message.content"] = reply;
    a["gen_ai.output.messages"] =
        json::array({{{"role", "assistant"},
                      {"parts", json::array({{{"type", "text"}, {"content", reply}}})}}})
            .dump();
}

// A block still to be written as a span, with where it sits in its parent.
struct Work {
    const pdl::TraceNode* node;
    std::string parent;
    std::string field;
    std::string defsName;
    bool single;
    int64_t order;
};

// What the block is and where it sits: its kind in both conventions, its id, def, field,
// order and source location.
void writeBlockAttributes(json& a, const pdl::TraceNode& n, const Work& w,
                          const std::string& kindName)
{
    const bool model = n.kind == pdl::BlockKind::Model;
    const bool code = n.kind == pdl::BlockKind::Code;
    a["openinference.span.kind"] = model ? "LLM" : code ? "TOOL" : "CHAIN";
    if (model)
        a["gen_ai.operation.name"] = "chat";
    else if (code)
        a["gen_ai.operation.name"] = "execute_tool";
    a["pdl.kind"] = kindName;
    a["pdl.id"] = n.id;
    if (!n.def.empty())
        a["pdl.def"] = n.def;
    if (!n.description.empty())
        a["pdl.description"] = n.description;
    if (!w.field.empty())
        a["pdl.field"] = w.field;
    if (w.single)
        a["pdl.single"] = true;
    if (!w.defsName.empty())
        a["pdl.defs_name"] = w.defsName;
    a["pdl.order"] = w.order;
    if (n.span.isValid()) {
        a["pdl.location.file"] = n.span.file.toStdString();
        a["pdl.location.line"] = n.span.line;
        a["pdl.location.column"] = n.span.column;
        a["pdl.location.end_line"] = n.span.endLine;
        a["pdl.location.end_column"] = n.span.endColumn;
    }
    if (n.contribute) {
        json c = json::array();
        for (const std::string& t : *n.contribute)
            c.push_back(t);
        a["pdl.contribute"] = c.dump();
    }
}

// A model call's model name and parameters, and the token counts of any block.
void writeModelAttributes(json& a, const pdl::TraceNode& n)
{
    const bool model = n.kind == pdl::BlockKind::Model;
    if (model) {
        // The alias the block names, the model it resolved to (what the endpoint was asked
        // for) and the one the server says answered: OpenTelemetry's request and response
        // model; OpenInference's model name is the one that answered.
        const pdl::Value* usage = n.usage.isDict() ? &n.usage : nullptr;
        auto usageText = [&](const char* key) -> std::string {
            const pdl::Value* v = usage ? usage->asDict().find(key) : nullptr;
            return v && v->isString() ? v->asString() : std::string();
        };
        const std::string resolved = usageText("resolved_model");
        const std::string served = usageText("response_model");
        if (const pdl::Value* m = exprValue(n, "model"); m && m->isString()) {
            a["llm.model_name"] = !served.empty()     ? served
                                  : !resolved.empty() ? resolved
                                                      : m->asString();
            a["gen_ai.request.model"] = !resolved.empty() ? resolved : m->asString();
            if (!resolved.empty() && resolved != m->asString())
                a["pdl.model_alias"] = m->asString();
        }
        if (!served.empty())
            a["gen_ai.response.model"] = served;
        if (const pdl::Value* p = exprValue(n, "parameters"); p && p->isDict())
            a["llm.invocation_parameters"] = jsonText(*p);
    }
    if (n.usage.isDict()) {
        const pdl::Dict& u = n.usage.asDict();
        const pdl::Value* in = u.find(pdl::Value("prompt_tokens"));
        const pdl::Value* out = u.find(pdl::Value("completion_tokens"));
        if (in && in->isInt()) {
            a["llm.token_count.prompt"] = in->asInt();
            a["gen_ai.usage.input_tokens"] = in->asInt();
        }
        if (out && out->isInt()) {
            a["llm.token_count.completion"] = out->asInt();
            a["gen_ai.usage.output_tokens"] = out->asInt();
        }
        if (in && out && in->isInt() && out->isInt())
            a["llm.token_count.total"] = in->asInt() + out->asInt();
        a["pdl.usage"] = jsonText(n.usage);
    }
}

// What the block computed and was sent (results, expressions, prompts, output): only with
// OtlpWriteOptions::includeContent.
void writeContent(json& a, const pdl::TraceNode& n)
{
    const bool model = n.kind == pdl::BlockKind::Model;
    if (n.hasResult) {
        a["pdl.result"] = jsonText(n.result);
        if (n.result.isString()) {
            a["output.value"] = n.result.asString();
        } else {
            a["output.value"] = jsonText(n.result);
            a["output.mime_type"] = "application/json";
        }
    }
    if (!n.exprs.empty()) {
        json e = json::array();
        for (const auto& [k, v] : n.exprs)
            e.push_back(json::array({k, toJson(v)}));
        a["pdl.exprs"] = e.dump();
    }
    if (!n.modelInput.isNull() && !n.modelInput.isUndefined()) {
        a["pdl.model_input"] = jsonText(n.modelInput);
        if (model)
            writeMessages(a, n.modelInput,
                          n.result.isString() ? n.result.asString() : jsonText(n.result));
    }
    if (!n.context.isNull() && !n.context.isUndefined())
        a["pdl.context"] = jsonText(n.context);
    if (!n.out.empty())
        a["pdl.stdout"] = n.out;
    if (!n.err.empty())
        a["pdl.stderr"] = n.err;
}

// The block's children on the stack, reversed so that spans come out parents first, in order.
void pushChildren(std::vector<Work>& stack, const pdl::TraceNode& n, const std::string& spanId)
{
    std::vector<Work> kids;
    int64_t order = 0;
    for (const auto& [name, d] : n.defs)
        if (d)
            kids.push_back({d.get(), spanId, "defs", name, false, order++});
    for (const pdl::TraceNode::Children& group : n.children)
        for (const pdl::TracePtr& c : group.nodes)
            if (c)
                kids.push_back({c.get(), spanId, group.field, {}, group.single, order++});
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
        stack.push_back(std::move(*it));
}

} // namespace

void forEachSpan(const pdl::TraceNode& root, const OtlpWriteOptions& options,
                 const std::function<void(Span&&)>& visit)
{
    auto resource = std::make_shared<SpanResource>();
    resource->attributes["service.name"] = options.serviceName;
    if (!options.programPath.empty())
        resource->attributes["hako.program"] = options.programPath;
    resource->scopeName = "hako";
    resource->scopeVersion = HAKO_VERSION;
    const std::string traceId = options.traceId.empty() ? randomHex(16) : options.traceId;
    const uint64_t base = QRandomGenerator::global()->generate64() & 0x00ffffffffffffffULL;
    uint64_t counter = 0;
    auto nextId = [&]() {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx",
                      static_cast<unsigned long long>((base + ++counter) | (1ULL << 60)));
        return std::string(buf);
    };

    std::vector<Work> stack{{&root, {}, {}, {}, false, 0}};
    while (!stack.empty()) {
        Work w = std::move(stack.back());
        stack.pop_back();
        const pdl::TraceNode& n = *w.node;
        Span s;
        s.traceId = traceId;
        s.spanId = nextId();
        s.parentSpanId = w.parent;
        const std::string kindName = pdl::blockKindName(n.kind);
        s.name = n.def.empty() ? kindName : n.def;
        s.kind = 1;
        s.startNanos = n.startNanos;
        s.endNanos = n.endNanos;
        s.resource = resource;
        json& a = s.attributes;
        writeBlockAttributes(a, n, w, kindName);
        writeModelAttributes(a, n);
        if (options.includeContent)
            writeContent(a, n);
        if (!n.error.empty()) {
            s.statusCode = 2;
            s.statusMessage = n.error;
            a["pdl.error"] = n.error;
        }
        pushChildren(stack, n, s.spanId);
        visit(std::move(s));
    }
}

std::vector<Span> traceToSpans(const pdl::TraceNode& root, const OtlpWriteOptions& options)
{
    std::vector<Span> spans;
    forEachSpan(root, options, [&spans](Span&& s) { spans.push_back(std::move(s)); });
    return spans;
}

namespace {

// OTLP/JSON written straight into text, as nlohmann's dump() would write the same request
// built as a document (byte for byte: tst_otlpjsonwriter holds the two together), without
// building that document: the trace archive of `hako serve` writes every received span.

// Where the next byte from `from` in a JSON string must escape (a control character, a quote or a
// backslash) is, or the end: eight bytes at a time (the trace archive writes every string of
// every protobuf request it keeps).
size_t nextToEscape(std::string_view s, size_t from)
{
    size_t i = from;
    for (; i + 8 <= s.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        if (jsonEscapeBits(w, true) != 0)
            break; // in this word: found below
    }
    for (; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == '"' || c == '\\')
            return i;
    }
    return s.size();
}

// `s` as a JSON string: UTF-8 kept as it is, `"` `\\` and control characters escaped. Text
// that is not well-formed UTF-8 (never from a decoded request) is left to nlohmann, which
// writes U+FFFD for what cannot be read.
void appendString(std::string& out, std::string_view s)
{
    if (!isValidUtf8(s)) {
        out += json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
        return;
    }
    out += '"';
    size_t plain = 0; // the start of the characters not yet written
    for (size_t i = nextToEscape(s, 0); i < s.size(); i = nextToEscape(s, plain)) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        out.append(s.data() + plain, i - plain);
        plain = i + 1;
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default: {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(c));
            out += escaped;
        }
        }
    }
    out.append(s.data() + plain, s.size() - plain);
    out += '"';
}

void appendKeyValues(std::string& out, const json& object);

// An attribute's value as an OTLP AnyValue.
void appendAnyValue(std::string& out, const json& v)
{
    if (v.is_string()) {
        out += "{\"stringValue\":";
        appendString(out, v.get_ref<const std::string&>());
        out += '}';
    } else if (v.is_boolean()) {
        out += v.get<bool>() ? "{\"boolValue\":true}" : "{\"boolValue\":false}";
    } else if (v.is_number_integer()) {
        out += "{\"intValue\":\"" + std::to_string(v.get<int64_t>()) + "\"}";
    } else if (v.is_number_float()) {
        out += "{\"doubleValue\":" + v.dump() + '}';
    } else if (v.is_array()) {
        out += "{\"arrayValue\":{\"values\":[";
        bool first = true;
        for (const json& e : v) {
            if (!first)
                out += ',';
            first = false;
            appendAnyValue(out, e);
        }
        out += "]}}";
    } else if (v.is_object()) {
        out += "{\"kvlistValue\":{\"values\":";
        appendKeyValues(out, v);
        out += "}}";
    } else {
        out += "{}";
    }
}

// An object's members as an OTLP KeyValue list.
void appendKeyValues(std::string& out, const json& object)
{
    out += '[';
    bool first = true;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!first)
            out += ',';
        first = false;
        out += "{\"key\":";
        appendString(out, it.key());
        out += ",\"value\":";
        appendAnyValue(out, it.value());
        out += '}';
    }
    out += ']';
}

void appendNanos(std::string& out, const char* name, int64_t nanos)
{
    out += name;
    out += "\":\"";
    out += std::to_string(nanos);
    out += '"';
}

// One Span object.
void appendSpan(std::string& out, const Span& s)
{
    out += "{\"traceId\":";
    appendString(out, s.traceId);
    out += ",\"spanId\":";
    appendString(out, s.spanId);
    if (!s.parentSpanId.empty()) {
        out += ",\"parentSpanId\":";
        appendString(out, s.parentSpanId);
    }
    out += ",\"name\":";
    appendString(out, s.name);
    out += ",\"kind\":" + std::to_string(s.kind);
    appendNanos(out, ",\"startTimeUnixNano", s.startNanos);
    appendNanos(out, ",\"endTimeUnixNano", s.endNanos);
    out += ",\"attributes\":";
    appendKeyValues(out, s.attributes);
    if (!s.events.empty()) {
        out += ",\"events\":[";
        for (size_t i = 0; i < s.events.size(); ++i) {
            const SpanEvent& e = s.events[i];
            if (i > 0)
                out += ',';
            appendNanos(out, "{\"timeUnixNano", e.timeNanos);
            out += ",\"name\":";
            appendString(out, e.name);
            out += ",\"attributes\":";
            appendKeyValues(out, e.attributes);
            out += '}';
        }
        out += ']';
    }
    out += ",\"status\":{";
    if (s.statusCode)
        out += "\"code\":" + std::to_string(s.statusCode);
    if (!s.statusMessage.empty()) {
        out += s.statusCode ? ",\"message\":" : "\"message\":";
        appendString(out, s.statusMessage);
    }
    out += "}}";
}

// One ResourceSpans around its spans' text: what comes before the first span and after the
// last, so that spans can be written one at a time between them.
std::pair<std::string, std::string> resourceFrame(const SpanResource* resource)
{
    std::string head = "{\"resource\":{\"attributes\":";
    if (resource) {
        appendKeyValues(head, resource->attributes);
        head += "},\"scopeSpans\":[{\"scope\":{\"name\":";
        appendString(head, resource->scopeName);
        if (!resource->scopeVersion.empty()) {
            head += ",\"version\":";
            appendString(head, resource->scopeVersion);
        }
        head += '}';
    } else {
        head += "[]},\"scopeSpans\":[{\"scope\":{}";
    }
    return {head + ",\"spans\":[", "]}]}"};
}

} // namespace

void appendOtlpJson(std::string& out, const std::vector<const Span*>& spans)
{
    out += "{\"resourceSpans\":[";
    size_t i = 0;
    while (i < spans.size()) {
        const SpanResource* resource = spans[i]->resource.get();
        const auto [head, tail] = resourceFrame(resource);
        if (i > 0)
            out += ',';
        out += head;
        for (size_t first = i; i < spans.size() && spans[i]->resource.get() == resource; ++i) {
            if (i > first)
                out += ',';
            appendSpan(out, *spans[i]);
        }
        out += tail;
    }
    out += "]}";
}

std::string encodeOtlpJson(const std::vector<const Span*>& spans)
{
    std::string out;
    appendOtlpJson(out, spans);
    return out;
}

std::string encodeOtlpJson(const std::vector<Span>& spans)
{
    std::vector<const Span*> each;
    each.reserve(spans.size());
    for (const Span& s : spans)
        each.push_back(&s);
    return encodeOtlpJson(each);
}

bool writeOtlpFile(const pdl::TraceNode& root, const QString& path, const OtlpWriteOptions& options,
                   QString* error)
{
    // Span by span into the file: neither every span nor the whole text is ever held (a run of
    // 435,000 blocks needed eight times the memory of its trace that way).
    OutputFile file(path);
    QString why;
    if (!file.open(&why)) {
        if (error)
            *error = why;
        return false;
    }
    bool ok = true;
    try {
        const SpanResource* resource = nullptr;
        std::string tail;
        bool first = true;
        forEachSpan(root, options, [&](Span&& s) {
            if (!ok)
                return;
            std::string text;
            if (first || s.resource.get() != resource) {
                text = first ? "{\"resourceSpans\":[" : tail + ",";
                auto [head, end] = resourceFrame(s.resource.get());
                text += head;
                tail = std::move(end);
                resource = s.resource.get();
            } else {
                text = ",";
            }
            first = false;
            appendSpan(text, s);
            ok = file.device()->write(text.data(), qint64(text.size())) == qint64(text.size());
        });
        const std::string end = (first ? std::string("{\"resourceSpans\":[") : tail) + "]}\n";
        ok = ok && file.device()->write(end.data(), qint64(end.size())) == qint64(end.size());
    } catch (const std::bad_alloc&) {
        if (error)
            *error = QStringLiteral("out of memory writing the spans (the file is left as it was)");
        return false;
    }
    if (!file.commit(&why) || !ok) {
        if (error)
            *error = why.isEmpty() ? file.device()->errorString() : why;
        return false;
    }
    return true;
}

namespace {

// A header's name as it may be printed: control characters (the line breaks of an injection
// attempt among them) written as escapes.
QString shownName(const QString& name)
{
    return models::openai::printable(name).replace(QLatin1Char('\n'), QLatin1String("\\x0a"));
}

} // namespace

Result<QList<QPair<QByteArray, QByteArray>>> otlpHeaders(const QStringList& headers)
{
    QList<QPair<QByteArray, QByteArray>> out;
    for (const QString& h : headers) {
        const qsizetype eq = h.indexOf(QLatin1Char('='));
        const QString name = eq < 0 ? h : h.left(eq).trimmed();
        if (eq < 0)
            return makeError(QStringLiteral("header '%1' wants NAME=VALUE").arg(shownName(name)));
        const QByteArray value = h.mid(eq + 1).trimmed().toUtf8();
        if (const QString problem = models::headerProblem(name.toUtf8(), value); !problem.isEmpty())
            return makeError(QStringLiteral("header '%1': %2").arg(shownName(name), problem));
        out.append({name.toUtf8(), value});
    }
    return out;
}

bool postOtlp(const pdl::TraceNode& root, const QUrl& endpoint, const QStringList& headers,
              const OtlpWriteOptions& options, QString* error, int timeoutMs)
{
    auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (!endpoint.isValid() ||
        (endpoint.scheme() != QLatin1String("http") && endpoint.scheme() != QLatin1String("https")))
        return fail(QStringLiteral("not an http(s) URL"));
    auto extra = otlpHeaders(headers);
    if (!extra)
        return fail(extra.error().message);
    models::HttpTransport::Request request;
    request.url = endpoint;
    request.verb = "POST";
    request.headers = {{"Content-Type", "application/json"}, {"Content-Encoding", "gzip"}};
    request.headers += *extra;
    request.body =
        gzipCompress(QByteArray::fromStdString(encodeOtlpJson(traceToSpans(root, options))));
    request.connectTimeoutMs = timeoutMs;
    request.idleTimeoutMs = timeoutMs;
    request.deadlineMs = timeoutMs;
    request.maxReplyBytes = 1024 * 1024; // a collector answers in a few bytes
    models::HttpTransport transport;
    const std::shared_ptr<models::HttpExchange> exchange = transport.start(request);
    QByteArray reply, piece;
    while (exchange->next(piece, CancelToken()) == models::HttpExchange::Event::Data)
        reply += piece;
    const int status = exchange->status();
    if (status >= 300 && status < 400) {
        // Not followed: the headers (a collector's Authorization among them) are meant for the
        // endpoint the user named, and a redirect may point anywhere.
        const QByteArray location = exchange->header("location");
        if (location.isEmpty())
            return fail(QStringLiteral("HTTP %1: the endpoint redirected without saying where")
                            .arg(status));
        const QUrl target = endpoint.resolved(QUrl::fromEncoded(location));
        return fail(QStringLiteral("HTTP %1: the endpoint redirected to %2; use that URL "
                                   "(redirects are not followed, so that the headers reach "
                                   "only the server named)")
                        .arg(status)
                        .arg(target.toString(QUrl::RemovePassword)));
    }
    if (status >= 200 && status < 300 && exchange->error() == QNetworkReply::NoError)
        return true;
    if (status)
        return fail(QStringLiteral("HTTP %1: %2")
                        .arg(status)
                        .arg(models::openai::printable(QString::fromUtf8(reply.left(300)))));
    return fail(exchange->errorString());
}

} // namespace hako::otel
