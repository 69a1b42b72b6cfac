// Jinja2's scalar filters (numbers, strings, conversions) and the filter table.

#include "core/pdl/expr/filters_p.h"

#include <charconv>
#include <cmath>
#include <unordered_map>

namespace hako::pdl::builtins {

using namespace detail;

namespace {

std::string text(const Value& v)
{
    requireDefined(v);
    return v.isString() ? v.asString() : v.str();
}

void noArgs(const char* name, const CallArgs& args)
{
    bindArgs(name, args, {});
}

Value filterAbs(const Value& v, const CallArgs& args)
{
    noArgs("abs", args);
    if (v.isInt())
        return Value(v.asInt() < 0 ? -v.asInt() : v.asInt());
    if (v.isBool())
        return Value(int64_t(v.asBool() ? 1 : 0));
    if (v.isFloat())
        return Value(std::fabs(v.asFloat()));
    fail(std::string("bad operand type for abs(): '") + v.typeName() + "'");
}

Value filterAttr(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("attr", args, {"name"});
    if (!p[0])
        fail("do_attr() missing 1 required positional argument: 'name'");
    std::string name = text(*p[0]);
    if (hasMethod(v, name))
        return boundMethod(v, name);
    return missingAttribute(v, name);
}

Value filterCapitalize(const Value& v, const CallArgs& args)
{
    noArgs("capitalize", args);
    return Value(pyCapitalize(text(v)));
}

Value filterCenter(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("center", args, {"width"});
    return Value(padString(text(v), argInt(p[0], 80), ' ', 'c'));
}

Value filterDefault(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("default", args, {"default_value", "boolean"});
    bool boolean = argBool(p[1], false);
    if (v.isUndefined() || (boolean && !v.truthy()))
        return p[0] ? *p[0] : Value("");
    return v;
}

Value filterEscape(const Value& v, const CallArgs& args)
{
    noArgs("escape", args);
    return Value(htmlEscape(text(v)));
}

Value filterFloat(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("float", args, {"default"});
    Value dflt = p[0] ? *p[0] : Value(0.0);
    switch (v.type()) {
    case Value::Type::Int:
    case Value::Type::Bool:
    case Value::Type::Float:
        return Value(v.toDouble());
    case Value::Type::String: {
        double d;
        return parseFloat(v.asString(), d) ? Value(d) : dflt;
    }
    default:
        return dflt;
    }
}

Value filterInt(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("int", args, {"default", "base"});
    Value dflt = p[0] ? *p[0] : Value(int64_t(0));
    int64_t base = argInt(p[1], 10);
    auto fromDouble = [](double d) {
        return Value(truncateToInt(d));
    };
    switch (v.type()) {
    case Value::Type::Int:
        return v;
    case Value::Type::Bool:
        return Value(int64_t(v.asBool() ? 1 : 0));
    case Value::Type::Float:
        return fromDouble(v.asFloat());
    case Value::Type::String: {
        int64_t i;
        if (parseInt(v.asString(), static_cast<int>(base), i))
            return Value(i);
        double d;
        // "42.23"|int gives 42 in Jinja.
        if (parseFloat(v.asString(), d) && !std::isnan(d) && !std::isinf(d))
            return fromDouble(d);
        // int(float('nan')) is a ValueError (→ default), int(float('inf')) an OverflowError.
        if (parseFloat(v.asString(), d) && std::isinf(d))
            fromDouble(d);
        return dflt;
    }
    default:
        return dflt;
    }
}

Value filterFormat(const Value& v, const CallArgs& args)
{
    if (!args.positional.empty() && !args.keyword.empty())
        fail("can't handle positional and keyword arguments at the same time");
    if (!args.keyword.empty()) {
        Dict d;
        for (const auto& [k, val] : args.keyword)
            d.set(Value(k), val);
        return Value(percentFormat(text(v), Value(std::move(d))));
    }
    return Value(percentFormat(text(v), Value::tuple(args.positional)));
}

Value filterLower(const Value& v, const CallArgs& args)
{
    noArgs("lower", args);
    return Value(toLower(text(v)));
}

Value filterUpper(const Value& v, const CallArgs& args)
{
    noArgs("upper", args);
    return Value(toUpper(text(v)));
}

Value filterPprint(const Value& v, const CallArgs& args)
{
    noArgs("pprint", args);
    requireDefined(v);
    return Value(v.repr());
}

Value filterReplace(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("replace", args, {"old", "new", "count"});
    if (!p[0] || !p[1])
        fail("do_replace() missing required arguments 'old' and 'new'");
    CallArgs call;
    call.positional = {Value(text(*p[0])), Value(text(*p[1]))};
    if (p[2] && !p[2]->isNull())
        call.positional.push_back(*p[2]);
    return callMethod(Value(text(v)), "replace", call);
}

// Python's round(x, n) for floats: correctly rounded through the shortest decimal form,
// ties to even.
double roundFloat(double x, int64_t n)
{
    if (std::isnan(x) || std::isinf(x) || x == 0)
        return x;
    if (n >= 0) {
        if (n > 330)
            return x;
        char buf[512];
        auto res =
            std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed, static_cast<int>(n));
        double out = 0;
        std::from_chars(buf, res.ptr, out);
        return out;
    }
    if (n < -330)
        return std::copysign(0.0, x);
    double pow10 = std::pow(10.0, static_cast<double>(-n));
    double y = x / pow10;
    double z = std::round(y);
    if (std::fabs(y - z) == 0.5)
        z = 2.0 * std::round(y / 2.0);
    return std::copysign(z * pow10, x);
}

Value filterRound(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("round", args, {"precision", "method"});
    int64_t precision = argInt(p[0], 0);
    std::string method = argStr(p[1], "common");
    if (method != "common" && method != "ceil" && method != "floor")
        fail("method must be common, ceil or floor");
    requireDefined(v);
    if (!v.isNumber() && !v.isBool())
        fail(std::string("type ") + v.typeName() + " doesn't define __round__ method");
    if (method == "common") {
        if (v.isFloat())
            return Value(roundFloat(v.asFloat(), precision));
        int64_t i = toIndex(v);
        if (precision >= 0)
            return Value(i);
        if (precision < -18)
            return Value(int64_t(0));
        int64_t pow10 = 1;
        for (int64_t k = 0; k < -precision; ++k)
            pow10 *= 10;
        int64_t q = i / pow10, r = i % pow10;
        if (r < 0) {
            r += pow10;
            --q;
        }
        if (2 * r > pow10 || (2 * r == pow10 && (q & 1)))
            ++q;
        return Value(q * pow10);
    }
    double scale = std::pow(10.0, static_cast<double>(precision));
    double scaled = v.toDouble() * scale;
    if (std::isinf(scaled))
        fail("cannot convert float infinity to integer");
    if (std::isnan(scaled))
        fail("cannot convert float NaN to integer");
    // math.ceil/floor return ints in Python, so there is no negative zero.
    double r = (method == "ceil" ? std::ceil(scaled) : std::floor(scaled)) + 0.0;
    return Value(r / scale);
}

Value filterString(const Value& v, const CallArgs& args)
{
    noArgs("string", args);
    return Value(text(v));
}

Value filterTrim(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("trim", args, {"chars"});
    std::u32string s = u32(text(v));
    if (!p[0] || p[0]->isNull())
        return Value(u8(stripChars(s, nullptr, true, true)));
    std::u32string chars = u32(text(*p[0]));
    return Value(u8(stripChars(s, &chars, true, true)));
}

Value filterSafe(const Value& v, const CallArgs& args)
{
    noArgs("safe", args);
    return Value(text(v));
}

Value filterFilesizeformat(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("filesizeformat", args, {"binary"});
    bool binary = argBool(p[0], false);
    double bytes;
    if (v.isString()) {
        if (!parseFloat(v.asString(), bytes))
            fail("could not convert string to float: " + v.repr());
    } else if (v.isNumber() || v.isBool()) {
        bytes = v.toDouble();
    } else {
        requireDefined(v);
        fail(std::string("float() argument must be a string or a real number, not '") +
             v.typeName() + "'");
    }
    double base = binary ? 1024 : 1000;
    static const char* dec[] = {"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
    static const char* bin[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
    if (bytes == 1)
        return Value("1 Byte");
    if (bytes < base)
        return Value(std::to_string(static_cast<int64_t>(bytes)) + " Bytes");
    double unit = base;
    for (int i = 0; i < 8; ++i) {
        unit = std::pow(base, i + 2);
        if (bytes < unit || i == 7) {
            Value num(base * bytes / unit);
            return Value(formatWithSpec(num, ".1f") + " " + (binary ? bin[i] : dec[i]));
        }
    }
    return Value();
}

const std::unordered_map<std::string_view, FilterFn>& filters()
{
    static const std::unordered_map<std::string_view, FilterFn> table = {
        {"abs", filterAbs},
        {"attr", filterAttr},
        {"batch", filterBatch},
        {"capitalize", filterCapitalize},
        {"center", filterCenter},
        {"count", filterLength},
        {"d", filterDefault},
        {"default", filterDefault},
        {"dictsort", filterDictsort},
        {"e", filterEscape},
        {"escape", filterEscape},
        {"filesizeformat", filterFilesizeformat},
        {"first", filterFirst},
        {"float", filterFloat},
        {"forceescape", filterEscape},
        {"format", filterFormat},
        {"groupby", filterGroupby},
        {"indent", filterIndent},
        {"int", filterInt},
        {"items", filterItems},
        {"join", filterJoin},
        {"last", filterLast},
        {"length", filterLength},
        {"list", filterList},
        {"lower", filterLower},
        {"map", filterMap},
        {"max", filterMax},
        {"min", filterMin},
        {"pprint", filterPprint},
        {"reject", filterReject},
        {"rejectattr", filterRejectattr},
        {"replace", filterReplace},
        {"reverse", filterReverse},
        {"round", filterRound},
        {"safe", filterSafe},
        {"select", filterSelect},
        {"selectattr", filterSelectattr},
        {"slice", filterSlice},
        {"sort", filterSort},
        {"string", filterString},
        {"striptags", filterStriptags},
        {"sum", filterSum},
        {"title", filterTitle},
        {"tojson", filterTojson},
        {"trim", filterTrim},
        {"truncate", filterTruncate},
        {"unique", filterUnique},
        {"upper", filterUpper},
        {"urlencode", filterUrlencode},
        {"wordcount", filterWordcount},
        {"wordwrap", filterWordwrap},
        {"xmlattr", filterXmlattr},
    };
    return table;
}

} // namespace

FilterFn findFilter(std::string_view name)
{
    const auto& t = filters();
    auto it = t.find(name);
    return it == t.end() ? nullptr : it->second;
}

bool filterAcceptsUndefined(std::string_view name)
{
    return name == "default" || name == "d" || name == "items";
}

} // namespace hako::pdl::builtins
