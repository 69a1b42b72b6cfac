// Jinja2's text-layout filters: wordwrap (Python's textwrap), truncate, indent, title, ...

#include "core/pdl/expr/filters_p.h"

#include <algorithm>

namespace hako::pdl::builtins::detail {

namespace {

std::string text(const Value& v)
{
    requireDefined(v);
    return v.isString() ? v.asString() : v.str();
}

// textwrap's whitespace is ASCII only.
bool isWrapSpace(char32_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == 0x0c;
}

bool isLetter(char32_t c)
{
    return c == '_' || isAlphaCp(c);
}

// textwrap's chunking: whitespace runs and words; words split after hyphens between letters.
std::vector<std::u32string> chunksOf(const std::u32string& s, bool hyphens)
{
    std::vector<std::u32string> chunks;
    size_t i = 0;
    while (i < s.size()) {
        size_t j = i;
        bool ws = isWrapSpace(s[i]);
        while (j < s.size() && isWrapSpace(s[j]) == ws)
            ++j;
        if (ws || !hyphens) {
            chunks.push_back(s.substr(i, j - i));
        } else {
            size_t start = i;
            for (size_t k = i; k < j; ++k) {
                // textwrap's wordsep_re: a hyphen after two letters (or letter-hyphen-letter)
                // and before letter, optional hyphen, letter
                bool behind =
                    k >= 2 && isLetter(s[k - 1]) &&
                    (isLetter(s[k - 2]) || (k >= 3 && s[k - 2] == '-' && isLetter(s[k - 3])));
                bool ahead = k + 1 < j && isLetter(s[k + 1]) &&
                             ((k + 2 < j && isLetter(s[k + 2])) ||
                              (k + 3 < j && s[k + 2] == '-' && isLetter(s[k + 3])));
                bool split = s[k] == '-' && k >= start + 1 && behind && ahead;
                if (split) {
                    chunks.push_back(s.substr(start, k + 1 - start));
                    start = k + 1;
                }
            }
            chunks.push_back(s.substr(start, j - start));
        }
        i = j;
    }
    return chunks;
}

bool blank(const std::u32string& s)
{
    for (char32_t c : s) {
        if (!isPySpace(c))
            return false;
    }
    return true;
}

std::vector<std::u32string> wrapLine(const std::u32string& line, int64_t width, bool breakLong,
                                     bool hyphens)
{
    std::vector<std::u32string> chunks = chunksOf(line, hyphens);
    std::reverse(chunks.begin(), chunks.end());
    std::vector<std::u32string> lines;
    while (!chunks.empty()) {
        std::vector<std::u32string> cur;
        int64_t len = 0;
        if (blank(chunks.back()) && !lines.empty())
            chunks.pop_back();
        while (!chunks.empty()) {
            int64_t l = static_cast<int64_t>(chunks.back().size());
            if (len + l > width)
                break;
            cur.push_back(chunks.back());
            chunks.pop_back();
            len += l;
        }
        if (!chunks.empty() && static_cast<int64_t>(chunks.back().size()) > width) {
            int64_t spaceLeft = width < 1 ? 1 : width - len;
            if (breakLong) {
                std::u32string& chunk = chunks.back();
                int64_t end = spaceLeft;
                if (hyphens && static_cast<int64_t>(chunk.size()) > spaceLeft) {
                    size_t h = chunk.rfind(U'-', static_cast<size_t>(spaceLeft - 1));
                    if (spaceLeft > 0 && h != std::u32string::npos && h > 0 &&
                        chunk.find_first_not_of(U'-') < h)
                        end = static_cast<int64_t>(h) + 1;
                }
                cur.push_back(chunk.substr(0, static_cast<size_t>(end)));
                chunk = chunk.substr(static_cast<size_t>(end));
            } else if (cur.empty()) {
                cur.push_back(chunks.back());
                chunks.pop_back();
            }
        }
        if (!cur.empty() && blank(cur.back()))
            cur.pop_back();
        if (!cur.empty()) {
            std::u32string joined;
            for (auto& c : cur)
                joined += c;
            lines.push_back(joined);
        }
    }
    return lines;
}

} // namespace

std::string htmlEscape(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&#34;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out.push_back(c);
        }
    }
    return out;
}

Value filterWordwrap(const Value& v, const CallArgs& args)
{
    auto p =
        bindArgs("wordwrap", args, {"width", "break_long_words", "wrapstring", "break_on_hyphens"});
    int64_t width = argInt(p[0], 79);
    bool breakLong = argBool(p[1], true);
    std::string wrap = p[2] && !p[2]->isNull() ? text(*p[2]) : "\n";
    bool hyphens = argBool(p[3], true);
    requireDefined(v);
    if (!v.isString())
        fail(std::string("'") + v.typeName() + "' object has no attribute 'splitlines'");
    if (width <= 0)
        fail("invalid width " + std::to_string(width) + " (must be > 0)");
    std::string out;
    bool firstLine = true;
    for (const auto& line : splitLines(u32(text(v)), false)) {
        if (!firstLine)
            out += wrap;
        firstLine = false;
        bool first = true;
        for (const auto& piece : wrapLine(line, width, breakLong, hyphens)) {
            if (!first)
                out += wrap;
            first = false;
            out += u8(piece);
        }
    }
    return Value(out);
}

Value filterTruncate(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("truncate", args, {"length", "killwords", "end", "leeway"});
    int64_t length = argInt(p[0], 255);
    bool killwords = argBool(p[1], false);
    std::u32string end = u32(p[2] ? text(*p[2]) : "...");
    int64_t leeway = p[3] && !p[3]->isNull() ? toIndex(*p[3]) : 5;
    requireDefined(v);
    if (!v.isString()) {
        // Jinja measures the value itself: a short list passes through, anything else fails
        if (!v.isList() && !v.isDict())
            fail(std::string("object of type '") + v.typeName() + "' has no len()");
        if (v.length() <= length + leeway)
            return v;
        fail(std::string("'") + v.typeName() + "' object has no attribute 'rsplit'");
    }
    std::u32string s = u32(v.asString());
    int64_t endLen = static_cast<int64_t>(end.size());
    if (length < endLen)
        fail("expected length >= " + std::to_string(endLen) + ", got " + std::to_string(length));
    if (leeway < 0)
        fail("expected leeway >= 0, got " + std::to_string(leeway));
    if (static_cast<int64_t>(s.size()) <= length + leeway)
        return Value(u8(s));
    std::u32string head = s.substr(0, static_cast<size_t>(length - endLen));
    if (killwords)
        return Value(u8(head + end));
    size_t space = head.rfind(U' ');
    if (space != std::u32string::npos)
        head = head.substr(0, space);
    return Value(u8(head + end));
}

Value filterIndent(const Value& v, const CallArgs& args)
{
    auto p = bindArgs("indent", args, {"width", "first", "blank"});
    std::string indention;
    if (p[0] && p[0]->isString())
        indention = p[0]->asString();
    else
        indention = std::string(static_cast<size_t>(std::max<int64_t>(0, argInt(p[0], 4))), ' ');
    bool first = argBool(p[1], false);
    bool blankLines = argBool(p[2], false);
    requireDefined(v);
    if (v.isList() || v.isDict())
        fail(std::string("'") + v.typeName() + "' object has no attribute 'splitlines'");
    if (!v.isString())
        fail(std::string("unsupported operand type(s) for +=: '") + v.typeName() + "' and 'str'");
    std::u32string s = u32(v.asString());
    s += U'\n';
    std::vector<std::u32string> lines = splitLines(s, false);
    std::string rv;
    if (blankLines) {
        for (size_t i = 0; i < lines.size(); ++i) {
            if (i)
                rv += "\n" + indention;
            rv += u8(lines[i]);
        }
    } else {
        rv = lines.empty() ? "" : u8(lines[0]);
        for (size_t i = 1; i < lines.size(); ++i) {
            rv += "\n";
            if (!lines[i].empty())
                rv += indention;
            rv += u8(lines[i]);
        }
    }
    if (first)
        rv = indention + rv;
    return Value(rv);
}

Value filterTitle(const Value& v, const CallArgs& args)
{
    bindArgs("title", args, {});
    // Jinja capitalises after whitespace, '-', '(', '{', '[' and '<' only.
    std::u32string s = u32(text(v)), out;
    bool start = true;
    for (char32_t c : s) {
        bool sep = isPySpace(c) || c == '-' || c == '(' || c == '{' || c == '[' || c == '<';
        if (sep) {
            out.push_back(c);
            start = true;
        } else if (start) {
            out += upperCp(c);
            start = false;
        } else {
            out += lowerCp(c);
        }
    }
    return Value(u8(out));
}

Value filterWordcount(const Value& v, const CallArgs& args)
{
    bindArgs("wordcount", args, {});
    int64_t n = 0;
    bool inWord = false;
    for (char32_t c : u32(text(v))) {
        bool w = isWordCp(c);
        if (w && !inWord)
            ++n;
        inWord = w;
    }
    return Value(n);
}

Value filterStriptags(const Value& v, const CallArgs& args)
{
    bindArgs("striptags", args, {});
    std::string s = text(v), stripped;
    size_t i = 0;
    while (i < s.size()) {
        if (s.compare(i, 4, "<!--") == 0) {
            size_t e = s.find("-->", i + 4);
            if (e != std::string::npos) {
                i = e + 3;
                continue;
            }
        }
        if (s[i] == '<') {
            size_t e = s.find('>', i + 1);
            if (e != std::string::npos) {
                i = e + 1;
                continue;
            }
        }
        stripped.push_back(s[i++]);
    }
    CallArgs none;
    List words = callMethod(Value(stripped), "split", none).asList();
    std::string joined;
    for (size_t k = 0; k < words.size(); ++k) {
        if (k)
            joined += " ";
        joined += words[k].asString();
    }
    // unescape the common entities
    static const std::pair<const char*, const char*> entities[] = {
        {"&lt;", "<"},  {"&gt;", ">"},   {"&quot;", "\""},       {"&#34;", "\""},
        {"&#39;", "'"}, {"&#x27;", "'"}, {"&nbsp;", "\xc2\xa0"}, {"&amp;", "&"}};
    std::string out;
    for (size_t k = 0; k < joined.size();) {
        bool matched = false;
        if (joined[k] == '&') {
            for (const auto& [from, to] : entities) {
                size_t n = std::char_traits<char>::length(from);
                if (joined.compare(k, n, from) == 0) {
                    out += to;
                    k += n;
                    matched = true;
                    break;
                }
            }
        }
        if (!matched)
            out.push_back(joined[k++]);
    }
    return Value(out);
}

} // namespace hako::pdl::builtins::detail
