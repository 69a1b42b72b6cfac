// Python's format-spec mini-language, `%` formatting, int()/float() parsing and
// json.dumps. Number formatting uses std::to_chars so the C locale never leaks in.

#include "core/pdl/expr/builtins_p.h"
#include "core/pdl/expr/operators.h"
#include "core/util/stackguard.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include <QChar>
#include <cmath>

namespace hako::pdl::builtins {

using namespace detail;

namespace {

struct Spec;
void checkSizes(const Spec& spec);

struct Spec {
    char32_t fill = ' ';
    char align = 0; // '<', '>', '^', '=' or 0 (type default)
    char sign = 0;  // '+', '-', ' ' or 0
    bool alt = false;
    bool zero = false;
    int64_t width = -1;
    char grouping = 0; // ',' or '_'
    int64_t precision = -1;
    char type = 0;
};

bool isAlign(char32_t c)
{
    return c == '<' || c == '>' || c == '^' || c == '=';
}

Spec parseSpec(std::string_view text)
{
    std::u32string s = u32(text);
    Spec spec;
    size_t i = 0;
    bool explicitFill = false;
    if (s.size() >= 2 && isAlign(s[1])) {
        explicitFill = true;
        spec.fill = s[0];
        spec.align = static_cast<char>(s[1]);
        i = 2;
    } else if (!s.empty() && isAlign(s[0])) {
        spec.align = static_cast<char>(s[0]);
        i = 1;
    }
    if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' '))
        spec.sign = static_cast<char>(s[i++]);
    if (i < s.size() && s[i] == '#') {
        spec.alt = true;
        ++i;
    }
    if (i < s.size() && s[i] == '0') {
        spec.zero = true;
        ++i;
    }
    auto digits = [&](int64_t& out) {
        size_t start = i;
        int64_t v = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            v = v * 10 + (s[i] - '0');
            if (v > 1'000'000'000)
                fail("Too many decimal digits in format string");
            ++i;
        }
        if (i > start)
            out = v;
        return i > start;
    };
    digits(spec.width);
    checkSizes(spec);
    if (i < s.size() && (s[i] == ',' || s[i] == '_'))
        spec.grouping = static_cast<char>(s[i++]);
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!digits(spec.precision))
            fail("Format specifier missing precision");
        checkSizes(spec);
    }
    if (i < s.size())
        spec.type = s[i] < 0x80 ? static_cast<char>(s[i]) : '?';
    if (i + 1 < s.size() || (i < s.size() && s[i] >= 0x80))
        fail("Invalid format specifier '" + std::string(text) + "'");
    // The '0' flag means fill '0' (unless a fill is given) and, without an alignment, '='.
    if (spec.zero && !explicitFill)
        spec.fill = '0';
    if (spec.zero && !spec.align)
        spec.align = '=';
    return spec;
}

// Widths and precisions are bounded like repetition: `'%999999999d' % 1` would otherwise
// allocate gigabytes.
void checkSizes(const Spec& spec)
{
    for (int64_t n : {spec.width, spec.precision}) {
        if (n > expr::kMaxResultSize)
            fail("format width or precision " + std::to_string(n) + " is too large (at most " +
                 std::to_string(expr::kMaxResultSize) + ")");
    }
}

std::string pad(const std::string& sign, const std::string& body, const Spec& spec,
                char defaultAlign)
{
    char align = spec.align ? spec.align : defaultAlign;
    int64_t len = utf8::length(sign) + utf8::length(body);
    if (spec.width <= len)
        return sign + body;
    int64_t n = spec.width - len;
    std::string fill;
    utf8::append(fill, spec.fill);
    auto rep = [&](int64_t k) {
        std::string out;
        for (int64_t i = 0; i < k; ++i)
            out += fill;
        return out;
    };
    switch (align) {
    case '<':
        return sign + body + rep(n);
    case '^':
        return rep(n / 2) + sign + body + rep(n - n / 2);
    case '=':
        return sign + rep(n) + body;
    default:
        return rep(n) + sign + body;
    }
}

std::string group(const std::string& digits, char sep, int every)
{
    if (!sep)
        return digits;
    std::string out;
    int count = 0;
    for (size_t i = digits.size(); i > 0; --i) {
        if (count == every) {
            out.push_back(sep);
            count = 0;
        }
        out.push_back(digits[i - 1]);
        ++count;
    }
    std::reverse(out.begin(), out.end());
    return out;
}

// Grouped digits; with '0' padding Python pads inside the grouping ('{:08,d}' → 0,001,234).
std::string groupPadded(std::string digits, const Spec& spec, int every, int64_t used)
{
    std::string g = group(digits, spec.grouping, every);
    if (spec.grouping && spec.fill == '0' && spec.align == '=') {
        while (static_cast<int64_t>(g.size()) + used < spec.width) {
            digits.insert(digits.begin(), '0');
            g = group(digits, spec.grouping, every);
        }
    }
    return g;
}

std::string signOf(bool negative, char sign)
{
    if (negative)
        return "-";
    if (sign == '+')
        return "+";
    if (sign == ' ')
        return " ";
    return "";
}

std::string toChars(double d, std::chars_format fmt, int precision)
{
    char buf[512];
    auto res = std::to_chars(buf, buf + sizeof buf, d, fmt, precision);
    if (res.ec != std::errc())
        fail("number too large to format");
    return std::string(buf, res.ptr);
}

// Python's 'g' (and the empty type with a precision when `noneType`): fixed or scientific
// by the exponent after rounding; trailing zeros dropped unless `alt`.
std::string formatGeneral(double d, int64_t precision, bool alt, bool noneType)
{
    int p = static_cast<int>(precision < 0 ? 6 : (precision == 0 ? 1 : precision));
    std::string sci = toChars(d, std::chars_format::scientific, p - 1);
    int exp = std::atoi(sci.c_str() + sci.find('e') + 1);
    std::string out;
    int limit = noneType ? p - 1 : p;
    bool fixed = exp >= -4 && exp < limit;
    if (fixed)
        out = toChars(d, std::chars_format::fixed, std::max(0, p - 1 - exp));
    else
        out = sci;
    if (!alt) {
        size_t e = out.find('e');
        std::string mant = out.substr(0, e);
        std::string rest = e == std::string::npos ? "" : out.substr(e);
        if (mant.find('.') != std::string::npos) {
            while (!mant.empty() && mant.back() == '0')
                mant.pop_back();
            if (!mant.empty() && mant.back() == '.')
                mant.pop_back();
        }
        out = mant + rest;
    }
    if (noneType && fixed && out.find('.') == std::string::npos && !alt)
        out += ".0";
    if (alt && out.find('.') == std::string::npos) {
        size_t e = out.find('e');
        out.insert(e == std::string::npos ? out.size() : e, ".");
    }
    return out;
}

std::string formatFloatSpec(double d, Spec spec, const char* typeName)
{
    char t = spec.type;
    if (t == 'n' && spec.grouping)
        fail(std::string("Cannot specify '") + spec.grouping + "' with 'n'.");
    if (t == 'n')
        t = 'g';
    if (t && !std::strchr("eEfFgG%", t))
        fail(std::string("Unknown format code '") + t + "' for object of type '" + typeName + "'");
    bool neg = std::signbit(d) && !std::isnan(d);
    double a = std::fabs(d);
    std::string body;
    bool upper = t == 'E' || t == 'F' || t == 'G';
    if (std::isinf(a) || std::isnan(a)) {
        body = std::isnan(a) ? "nan" : "inf";
        if (upper)
            std::transform(body.begin(), body.end(), body.begin(), ::toupper);
        if (t == '%')
            body += "%";
    } else {
        int64_t prec = spec.precision;
        switch (t) {
        case 'e':
        case 'E':
            body = toChars(a, std::chars_format::scientific, static_cast<int>(prec < 0 ? 6 : prec));
            if (spec.alt && body.find('.') == std::string::npos)
                body.insert(body.find('e'), ".");
            break;
        case 'f':
        case 'F':
        case '%':
            body = toChars(t == '%' ? a * 100 : a, std::chars_format::fixed,
                           static_cast<int>(prec < 0 ? 6 : prec));
            if (spec.alt && body.find('.') == std::string::npos)
                body += ".";
            break;
        case 'g':
        case 'G':
            body = formatGeneral(a, prec, spec.alt, false);
            break;
        default:
            body = prec < 0 ? formatFloat(a) : formatGeneral(a, prec, spec.alt, true);
            break;
        }
        if (upper)
            std::transform(body.begin(), body.end(), body.begin(), ::toupper);
        if (spec.grouping) {
            size_t end = body.find_first_not_of("0123456789");
            if (end == std::string::npos)
                end = body.size();
            std::string rest = body.substr(end) + (t == '%' ? "%" : "");
            int64_t used = static_cast<int64_t>(signOf(neg, spec.sign).size() + rest.size());
            body = groupPadded(body.substr(0, end), spec, 3, used) + body.substr(end);
        }
        if (t == '%')
            body += "%";
    }
    return pad(signOf(neg, spec.sign), body, spec, '>');
}

std::string formatIntSpec(int64_t v, Spec spec, const char* typeName)
{
    char t = spec.type ? spec.type : 'd';
    if (std::strchr("eEfFgG%", t))
        return formatFloatSpec(static_cast<double>(v), spec, typeName);
    if (spec.precision >= 0)
        fail("Precision not allowed in integer format specifier");
    bool neg = v < 0;
    uint64_t a = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    std::string digits, prefix;
    int every = 3;
    switch (t) {
    case 'd':
    case 'n':
        digits = std::to_string(a);
        break;
    case 'x':
    case 'X':
    case 'o':
    case 'b': {
        int base = t == 'o' ? 8 : (t == 'b' ? 2 : 16);
        char buf[80];
        auto res = std::to_chars(buf, buf + sizeof buf, a, base);
        digits.assign(buf, res.ptr);
        if (t == 'X')
            std::transform(digits.begin(), digits.end(), digits.begin(), ::toupper);
        if (spec.alt)
            prefix = t == 'o' ? "0o" : (t == 'b' ? "0b" : (t == 'X' ? "0X" : "0x"));
        every = 4;
        break;
    }
    case 'c': {
        if (v < 0 || v > 0x10ffff)
            fail("%c arg not in range(0x110000)");
        std::string s;
        utf8::append(s, static_cast<char32_t>(v));
        return pad("", s, spec, '>');
    }
    default:
        fail(std::string("Unknown format code '") + t + "' for object of type '" + typeName + "'");
    }
    if ((spec.grouping == ',' && every == 4) || (spec.grouping && t == 'n'))
        fail(std::string("Cannot specify '") + spec.grouping + "' with '" + t + "'.");
    std::string head = signOf(neg, spec.sign) + prefix;
    digits = groupPadded(digits, spec, every, static_cast<int64_t>(head.size()));
    return pad(head, digits, spec, '>');
}

std::string formatStringSpec(const std::string& s, const Spec& spec)
{
    if (spec.type && spec.type != 's')
        fail(std::string("Unknown format code '") + spec.type + "' for object of type 'str'");
    if (spec.sign)
        fail("Sign not allowed in string format specifier");
    if (spec.alt)
        fail("Alternate form (#) not allowed in string format specifier");
    if (spec.align == '=')
        fail("'=' alignment not allowed in string format specifier");
    if (spec.grouping)
        fail(std::string("Cannot specify '") + spec.grouping + "' with 's'.");
    std::string body = s;
    if (spec.precision >= 0 && utf8::length(body) > spec.precision)
        body = body.substr(0, utf8::offsetOf(body, spec.precision));
    return pad("", body, spec, '<');
}

// %d/%x/%o: the precision zero-pads the digits; the '0' flag pads after sign and prefix.
std::string percentInt(int64_t v, char conv, const Spec& spec, bool left)
{
    bool neg = v < 0;
    uint64_t a = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    int base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X' ? 16 : 10);
    char buf[80];
    auto res = std::to_chars(buf, buf + sizeof buf, a, base);
    std::string digits(buf, res.ptr);
    if (conv == 'X')
        std::transform(digits.begin(), digits.end(), digits.begin(), ::toupper);
    if (spec.precision > static_cast<int64_t>(digits.size()))
        digits.insert(0, static_cast<size_t>(spec.precision) - digits.size(), '0');
    std::string head = signOf(neg, spec.sign);
    if (spec.alt && base != 10)
        head += conv == 'o' ? "0o" : (conv == 'X' ? "0X" : "0x");
    int64_t len = static_cast<int64_t>(head.size() + digits.size());
    if (spec.width <= len)
        return head + digits;
    size_t n = static_cast<size_t>(spec.width - len);
    if (left)
        return head + digits + std::string(n, ' ');
    if (spec.zero)
        return head + std::string(n, '0') + digits;
    return std::string(n, ' ') + head + digits;
}

} // namespace

namespace detail {

std::string formatWithSpec(const Value& v, std::string_view specText)
{
    requireDefined(v);
    if (specText.empty())
        return v.str();
    switch (v.type()) {
    case Value::Type::String:
        return formatStringSpec(v.asString(), parseSpec(specText));
    case Value::Type::Int:
    case Value::Type::Bool:
        return formatIntSpec(toIndex(v), parseSpec(specText), v.typeName());
    case Value::Type::Float:
        return formatFloatSpec(v.asFloat(), parseSpec(specText), "float");
    default:
        fail(std::string("unsupported format string passed to ") + v.typeName() + ".__format__");
    }
}

bool parseInt(std::string_view text, int base, int64_t& out)
{
    std::u32string full = stripChars(u32(text), nullptr, true, true);
    std::string s;
    for (char32_t c : full) {
        if (c >= 0x80) {
            if (!isDecimalCp(c))
                return false;
            // Python accepts any Unicode decimal digit.
            s.push_back(static_cast<char>('0' + QChar::digitValue(c)));
        } else {
            s.push_back(static_cast<char>(c));
        }
    }
    size_t i = 0;
    bool neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    auto hasPrefix = [&](char p) {
        return i + 1 < s.size() && s[i] == '0' && (s[i + 1] == p || s[i + 1] == p - 32);
    };
    bool prefixed = false;
    if (base == 0) {
        if (hasPrefix('x'))
            base = 16;
        else if (hasPrefix('o'))
            base = 8;
        else if (hasPrefix('b'))
            base = 2;
        else
            base = 10;
        prefixed = base != 10;
    } else if ((base == 16 && hasPrefix('x')) || (base == 8 && hasPrefix('o')) ||
               (base == 2 && hasPrefix('b'))) {
        prefixed = true;
    }
    if (base < 2 || base > 36)
        return false; // Python raises ValueError, which Jinja's int filter turns into the default
    if (prefixed)
        i += 2;
    std::string digits;
    bool lastUnderscore = !prefixed; // no leading underscore unless after a prefix
    for (; i < s.size(); ++i) {
        if (s[i] == '_') {
            if (lastUnderscore)
                return false;
            lastUnderscore = true;
            continue;
        }
        lastUnderscore = false;
        digits.push_back(s[i]);
    }
    if (digits.empty() || lastUnderscore)
        return false;
    uint64_t v = 0;
    for (char c : digits) {
        int d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'z')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'Z')
            d = c - 'A' + 10;
        else
            return false;
        if (d >= base)
            return false;
        if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base))
            fail("integer too large: " + std::string(text));
        v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
    }
    if (v > static_cast<uint64_t>(INT64_MAX) + (neg ? 1 : 0))
        fail("integer too large: " + std::string(text));
    out = neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
    return true;
}

bool parseFloat(std::string_view text, double& out)
{
    std::string s;
    for (char32_t c : stripChars(u32(text), nullptr, true, true)) {
        // Python accepts any Unicode decimal digit.
        if (c >= 0x80 && isDecimalCp(c))
            c = static_cast<char32_t>('0' + QChar::digitValue(c));
        utf8::append(s, c);
    }
    std::string lower = toLower(s);
    std::string_view body = lower;
    bool neg = false;
    if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
        neg = body[0] == '-';
        body.remove_prefix(1);
    }
    if (body == "inf" || body == "infinity") {
        out = neg ? -INFINITY : INFINITY;
        return true;
    }
    if (body == "nan") {
        out = NAN;
        return true;
    }
    // digits with single underscores between them, optional fraction and exponent
    std::string clean;
    bool sawDigit = false, prevDigit = false, sawDot = false, sawExp = false;
    for (size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (c >= '0' && c <= '9') {
            clean.push_back(c);
            sawDigit = prevDigit = true;
        } else if (c == '_') {
            if (!prevDigit || i + 1 >= body.size() || body[i + 1] < '0' || body[i + 1] > '9')
                return false;
            prevDigit = false;
        } else if (c == '.' && !sawDot && !sawExp) {
            sawDot = true;
            prevDigit = false;
            clean.push_back(c);
        } else if (c == 'e' && sawDigit && !sawExp) {
            sawExp = true;
            prevDigit = false;
            clean.push_back(c);
            if (i + 1 < body.size() && (body[i + 1] == '+' || body[i + 1] == '-'))
                clean.push_back(body[++i]);
            if (i + 1 >= body.size())
                return false;
        } else {
            return false;
        }
    }
    if (!sawDigit)
        return false;
    double d = 0;
    auto res = std::from_chars(clean.data(), clean.data() + clean.size(), d);
    if (res.ptr != clean.data() + clean.size()) {
        if (res.ec == std::errc::result_out_of_range) {
            // Overflow gives inf, underflow 0 in Python.
            d = clean.find('e') != std::string::npos && clean.find("e-") != std::string::npos
                    ? 0.0
                    : INFINITY;
        } else {
            return false;
        }
    } else if (res.ec == std::errc::result_out_of_range) {
        d = clean.find("e-") != std::string::npos ? 0.0 : INFINITY;
    }
    out = neg ? -d : d;
    return true;
}

namespace {

std::string jsonKey(const Value& k)
{
    switch (k.type()) {
    case Value::Type::String:
        return jsonQuote(k.asString());
    case Value::Type::Int:
        return "\"" + std::to_string(k.asInt()) + "\"";
    case Value::Type::Bool:
        return k.asBool() ? "\"true\"" : "\"false\"";
    case Value::Type::Null:
        return "\"null\"";
    case Value::Type::Float: {
        double d = k.asFloat();
        if (std::isnan(d))
            return "\"NaN\"";
        if (std::isinf(d))
            return d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        return "\"" + formatFloat(d) + "\"";
    }
    default:
        fail(std::string("keys must be str, int, float, bool or None, not ") + k.typeName());
    }
}

void dump(const Value& v, bool sortKeys, const std::string* indent, int depth, std::string& out)
{
    if (stackExhausted()) // a loop-built value nested deeper than the stack allows
        throw EvalError("maximum recursion depth exceeded: the value is nested too deeply");
    auto newline = [&](int level) {
        out.push_back('\n');
        for (int i = 0; i < level; ++i)
            out += *indent;
    };
    switch (v.type()) {
    case Value::Type::Null:
        out += "null";
        break;
    case Value::Type::Bool:
        out += v.asBool() ? "true" : "false";
        break;
    case Value::Type::Int:
        out += std::to_string(v.asInt());
        break;
    case Value::Type::Float: {
        double d = v.asFloat();
        if (std::isnan(d))
            out += "NaN";
        else if (std::isinf(d))
            out += d > 0 ? "Infinity" : "-Infinity";
        else
            out += formatFloat(d);
        break;
    }
    case Value::Type::String:
        out += jsonQuote(v.asString());
        break;
    case Value::Type::List: {
        const List& l = v.asList();
        if (l.empty()) {
            out += "[]";
            break;
        }
        out.push_back('[');
        for (size_t i = 0; i < l.size(); ++i) {
            if (i)
                out += indent ? "," : ", ";
            if (indent)
                newline(depth + 1);
            dump(l[i], sortKeys, indent, depth + 1, out);
        }
        if (indent)
            newline(depth);
        out.push_back(']');
        break;
    }
    case Value::Type::Dict: {
        std::vector<const Dict::Item*> items;
        for (const auto& item : v.asDict())
            items.push_back(&item);
        if (items.empty()) {
            out += "{}";
            break;
        }
        if (sortKeys)
            std::stable_sort(items.begin(), items.end(), [](const auto* a, const auto* b) {
                return Value::less(a->first, b->first);
            });
        out.push_back('{');
        bool first = true;
        for (const auto* item : items) {
            if (!first)
                out += indent ? "," : ", ";
            first = false;
            if (indent)
                newline(depth + 1);
            out += jsonKey(item->first);
            out += ": ";
            dump(item->second, sortKeys, indent, depth + 1, out);
        }
        if (indent)
            newline(depth);
        out.push_back('}');
        break;
    }
    case Value::Type::Undefined:
        requireDefined(v);
        break;
    case Value::Type::Callable:
        fail("Object of type function is not JSON serializable");
    }
}

} // namespace

std::string dumpJson(const Value& v, bool sortKeys, const std::string* indent)
{
    std::string out;
    dump(v, sortKeys, indent, 0, out);
    return out;
}

} // namespace detail

// --- % formatting --------------------------------------------------------------------------

namespace {

// The arguments of one % formatting: a tuple taken in order, or a mapping taken by key.
struct PercentArgs {
    explicit PercentArgs(const Value& args)
        : tuple(args.isTuple() ? &args.asList() : &single),
          mapping(args.isDict() ? &args.asDict() : nullptr)
    {
        if (!args.isTuple())
            single.push_back(args);
    }
    const Value& take()
    {
        if (next >= tuple->size())
            fail("not enough arguments for format string");
        return (*tuple)[next++];
    }
    List single;
    const List* tuple;
    const Dict* mapping;
    size_t next = 0;
};

// "%(key)s": the value under `key`, with `i` just after the ')'.
const Value* percentKey(std::string_view fmt, size_t& i, PercentArgs& args)
{
    if (!args.mapping)
        fail("format requires a mapping");
    int depth = 1;
    size_t start = ++i;
    while (i < fmt.size() && depth) {
        if (fmt[i] == '(')
            ++depth;
        else if (fmt[i] == ')')
            --depth;
        ++i;
    }
    if (depth)
        fail("incomplete format key");
    std::string key(fmt.substr(start, i - 1 - start));
    const Value* keyed = args.mapping->find(std::string_view(key));
    if (!keyed)
        fail("KeyError: '" + key + "'");
    // Python: a positional spec after a mapping key finds no argument left.
    args.next = args.tuple->size();
    return keyed;
}

// The flags "-+ #0"; returns whether the field is left-aligned.
bool percentFlags(std::string_view fmt, size_t& i, Spec& spec)
{
    bool left = false;
    for (; i < fmt.size(); ++i) {
        char f = fmt[i];
        if (f == '-')
            left = true;
        else if (f == '+')
            spec.sign = '+';
        else if (f == ' ') {
            if (spec.sign != '+')
                spec.sign = ' ';
        } else if (f == '#')
            spec.alt = true;
        else if (f == '0')
            spec.zero = true;
        else
            break;
    }
    return left;
}

// A width or precision: digits, or '*' taking the next argument; -1 when absent.
int64_t percentNumber(std::string_view fmt, size_t& i, PercentArgs& args)
{
    if (i < fmt.size() && fmt[i] == '*') {
        ++i;
        const Value& w = args.take();
        if (!w.isInt() && !w.isBool())
            fail("* wants int");
        return toIndex(w);
    }
    int64_t v = -1;
    while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') {
        v = (v < 0 ? 0 : v * 10) + (fmt[i] - '0');
        if (v > expr::kMaxResultSize) // also keeps v from overflowing
            break;
        ++i;
    }
    return v;
}

std::string percentDecimal(char conv, const Value& arg, const Spec& spec, bool left)
{
    int64_t v;
    if (arg.isInt() || arg.isBool()) {
        v = toIndex(arg);
    } else if (arg.isFloat()) {
        v = truncateToInt(arg.asFloat());
    } else {
        fail(std::string("%") + conv + " format: a real number is required, not " + arg.typeName());
    }
    return percentInt(v, conv, spec, left);
}

// One conversion ("%5.2f" after its flags, width and precision are read) of `arg`; `index`
// is the conversion character's place, for the error.
std::string percentConvert(char conv, const Value& arg, Spec& spec, bool left, size_t index)
{
    switch (conv) {
    case 's':
    case 'r':
    case 'a': {
        std::string s = conv == 's' ? (arg.isString() ? arg.asString() : arg.str()) : arg.repr();
        if (spec.precision >= 0 && utf8::length(s) > spec.precision)
            s = s.substr(0, utf8::offsetOf(s, spec.precision));
        spec.fill = ' ';
        spec.align = left ? '<' : '>';
        return pad("", s, spec, '>');
    }
    case 'd':
    case 'i':
    case 'u':
        return percentDecimal(conv, arg, spec, left);
    case 'x':
    case 'X':
    case 'o':
        if (!arg.isInt() && !arg.isBool())
            fail(std::string("%") + conv + " format: an integer is required, not " +
                 arg.typeName());
        return percentInt(toIndex(arg), conv, spec, left);
    case 'c':
        spec.fill = ' ';
        if (arg.isString()) {
            if (utf8::length(arg.asString()) != 1)
                fail("%c requires int or char");
            return pad("", arg.asString(), spec, '>');
        }
        if (!arg.isInt() && !arg.isBool())
            fail("%c requires int or char");
        spec.type = 'c';
        spec.precision = -1;
        spec.align = left ? '<' : '>';
        return formatIntSpec(toIndex(arg), spec, "int");
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
        if (!arg.isNumber() && !arg.isBool())
            fail(std::string("must be real number, not ") + arg.typeName());
        spec.type = conv;
        return formatFloatSpec(arg.toDouble(), spec, "float");
    default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%x", static_cast<unsigned char>(conv));
        fail(std::string("unsupported format character '") + conv + "' (0x" + buf + ") at index " +
             std::to_string(index));
    }
    }
}

} // namespace

std::string percentFormat(std::string_view fmt, const Value& args)
{
    PercentArgs arguments(args);
    std::string out;
    size_t i = 0;
    while (i < fmt.size()) {
        char c = fmt[i];
        if (c != '%') {
            out.push_back(c);
            ++i;
            continue;
        }
        ++i;
        if (i >= fmt.size())
            fail("incomplete format");
        const Value* keyed = fmt[i] == '(' ? percentKey(fmt, i, arguments) : nullptr;
        Spec spec;
        bool left = percentFlags(fmt, i, spec);
        spec.width = percentNumber(fmt, i, arguments);
        if (spec.width < -1) {
            left = true;
            spec.width = spec.width == INT64_MIN ? INT64_MAX : -spec.width;
        }
        checkSizes(spec);
        if (i < fmt.size() && fmt[i] == '.') {
            ++i;
            spec.precision = std::max<int64_t>(percentNumber(fmt, i, arguments), 0);
            checkSizes(spec);
        }
        while (i < fmt.size() && (fmt[i] == 'h' || fmt[i] == 'l' || fmt[i] == 'L'))
            ++i;
        if (i >= fmt.size())
            fail("incomplete format");
        char conv = fmt[i++];
        if (conv == '%') {
            out.push_back('%');
            continue;
        }
        const Value& arg = keyed ? *keyed : arguments.take();
        requireDefined(arg);
        spec.align = left ? '<' : (spec.zero ? '=' : '>');
        if (spec.zero && !left)
            spec.fill = '0';
        out += percentConvert(conv, arg, spec, left, i - 1);
    }
    if (!arguments.mapping && arguments.next < arguments.tuple->size())
        fail("not all arguments converted during string formatting");
    return out;
}

} // namespace hako::pdl::builtins
