#include "core/otel/spanmapper.h"

#include "core/otel/spanattr_p.h"
#include "core/otel/spanvalue_p.h"
#include "core/util/threadslot.h"

#include "core/pdl/value.h"

#include <QDateTime>
#include <QJsonDocument>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace hako::otel {

namespace attr {

using json = Attributes;

// A value that may be JSON text (what attributes can only carry as strings): parsed when it is
// an object or array, else as given.
json maybeJson(const json& v)
{
    if (!v.is_string())
        return v;
    const std::string& s = v.get_ref<const std::string&>();
    const size_t first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || (s[first] != '{' && s[first] != '['))
        return v;
    json parsed = json::parse(s, nullptr, false);
    return parsed.is_discarded() ? v : parsed;
}

// The same for a value no longer needed: moved, not copied, when it is not JSON text.
json maybeJson(json&& v)
{
    if (!v.is_string())
        return std::move(v);
    const std::string& s = v.get_ref<const std::string&>();
    const size_t first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || (s[first] != '{' && s[first] != '['))
        return std::move(v);
    json parsed = json::parse(s, nullptr, false);
    return parsed.is_discarded() ? std::move(v) : std::move(parsed);
}

std::optional<int64_t> asInt(const json& v)
{
    if (v.is_number_integer())
        return v.get<int64_t>();
    if (v.is_number_float())
        return int64_t(v.get<double>());
    if (v.is_string()) {
        try {
            return std::stoll(v.get<std::string>());
        } catch (...) {
        }
    }
    return std::nullopt;
}

std::string text(const json& v)
{
    if (v.is_null())
        return {};
    return v.is_string() ? v.get<std::string>() : v.dump();
}

} // namespace attr

namespace {

using json = Attributes;
using attr::asInt;
using attr::handOn;
using attr::maybeJson;
using attr::text;

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

// Splits "12.rest" into 12 and "rest"; false when the key does not start with an index.
bool splitIndex(std::string_view key, size_t& index, std::string_view& rest)
{
    size_t i = 0;
    index = 0;
    while (i < key.size() && key[i] >= '0' && key[i] <= '9' && i < 9)
        index = index * 10 + size_t(key[i++] - '0');
    if (i == 0 || (i < key.size() && key[i] != '.'))
        return false;
    rest = i < key.size() ? key.substr(i + 1) : std::string_view();
    return true;
}

// One message of a flattened list while its attributes arrive: its parts by index, so that a
// message of thousands of parts is put together in n log n, never by key scans.
struct FlatMessage {
    json fields = json::object(); ///< role, content, name, tool_call_id
    std::map<size_t, json> contents;
    std::map<size_t, json> toolCalls;
};

// A flattened message field (`message.role`, `role`, `message.tool_calls.0.tool_call.function.
// name`, `message.contents.1.message_content.text`) into `msg`.
template <class J> bool setMessageField(FlatMessage& msg, std::string_view rest, J& value)
{
    if (startsWith(rest, "message."))
        rest.remove_prefix(8);
    if (rest == "role" || rest == "content" || rest == "name" || rest == "tool_call_id") {
        msg.fields[std::string(rest)] = handOn(value);
        return true;
    }
    size_t k;
    std::string_view sub;
    if (startsWith(rest, "contents.") && splitIndex(rest.substr(9), k, sub)) {
        if (sub == "message_content.text" || sub == "text") {
            msg.contents[k] = handOn(value);
            return true;
        }
        return false;
    }
    if (startsWith(rest, "tool_calls.") && splitIndex(rest.substr(11), k, sub)) {
        if (startsWith(sub, "tool_call."))
            sub.remove_prefix(10);
        json& call = msg.toolCalls[k];
        if (!call.is_object())
            call = json{{"type", "function"}, {"function", json::object()}};
        if (sub == "id") {
            call["id"] = handOn(value);
        } else if (sub == "function.name" || sub == "name") {
            call["function"]["name"] = handOn(value);
        } else if (sub == "function.arguments" || sub == "arguments") {
            if (value.is_string())
                call["function"]["arguments"] = handOn(value);
            else
                call["function"]["arguments"] = value.dump();
        } else {
            return false;
        }
        return true;
    }
    return false;
}

json finishMessages(std::map<size_t, FlatMessage>& byIndex)
{
    json out = json::array();
    for (auto& [i, flat] : byIndex) {
        json& msg = flat.fields;
        if (!flat.contents.empty()) {
            std::string joined;
            for (auto& [k, v] : flat.contents)
                joined += text(v);
            if (!msg.contains("content"))
                msg["content"] = joined;
        }
        if (!flat.toolCalls.empty()) {
            json calls = json::array();
            for (auto& [k, v] : flat.toolCalls)
                calls.push_back(std::move(v));
            msg["tool_calls"] = std::move(calls);
        }
        out.push_back(std::move(msg));
    }
    return out;
}

// One GenAI message (`{role, parts: [{type, content|id|name|arguments|response}], name,
// finish_reason}`) in Hako's form.
json genAiMessage(const json& m, std::string* finishReason)
{
    if (!m.is_object())
        return json{{"role", "user"}, {"content", text(m)}};
    json out = json::object();
    out["role"] = m.value("role", std::string("user"));
    if (auto n = m.find("name"); n != m.end() && n->is_string())
        out["name"] = *n;
    if (finishReason) {
        if (auto f = m.find("finish_reason"); f != m.end() && f->is_string())
            *finishReason = f->get<std::string>();
    }
    if (auto c = m.find("content"); c != m.end())
        out["content"] = c->is_string() ? *c : json(c->dump());
    auto parts = m.find("parts");
    if (parts == m.end() || !parts->is_array()) {
        if (!out.contains("content"))
            out["content"] = "";
        return out;
    }
    std::string content;
    json calls = json::array();
    for (const json& p : *parts) {
        if (!p.is_object()) {
            content += text(p);
            continue;
        }
        const std::string type = p.value("type", std::string("text"));
        if (type == "tool_call") {
            json args = p.contains("arguments") ? p["arguments"] : json::object();
            calls.push_back(json{{"id", p.value("id", std::string())},
                                 {"type", "function"},
                                 {"function",
                                  {{"name", p.value("name", std::string())},
                                   {"arguments", args.is_string() ? args : json(args.dump())}}}});
        } else if (type == "tool_call_response") {
            if (auto id = p.find("id"); id != p.end())
                out["tool_call_id"] = *id;
            const json r = p.contains("response") ? p["response"] : p.value("result", json());
            content += text(r);
        } else if (p.contains("content")) {
            content += text(p["content"]);
        }
    }
    if (!out.contains("content"))
        out["content"] = content;
    if (!calls.empty())
        out["tool_calls"] = std::move(calls);
    return out;
}

json genAiMessages(const json& value, std::string* finishReason)
{
    const json v = maybeJson(value);
    json out = json::array();
    if (v.is_array()) {
        for (const json& m : v)
            out.push_back(genAiMessage(m, finishReason));
    } else if (!v.is_null()) {
        out.push_back(genAiMessage(v, finishReason));
    }
    return out;
}

// The field table indexed: exact keys in a hash map, prefixes in table order.
const FieldRule* findRule(const std::string& key)
{
    struct Index {
        std::unordered_map<std::string_view, const FieldRule*> exact;
        /// Views, so that each key is compared without measuring the prefix again.
        std::vector<std::pair<std::string_view, const FieldRule*>> prefixes;
        Index()
        {
            for (const FieldRule& rule : fieldRules()) {
                if (rule.prefix)
                    prefixes.emplace_back(rule.key, &rule);
                else
                    exact.emplace(rule.key, &rule);
            }
        }
    };
    static const Index index;
    // The keys this thread has looked up, with their rule: every span brings the same few
    // dozen, and most match a prefix (a list's items) or nothing (kept raw), which the table
    // finds only after comparing every prefix. Bounded: keys past it are looked up each time.
    struct Memo {
        std::unordered_map<std::string, const FieldRule*> rules;
    };
    auto& memo = ThreadSlot<Memo>::get().rules;
    if (auto it = memo.find(key); it != memo.end())
        return it->second;
    const FieldRule* found = nullptr;
    if (auto it = index.exact.find(key); it != index.exact.end()) {
        found = it->second;
    } else {
        for (const auto& [prefix, rule] : index.prefixes)
            if (startsWith(key, prefix)) {
                found = rule;
                break;
            }
    }
    if (memo.size() < 4096)
        memo.emplace(key, found);
    return found;
}

bool isJsonMime(const std::string& mime)
{
    return mime.find("json") != std::string::npos;
}

} // namespace

namespace {

// An event's time as people read it (UTC, milliseconds), not the wire's nanosecond count.
std::string readableTime(int64_t nanos)
{
    return QDateTime::fromMSecsSinceEpoch(nanos / 1000000, Qt::UTC)
        .toString(Qt::ISODateWithMs)
        .toStdString();
}

// How long after the span's start an event happened: `+12.3 ms`, `+1.25 s`.
std::string sinceStart(int64_t nanos)
{
    const double ms = double(nanos) / 1e6;
    char text[48];
    if (std::abs(ms) < 1000)
        std::snprintf(text, sizeof text, "%+.1f ms", ms);
    else
        std::snprintf(text, sizeof text, "%+.2f s", ms / 1000);
    return text;
}

} // namespace

namespace {

// What a span's attributes say before it is assembled into a SpanView: the parts that come in
// pieces (flattened messages and documents, parameters) and the values whose meaning depends on
// another attribute (a value and its MIME type).
struct AttributeReading {
    std::map<size_t, FlatMessage> inFlat, outFlat;
    std::map<size_t, AttributesBuilder> docsFlat;
    // Built by key through indexes: a span may carry tens of thousands of attributes.
    AttributesBuilder pdl, raw, parameters;
    std::string inputMime, outputMime;
    json inputValue, outputValue, systemInstructions, inputJson, outputJson, docsJson;
};

// A field that is one value of the view (a name, a count, a tool's schema…): set; false for
// the fields gathered over several attributes.
bool setScalarField(SpanView& v, Field field, const json& value)
{
    switch (field) {
    case Field::Ignore:
        break;
    case Field::ModelName:
        v.model = text(value);
        break;
    case Field::ResponseModel:
        v.responseModel = text(value);
        break;
    case Field::Provider:
        v.provider = text(value);
        break;
    case Field::InputTokens:
        v.inputTokens = asInt(value);
        break;
    case Field::OutputTokens:
        v.outputTokens = asInt(value);
        break;
    case Field::TotalTokens:
        v.totalTokens = asInt(value);
        break;
    case Field::CachedTokens:
        v.cachedTokens = asInt(value);
        break;
    case Field::ToolName:
        v.toolName = text(value);
        break;
    case Field::ToolDescription:
        v.toolDescription = text(value);
        break;
    case Field::ToolParameters:
        v.toolParameters = maybeJson(value);
        break;
    case Field::ToolArguments:
        v.toolArguments = maybeJson(value);
        break;
    case Field::ToolResult:
        v.toolResult = maybeJson(value);
        break;
    case Field::ToolCallId:
        v.toolCallId = text(value);
        break;
    case Field::PromptTemplate:
        v.promptTemplate = text(value);
        break;
    case Field::PromptTemplateVariables:
        v.promptVariables = maybeJson(value);
        break;
    case Field::PromptTemplateVersion:
        v.promptTemplateVersion = text(value);
        break;
    case Field::PromptName:
        v.promptName = text(value);
        break;
    case Field::FinishReasons: {
        const json f = maybeJson(value);
        if (f.is_array() && !f.empty())
            v.finishReason = text(f.front());
        else
            v.finishReason = text(f);
        break;
    }
    case Field::ResponseId:
        v.responseId = text(value);
        break;
    case Field::AgentName:
        v.agentName = text(value);
        break;
    default:
        return false;
    }
    return true;
}

// A field gathered over several attributes (see AttributeReading); false when the attribute
// does not have the shape the field wants (it is kept as a raw attribute).
template <class J>
bool gatherField(SpanView& v, AttributeReading& r, const FieldRule& match, std::string_view rest,
                 J& value)
{
    bool used = true;
    switch (match.field) {
    case Field::InvocationParameters: {
        const json p = maybeJson(value);
        if (p.is_object())
            r.parameters.update(p);
        else
            used = false;
        break;
    }
    case Field::RequestParameter:
        if (rest == "model")
            v.model = text(value);
        else
            r.parameters.set(std::string(rest), handOn(value));
        break;
    case Field::InputValue:
        r.inputValue = handOn(value);
        break;
    case Field::InputMime:
        r.inputMime = text(value);
        break;
    case Field::OutputValue:
        r.outputValue = handOn(value);
        break;
    case Field::OutputMime:
        r.outputMime = text(value);
        break;
    case Field::InputMessagesFlat:
    case Field::OutputMessagesFlat:
    case Field::DocumentsFlat: {
        size_t index;
        std::string_view sub;
        if (!splitIndex(rest, index, sub)) {
            used = false;
            break;
        }
        if (match.field == Field::DocumentsFlat) {
            std::string_view f = sub;
            if (startsWith(f, "document."))
                f.remove_prefix(9);
            if (f == "metadata")
                r.docsFlat[index].set(std::string(f), maybeJson(handOn(value)));
            else
                r.docsFlat[index].set(std::string(f), handOn(value));
        } else {
            auto& into = match.field == Field::InputMessagesFlat ? r.inFlat : r.outFlat;
            used = setMessageField(into[index], sub, value);
        }
        break;
    }
    case Field::InputMessagesJson:
        r.inputJson = handOn(value);
        break;
    case Field::OutputMessagesJson:
        r.outputJson = handOn(value);
        break;
    case Field::SystemInstructionsJson:
        r.systemInstructions = maybeJson(handOn(value));
        break;
    case Field::DocumentsJson:
        r.docsJson = maybeJson(handOn(value));
        break;
    default:
        break;
    }
    return used;
}

// The rule that says the span's kind (its category and the convention that says so), if any.
const KindRule* kindRuleOf(const json& attrs)
{
    // The rules of one attribute stand together: each attribute is looked up once.
    const char* looked = nullptr;
    const std::string* value = nullptr;
    for (const KindRule& rule : kindRules()) {
        if (!looked || std::strcmp(looked, rule.attribute) != 0) {
            looked = rule.attribute;
            auto it = attrs.find(rule.attribute);
            value =
                it != attrs.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
        }
        if (value && *value == rule.value)
            return &rule;
    }
    return nullptr;
}

void readKind(SpanView& v, const json& attrs)
{
    if (const KindRule* rule = kindRuleOf(attrs)) {
        v.category = rule->category;
        v.convention = rule->convention;
    }
}

// Every attribute into the view, or into `r` when it comes in pieces, or kept as raw; moved
// out of `attrs` when it is not const (a span being taken).
template <class Attrs> void readAttributes(SpanView& v, AttributeReading& r, Attrs& attrs)
{
    for (auto it = attrs.begin(); it != attrs.end(); ++it) {
        const std::string& key = it.key();
        auto& value = it.value();
        if (startsWith(key, "pdl.")) {
            r.pdl.set(key.substr(4), handOn(value));
            continue;
        }
        const FieldRule* match = findRule(key);
        if (!match) {
            r.raw.set(key, handOn(value));
            continue;
        }
        const std::string_view rest = std::string_view(key).substr(std::strlen(match->key));
        if (!setScalarField(v, match->field, value) && !gatherField(v, r, *match, rest, value))
            r.raw.set(key, handOn(value));
    }
    // The view starts with these empty: a builder with nothing in it leaves them so (no new
    // empty object for most spans).
    if (!r.pdl.empty())
        v.pdl = r.pdl.take();
    if (!r.raw.empty())
        v.raw = r.raw.take();
    if (!r.parameters.empty())
        v.parameters = r.parameters.take();
    if (!v.pdl.empty() && v.pdl.contains("kind"))
        v.convention = "pdl";
}

// The messages: the GenAI JSON attributes, else OpenInference's (or OpenLLMetry's) flattened
// lists (the older per-message events are read with the events).
void readMessages(SpanView& v, AttributeReading& r)
{
    if (!r.systemInstructions.is_null()) {
        json parts = std::move(r.systemInstructions);
        json sys{{"role", "system"}, {"parts", parts.is_array() ? parts : json::array({parts})}};
        v.inputMessages.push_back(genAiMessage(sys, nullptr));
    }
    // Only what the span has is read (the view's lists start empty: no empty list is made to
    // replace them).
    if (!r.inputJson.is_null())
        for (json& m : genAiMessages(r.inputJson, nullptr))
            v.inputMessages.push_back(std::move(m));
    if (!r.outputJson.is_null())
        v.outputMessages =
            genAiMessages(r.outputJson, v.finishReason.empty() ? &v.finishReason : nullptr);
    if (v.inputMessages.empty() && !r.inFlat.empty())
        v.inputMessages = finishMessages(r.inFlat);
    if (v.outputMessages.empty() && !r.outFlat.empty())
        v.outputMessages = finishMessages(r.outFlat);
}

// The span's events: messages of the older conventions, else kept as raw events (an
// `exception` one also gives the error).
void readEvents(SpanView& v, const Span& span)
{
    for (const SpanEvent& e : span.events) {
        bool isOutput = false;
        const std::string_view role = eventMessageRole(e.name, &isOutput);
        if (!role.empty()) {
            json m = json::object();
            json body = e.attributes;
            if (auto msg = body.find("message"); msg != body.end())
                body = maybeJson(*msg);
            m["role"] =
                body.is_object() && body.contains("role") ? body["role"] : json(std::string(role));
            const json content = body.is_object() ? body.value("content", json()) : body;
            m["content"] = text(content);
            if (body.is_object() && body.contains("tool_calls"))
                m["tool_calls"] = body["tool_calls"];
            if (body.is_object() && body.contains("id") && role == "tool")
                m["tool_call_id"] = body["id"];
            if (isOutput) {
                if (auto f = e.attributes.find("finish_reason"); f != e.attributes.end())
                    v.finishReason = text(*f);
                v.outputMessages.push_back(std::move(m));
            } else {
                v.inputMessages.push_back(std::move(m));
            }
            continue;
        }
        if (e.name == "gen_ai.content.prompt" || e.name == "gen_ai.content.completion") {
            const bool completion = e.name == "gen_ai.content.completion";
            const json value =
                e.attributes.value(completion ? "gen_ai.completion" : "gen_ai.prompt", json());
            json msgs = maybeJson(value);
            json& into = completion ? v.outputMessages : v.inputMessages;
            if (msgs.is_array()) {
                for (const json& m : msgs)
                    into.push_back(genAiMessage(m, nullptr));
            } else {
                into.push_back(
                    json{{"role", completion ? "assistant" : "user"}, {"content", text(value)}});
            }
            continue;
        }
        json raw = {{"name", e.name}};
        if (e.timeNanos > 0) {
            raw["time"] = readableTime(e.timeNanos);
            if (span.startNanos > 0)
                raw["after_start"] = sinceStart(e.timeNanos - span.startNanos);
        }
        if (!e.attributes.empty())
            raw["attributes"] = e.attributes;
        if (e.name == "exception" && v.error.empty())
            v.error = attrString(e.attributes, "exception.message",
                                 attrString(e.attributes, "exception.type", "exception"));
        v.rawEvents.push_back(std::move(raw));
    }
}

// What can only be said once everything is read: values by their MIME type, documents, a
// tool's arguments and result, a category from the attributes present, the error.
void finishView(SpanView& v, AttributeReading& r, const Span& span)
{
    v.input =
        isJsonMime(r.inputMime) ? maybeJson(std::move(r.inputValue)) : std::move(r.inputValue);
    v.output =
        isJsonMime(r.outputMime) ? maybeJson(std::move(r.outputValue)) : std::move(r.outputValue);
    if (!r.docsFlat.empty()) {
        for (auto& [i, d] : r.docsFlat)
            v.documents.push_back(d.take());
    } else if (r.docsJson.is_array()) {
        v.documents = std::move(r.docsJson);
    }
    if (v.toolArguments.is_null() && v.category == SpanCategory::Tool && !v.input.is_null())
        v.toolArguments = v.input;
    if (v.toolResult.is_null() && v.category == SpanCategory::Tool && !v.output.is_null())
        v.toolResult = v.output;
    if (v.category == SpanCategory::Unknown) {
        // Spans without a kind attribute that still carry a model call's attributes.
        if (!v.inputMessages.empty() || !v.outputMessages.empty() || v.inputTokens)
            v.category = SpanCategory::Llm;
        else if (!v.toolName.empty())
            v.category = SpanCategory::Tool;
        else if (!v.documents.empty())
            v.category = SpanCategory::Retriever;
    }
    // Only an error status fails a span: an exception event alone may have been handled.
    if (span.statusCode != 2)
        v.error.clear();
    else if (!span.statusMessage.empty())
        v.error = span.statusMessage;
    else if (v.error.empty())
        v.error = "error";
}

} // namespace

namespace {

// The view of `span`: its attribute values copied from a const span, moved out of one being
// taken (whose attributes are then left empty).
template <class S> SpanView interpret(S& span)
{
    SpanView v;
    readKind(v, span.attributes);
    AttributeReading r;
    readAttributes(v, r, span.attributes);
    if constexpr (!std::is_const_v<S>)
        span.attributes.clear(); // what was left of it: moved-from values (its storage stays)
    readMessages(v, r);
    readEvents(v, std::as_const(span));
    finishView(v, r, span);
    return v;
}

} // namespace

SpanView interpretSpan(const Span& span)
{
    return interpret(span);
}

SpanView interpretSpanTaking(Span& span)
{
    return interpret(span);
}

bool mayBeModelCall(const Span& span)
{
    // A kind said other than a model call stays (only an unknown kind is guessed from the
    // attributes present, finishView()); a PDL model block is a call whatever its kind says.
    const KindRule* rule = kindRuleOf(span.attributes);
    return !rule || rule->category == SpanCategory::Llm || span.attributes.contains("pdl.kind");
}

} // namespace hako::otel
