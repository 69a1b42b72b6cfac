// Python methods of str values.

#include "core/pdl/expr/methods_p.h"
#include "core/pdl/expr/operators.h"

#include <algorithm>

namespace hako::pdl::builtins::detail {

namespace {

std::u32string strArg(const Value* v, const char* method, const char* what = "argument")
{
    if (!v || !v->isString()) {
        if (v)
            requireDefined(*v);
        fail(std::string(method) + "() " + what + " must be str, not " +
             (v ? v->typeName() : "NoneType"));
    }
    return u32(v->asString());
}

// Python's slice-style clamping of start/end arguments of find/count/startswith.
void clampRange(const Value* start, const Value* end, int64_t len, int64_t& a, int64_t& b)
{
    // Python's ADJUST_INDICES: the start is not clamped to the length, so a start past the
    // end finds nothing (even the empty string).
    auto conv = [&](const Value* v, int64_t dflt, bool clampHigh) {
        if (!v || v->isNull())
            return dflt;
        if (!v->isInt() && !v->isBool())
            fail("slice indices must be integers or None or have an __index__ method");
        int64_t x = toIndex(*v);
        if (x < 0) {
            x += len;
            if (x < 0)
                x = 0;
        } else if (clampHigh && x > len) {
            x = len;
        }
        return x;
    };
    a = conv(start, 0, false);
    b = conv(end, len, true);
}

int64_t findIn(const std::u32string& s, const std::u32string& sub, int64_t a, int64_t b,
               bool reverse)
{
    if (b - a < static_cast<int64_t>(sub.size()))
        return -1;
    std::u32string_view view(s.data() + a, static_cast<size_t>(b - a));
    size_t pos = reverse ? view.rfind(sub) : view.find(sub);
    return pos == std::u32string_view::npos ? -1 : a + static_cast<int64_t>(pos);
}

Value strFind(const Value& self, const CallArgs& args, const char* name, bool reverse, bool raise)
{
    auto p = bindArgs(name, args, {"sub", "start", "end"});
    std::u32string s = u32(self.asString());
    std::u32string sub = strArg(p[0], name);
    int64_t a, b;
    clampRange(p[1], p[2], static_cast<int64_t>(s.size()), a, b);
    int64_t r = a > static_cast<int64_t>(s.size()) ? -1 : findIn(s, sub, a, b, reverse);
    if (r < 0 && raise)
        fail("substring not found");
    return Value(r);
}

Value strCount(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("count", args, {"sub", "start", "end"});
    std::u32string s = u32(self.asString());
    std::u32string sub = strArg(p[0], "count");
    int64_t a, b;
    clampRange(p[1], p[2], static_cast<int64_t>(s.size()), a, b);
    if (a > b)
        return Value(int64_t(0));
    if (sub.empty())
        return Value(b - a + 1);
    int64_t n = 0;
    std::u32string_view view(s.data() + a, static_cast<size_t>(b - a));
    size_t pos = 0;
    while ((pos = view.find(sub, pos)) != std::u32string_view::npos) {
        ++n;
        pos += sub.size();
    }
    return Value(n);
}

Value strSplit(const Value& self, const CallArgs& args, bool right)
{
    const char* name = right ? "rsplit" : "split";
    auto p = bindArgs(name, args, {"sep", "maxsplit"});
    std::u32string s = u32(self.asString());
    int64_t maxsplit = argInt(p[1], -1);
    List out;
    if (!p[0] || p[0]->isNull()) {
        for (auto& part : splitWhitespace(s, maxsplit, right))
            out.emplace_back(u8(part));
        return Value(std::move(out));
    }
    std::u32string sep = strArg(p[0], name, "separator");
    if (sep.empty())
        fail("empty separator");
    if (maxsplit < 0)
        maxsplit = INT64_MAX;
    std::vector<std::u32string> parts;
    if (!right) {
        size_t start = 0;
        while (static_cast<int64_t>(parts.size()) < maxsplit) {
            size_t pos = s.find(sep, start);
            if (pos == std::u32string::npos)
                break;
            parts.push_back(s.substr(start, pos - start));
            start = pos + sep.size();
        }
        parts.push_back(s.substr(start));
    } else {
        size_t end = s.size();
        while (static_cast<int64_t>(parts.size()) < maxsplit && end >= sep.size()) {
            size_t pos = s.rfind(sep, end - sep.size());
            if (pos == std::u32string::npos)
                break;
            parts.push_back(s.substr(pos + sep.size(), end - pos - sep.size()));
            end = pos;
        }
        parts.push_back(s.substr(0, end));
        std::reverse(parts.begin(), parts.end());
    }
    for (auto& part : parts)
        out.emplace_back(u8(part));
    return Value(std::move(out));
}

Value strStrip(const Value& self, const CallArgs& args, const char* name, bool left, bool right)
{
    auto p = bindArgs(name, args, {"chars"});
    std::u32string s = u32(self.asString());
    if (!p[0] || p[0]->isNull())
        return Value(u8(stripChars(s, nullptr, left, right)));
    std::u32string chars = strArg(p[0], name, "arg");
    return Value(u8(stripChars(s, &chars, left, right)));
}

Value strStartsEnds(const Value& self, const CallArgs& args, bool ends)
{
    const char* name = ends ? "endswith" : "startswith";
    auto p = bindArgs(name, args, {"prefix", "start", "end"});
    if (!p[0])
        fail(std::string(name) + "() takes at least 1 argument (0 given)");
    std::u32string s = u32(self.asString());
    int64_t a, b;
    clampRange(p[1], p[2], static_cast<int64_t>(s.size()), a, b);
    List candidates;
    if (p[0]->isTuple()) {
        for (const Value& v : p[0]->asList()) {
            if (!v.isString())
                fail(std::string("tuple for ") + name + " must only contain str, not " +
                     v.typeName());
            candidates.push_back(v);
        }
    } else if (p[0]->isString()) {
        candidates.push_back(*p[0]);
    } else {
        requireDefined(*p[0]);
        fail(std::string(name) + " first arg must be str or a tuple of str, not " +
             p[0]->typeName());
    }
    if (a > static_cast<int64_t>(s.size()))
        return Value(false);
    std::u32string_view view(s.data() + a, static_cast<size_t>(std::max<int64_t>(0, b - a)));
    for (const Value& c : candidates) {
        std::u32string x = u32(c.asString());
        if (a > b)
            continue;
        if (x.size() <= view.size() &&
            (ends ? view.substr(view.size() - x.size()) == x : view.substr(0, x.size()) == x))
            return Value(true);
    }
    return Value(false);
}

Value strReplace(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("replace", args, {"old", "new", "count"});
    std::u32string s = u32(self.asString());
    std::u32string from = strArg(p[0], "replace", "argument 1");
    std::u32string to = strArg(p[1], "replace", "argument 2");
    int64_t count = argInt(p[2], -1);
    if (count < 0)
        count = INT64_MAX;
    std::u32string out;
    if (from.empty()) {
        int64_t n = 0;
        for (size_t i = 0; i <= s.size(); ++i) {
            if (n < count) {
                out += to;
                ++n;
            }
            if (i < s.size())
                out.push_back(s[i]);
        }
        return Value(u8(out));
    }
    size_t start = 0;
    int64_t n = 0;
    while (n < count) {
        size_t pos = s.find(from, start);
        if (pos == std::u32string::npos)
            break;
        out.append(s, start, pos - start);
        out += to;
        start = pos + from.size();
        ++n;
    }
    out.append(s, start);
    return Value(u8(out));
}

Value strJoin(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("join", args, {"iterable"});
    if (!p[0])
        fail("join() takes exactly one argument (0 given)");
    requireDefined(*p[0]);
    if (!p[0]->isList() && !p[0]->isDict() && !p[0]->isString())
        fail("can only join an iterable");
    List items = iterate(*p[0]);
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (!items[i].isString())
            fail("sequence item " + std::to_string(i) + ": expected str instance, " +
                 items[i].typeName() + " found");
        if (i)
            out += self.asString();
        out += items[i].asString();
    }
    return Value(out);
}

template <bool (*Pred)(char32_t)>
Value strIsAll(const Value& self, const CallArgs& args, const char* name)
{
    bindArgs(name, args, {});
    std::u32string s = u32(self.asString());
    if (s.empty())
        return Value(false);
    return Value(std::all_of(s.begin(), s.end(), Pred));
}

bool isAlnumCp(char32_t c)
{
    return isAlphaCp(c) || isDecimalCp(c) || isDigitCp(c) || isNumericCp(c);
}

Value strCaseCheck(const Value& self, const CallArgs& args, const char* name, bool upper)
{
    bindArgs(name, args, {});
    bool cased = false;
    for (char32_t c : u32(self.asString())) {
        if (upper ? (isLowerCp(c) || isTitleCp(c)) : (isUpperCp(c) || isTitleCp(c)))
            return Value(false);
        if (upper ? isUpperCp(c) : isLowerCp(c))
            cased = true;
    }
    return Value(cased);
}

Value strIsTitle(const Value& self, const CallArgs& args)
{
    bindArgs("istitle", args, {});
    bool cased = false, prevCased = false;
    for (char32_t c : u32(self.asString())) {
        if (isUpperCp(c) || isTitleCp(c)) {
            if (prevCased)
                return Value(false);
            prevCased = cased = true;
        } else if (isLowerCp(c)) {
            if (!prevCased)
                return Value(false);
            prevCased = cased = true;
        } else {
            prevCased = false;
        }
    }
    return Value(cased);
}

Value strPad(const Value& self, const CallArgs& args, const char* name, char align)
{
    auto p = bindArgs(name, args, {"width", "fillchar"});
    if (!p[0])
        fail(std::string(name) + "() takes at least 1 argument (0 given)");
    int64_t width = toIndex(*p[0]);
    char32_t fill = ' ';
    if (p[1]) {
        std::u32string f = strArg(p[1], name, "argument 2");
        if (f.size() != 1)
            fail("The fill character must be exactly one character long");
        fill = f[0];
    }
    return Value(padString(self.asString(), width, fill, align));
}

Value strZfill(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("zfill", args, {"width"});
    if (!p[0])
        fail("zfill() takes exactly one argument (0 given)");
    int64_t width = toIndex(*p[0]);
    if (width > expr::kMaxResultSize)
        fail("zfill width " + std::to_string(width) + " is too large (at most " +
             std::to_string(expr::kMaxResultSize) + ")");
    std::u32string s = u32(self.asString());
    if (width <= static_cast<int64_t>(s.size()))
        return self;
    size_t fill = static_cast<size_t>(width) - s.size();
    size_t at = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
    s.insert(at, std::u32string(fill, U'0'));
    return Value(u8(s));
}

Value strPartition(const Value& self, const CallArgs& args, bool right)
{
    const char* name = right ? "rpartition" : "partition";
    auto p = bindArgs(name, args, {"sep"});
    std::u32string sep = strArg(p[0], name);
    if (sep.empty())
        fail("empty separator");
    std::u32string s = u32(self.asString());
    size_t pos = right ? s.rfind(sep) : s.find(sep);
    if (pos == std::u32string::npos) {
        if (right)
            return Value::tuple({Value(""), Value(""), self});
        return Value::tuple({self, Value(""), Value("")});
    }
    return Value::tuple(
        {Value(u8(s.substr(0, pos))), Value(u8(sep)), Value(u8(s.substr(pos + sep.size())))});
}

Value strRemoveAffix(const Value& self, const CallArgs& args, bool suffix)
{
    const char* name = suffix ? "removesuffix" : "removeprefix";
    auto p = bindArgs(name, args, {"affix"});
    std::u32string a = strArg(p[0], name);
    std::u32string s = u32(self.asString());
    if (a.empty() || a.size() > s.size())
        return self;
    if (suffix && s.compare(s.size() - a.size(), a.size(), a) == 0)
        return Value(u8(s.substr(0, s.size() - a.size())));
    if (!suffix && s.compare(0, a.size(), a) == 0)
        return Value(u8(s.substr(a.size())));
    return self;
}

Value strExpandTabs(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("expandtabs", args, {"tabsize"});
    int64_t tab = argInt(p[0], 8);
    std::u32string out;
    int64_t col = 0;
    for (char32_t c : u32(self.asString())) {
        if (c == '\t') {
            if (tab > 0) {
                int64_t n = tab - col % tab;
                out.append(static_cast<size_t>(n), U' ');
                col += n;
            }
        } else {
            out.push_back(c);
            col = (c == '\n' || c == '\r') ? 0 : col + 1;
        }
    }
    return Value(u8(out));
}

Value strSplitLines(const Value& self, const CallArgs& args)
{
    auto p = bindArgs("splitlines", args, {"keepends"});
    List out;
    for (auto& line : splitLines(u32(self.asString()), argBool(p[0], false)))
        out.emplace_back(u8(line));
    return Value(std::move(out));
}

Value noArgs(const CallArgs& args, const char* name, std::string result)
{
    bindArgs(name, args, {});
    return Value(std::move(result));
}

bool isAsciiCp(char32_t c)
{
    return c < 0x80;
}

bool isIdentifier(const std::u32string& s)
{
    if (s.empty())
        return false;
    for (size_t i = 0; i < s.size(); ++i) {
        char32_t c = s[i];
        bool ok = c == '_' || isAlphaCp(c) || (i > 0 && isWordCp(c));
        if (!ok)
            return false;
    }
    return true;
}

// Cutting and joining: split, strip, partition, replace and their kin.
void addSplitMethods(MethodTable& table)
{
    table.insert({
        {"split",
         [](const Value& s, const CallArgs& a) {
             return strSplit(s, a, false);
         }},
        {"rsplit",
         [](const Value& s, const CallArgs& a) {
             return strSplit(s, a, true);
         }},
        {"strip",
         [](const Value& s, const CallArgs& a) {
             return strStrip(s, a, "strip", true, true);
         }},
        {"lstrip",
         [](const Value& s, const CallArgs& a) {
             return strStrip(s, a, "lstrip", true, false);
         }},
        {"rstrip",
         [](const Value& s, const CallArgs& a) {
             return strStrip(s, a, "rstrip", false, true);
         }},
        {"partition",
         [](const Value& s, const CallArgs& a) {
             return strPartition(s, a, false);
         }},
        {"rpartition",
         [](const Value& s, const CallArgs& a) {
             return strPartition(s, a, true);
         }},
        {"splitlines", strSplitLines},
        {"join", strJoin},
        {"replace", strReplace},
        {"removeprefix",
         [](const Value& s, const CallArgs& a) {
             return strRemoveAffix(s, a, false);
         }},
        {"removesuffix",
         [](const Value& s, const CallArgs& a) {
             return strRemoveAffix(s, a, true);
         }},
        {"expandtabs", strExpandTabs},
    });
}

// Case: converting it and asking about it.
void addCaseMethods(MethodTable& table)
{
    table.insert({
        {"upper",
         [](const Value& s, const CallArgs& a) {
             return noArgs(a, "upper", toUpper(s.asString()));
         }},
        {"lower",
         [](const Value& s, const CallArgs& a) {
             return noArgs(a, "lower", toLower(s.asString()));
         }},
        {"casefold",
         [](const Value& s, const CallArgs& a) {
             return noArgs(a, "casefold", caseFold(s.asString()));
         }},
        {"title",
         [](const Value& s, const CallArgs& a) {
             return noArgs(a, "title", pyTitle(s.asString()));
         }},
        {"capitalize",
         [](const Value& s, const CallArgs& a) {
             return noArgs(a, "capitalize", pyCapitalize(s.asString()));
         }},
        {"swapcase",
         [](const Value& s, const CallArgs& a) {
             return noArgs(a, "swapcase", pySwapcase(s.asString()));
         }},
        {"isupper",
         [](const Value& s, const CallArgs& a) {
             return strCaseCheck(s, a, "isupper", true);
         }},
        {"islower",
         [](const Value& s, const CallArgs& a) {
             return strCaseCheck(s, a, "islower", false);
         }},
        {"istitle", strIsTitle},
    });
}

// Searching: where a substring is, how often, at which end.
void addSearchMethods(MethodTable& table)
{
    table.insert({
        {"startswith",
         [](const Value& s, const CallArgs& a) {
             return strStartsEnds(s, a, false);
         }},
        {"endswith",
         [](const Value& s, const CallArgs& a) {
             return strStartsEnds(s, a, true);
         }},
        {"find",
         [](const Value& s, const CallArgs& a) {
             return strFind(s, a, "find", false, false);
         }},
        {"rfind",
         [](const Value& s, const CallArgs& a) {
             return strFind(s, a, "rfind", true, false);
         }},
        {"index",
         [](const Value& s, const CallArgs& a) {
             return strFind(s, a, "index", false, true);
         }},
        {"rindex",
         [](const Value& s, const CallArgs& a) {
             return strFind(s, a, "rindex", true, true);
         }},
        {"count", strCount},
    });
}

// Character classes: is every character a digit, a letter, ...
void addClassMethods(MethodTable& table)
{
    table.insert({
        {"isdigit",
         [](const Value& s, const CallArgs& a) {
             return strIsAll<isDigitCp>(s, a, "isdigit");
         }},
        {"isalpha",
         [](const Value& s, const CallArgs& a) {
             return strIsAll<isAlphaCp>(s, a, "isalpha");
         }},
        {"isalnum",
         [](const Value& s, const CallArgs& a) {
             return strIsAll<isAlnumCp>(s, a, "isalnum");
         }},
        {"isspace",
         [](const Value& s, const CallArgs& a) {
             return strIsAll<isPySpace>(s, a, "isspace");
         }},
        {"isnumeric",
         [](const Value& s, const CallArgs& a) {
             return strIsAll<isNumericCp>(s, a, "isnumeric");
         }},
        {"isdecimal",
         [](const Value& s, const CallArgs& a) {
             return strIsAll<isDecimalCp>(s, a, "isdecimal");
         }},
        {"isascii",
         [](const Value& s, const CallArgs& a) {
             bindArgs("isascii", a, {});
             std::u32string t = u32(s.asString());
             return Value(std::all_of(t.begin(), t.end(), isAsciiCp));
         }},
        {"isidentifier",
         [](const Value& s, const CallArgs& a) {
             bindArgs("isidentifier", a, {});
             return Value(isIdentifier(u32(s.asString())));
         }},
    });
}

// Formatting and padding.
void addLayoutMethods(MethodTable& table)
{
    table.insert({
        {"format",
         [](const Value& s, const CallArgs& a) {
             return Value(strFormat(s.asString(), a));
         }},
        {"format_map",
         [](const Value& s, const CallArgs& a) {
             auto p = bindArgs("format_map", a, {"mapping"});
             if (!p[0] || !p[0]->isDict())
                 fail("format_map() argument must be a mapping");
             CallArgs kw;
             for (const auto& [k, v] : p[0]->asDict())
                 kw.keyword.emplace_back(k.str(), v);
             return Value(strFormat(s.asString(), kw));
         }},
        {"zfill", strZfill},
        {"center",
         [](const Value& s, const CallArgs& a) {
             return strPad(s, a, "center", 'c');
         }},
        {"ljust",
         [](const Value& s, const CallArgs& a) {
             return strPad(s, a, "ljust", '<');
         }},
        {"rjust",
         [](const Value& s, const CallArgs& a) {
             return strPad(s, a, "rjust", '>');
         }},
    });
}

} // namespace

const MethodTable& strMethods()
{
    static const MethodTable table = [] {
        MethodTable t;
        addSplitMethods(t);
        addCaseMethods(t);
        addSearchMethods(t);
        addClassMethods(t);
        addLayoutMethods(t);
        return t;
    }();
    return table;
}

} // namespace hako::pdl::builtins::detail
