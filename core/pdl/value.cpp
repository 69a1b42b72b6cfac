#include "core/pdl/value.h"

#include "core/pdl/value_p.h"
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

// A value is its header and one word: a trace or a list of a million values is made of them.
static_assert(sizeof(void*) != 8 || sizeof(Value) == 16, "a Value is 16 bytes");

namespace {

using detail::checkNestingStack;

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

// Destroys a list's or a dict's payload whose last reference went away.
template <typename P> void destroyPayload(P* p)
{
    DeferredDestruction& d = deferred();
    if (d.depth >= kMaxDestroyDepth) {
        if constexpr (std::is_same_v<P, ListPayload>)
            d.lists.push_back(std::move(p->items));
        else
            d.dicts.push_back(std::move(p->items));
        delete p; // moved from: nothing left to recurse into
        return;
    }
    ++d.depth;
    delete p;
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

template <typename P> const P& payload(const detail::ValuePayload* p)
{
    return *static_cast<const P*>(p);
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

} // namespace

// ---------------------------------------------------------------------------------------------
// Construction and access

Value::Value(const char* s) : Value(std::string(s)) {}

Value::Value(std::string s) : m_type(Type::String)
{
    m_ptr = new StringPayload(std::move(s));
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
    m_ptr = new ListPayload(std::move(list));
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
    m_ptr = new DictPayload(std::move(dict));
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
    if (fn)
        m_ptr = new CallablePayload(std::move(fn));
}

void Value::freePayload() noexcept
{
    switch (m_type) {
    case Type::Undefined:
    case Type::String:
        if (m_lazy)
            delete static_cast<JoinedText*>(m_ptr);
        else
            delete static_cast<StringPayload*>(m_ptr);
        break;
    case Type::List:
        destroyPayload(static_cast<ListPayload*>(m_ptr));
        break;
    case Type::Dict:
        destroyPayload(static_cast<DictPayload*>(m_ptr));
        break;
    case Type::Callable:
        delete static_cast<CallablePayload*>(m_ptr);
        break;
    default:
        break;
    }
    m_type = Type::Null;
    m_int = 0;
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
        return static_cast<const JoinedText*>(m_ptr)->get();
    return payload<StringPayload>(m_ptr).text;
}

const List& Value::asList() const
{
    static const List empty;
    return m_type == Type::List ? payload<ListPayload>(m_ptr).items : empty;
}

const Dict& Value::asDict() const
{
    static const Dict empty;
    return m_type == Type::Dict ? payload<DictPayload>(m_ptr).items : empty;
}

std::shared_ptr<const Callable> Value::asCallable() const
{
    if (m_type != Type::Callable)
        return {};
    return payload<CallablePayload>(m_ptr).fn;
}

List& Value::mutableList()
{
    if (m_type != Type::List) {
        *this = Value(List{});
    } else if (m_ptr->refs.load(std::memory_order_acquire) > 1) {
        Value copy(List(asList()), m_tuple);
        copy.m_wrapper = m_wrapper;
        swap(copy);
    }
    m_depth = -1; // the caller may nest anything in it
    m_holds = -1;
    return static_cast<ListPayload*>(m_ptr)->items;
}

Dict& Value::mutableDict()
{
    if (m_type != Type::Dict) {
        *this = Value(Dict{});
    } else if (m_ptr->refs.load(std::memory_order_acquire) > 1) {
        Value copy{Dict(asDict())};
        copy.m_wrapper = m_wrapper;
        swap(copy);
    }
    m_depth = -1;
    m_holds = -1;
    return static_cast<DictPayload*>(m_ptr)->items;
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
        return asCallable() == other.asCallable();
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
        return std::hash<const void*>{}(payload<CallablePayload>(m_ptr).fn.get());
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

} // namespace hako::pdl
