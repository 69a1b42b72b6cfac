// Scalar typing as PyYAML's safe_load (YAML 1.1) does it: the reference reads programs with
// PyYAML, so `yes`, `0o17`, `1:30` and `.inf` mean what they mean there
// (tests/core/tst_yaml_oracle.cpp compares with python3-yaml).
#include "core/pdl/parser/yamlscalar_p.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace hako::pdl {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool allOf(std::string_view s, bool (*pred)(char))
{
    return !s.empty() && std::all_of(s.begin(), s.end(), pred);
}

std::string withoutUnderscores(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (c != '_')
            out += c;
    }
    return out;
}

// Sexagesimal parts "1:30:05" -> 5405 (the first part may use underscores).
std::optional<double> sexagesimal(std::string_view s)
{
    double value = 0;
    size_t pos = 0;
    bool first = true;
    while (pos <= s.size()) {
        size_t colon = s.find(':', pos);
        std::string part = withoutUnderscores(
            s.substr(pos, colon == std::string_view::npos ? s.npos : colon - pos));
        if (part.empty())
            return std::nullopt;
        double d = std::strtod(part.c_str(), nullptr);
        if (!first && d >= 60)
            return std::nullopt;
        value = value * 60 + d;
        first = false;
        if (colon == std::string_view::npos)
            break;
        pos = colon + 1;
    }
    return value;
}

} // namespace

// PyYAML int: [-+]?0b[01_]+ | [-+]?0[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+ |
// [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+
IntParse parseYamlInt(std::string_view s, int64_t& out)
{
    std::string_view body = s;
    bool negative = false;
    if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
        negative = body[0] == '-';
        body.remove_prefix(1);
    }
    if (body.empty() || !isDigit(body[0]))
        return IntParse::NotInt;
    int base = 10;
    std::string_view digits = body;
    auto onlyChars = [](std::string_view d, std::string_view allowed) {
        return !d.empty() && d.find_first_not_of(allowed) == std::string_view::npos;
    };
    if (body.size() > 2 && body[0] == '0' && body[1] == 'b') {
        digits = body.substr(2);
        if (!onlyChars(digits, "01_"))
            return IntParse::NotInt;
        base = 2;
    } else if (body.size() > 2 && body[0] == '0' && body[1] == 'x') {
        digits = body.substr(2);
        if (!onlyChars(digits, "0123456789abcdefABCDEF_"))
            return IntParse::NotInt;
        base = 16;
    } else if (body.size() > 1 && body[0] == '0') {
        if (!onlyChars(body.substr(1), "01234567_"))
            return IntParse::NotInt;
        digits = body.substr(1);
        base = 8;
    } else if (body.find(':') != std::string_view::npos) {
        // Sexagesimal: first part [1-9][0-9_]*, then :[0-5]?[0-9] groups.
        if (body[0] == '0')
            return IntParse::NotInt;
        size_t colon = body.find(':');
        if (!onlyChars(body.substr(0, colon), "0123456789_"))
            return IntParse::NotInt;
        std::string_view rest = body.substr(colon);
        while (!rest.empty()) {
            if (rest[0] != ':')
                return IntParse::NotInt;
            size_t n = 1;
            while (n < rest.size() && isDigit(rest[n]))
                ++n;
            std::string_view group = rest.substr(1, n - 1);
            if (group.empty() || group.size() > 2 || (group.size() == 2 && group[0] > '5'))
                return IntParse::NotInt;
            rest.remove_prefix(n);
        }
        auto v = sexagesimal(body);
        if (!v || *v > 9.2e18)
            return IntParse::Overflow;
        out = int64_t(*v) * (negative ? -1 : 1);
        return IntParse::Ok;
    } else {
        if (!onlyChars(body, "0123456789_"))
            return IntParse::NotInt;
    }
    std::string clean = withoutUnderscores(digits);
    if (clean.empty())
        clean = "0"; // "0_" style literals
    uint64_t magnitude = 0;
    auto [ptr, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), magnitude, base);
    if (ec == std::errc::result_out_of_range)
        return IntParse::Overflow;
    if (ec != std::errc() || ptr != clean.data() + clean.size())
        return IntParse::NotInt;
    const uint64_t limit = negative ? uint64_t(std::numeric_limits<int64_t>::max()) + 1
                                    : uint64_t(std::numeric_limits<int64_t>::max());
    if (magnitude > limit)
        return IntParse::Overflow;
    out = negative ? int64_t(0 - magnitude) : int64_t(magnitude);
    return IntParse::Ok;
}

// PyYAML float: [-+]?([0-9][0-9_]*)\.[0-9_]*([eE][-+][0-9]+)? | \.[0-9_]+([eE][-+][0-9]+)? |
// [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)
std::optional<double> parseYamlFloat(std::string_view s)
{
    if (s == ".nan" || s == ".NaN" || s == ".NAN")
        return std::numeric_limits<double>::quiet_NaN();
    std::string_view body = s;
    double sign = 1;
    bool hasSign = false;
    if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
        sign = body[0] == '-' ? -1 : 1;
        hasSign = true;
        body.remove_prefix(1);
    }
    if (body == ".inf" || body == ".Inf" || body == ".INF")
        return sign * std::numeric_limits<double>::infinity();
    if (body.empty())
        return std::nullopt;
    const size_t dot = body.find('.');
    if (dot == std::string_view::npos)
        return std::nullopt;
    std::string_view intPart = body.substr(0, dot);
    std::string_view rest = body.substr(dot + 1);
    if (intPart.find(':') != std::string_view::npos) {
        if (!isDigit(intPart[0]))
            return std::nullopt;
        if (rest.find_first_not_of("0123456789_") != std::string_view::npos)
            return std::nullopt;
        size_t colon = intPart.find(':');
        if (intPart.substr(0, colon).find_first_not_of("0123456789_") != std::string_view::npos)
            return std::nullopt;
        auto v = sexagesimal(intPart);
        if (!v)
            return std::nullopt;
        std::string frac = "0." + withoutUnderscores(rest);
        return sign * (*v + std::strtod(frac.c_str(), nullptr));
    }
    if (intPart.empty()) {
        if (hasSign) // "+.5" is not a float in PyYAML's resolver
            return std::nullopt;
    } else if (!isDigit(intPart[0]) ||
               intPart.find_first_not_of("0123456789_") != std::string_view::npos) {
        return std::nullopt;
    }
    size_t e = rest.find_first_of("eE");
    std::string_view frac = rest.substr(0, e == std::string_view::npos ? rest.size() : e);
    if (frac.find_first_not_of("0123456789_") != std::string_view::npos)
        return std::nullopt;
    if (intPart.empty() && (frac.empty() || !(isDigit(frac[0]) || frac[0] == '_')))
        return std::nullopt;
    if (e != std::string_view::npos) {
        std::string_view exp = rest.substr(e + 1);
        if (exp.size() < 2 || (exp[0] != '+' && exp[0] != '-') || !allOf(exp.substr(1), isDigit))
            return std::nullopt;
    }
    std::string clean = withoutUnderscores(body);
    return sign * std::strtod(clean.c_str(), nullptr);
}

bool isYamlBool(std::string_view s, bool& out)
{
    static const char* const trues[] = {"yes",  "Yes", "YES", "true", "True",
                                        "TRUE", "on",  "On",  "ON"};
    static const char* const falses[] = {"no",    "No",  "NO",  "false", "False",
                                         "FALSE", "off", "Off", "OFF"};
    for (const char* t : trues) {
        if (s == t) {
            out = true;
            return true;
        }
    }
    for (const char* f : falses) {
        if (s == f) {
            out = false;
            return true;
        }
    }
    return false;
}

bool isYamlNull(std::string_view s)
{
    return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

} // namespace hako::pdl
