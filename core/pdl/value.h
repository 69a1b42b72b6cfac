#pragma once

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hako::pdl {

class Value;
class Dict;
struct JoinedText;
class Callable;

using List = std::vector<Value>;

/// An error raised while evaluating: the message as the user should read it. Thrown inside the
/// expression engine and the builtins; public APIs convert it to a Diagnostic.
class EvalError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

namespace detail {
/// The start of every shared payload a Value points to (a string, a list, a dict, a callable):
/// its reference count. The payload's type follows from the Value's, so no deleter is stored.
struct ValuePayload {
    mutable std::atomic<uint32_t> refs{1};
};
} // namespace detail

/// A dynamically typed PDL/Jinja value with Python semantics.
///
/// Copying is cheap: strings, lists and dicts are shared immutable payloads (copy-on-write
/// through the mutable accessors). Strings are UTF-8; lengths and indexes count code points.
/// A Value is safe to read from several threads; mutate only a Value you own.
///
/// A Value is 16 bytes: its type and flags, then a number or a pointer to its payload (a
/// million-span trace holds tens of millions of them: bench_otel).
class Value {
public:
    enum class Type : uint8_t {
        Undefined, ///< a name that is not defined (Jinja's Undefined); using it is an error
        Null,
        Bool,
        Int,
        Float,
        String,
        List, ///< a Python list, or a tuple when isTuple()
        Dict, ///< insertion-ordered mapping with any hashable keys
        Callable
    };

    Value() : m_type(Type::Null) { m_int = 0; }
    Value(std::nullptr_t) : m_type(Type::Null) { m_int = 0; }
    Value(bool b) : m_type(Type::Bool)
    {
        m_int = 0;
        m_bool = b;
    }
    Value(int i) : m_type(Type::Int) { m_int = i; }
    Value(int64_t i) : m_type(Type::Int) { m_int = i; }
    Value(double d) : m_type(Type::Float) { m_float = d; }
    Value(const char* s);
    Value(std::string s);
    Value(std::string_view s);
    Value(List list, bool tuple = false);
    Value(Dict dict);
    Value(std::shared_ptr<const Callable> fn);

    Value(const Value& other) noexcept
        : m_type(other.m_type), m_tuple(other.m_tuple), m_lazy(other.m_lazy),
          m_wrapper(other.m_wrapper), m_holds(other.m_holds), m_depth(other.m_depth)
    {
        m_int = other.m_int;
        if (hasPayload())
            m_ptr->refs.fetch_add(1, std::memory_order_relaxed);
    }
    Value(Value&& other) noexcept
        : m_type(other.m_type), m_tuple(other.m_tuple), m_lazy(other.m_lazy),
          m_wrapper(other.m_wrapper), m_holds(other.m_holds), m_depth(other.m_depth)
    {
        m_int = other.m_int;
        other.m_type = Type::Null; // the payload is ours now
        other.m_int = 0;
    }
    Value& operator=(const Value& other) noexcept
    {
        Value copy(other);
        swap(copy);
        return *this;
    }
    Value& operator=(Value&& other) noexcept
    {
        Value taken(std::move(other));
        swap(taken);
        return *this;
    }
    ~Value()
    {
        if (hasPayload() && m_ptr->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
            freePayload();
    }
    void swap(Value& other) noexcept
    {
        std::swap(m_type, other.m_type);
        const bool tuple = m_tuple, lazy = m_lazy;
        m_tuple = other.m_tuple;
        m_lazy = other.m_lazy;
        other.m_tuple = tuple;
        other.m_lazy = lazy;
        std::swap(m_wrapper, other.m_wrapper);
        std::swap(m_holds, other.m_holds);
        std::swap(m_depth, other.m_depth);
        std::swap(m_int, other.m_int);
    }

    /// The reference's runtime objects that json.dumps cannot serialise, so that the reference
    /// prints them (and any value holding one) as Python's str(): a message block's result and
    /// a context (`pdl_context`). Otherwise plain dicts and lists (equality ignores it).
    enum class Wrapper : uint8_t { None, Message, Context };
    Wrapper wrapper() const { return m_wrapper; }
    /// This value marked as `w` (lists and dicts; other values stay as they are).
    Value wrapped(Wrapper w) const;
    /// Whether this value or anything inside it is a wrapped message or context.
    bool holdsWrapped() const;

    /// An undefined value remembering the name that was looked up (for the error message).
    static Value undefined(std::string name = {});
    static Value tuple(List items) { return Value(std::move(items), true); }

    Type type() const { return m_type; }
    bool isUndefined() const { return m_type == Type::Undefined; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isInt() const { return m_type == Type::Int; }
    bool isFloat() const { return m_type == Type::Float; }
    bool isNumber() const { return m_type == Type::Int || m_type == Type::Float; }
    bool isString() const { return m_type == Type::String; }
    bool isList() const { return m_type == Type::List; }
    bool isTuple() const { return m_type == Type::List && m_tuple; }
    bool isDict() const { return m_type == Type::Dict; }
    bool isCallable() const { return m_type == Type::Callable; }

    bool asBool() const { return m_bool; }
    int64_t asInt() const { return m_int; }
    double asFloat() const { return m_float; }
    /// The number as a double (Int or Float; Bool counts as 0/1 like Python).
    double toDouble() const;
    const std::string& asString() const;
    const List& asList() const;
    const Dict& asDict() const;
    std::shared_ptr<const Callable> asCallable() const;
    /// The name an Undefined value was looked up by.
    const std::string& undefinedName() const { return asString(); }

    /// Mutable access; detaches a shared payload first.
    List& mutableList();
    Dict& mutableDict();

    /// Python's type name: 'int', 'str', 'list', 'tuple', 'dict', 'NoneType', ...
    const char* typeName() const;

    /// Python truthiness. Undefined throws (PDL uses strict undefined).
    bool truthy() const;

    /// Python `==` (1 == 1.0 == True; list/dict deep equality).
    bool operator==(const Value& other) const;
    bool operator!=(const Value& other) const { return !(*this == other); }
    /// Python `<` ordering; throws EvalError for unorderable types.
    static bool less(const Value& a, const Value& b);
    /// Three-way comparison for sorting (-1, 0, 1); throws EvalError for unorderable types.
    static int compare(const Value& a, const Value& b);
    /// A hash consistent with operator== (so 1 and 1.0 hash alike). Throws for unhashable.
    size_t hash() const;
    bool isHashable() const;

    /// Number of code points (strings), items (lists, dicts). Throws for other types.
    int64_t length() const;

    /// Python `str(value)`: `True`, `None`, `['it\'s']` → `["it's"]`, `{'a': 1}`, floats as repr.
    std::string str() const;
    /// Python `repr(value)`; an Undefined (bare or nested) shows as `Undefined` like Jinja's.
    std::string repr() const;
    /// PDL's JSON form (json.dumps defaults: ", " and ": " separators, ensure_ascii).
    /// Strings serialise quoted. Callables and undefined become `null`.
    std::string json() const;
    /// The text form PDL uses in `text` blocks and final output: strings as they are, everything
    /// else as json(), or as str() when it holds a message or context (holdsWrapped), as the
    /// reference's stringify falls back to str(); callables as "".
    std::string toText() const;
    /// toText() handed to `sink` in parts, without building the whole text first and without
    /// recursing: a value nested any depth is written (where toText() may refuse it as nested
    /// too deeply), and a joined text (TextJoin) is rendered piece by piece. Throws only as
    /// toText() does for an undefined value.
    void writeText(const std::function<void(std::string_view)>& sink) const;

    /// Nesting depth: 0 for scalars and strings, 1 for a list or dict of scalars, one more for
    /// each level of lists and dicts inside. Kept with the value (O(1)) unless it was changed
    /// in place through mutableList()/mutableDict().
    int nestingDepth() const;

    nlohmann::json toJson() const;
    nlohmann::ordered_json toOrderedJson() const;
    /// From JSON. nlohmann::json sorts object keys; use the ordered_json overload to keep the
    /// document's key order. Throws EvalError for arrays/objects nested deeper than
    /// 1,000 levels (nlohmann parses any depth; converting it must not exhaust the stack).
    static Value fromJson(const nlohmann::json& j);
    static Value fromJson(const nlohmann::ordered_json& j);

private:
    friend class TextJoin;
    friend struct JoinedText;

    /// Whether m_ptr holds a payload: strings (and an undefined value's name), lists, dicts and
    /// callables always do.
    bool hasPayload() const { return m_type == Type::Undefined || m_type >= Type::String; }
    /// Destroys the payload whose last reference this was (by m_type and m_lazy).
    void freePayload() noexcept;

    Type m_type;
    bool m_tuple : 1 = false;
    bool m_lazy : 1 = false; ///< a String whose payload is a TextJoin's pieces, rendered when read
    Wrapper m_wrapper = Wrapper::None;
    /// holdsWrapped() of a list or dict: 1 or 0, -1 when changed in place (count again).
    int8_t m_holds = 0;
    int32_t m_depth = 0; ///< nestingDepth() of a list or dict; -1 when changed in place
    union {
        bool m_bool;
        int64_t m_int;
        double m_float;
        /// A StringPayload, JoinedText, ListPayload, DictPayload or CallablePayload (value_p.h)
        /// by m_type and m_lazy.
        detail::ValuePayload* m_ptr;
    };
};

/// Joins the text of values, each as toText() renders it, with a separator: the result of a
/// text join (`text` blocks, `join: {as: text}`, the default join of `repeat`). Lists and dicts
/// among the pieces are kept, shared, instead of being rendered: the joined string renders them
/// when it is first read (asString(), json(), …), or part by part with writeText(). A loop
/// joining `${ [x] }` ever deeper 40,000 times then costs memory linear in the iterations, not
/// the 1.6 GB of its text, and no time at all when nothing reads the text.
class TextJoin {
public:
    explicit TextJoin(std::string separator = {}) : m_separator(std::move(separator)) {}
    /// Adds a piece. Throws EvalError where toText() would: an undefined value, or one nested
    /// too deeply to render on this thread's stack (checked from its nesting depth in O(1)).
    void append(Value piece);
    /// The joined text as a string Value (plain when no piece needed rendering); the builder
    /// is empty afterwards.
    Value take();

private:
    std::vector<Value> m_pieces;
    std::string m_separator;
    size_t m_textBytes = 0; ///< bytes of the pieces that are strings, to reserve for take()
    bool m_lazy = false;    ///< some piece is a list, a dict or itself a lazily joined text
};

/// Insertion-ordered dict with Value keys (mostly strings). Lookups are linear for small
/// dicts and indexed by hash once a dict grows.
class Dict {
public:
    using Item = std::pair<Value, Value>;

    Dict() = default;
    Dict(std::initializer_list<Item> items);

    size_t size() const { return m_items.size(); }
    bool empty() const { return m_items.empty(); }
    const std::vector<Item>& items() const { return m_items; }
    auto begin() const { return m_items.begin(); }
    auto end() const { return m_items.end(); }

    /// The value for key, or nullptr.
    const Value* find(const Value& key) const;
    const Value* find(std::string_view key) const;
    const Value* find(const char* key) const { return find(std::string_view(key)); }
    const Value* find(const std::string& key) const { return find(std::string_view(key)); }
    bool contains(const Value& key) const { return find(key) != nullptr; }
    /// Sets key to value; a new key goes last, an existing one keeps its place.
    void set(Value key, Value value);
    /// Replaces the value in place when `key` is there (no key Value is made: a loop's index).
    void set(std::string_view key, Value value);
    void set(const char* key, Value value) { set(Value(key), std::move(value)); }
    void set(const std::string& key, Value value) { set(std::string_view(key), std::move(value)); }
    /// Removes key; returns whether it was present.
    bool remove(const Value& key);

    bool operator==(const Dict& other) const;

private:
    long indexOf(const Value& key) const;
    long indexOf(std::string_view key) const;
    void rebuildIndex() const;

    std::vector<Item> m_items;
    mutable std::vector<int32_t> m_index; // open addressing over m_items, built when large
};

/// Arguments of a call: positional and keyword, in the order written.
struct CallArgs {
    List positional;
    std::vector<std::pair<std::string, Value>> keyword;

    const Value* kw(std::string_view name) const;
};

/// Something callable from an expression: a PDL function, a builtin such as range, a bound
/// method. Implementations must be safe to call from the thread evaluating the expression.
class Callable {
public:
    virtual ~Callable() = default;
    virtual std::string name() const = 0;
    virtual Value call(const CallArgs& args) const = 0;
    /// Python repr, e.g. `<function f>`.
    virtual std::string repr() const { return "<function " + name() + ">"; }
    /// Its text in a `text` block or a program's output (Value::toText): nothing for PDL
    /// functions and builtins; an object returned by Python code overrides it with its str().
    virtual std::string text() const { return {}; }
    /// The data attribute `name` a program reads from it (`${ f.signature }`), or an undefined
    /// Value when it has none (then methods and the usual error apply).
    virtual Value attribute(std::string_view name) const
    {
        (void)name;
        return Value::undefined();
    }
};

/// A Callable from a lambda.
std::shared_ptr<const Callable> makeCallable(std::string name,
                                             std::function<Value(const CallArgs&)> fn);

/// Python `repr(float)`: shortest round-trip digits; `1.0`, `1e+20`, `2.5e-07`, `inf`, `nan`.
std::string formatFloat(double d);
/// Python `repr(str)` quoting: single quotes unless the text has ' and no ".
std::string pyQuote(std::string_view s);
/// JSON string quoting with ensure_ascii (\uXXXX for non-ASCII, surrogate pairs above BMP).
std::string jsonQuote(std::string_view s);

/// UTF-8 helpers counting code points as Python does.
namespace utf8 {
int64_t length(std::string_view s);
/// Byte offset of code point `index` (0 <= index <= length).
size_t offsetOf(std::string_view s, int64_t index);
std::u32string decode(std::string_view s);
std::string encode(std::u32string_view s);
void append(std::string& out, char32_t c);
} // namespace utf8

} // namespace hako::pdl

template <> struct std::hash<hako::pdl::Value> {
    size_t operator()(const hako::pdl::Value& v) const { return v.hash(); }
};
