#include "core/pdl/value.h"

#include "core/util/stackguard.h"

#include <QChar>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>

namespace hako::pdl {

namespace {

const std::string kEmptyString;

// A loop can build a list in a list in a list … 100,000 deep (`x: ${ [x] }`). Destroying that
// recursively would overflow the stack, so past kMaxDestroyDepth nested payloads the rest is
// queued and destroyed iteratively by the outermost destruction on the thread.
constexpr int kMaxDestroyDepth = 200;

struct DeferredDestruction {
    int depth = 0;
    std::vector<List> lists;
    std::vector<Dict> dicts;
};

DeferredDestruction& deferred()
{
    thread_local DeferredDestruction d;
    return d;
}

template <typename T> void destroyPayload(T* p)
{
    DeferredDestruction& d = deferred();
    if (d.depth >= kMaxDestroyDepth) {
        if constexpr (std::is_same_v<T, List>)
            d.lists.push_back(std::move(*p));
        else
            d.dicts.push_back(std::move(*p));
        p->~T(); // moved from: nothing left to recurse into
        return;
    }
    ++d.depth;
    p->~T();
    --d.depth;
    if (d.depth != 0)
        return;
    while (!d.lists.empty() || !d.dicts.empty()) {
        ++d.depth;
        if (!d.lists.empty()) {
            List l = std::move(d.lists.back());
            d.lists.pop_back();
        } else {
            Dict x = std::move(d.dicts.back());
            d.dicts.pop_back();
        }
        --d.depth;
    }
}

// The allocator of list and dict payloads: std::allocator, except that destroying goes through
// destroyPayload. One allocation per payload, as with make_shared.
template <typename T> struct PayloadAllocator {
    using value_type = T;
    PayloadAllocator() = default;
    template <typename U> PayloadAllocator(const PayloadAllocator<U>&) {}
    T* allocate(size_t n) { return std::allocator<T>().allocate(n); }
    void deallocate(T* p, size_t n) { std::allocator<T>().deallocate(p, n); }
    template <typename U> void destroy(U* p)
    {
        if constexpr (std::is_same_v<U, List> || std::is_same_v<U, Dict>)
            destroyPayload(p);
        else
            p->~U();
    }
    template <typename U> bool operator==(const PayloadAllocator<U>&) const { return true; }
};

template <typename T, typename... Args> std::shared_ptr<const void> makePayload(Args&&... args)
{
    return std::allocate_shared<T>(PayloadAllocator<T>(), std::forward<Args>(args)...);
}

// Walking a value nested deeper than the stack allows (repr, JSON, comparison) raises an error
// as Python's RecursionError does, instead of crashing.
void checkNestingStack()
{
    if (stackExhausted())
        throw EvalError("maximum recursion depth exceeded: the value is nested too deeply");
}

template <typename T> const T& payload(const std::shared_ptr<const void>& p)
{
    return *static_cast<const T*>(p.get());
}

[[noreturn]] void typeError(const std::string& message)
{
    throw EvalError(message);
}

size_t mixHash(size_t seed, size_t h)
{
    return seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

int numericCompare(const Value& a, const Value& b)
{
    auto asIntLike = [](const Value& v, int64_t& out) {
        if (v.isInt()) {
            out = v.asInt();
            return true;
        }
        if (v.isBool()) {
            out = v.asBool() ? 1 : 0;
            return true;
        }
        return false;
    };
    int64_t ia = 0, ib = 0;
    const bool aInt = asIntLike(a, ia);
    const bool bInt = asIntLike(b, ib);
    if (aInt && bInt)
        return ia < ib ? -1 : (ia > ib ? 1 : 0);
    const double da = aInt ? double(ia) : a.asFloat();
    const double db = bInt ? double(ib) : b.asFloat();
    // An int beyond 2^53 does not convert exactly; compare it against the float's floor instead.
    if (aInt && !bInt && std::isfinite(db) && std::fabs(db) < 9.2e18 &&
        std::llabs(ia) > (1LL << 53)) {
        const double f = std::floor(db);
        const int64_t fi = int64_t(f);
        if (ia != fi)
            return ia < fi ? -1 : 1;
        return f < db ? -1 : 0;
    }
    if (bInt && !aInt && std::isfinite(da) && std::fabs(da) < 9.2e18 &&
        std::llabs(ib) > (1LL << 53))
        return -numericCompare(b, a);
    if (da < db)
        return -1;
    if (da > db)
        return 1;
    if (da == db)
        return 0;
    return 2; // unordered (nan)
}

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

// The payload of a lazily joined string (TextJoin): its pieces, rendered once when first read.
struct JoinedText {
    std::vector<Value> pieces;
    std::string separator;
    int chain = 1; ///< 1 + the longest chain of joined texts among the pieces
    mutable std::once_flag once;
    mutable std::atomic<bool> rendered{false};
    mutable std::string text;

    const std::string& get() const
    {
        std::call_once(once, [this] {
            write(text, [](std::string&) {});
            rendered = true;
        });
        return text;
    }

    // Appends the text to `out`, calling flush(out) now and then (see appendJsonFlat).
    template <typename Flush> void write(std::string& out, Flush&& flush) const
    {
        for (size_t i = 0; i < pieces.size(); ++i) {
            if (i)
                out += separator;
            const Value& p = pieces[i];
            if (p.isList() || p.isDict()) {
                appendJsonFlat(out, p, flush);
            } else if (p.isString() && p.m_lazy) {
                const auto& inner = *static_cast<const JoinedText*>(p.m_ptr.get());
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
};

// ---------------------------------------------------------------------------------------------
// Construction and access

Value::Value(const char* s) : Value(std::string(s)) {}

Value::Value(std::string s) : m_type(Type::String)
{
    m_int = 0;
    m_ptr = std::make_shared<const std::string>(std::move(s));
}

Value::Value(std::string_view s) : Value(std::string(s)) {}

Value::Value(List list, bool tuple) : m_type(Type::List), m_tuple(tuple)
{
    m_int = 0;
    int depth = 0;
    bool holds = false;
    for (const Value& item : list) {
        depth = std::max(depth, item.nestingDepth());
        holds = holds || item.holdsWrapped();
    }
    m_depth = depth + 1;
    m_holds = holds ? 1 : 0;
    m_ptr = makePayload<List>(std::move(list));
}

Value::Value(Dict dict) : m_type(Type::Dict)
{
    m_int = 0;
    int depth = 0;
    bool holds = false;
    for (const auto& [k, v] : dict) {
        depth = std::max({depth, k.nestingDepth(), v.nestingDepth()});
        holds = holds || v.holdsWrapped();
    }
    m_depth = depth + 1;
    m_holds = holds ? 1 : 0;
    m_ptr = makePayload<Dict>(std::move(dict));
}

int Value::nestingDepth() const
{
    if (m_type != Type::List && m_type != Type::Dict)
        return 0;
    if (m_depth >= 0)
        return m_depth;
    // Changed in place: count again (rare; the items know their own depths).
    checkNestingStack();
    int depth = 0;
    if (m_type == Type::List) {
        for (const Value& item : asList())
            depth = std::max(depth, item.nestingDepth());
    } else {
        for (const auto& [k, v] : asDict())
            depth = std::max({depth, k.nestingDepth(), v.nestingDepth()});
    }
    return depth + 1;
}

Value::Value(std::shared_ptr<const Callable> fn) : m_type(fn ? Type::Callable : Type::Null)
{
    m_int = 0;
    m_ptr = std::move(fn);
}

Value Value::undefined(std::string name)
{
    Value v(std::move(name));
    v.m_type = Type::Undefined;
    return v;
}

double Value::toDouble() const
{
    switch (m_type) {
    case Type::Int:
        return double(m_int);
    case Type::Float:
        return m_float;
    case Type::Bool:
        return m_bool ? 1.0 : 0.0;
    default:
        typeError(std::string("expected a number, got ") + typeName());
    }
}

const std::string& Value::asString() const
{
    if (m_type != Type::String && m_type != Type::Undefined)
        return kEmptyString;
    if (m_lazy)
        return static_cast<const JoinedText*>(m_ptr.get())->get();
    return payload<std::string>(m_ptr);
}

const List& Value::asList() const
{
    static const List empty;
    return m_type == Type::List ? payload<List>(m_ptr) : empty;
}

const Dict& Value::asDict() const
{
    static const Dict empty;
    return m_type == Type::Dict ? payload<Dict>(m_ptr) : empty;
}

std::shared_ptr<const Callable> Value::asCallable() const
{
    if (m_type != Type::Callable)
        return {};
    return std::static_pointer_cast<const Callable>(m_ptr);
}

List& Value::mutableList()
{
    if (m_type != Type::List) {
        *this = Value(List{});
    } else if (m_ptr.use_count() > 1) {
        m_ptr = makePayload<List>(payload<List>(m_ptr));
    }
    m_depth = -1; // the caller may nest anything in it
    m_holds = -1;
    return const_cast<List&>(payload<List>(m_ptr));
}

Dict& Value::mutableDict()
{
    if (m_type != Type::Dict) {
        *this = Value(Dict{});
    } else if (m_ptr.use_count() > 1) {
        m_ptr = makePayload<Dict>(payload<Dict>(m_ptr));
    }
    m_depth = -1;
    m_holds = -1;
    return const_cast<Dict&>(payload<Dict>(m_ptr));
}

const char* Value::typeName() const
{
    switch (m_type) {
    case Type::Undefined:
        return "StrictUndefined";
    case Type::Null:
        return "NoneType";
    case Type::Bool:
        return "bool";
    case Type::Int:
        return "int";
    case Type::Float:
        return "float";
    case Type::String:
        return "str";
    case Type::List:
        return m_tuple ? "tuple" : "list";
    case Type::Dict:
        return "dict";
    case Type::Callable:
        return "function";
    }
    return "object";
}

bool Value::truthy() const
{
    switch (m_type) {
    case Type::Undefined:
        throw EvalError("'" + undefinedName() + "' is undefined");
    case Type::Null:
        return false;
    case Type::Bool:
        return m_bool;
    case Type::Int:
        return m_int != 0;
    case Type::Float:
        return m_float != 0.0;
    case Type::String:
        return !asString().empty();
    case Type::List:
        return !asList().empty();
    case Type::Dict:
        return !asDict().empty();
    case Type::Callable:
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// Comparison and hashing

bool Value::operator==(const Value& other) const
{
    const bool numA = m_type == Type::Int || m_type == Type::Float || m_type == Type::Bool;
    const bool numB =
        other.m_type == Type::Int || other.m_type == Type::Float || other.m_type == Type::Bool;
    if (numA && numB)
        return numericCompare(*this, other) == 0;
    if (m_type != other.m_type)
        return false;
    switch (m_type) {
    case Type::Undefined:
    case Type::Null:
        return true;
    case Type::String:
        return m_ptr == other.m_ptr || asString() == other.asString();
    case Type::List: {
        checkNestingStack();
        if (m_tuple != other.m_tuple)
            return false;
        if (m_ptr == other.m_ptr)
            return true;
        const List& a = asList();
        const List& b = other.asList();
        if (a.size() != b.size())
            return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!(a[i] == b[i]))
                return false;
        return true;
    }
    case Type::Dict:
        return m_ptr == other.m_ptr || asDict() == other.asDict();
    case Type::Callable:
        return m_ptr == other.m_ptr;
    default:
        return false;
    }
}

int Value::compare(const Value& a, const Value& b)
{
    const bool numA = a.isNumber() || a.isBool();
    const bool numB = b.isNumber() || b.isBool();
    if (numA && numB) {
        const int c = numericCompare(a, b);
        return c == 2 ? 0 : c;
    }
    if (a.isString() && b.isString()) {
        // UTF-8 byte order is code point order.
        const int c = a.asString().compare(b.asString());
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    if (a.isList() && b.isList() && a.isTuple() == b.isTuple()) {
        const List& x = a.asList();
        const List& y = b.asList();
        const size_t n = std::min(x.size(), y.size());
        for (size_t i = 0; i < n; ++i) {
            if (x[i] == y[i])
                continue;
            return compare(x[i], y[i]);
        }
        return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
    }
    if (a.isUndefined())
        throw EvalError("'" + a.undefinedName() + "' is undefined");
    if (b.isUndefined())
        throw EvalError("'" + b.undefinedName() + "' is undefined");
    throw EvalError(std::string("'<' not supported between instances of '") + a.typeName() +
                    "' and '" + b.typeName() + "'");
}

bool Value::less(const Value& a, const Value& b)
{
    const bool numA = a.isNumber() || a.isBool();
    const bool numB = b.isNumber() || b.isBool();
    if (numA && numB)
        return numericCompare(a, b) == -1;
    return compare(a, b) < 0;
}

bool Value::isHashable() const
{
    switch (m_type) {
    case Type::List:
        if (!m_tuple)
            return false;
        for (const Value& v : asList())
            if (!v.isHashable())
                return false;
        return true;
    case Type::Dict:
    case Type::Undefined:
        return false;
    default:
        return true;
    }
}

size_t Value::hash() const
{
    switch (m_type) {
    case Type::Null:
        return 0x5bd1e995;
    case Type::Bool:
        return std::hash<int64_t>{}(m_bool ? 1 : 0);
    case Type::Int:
        return std::hash<int64_t>{}(m_int);
    case Type::Float:
        if (std::isfinite(m_float) && std::floor(m_float) == m_float && std::fabs(m_float) < 9.2e18)
            return std::hash<int64_t>{}(int64_t(m_float));
        return std::hash<double>{}(m_float);
    case Type::String:
        return std::hash<std::string_view>{}(asString());
    case Type::Callable:
        return std::hash<const void*>{}(m_ptr.get());
    case Type::List:
        if (m_tuple) {
            size_t h = 0x345678;
            for (const Value& v : asList())
                h = mixHash(h, v.hash());
            return h;
        }
        throw EvalError("unhashable type: 'list'");
    case Type::Dict:
        throw EvalError("unhashable type: 'dict'");
    case Type::Undefined:
        throw EvalError("'" + undefinedName() + "' is undefined");
    }
    return 0;
}

int64_t Value::length() const
{
    switch (m_type) {
    case Type::String:
        return utf8::length(asString());
    case Type::List:
        return int64_t(asList().size());
    case Type::Dict:
        return int64_t(asDict().size());
    case Type::Undefined:
        throw EvalError("'" + undefinedName() + "' is undefined");
    default:
        throw EvalError(std::string("object of type '") + typeName() + "' has no len()");
    }
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

Value Value::wrapped(Wrapper w) const
{
    Value v = *this;
    if (m_type == Type::List || m_type == Type::Dict) {
        v.m_wrapper = w;
        if (w != Wrapper::None)
            v.m_holds = 1;
        else
            v.m_holds = -1; // its items may still hold one
    }
    return v;
}

bool Value::holdsWrapped() const
{
    if (m_wrapper != Wrapper::None)
        return true;
    if (m_type != Type::List && m_type != Type::Dict)
        return false;
    if (m_holds >= 0)
        return m_holds == 1;
    // Changed in place: look again (rare; the items know their own answers).
    if (m_type == Type::List) {
        checkNestingStack();
        for (const Value& item : asList())
            if (item.holdsWrapped())
                return true;
    } else if (m_type == Type::Dict) {
        checkNestingStack();
        for (const auto& [k, item] : asDict())
            if (item.holdsWrapped())
                return true;
    }
    return false;
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
            const auto& joined = *static_cast<const JoinedText*>(m_ptr.get());
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
        if (piece.m_lazy &&
            static_cast<const JoinedText*>(piece.m_ptr.get())->chain >= kMaxJoinChain)
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
    auto joined = std::make_shared<JoinedText>();
    for (const Value& p : pieces) {
        if (p.isString() && p.m_lazy)
            joined->chain =
                std::max(joined->chain, static_cast<const JoinedText*>(p.m_ptr.get())->chain + 1);
    }
    joined->pieces = std::move(pieces);
    joined->separator = m_separator;
    Value v;
    v.m_type = Value::Type::String;
    v.m_lazy = true;
    v.m_ptr = std::move(joined);
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
