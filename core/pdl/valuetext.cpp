// Values as text: str(), repr(), JSON text, lazily joined text, and the bridge to nlohmann's
// JSON types. The payload, access and comparison are in value.cpp.

#include "core/pdl/value.h"

#include "core/pdl/value_p.h"
#include "core/util/stackguard.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace hako::pdl {

namespace {

using detail::checkNestingStack;

void appendRepr(std::string& out, const Value& v, int level = 0);

// Rendering checks the stack every kStackCheckLevels levels instead of at every one: the check
// (a thread-local lookup) cost a third of rendering a deep list, and the reserve it keeps is
// hundreds of times the frames skipped.
constexpr int kStackCheckLevels = 16;

inline void checkNestingStackAt(int level)
{
    if (level % kStackCheckLevels == 0)
        checkNestingStack();
}

void appendStr(std::string& out, const Value& v)
{
    switch (v.type()) {
    case Value::Type::String:
        out += v.asString();
        return;
    case Value::Type::Undefined:
        throw EvalError("'" + v.undefinedName() + "' is undefined");
    default:
        appendRepr(out, v);
    }
}

void appendRepr(std::string& out, const Value& v, int level)
{
    switch (v.type()) {
    case Value::Type::Undefined:
        // Jinja's Undefined has repr "Undefined"; only str() of a bare one is an error.
        out += "Undefined";
        return;
    case Value::Type::Null:
        out += "None";
        return;
    case Value::Type::Bool:
        out += v.asBool() ? "True" : "False";
        return;
    case Value::Type::Int:
        out += std::to_string(v.asInt());
        return;
    case Value::Type::Float:
        out += formatFloat(v.asFloat());
        return;
    case Value::Type::String:
        out += pyQuote(v.asString());
        return;
    case Value::Type::List: {
        checkNestingStackAt(level);
        const List& items = v.asList();
        out += v.isTuple() ? '(' : '[';
        // The reference's context prints its messages joined by a bare comma.
        const char* separator = v.wrapper() == Value::Wrapper::Context ? "," : ", ";
        for (size_t i = 0; i < items.size(); ++i) {
            if (i)
                out += separator;
            appendRepr(out, items[i], level + 1);
        }
        if (v.isTuple() && items.size() == 1)
            out += ',';
        out += v.isTuple() ? ')' : ']';
        return;
    }
    case Value::Type::Dict: {
        checkNestingStackAt(level);
        out += '{';
        bool first = true;
        for (const auto& [k, val] : v.asDict()) {
            if (!first)
                out += ", ";
            first = false;
            appendRepr(out, k, level + 1);
            out += ": ";
            appendRepr(out, val, level + 1);
        }
        out += '}';
        return;
    }
    case Value::Type::Callable:
        out += v.asCallable()->repr();
        return;
    }
}

std::string jsonFloat(double d)
{
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "Infinity" : "-Infinity";
    return formatFloat(d);
}

// A dict key as json.dumps writes it: non-string keys become their JSON scalar spelling.
void appendJsonKey(std::string& out, const Value& k)
{
    if (k.isString())
        out += jsonQuote(k.asString());
    else if (k.isFloat())
        out += jsonQuote(jsonFloat(k.asFloat()));
    else
        out += jsonQuote(k.json());
}

void appendJson(std::string& out, const Value& v, int level = 0)
{
    switch (v.type()) {
    case Value::Type::Undefined:
    case Value::Type::Null:
    case Value::Type::Callable:
        out += "null";
        return;
    case Value::Type::Bool:
        out += v.asBool() ? "true" : "false";
        return;
    case Value::Type::Int:
        out += std::to_string(v.asInt());
        return;
    case Value::Type::Float:
        out += jsonFloat(v.asFloat());
        return;
    case Value::Type::String:
        out += jsonQuote(v.asString());
        return;
    case Value::Type::List: {
        checkNestingStackAt(level);
        out += '[';
        bool first = true;
        for (const Value& item : v.asList()) {
            if (!first)
                out += ", ";
            first = false;
            appendJson(out, item, level + 1);
        }
        out += ']';
        return;
    }
    case Value::Type::Dict: {
        checkNestingStackAt(level);
        out += '{';
        bool first = true;
        for (const auto& [k, val] : v.asDict()) {
            if (!first)
                out += ", ";
            first = false;
            appendJsonKey(out, k);
            out += ": ";
            appendJson(out, val, level + 1);
        }
        out += '}';
        return;
    }
    }
}

// appendJson without recursing over lists and dicts (an explicit stack instead), so that a
// value nested any depth renders on any thread; `flush(out)` is called whenever `out` has
// grown past kFlushBytes (it may write and empty it).
constexpr size_t kFlushBytes = 64 * 1024;

template <typename Flush> void appendJsonFlat(std::string& out, const Value& v, Flush&& flush)
{
    struct Frame {
        const Value* container;
        size_t next;
    };
    std::vector<Frame> stack;
    stack.reserve(size_t(v.nestingDepth()));
    auto start = [&](const Value& x) {
        if (x.isList()) {
            out += '[';
            stack.push_back({&x, 0});
        } else if (x.isDict()) {
            out += '{';
            stack.push_back({&x, 0});
        } else {
            appendJson(out, x); // a scalar or a string: no recursion
        }
    };
    start(v);
    while (!stack.empty()) {
        if (out.size() >= kFlushBytes)
            flush(out);
        const Value* c = stack.back().container;
        const size_t i = stack.back().next++;
        if (c->isList()) {
            const List& items = c->asList();
            if (i == items.size()) {
                out += ']';
                stack.pop_back();
                continue;
            }
            if (i)
                out += ", ";
            start(items[i]);
        } else {
            const auto& items = c->asDict().items();
            if (i == items.size()) {
                out += '}';
                stack.pop_back();
                continue;
            }
            if (i)
                out += ", ";
            appendJsonKey(out, items[i].first);
            out += ": ";
            start(items[i].second);
        }
    }
}

// Rendering a value of nesting depth `depth` recursively (toText(), json()) needs about this
// much stack a level (appendJson's frame, with room to spare).
constexpr size_t kRenderFrameBytes = 128;
constexpr size_t kStackReserve = 256 * 1024;

// Throws the error toText() would raise for a value too deep to render here, in O(1).
void checkRenderable(const Value& v)
{
    const int depth = v.nestingDepth();
    if (depth > 0 && stackExhausted(kStackReserve + size_t(depth) * kRenderFrameBytes))
        throw EvalError("maximum recursion depth exceeded: the value is nested too deeply");
}

} // namespace

// Joined texts made of joined texts (a loop joining the text of the previous iteration's join)
// are rendered, and destroyed, recursively: past this many levels a piece is rendered when it
// is joined, so the chain stays short.
constexpr int kMaxJoinChain = 64;

template <typename Flush> void JoinedText::write(std::string& out, Flush&& flush) const
{
    for (size_t i = 0; i < pieces.size(); ++i) {
        if (i)
            out += separator;
        const Value& p = pieces[i];
        if (p.isList() || p.isDict()) {
            appendJsonFlat(out, p, flush);
        } else if (p.isString() && p.m_lazy) {
            const auto& inner = *static_cast<const JoinedText*>(p.m_ptr);
            if (inner.rendered)
                out += inner.text;
            else
                inner.write(out, flush);
        } else {
            out += p.toText();
        }
        if (out.size() >= kFlushBytes)
            flush(out);
    }
}

const std::string& JoinedText::get() const
{
    std::call_once(once, [this] {
        write(text, [](std::string&) {});
        rendered = true;
    });
    return text;
}

// ---------------------------------------------------------------------------------------------
// Stringification

std::string Value::str() const
{
    if (m_type == Type::String)
        return asString();
    std::string out;
    appendStr(out, *this);
    return out;
}

std::string Value::repr() const
{
    std::string out;
    appendRepr(out, *this);
    return out;
}

std::string Value::json() const
{
    std::string out;
    appendJson(out, *this);
    return out;
}

std::string Value::toText() const
{
    switch (m_type) {
    case Type::String:
        return asString();
    case Type::Callable:
        return asCallable()->text();
    case Type::Undefined:
        throw EvalError("'" + undefinedName() + "' is undefined");
    default:
        return holdsWrapped() ? str() : json();
    }
}

void Value::writeText(const std::function<void(std::string_view)>& sink) const
{
    std::string buffer;
    auto flush = [&](std::string& out) {
        sink(out);
        out.clear();
    };
    switch (m_type) {
    case Type::String:
        if (m_lazy) {
            const auto& joined = *static_cast<const JoinedText*>(m_ptr);
            if (joined.rendered) {
                sink(joined.text);
                return;
            }
            joined.write(buffer, flush);
        } else {
            sink(asString());
            return;
        }
        break;
    case Type::Callable:
        sink(asCallable()->text());
        return;
    case Type::Undefined:
        throw EvalError("'" + undefinedName() + "' is undefined");
    case Type::List:
    case Type::Dict:
        if (holdsWrapped()) { // printed as Python str(), as toText() does
            sink(str());
            return;
        }
        appendJsonFlat(buffer, *this, flush);
        break;
    default:
        buffer = json();
    }
    if (!buffer.empty())
        sink(buffer);
}

void TextJoin::append(Value piece)
{
    if (piece.isUndefined())
        throw EvalError("'" + piece.undefinedName() + "' is undefined");
    // A message or context prints as Python str() (toText); only plain lists and dicts, whose
    // text is JSON, are rendered lazily.
    if ((piece.isList() || piece.isDict()) && piece.holdsWrapped())
        piece = Value(piece.toText());
    if (piece.isList() || piece.isDict()) {
        checkRenderable(piece);
        m_lazy = true;
    } else if (piece.isString()) {
        if (piece.m_lazy && static_cast<const JoinedText*>(piece.m_ptr)->chain >= kMaxJoinChain)
            piece = Value(piece.asString());
        if (piece.m_lazy)
            m_lazy = true;
        else
            m_textBytes += piece.asString().size();
    }
    m_pieces.push_back(std::move(piece));
}

Value TextJoin::take()
{
    std::vector<Value> pieces = std::move(m_pieces);
    m_pieces.clear();
    const bool lazy = m_lazy;
    m_lazy = false;
    if (!lazy) {
        m_textBytes = 0;
        // One string is its own text (a `text` block of one expression): shared, not copied.
        if (pieces.size() == 1 && pieces[0].isString())
            return std::move(pieces[0]);
        // Only strings and scalars: the text now, as one string.
        std::string out;
        if (!pieces.empty())
            out.reserve(m_textBytes + m_separator.size() * (pieces.size() - 1));
        for (size_t i = 0; i < pieces.size(); ++i) {
            if (i)
                out += m_separator;
            if (pieces[i].isString())
                out += pieces[i].asString();
            else
                out += pieces[i].toText();
        }
        m_textBytes = 0;
        return Value(std::move(out));
    }
    m_textBytes = 0;
    auto joined = std::make_unique<JoinedText>();
    for (const Value& p : pieces) {
        if (p.isString() && p.m_lazy)
            joined->chain =
                std::max(joined->chain, static_cast<const JoinedText*>(p.m_ptr)->chain + 1);
    }
    joined->pieces = std::move(pieces);
    joined->separator = m_separator;
    Value v;
    v.m_type = Value::Type::String;
    v.m_lazy = true;
    v.m_ptr = joined.release();
    return v;
}

namespace {
template <typename J> J toJsonImpl(const Value& v)
{
    switch (v.type()) {
    case Value::Type::Undefined:
    case Value::Type::Null:
    case Value::Type::Callable:
        return nullptr;
    case Value::Type::Bool:
        return v.asBool();
    case Value::Type::Int:
        return v.asInt();
    case Value::Type::Float:
        return v.asFloat();
    case Value::Type::String:
        return v.asString();
    case Value::Type::List: {
        checkNestingStack();
        J arr = J::array();
        for (const Value& item : v.asList())
            arr.push_back(toJsonImpl<J>(item));
        return arr;
    }
    case Value::Type::Dict: {
        checkNestingStack();
        J obj = J::object();
        for (const auto& [k, item] : v.asDict())
            obj[k.isString() ? k.asString() : k.json()] = toJsonImpl<J>(item);
        return obj;
    }
    }
    return nullptr;
}

// Arrays and objects nested deeper than this are refused: nlohmann parses any depth without
// recursing, but this conversion (and every later walk over the Value) recurses.
constexpr int kMaxJsonDepth = 1000;

template <typename J> Value fromJsonImpl(const J& j, int depth)
{
    if (depth > kMaxJsonDepth)
        throw EvalError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    switch (j.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
    case nlohmann::json::value_t::binary:
        return Value();
    case nlohmann::json::value_t::boolean:
        return Value(j.template get<bool>());
    case nlohmann::json::value_t::number_integer:
        return Value(j.template get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
        const uint64_t u = j.template get<uint64_t>();
        if (u > uint64_t(std::numeric_limits<int64_t>::max()))
            return Value(double(u));
        return Value(int64_t(u));
    }
    case nlohmann::json::value_t::number_float:
        return Value(j.template get<double>());
    case nlohmann::json::value_t::string:
        return Value(j.template get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
        List items;
        items.reserve(j.size());
        for (const auto& e : j)
            items.push_back(fromJsonImpl(e, depth + 1));
        return Value(std::move(items));
    }
    case nlohmann::json::value_t::object: {
        Dict d;
        for (auto it = j.begin(); it != j.end(); ++it)
            d.set(Value(it.key()), fromJsonImpl(it.value(), depth + 1));
        return Value(std::move(d));
    }
    }
    return Value();
}
} // namespace

nlohmann::json Value::toJson() const
{
    return toJsonImpl<nlohmann::json>(*this);
}

nlohmann::ordered_json Value::toOrderedJson() const
{
    return toJsonImpl<nlohmann::ordered_json>(*this);
}

Value Value::fromJson(const nlohmann::json& j)
{
    return fromJsonImpl(j, 0);
}

Value Value::fromJson(const nlohmann::ordered_json& j)
{
    return fromJsonImpl(j, 0);
}

} // namespace hako::pdl
