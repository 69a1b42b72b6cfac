// Attribute/item/slice access, globals and the argument helpers shared by the builtins.

#include "core/pdl/expr/builtins_p.h"
#include "core/pdl/expr/filebase.h"
#include "core/pdl/expr/operators.h"

#include <algorithm>
#include <random>
#include <unordered_map>

namespace hako::pdl::builtins {

namespace detail {

void fail(const std::string& message)
{
    throw EvalError(message);
}

void requireDefined(const Value& v)
{
    if (!v.isUndefined())
        return;
    // lookups store Jinja's whole message; plain names get "'x' is undefined"
    const std::string& name = v.undefinedName();
    if (name.empty())
        fail("undefined value");
    if (name.find(' ') != std::string::npos)
        fail(name);
    fail("'" + name + "' is undefined");
}

std::vector<const Value*> bindArgs(std::string_view fn, const CallArgs& args,
                                   std::initializer_list<std::string_view> names)
{
    std::vector<const Value*> slots(names.size(), nullptr);
    if (args.positional.size() > names.size()) {
        fail(std::string(fn) + "() takes at most " + std::to_string(names.size()) + " argument" +
             (names.size() == 1 ? "" : "s") + " (" + std::to_string(args.positional.size()) +
             " given)");
    }
    for (size_t i = 0; i < args.positional.size(); ++i)
        slots[i] = &args.positional[i];
    for (const auto& [key, value] : args.keyword) {
        size_t i = 0;
        for (std::string_view n : names) {
            if (n == key)
                break;
            ++i;
        }
        if (i == names.size())
            fail(std::string(fn) + "() got an unexpected keyword argument '" + key + "'");
        if (slots[i])
            fail(std::string(fn) + "() got multiple values for argument '" + key + "'");
        slots[i] = &value;
    }
    return slots;
}

int64_t toIndex(const Value& v)
{
    if (v.isInt())
        return v.asInt();
    if (v.isBool())
        return v.asBool() ? 1 : 0;
    requireDefined(v);
    fail(std::string("'") + v.typeName() + "' object cannot be interpreted as an integer");
}

int64_t truncateToInt(double d)
{
    if (std::isnan(d))
        fail("cannot convert float NaN to integer");
    if (std::isinf(d))
        fail("cannot convert float infinity to integer");
    if (std::fabs(d) >= 9.2233720368547758e18)
        fail("integer too large for PDL (64-bit)");
    return static_cast<int64_t>(std::trunc(d));
}

bool argBool(const Value* v, bool fallback)
{
    return v ? v->truthy() : fallback;
}

int64_t argInt(const Value* v, int64_t fallback)
{
    return v ? toIndex(*v) : fallback;
}

std::string argStr(const Value* v, std::string_view fallback)
{
    if (!v)
        return std::string(fallback);
    requireDefined(*v);
    return v->isString() ? v->asString() : v->str();
}

List iterate(const Value& v)
{
    switch (v.type()) {
    case Value::Type::List:
        return v.asList();
    case Value::Type::Dict: {
        List keys;
        keys.reserve(v.asDict().size());
        for (const auto& item : v.asDict())
            keys.push_back(item.first);
        return keys;
    }
    case Value::Type::String: {
        List chars;
        const std::string& s = v.asString();
        size_t i = 0;
        while (i < s.size()) {
            size_t n = 1;
            unsigned char c = static_cast<unsigned char>(s[i]);
            if (c >= 0xF0)
                n = 4;
            else if (c >= 0xE0)
                n = 3;
            else if (c >= 0xC0)
                n = 2;
            n = std::min(n, s.size() - i);
            chars.emplace_back(std::string_view(s).substr(i, n));
            i += n;
        }
        return chars;
    }
    case Value::Type::Undefined:
        requireDefined(v);
        [[fallthrough]];
    default:
        fail(std::string("'") + v.typeName() + "' object is not iterable");
    }
}

Value ignoreCase(const Value& v)
{
    return v.isString() ? Value(toLower(v.asString())) : v;
}

Value getAttrPath(const Value& item, const Value& attribute, const Value* dflt, bool lowerStrings)
{
    std::vector<Value> parts;
    if (attribute.isString()) {
        const std::string& a = attribute.asString();
        size_t start = 0;
        while (true) {
            size_t dot = a.find('.', start);
            std::string part = a.substr(start, dot == std::string::npos ? dot : dot - start);
            bool digits = !part.empty() && std::all_of(part.begin(), part.end(),
                                                       [](char c) { return c >= '0' && c <= '9'; });
            if (digits)
                parts.emplace_back(static_cast<int64_t>(std::stoll(part)));
            else
                parts.emplace_back(part);
            if (dot == std::string::npos)
                break;
            start = dot + 1;
        }
    } else {
        parts.push_back(attribute);
    }
    Value cur = item;
    for (const Value& part : parts) {
        cur = getItem(cur, part);
        if (cur.isUndefined()) {
            if (dflt) {
                cur = *dflt;
                break;
            }
            return cur;
        }
    }
    return lowerStrings ? ignoreCase(cur) : cur;
}

Value applyFilter(std::string_view name, const Value& value, const CallArgs& args)
{
    FilterFn fn = findFilter(name);
    if (!fn)
        fail("No filter named '" + std::string(name) + "'.");
    if (value.isUndefined() && !filterAcceptsUndefined(name))
        requireDefined(value);
    return fn(value, args);
}

bool applyTest(std::string_view name, const Value& value, const CallArgs& args)
{
    TestFn fn = findTest(name);
    if (!fn)
        fail("No test named '" + std::string(name) + "'.");
    return fn(value, args);
}

Value boundMethod(const Value& self, std::string_view name)
{
    std::string n(name);
    return Value(
        makeCallable(n, [self, n](const CallArgs& args) { return callMethod(self, n, args); }));
}

namespace {

// Jinja's object_type_repr: "dict object", "None".
std::string objectTypeRepr(const Value& obj)
{
    if (obj.isNull())
        return "None";
    return std::string(obj.typeName()) + " object";
}

} // namespace

Value missingAttribute(const Value& obj, std::string_view name)
{
    // The contract names the undefined after the attribute ("'x' is undefined"); Jinja's own
    // text would be "'<type> object' has no attribute 'x'".
    (void)obj;
    return Value::undefined(std::string(name));
}

Value missingElement(const Value& obj, const Value& key)
{
    if (key.isString())
        return missingAttribute(obj, key.asString());
    // an undefined key carries a ready-made text (slices)
    std::string text = key.isUndefined() ? key.undefinedName() : key.repr();
    return Value::undefined(objectTypeRepr(obj) + " has no element " + text);
}

} // namespace detail

using namespace detail;

List listOf(const Value& value)
{
    return detail::iterate(value);
}

Value getAttribute(const Value& obj, std::string_view name)
{
    if (hasMethod(obj, name))
        return boundMethod(obj, name);
    switch (obj.type()) {
    case Value::Type::Dict:
        if (const Value* v = obj.asDict().find(name))
            return *v;
        break;
    case Value::Type::Int:
    case Value::Type::Bool:
        // int's data attributes (bool is an int)
        if (name == "real" || name == "numerator")
            return Value(toIndex(obj));
        if (name == "imag")
            return Value(int64_t(0));
        if (name == "denominator")
            return Value(int64_t(1));
        break;
    case Value::Type::Float:
        if (name == "real")
            return obj;
        if (name == "imag")
            return Value(0.0);
        break;
    case Value::Type::List:
        // groupby's items are named tuples (grouper, list); ours are plain 2-tuples.
        if (obj.isTuple() && obj.asList().size() == 2) {
            if (name == "grouper")
                return obj.asList()[0];
            if (name == "list")
                return obj.asList()[1];
        }
        break;
    case Value::Type::Callable:
        if (Value v = obj.asCallable()->attribute(name); !v.isUndefined())
            return v;
        break;
    default:
        break;
    }
    return missingAttribute(obj, name);
}

Value getItem(const Value& obj, const Value& key)
{
    switch (obj.type()) {
    case Value::Type::Dict:
        if (key.isHashable()) {
            if (const Value* v = obj.asDict().find(key))
                return *v;
        }
        break;
    case Value::Type::List:
    case Value::Type::String:
        if (key.isInt() || key.isBool()) {
            int64_t i = toIndex(key);
            if (obj.isList()) {
                const List& l = obj.asList();
                int64_t n = static_cast<int64_t>(l.size());
                if (i < 0)
                    i += n;
                if (i >= 0 && i < n)
                    return l[static_cast<size_t>(i)];
            } else {
                const std::string& s = obj.asString();
                int64_t n = utf8::length(s);
                if (i < 0)
                    i += n;
                if (i >= 0 && i < n) {
                    size_t a = utf8::offsetOf(s, i);
                    size_t b = utf8::offsetOf(s, i + 1);
                    return Value(std::string_view(s).substr(a, b - a));
                }
            }
        }
        break;
    default:
        break;
    }
    // Jinja falls back to getattr for string keys (`x['upper']` is the method, groupby's
    // `grouper`, `n.real`).
    if (key.isString())
        return getAttribute(obj, key.asString());
    return missingElement(obj, key);
}

Value getSlice(const Value& obj, const Value& start, const Value& stop, const Value& step)
{
    auto bound = [](const Value& v, bool& given) -> int64_t {
        given = !v.isNull() && !v.isUndefined();
        if (!given)
            return 0;
        if (!v.isInt() && !v.isBool())
            fail("slice indices must be integers or None or have an __index__ method");
        return toIndex(v);
    };
    bool hasStart = false, hasStop = false, hasStep = false;
    int64_t a = bound(start, hasStart);
    int64_t b = bound(stop, hasStop);
    int64_t st = bound(step, hasStep);
    if (!hasStep)
        st = 1;
    if (st == 0)
        fail("slice step cannot be zero");
    if (!obj.isList() && !obj.isString()) {
        auto r = [](const Value& v) {
            return v.isUndefined() ? std::string("None") : v.repr();
        };
        return missingElement(
            obj, Value::undefined("slice(" + r(start) + ", " + r(stop) + ", " + r(step) + ")"));
    }

    std::u32string text;
    int64_t n;
    if (obj.isString()) {
        text = u32(obj.asString());
        n = static_cast<int64_t>(text.size());
    } else {
        n = static_cast<int64_t>(obj.asList().size());
    }
    auto adjust = [&](int64_t v, bool given, int64_t dflt) {
        if (!given)
            return dflt;
        if (v < 0) {
            v += n;
            if (v < 0)
                v = st < 0 ? -1 : 0;
        } else if (v >= n) {
            v = st < 0 ? n - 1 : n;
        }
        return v;
    };
    a = adjust(a, hasStart, st < 0 ? n - 1 : 0);
    b = adjust(b, hasStop, st < 0 ? -1 : n);

    std::vector<int64_t> idx;
    if (st > 0) {
        for (int64_t i = a; i < b; i += st)
            idx.push_back(i);
    } else {
        for (int64_t i = a; i > b; i += st)
            idx.push_back(i);
    }
    if (obj.isString()) {
        std::u32string out;
        out.reserve(idx.size());
        for (int64_t i : idx)
            out.push_back(text[static_cast<size_t>(i)]);
        return Value(u8(out));
    }
    const List& l = obj.asList();
    List out;
    out.reserve(idx.size());
    for (int64_t i : idx)
        out.push_back(l[static_cast<size_t>(i)]);
    return Value(std::move(out), obj.isTuple());
}

namespace {

constexpr int64_t kMaxRange = 10'000'000;

Value rangeGlobal(const CallArgs& args)
{
    if (!args.keyword.empty())
        fail("range() takes no keyword arguments");
    const List& p = args.positional;
    if (p.empty() || p.size() > 3)
        fail("range expected at most 3 arguments, got " + std::to_string(p.size()));
    int64_t start = 0, stop, step = 1;
    if (p.size() == 1) {
        stop = toIndex(p[0]);
    } else {
        start = toIndex(p[0]);
        stop = toIndex(p[1]);
        if (p.size() == 3)
            step = toIndex(p[2]);
    }
    if (step == 0)
        fail("range() arg 3 must not be zero");
    int64_t count = 0;
    if (step > 0 && start < stop)
        count = (stop - start + step - 1) / step;
    else if (step < 0 && start > stop)
        count = (start - stop - step - 1) / -step;
    if (count > kMaxRange)
        fail("range() is too large: " + std::to_string(count) + " items (the limit is " +
             std::to_string(kMaxRange) + ")");
    List out;
    out.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i)
        out.emplace_back(start + i * step);
    return Value(std::move(out));
}

Dict dictFromArgs(std::string_view fn, const CallArgs& args)
{
    Dict d;
    if (args.positional.size() > 1)
        fail(std::string(fn) + " expected at most 1 argument, got " +
             std::to_string(args.positional.size()));
    if (args.positional.size() == 1) {
        const Value& src = args.positional[0];
        if (src.isDict()) {
            d = src.asDict();
        } else {
            int index = 0;
            for (const Value& item : iterate(src)) {
                if (!item.isList() && !item.isString())
                    fail("cannot convert dictionary update sequence element #" +
                         std::to_string(index) + " to a sequence");
                List pair = iterate(item);
                if (pair.size() != 2)
                    fail("dictionary update sequence element #" + std::to_string(index) +
                         " has length " + std::to_string(pair.size()) + "; 2 is required");
                if (!pair[0].isHashable())
                    fail(std::string("unhashable type: '") + pair[0].typeName() + "'");
                d.set(pair[0], pair[1]);
                ++index;
            }
        }
    }
    for (const auto& [key, value] : args.keyword)
        d.set(Value(key), value);
    return d;
}

// joiner(sep) returns a callable that yields "" the first time and `sep` afterwards.
class Joiner : public Callable {
public:
    explicit Joiner(std::string sep) : m_sep(std::move(sep)) {}
    std::string name() const override { return "joiner"; }
    Value call(const CallArgs&) const override
    {
        if (!m_used) {
            m_used = true;
            return Value("");
        }
        return Value(m_sep);
    }
    std::string repr() const override { return "<jinja2.utils.Joiner object>"; }

private:
    std::string m_sep;
    mutable bool m_used = false;
};

// Jinja's lipsum(n=5, html=True, min=20, max=100): random lorem ipsum paragraphs.
Value lipsumGlobal(const CallArgs& args)
{
    static const char* words[] = {
        "lorem",    "ipsum",     "dolor",  "sit",      "amet",      "consectetur", "adipiscing",
        "elit",     "sed",       "do",     "eiusmod",  "tempor",    "incididunt",  "ut",
        "labore",   "et",        "dolore", "magna",    "aliqua",    "enim",        "ad",
        "minim",    "veniam",    "quis",   "nostrud",  "ullamco",   "laboris",     "nisi",
        "aliquip",  "ex",        "ea",     "commodo",  "duis",      "aute",        "irure",
        "in",       "voluptate", "velit",  "esse",     "cillum",    "fugiat",      "nulla",
        "pariatur", "excepteur", "sint",   "occaecat", "cupidatat", "non",         "proident",
        "sunt",     "culpa",     "qui",    "officia",  "deserunt",  "mollit",      "anim",
        "id",       "est",       "laborum"};
    constexpr size_t kWords = sizeof(words) / sizeof(words[0]);
    auto p = bindArgs("generate_lorem_ipsum", args, {"n", "html", "min", "max"});
    int64_t n = argInt(p[0], 5);
    bool html = argBool(p[1], true);
    int64_t lo = argInt(p[2], 20), hi = std::max(lo, argInt(p[3], 100));
    // Bounded like repetition (a word takes about 8 bytes): lipsum(999999999) would otherwise
    // build gigabytes.
    constexpr int64_t kMaxWords = expr::kMaxResultSize / 8;
    if (n > 0 && hi > 0 && (n > kMaxWords || hi > kMaxWords / n))
        fail("lipsum: " + std::to_string(n) + " paragraphs of up to " + std::to_string(hi) +
             " words is too large (at most " + std::to_string(kMaxWords) + " words)");
    thread_local std::mt19937 rng{std::random_device{}()};
    std::string out;
    for (int64_t i = 0; i < n; ++i) {
        int64_t count = std::uniform_int_distribution<int64_t>(lo, hi)(rng);
        std::string para;
        bool capital = true;
        for (int64_t w = 0; w < count; ++w) {
            std::string word = words[rng() % kWords];
            if (capital)
                word[0] = static_cast<char>(word[0] - 32);
            capital = false;
            if (!para.empty())
                para += " ";
            para += word;
            if (w + 1 < count && rng() % 10 == 0) {
                para += rng() % 3 == 0 ? "." : ",";
                capital = para.back() == '.';
            }
        }
        para += ".";
        if (!out.empty())
            out += html ? "\n" : "\n\n";
        out += html ? "<p>" + para + "</p>" : para;
    }
    return Value(out);
}

const std::unordered_map<std::string_view, Value>& globals()
{
    static const std::unordered_map<std::string_view, Value> table = [] {
        std::unordered_map<std::string_view, Value> t;
        t.emplace("range", Value(makeCallable("range", rangeGlobal)));
        t.emplace("lipsum", Value(makeCallable("generate_lorem_ipsum", lipsumGlobal)));
        t.emplace("image_url", Value(makeCallable("image_url", expr::imageUrlBuiltin)));
        t.emplace("dict", Value(makeCallable("dict", [](const CallArgs& args) {
                      return Value(dictFromArgs("dict", args));
                  })));
        t.emplace("namespace", Value(makeCallable("namespace", [](const CallArgs& args) {
                      return Value(dictFromArgs("namespace", args));
                  })));
        t.emplace("joiner", Value(makeCallable("joiner", [](const CallArgs& args) {
                      auto slots = bindArgs("joiner", args, {"sep"});
                      std::string sep = argStr(slots[0], ", ");
                      return Value(std::shared_ptr<const Callable>(new Joiner(sep)));
                  })));
        return t;
    }();
    return table;
}

} // namespace

const Value* findGlobal(std::string_view name)
{
    const auto& table = globals();
    auto it = table.find(name);
    return it == table.end() ? nullptr : &it->second;
}

} // namespace hako::pdl::builtins
