// Jinja2's built-in tests (`value is name(args)`).

#include "core/pdl/expr/builtins_p.h"

#include <cmath>
#include <unordered_map>

namespace hako::pdl::builtins {

using namespace detail;

namespace {

const Value& oneArg(const char* name, const CallArgs& args)
{
    if (args.positional.size() + args.keyword.size() != 1)
        fail(std::string(name) + "() takes exactly 2 positional arguments (" +
             std::to_string(args.positional.size() + args.keyword.size() + 1) + " given)");
    return args.positional.empty() ? args.keyword[0].second : args.positional[0];
}

void noArgs(const char* name, const CallArgs& args)
{
    if (!args.positional.empty() || !args.keyword.empty())
        fail(std::string(name) + "() takes 1 positional argument but " +
             std::to_string(args.positional.size() + args.keyword.size() + 1) + " were given");
}

// Python's `a % b == 0` for the numeric tests.
bool isMultiple(const Value& a, const Value& b)
{
    requireDefined(a);
    requireDefined(b);
    bool aNum = a.isNumber() || a.isBool(), bNum = b.isNumber() || b.isBool();
    if (!aNum || !bNum) {
        if (a.isString())
            fail("not all arguments converted during string formatting");
        fail(std::string("unsupported operand type(s) for %: '") + a.typeName() + "' and '" +
             b.typeName() + "'");
    }
    if (!a.isFloat() && !b.isFloat()) {
        int64_t d = toIndex(b);
        if (d == 0)
            fail("integer division or modulo by zero");
        return toIndex(a) % d == 0;
    }
    double d = b.toDouble();
    if (d == 0)
        fail("float modulo");
    double r = std::fmod(a.toDouble(), d);
    return r == 0;
}

bool containedIn(const Value& item, const Value& container)
{
    requireDefined(container);
    switch (container.type()) {
    case Value::Type::String:
        if (!item.isString()) {
            requireDefined(item);
            fail(std::string("'in <string>' requires string as left operand, not ") +
                 item.typeName());
        }
        return container.asString().find(item.asString()) != std::string::npos;
    case Value::Type::List:
        for (const Value& v : container.asList()) {
            if (v == item)
                return true;
        }
        return false;
    case Value::Type::Dict:
        if (!item.isHashable())
            fail(std::string("unhashable type: '") + item.typeName() + "'");
        return container.asDict().contains(item);
    default:
        fail(std::string("argument of type '") + container.typeName() + "' is not iterable");
    }
}

bool lessEq(const Value& a, const Value& b)
{
    return Value::less(a, b) || a == b;
}

bool sameAs(const Value& a, const Value& b)
{
    if (a.isUndefined() || b.isUndefined())
        return false;
    // Identity is approximated: singletons and equal scalars of the same type.
    if (a.type() != b.type() || a.isTuple() != b.isTuple())
        return false;
    switch (a.type()) {
    case Value::Type::Null:
        return true;
    case Value::Type::Bool:
    case Value::Type::Int:
    case Value::Type::String:
        return a == b;
    case Value::Type::Float:
        return a.asFloat() == b.asFloat() || (std::isnan(a.asFloat()) && std::isnan(b.asFloat()));
    case Value::Type::List:
        return a.asList().empty() ? b.asList().empty() && a.isTuple() : &a.asList() == &b.asList();
    case Value::Type::Dict:
        return &a.asDict() == &b.asDict();
    case Value::Type::Callable:
        return a.asCallable() == b.asCallable();
    default:
        return false;
    }
}

std::string strOf(const Value& v)
{
    requireDefined(v);
    return v.isString() ? v.asString() : v.str();
}

bool strCase(const Value& v, bool upper)
{
    bool cased = false;
    for (char32_t c : u32(strOf(v))) {
        if (upper ? (isLowerCp(c) || isTitleCp(c)) : (isUpperCp(c) || isTitleCp(c)))
            return false;
        if (upper ? isUpperCp(c) : isLowerCp(c))
            cased = true;
    }
    return cased;
}

#define TEST0(fname, expr)                                                                         \
    [](const Value& v, const CallArgs& args) -> bool {                                             \
        noArgs(fname, args);                                                                       \
        return expr;                                                                               \
    }
#define TEST1(fname, expr)                                                                         \
    [](const Value& v, const CallArgs& args) -> bool {                                             \
        const Value& o = oneArg(fname, args);                                                      \
        requireDefined(v);                                                                         \
        requireDefined(o);                                                                         \
        return expr;                                                                               \
    }
// sameas compares identity, which never touches an undefined operand.
#define TEST1_LENIENT(fname, expr)                                                                 \
    [](const Value& v, const CallArgs& args) -> bool {                                             \
        const Value& o = oneArg(fname, args);                                                      \
        return expr;                                                                               \
    }

const std::unordered_map<std::string_view, TestFn>& tests()
{
    static const std::unordered_map<std::string_view, TestFn> table = [] {
        std::unordered_map<std::string_view, TestFn> t;
        t["defined"] = TEST0("test_defined", !v.isUndefined());
        t["undefined"] = TEST0("test_undefined", v.isUndefined());
        t["none"] = TEST0("test_none", (!v.isUndefined() && v.isNull()));
        t["boolean"] = TEST0("test_boolean", (!v.isUndefined() && v.isBool()));
        t["true"] = TEST0("test_true", (!v.isUndefined() && v.isBool() && v.asBool()));
        t["false"] = TEST0("test_false", (!v.isUndefined() && v.isBool() && !v.asBool()));
        t["integer"] = TEST0("test_integer", (!v.isUndefined() && v.isInt()));
        t["float"] = TEST0("test_float", (!v.isUndefined() && v.isFloat()));
        t["number"] = TEST0("test_number", (!v.isUndefined() && (v.isNumber() || v.isBool())));
        t["string"] = TEST0("test_string", (!v.isUndefined() && v.isString()));
        t["mapping"] = TEST0("test_mapping", (!v.isUndefined() && v.isDict()));
        t["sequence"] = TEST0("test_sequence",
                              (!v.isUndefined() && (v.isString() || v.isList() || v.isDict())));
        t["iterable"] =
            TEST0("test_iterable", (requireDefined(v), v.isString() || v.isList() || v.isDict()));
        // Jinja's Undefined defines __call__, so `missing is callable` holds.
        t["callable"] = TEST0("callable", v.isUndefined() || v.isCallable());
        t["escaped"] = TEST0("test_escaped", (!v.isUndefined() && false));
        t["even"] = TEST0("test_even", isMultiple(v, Value(2)));
        t["odd"] = TEST0("test_odd", !isMultiple(v, Value(2)));
        t["divisibleby"] = TEST1("test_divisibleby", isMultiple(v, o));
        t["lower"] = TEST0("test_lower", strCase(v, false));
        t["upper"] = TEST0("test_upper", strCase(v, true));
        t["in"] = TEST1("test_in", containedIn(v, o));
        t["sameas"] = TEST1_LENIENT("test_sameas", sameAs(v, o));
        t["filter"] =
            TEST0("test_filter", (requireDefined(v), v.isString() && findFilter(v.asString())));
        t["test"] = TEST0("test_test", (requireDefined(v), v.isString() && findTest(v.asString())));
        TestFn eq = TEST1("eq", v == o);
        TestFn ne = TEST1("ne", v != o);
        TestFn lt = TEST1("lt", Value::less(v, o));
        TestFn le = TEST1("le", lessEq(v, o));
        TestFn gt = TEST1("gt", Value::less(o, v));
        TestFn ge = TEST1("ge", lessEq(o, v));
        for (const char* n : {"eq", "equalto", "=="})
            t[n] = eq;
        for (const char* n : {"ne", "!="})
            t[n] = ne;
        for (const char* n : {"lt", "lessthan", "<"})
            t[n] = lt;
        for (const char* n : {"le", "<="})
            t[n] = le;
        for (const char* n : {"gt", "greaterthan", ">"})
            t[n] = gt;
        for (const char* n : {"ge", ">="})
            t[n] = ge;
        return t;
    }();
    return table;
}

} // namespace

TestFn findTest(std::string_view name)
{
    const auto& t = tests();
    auto it = t.find(name);
    return it == t.end() ? nullptr : it->second;
}

bool testAcceptsUndefined(std::string_view name)
{
    // The tests that only inspect the type (or identity) work on StrictUndefined in Jinja.
    static const std::unordered_map<std::string_view, bool> lenient = {
        {"defined", true},  {"undefined", true}, {"none", true},    {"boolean", true},
        {"true", true},     {"false", true},     {"integer", true}, {"float", true},
        {"number", true},   {"string", true},    {"mapping", true}, {"sequence", true},
        {"callable", true}, {"sameas", true},    {"escaped", true}};
    return lenient.count(name) > 0;
}

} // namespace hako::pdl::builtins
