#include "core/pdl/parsers/tolerantjson.h"

#include "core/util/chars.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

// The reference interpreter parses `parser: json` with the json_repair package, which accepts
// much of what language models write around and inside JSON. This is not a copy of that
// package: it is one recursive-descent reader with a strict mode (Python's json.loads grammar
// and messages, used first so valid JSON always means what it says) and a lenient mode that
// accepts the slips listed in the header. Candidates are tried from the most to the least
// literal reading of the reply.

namespace hako::pdl::parsers {

namespace {

constexpr int kMaxDepth = 1000;
// Starting points tried when the value is buried in prose; bounds the work on replies full of
// brackets that never parse.
constexpr int kMaxScanStarts = 200;

struct Failure {
    size_t pos;
    std::string message;
};

struct Mode {
    bool lenient = false;
    bool truncated = false; ///< end of text closes open strings and containers
};

bool isWs(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

class Reader {
public:
    Reader(std::string_view text, Mode mode) : m_text(text), m_mode(mode) {}

    /// Parses one value at `pos`; with `toEnd` only whitespace (and, leniently, comments) may
    /// follow. Throws Failure.
    Value parse(size_t pos, bool toEnd)
    {
        m_pos = pos;
        skip();
        Value v = value(0);
        skip();
        if (toEnd && m_pos < m_text.size())
            fail("Extra data");
        return v;
    }

private:
    [[noreturn]] void fail(std::string message) { throw Failure{m_pos, std::move(message)}; }
    [[noreturn]] void failAt(size_t pos, std::string message)
    {
        throw Failure{pos, std::move(message)};
    }

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }

    void skip()
    {
        while (m_pos < m_text.size()) {
            char c = m_text[m_pos];
            if (isWs(c)) {
                ++m_pos;
            } else if (m_mode.lenient && (c == '#' || m_text.substr(m_pos, 2) == "//")) {
                size_t nl = m_text.find('\n', m_pos);
                m_pos = nl == std::string_view::npos ? m_text.size() : nl + 1;
            } else if (m_mode.lenient && m_text.substr(m_pos, 2) == "/*") {
                size_t end = m_text.find("*/", m_pos + 2);
                m_pos = end == std::string_view::npos ? m_text.size() : end + 2;
            } else {
                break;
            }
        }
    }

    bool startsWord(std::string_view word) const
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        if (!m_mode.lenient)
            return true;
        // Leniently, `Nonexistent` is an unquoted word, not None followed by junk.
        size_t after = m_pos + word.size();
        return after >= m_text.size() || !isWordChar(m_text[after]);
    }

    static bool isWordChar(char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_' ||
               c == '$' || (static_cast<unsigned char>(c) & 0x80);
    }

    Value value(int depth)
    {
        if (depth > kMaxDepth)
            fail("JSON nested too deeply");
        if (atEnd())
            fail("Expecting value");
        const char c = peek();
        switch (c) {
        case '{':
            return object(depth);
        case '[':
            return array(depth);
        case '"':
            return Value(string('"'));
        case '\'':
            if (m_mode.lenient)
                return Value(string('\''));
            break;
        default:
            break;
        }
        static constexpr std::pair<std::string_view, int> literals[] = {
            {"true", 1}, {"false", 0}, {"null", 2}, {"NaN", 3}, {"Infinity", 4}};
        for (const auto& [word, kind] : literals) {
            if (startsWord(word)) {
                m_pos += word.size();
                return literal(kind);
            }
        }
        if (m_mode.lenient) {
            static constexpr std::pair<std::string_view, int> python[] = {
                {"True", 1}, {"False", 0}, {"None", 2}};
            for (const auto& [word, kind] : python) {
                if (startsWord(word)) {
                    m_pos += word.size();
                    return literal(kind);
                }
            }
        }
        if (c == '-' && m_text.substr(m_pos, 9) == "-Infinity") {
            m_pos += 9;
            return Value(-std::numeric_limits<double>::infinity());
        }
        if (isDigit(c) || c == '-' || (m_mode.lenient && (c == '+' || c == '.'))) {
            size_t save = m_pos;
            if (auto v = number())
                return *v;
            m_pos = save;
        }
        if (m_mode.lenient && depth > 0)
            return unquotedWord();
        fail("Expecting value");
    }

    static Value literal(int kind)
    {
        switch (kind) {
        case 0:
            return Value(false);
        case 1:
            return Value(true);
        case 3:
            return Value(std::numeric_limits<double>::quiet_NaN());
        case 4:
            return Value(std::numeric_limits<double>::infinity());
        default:
            return Value();
        }
    }

    // A number per JSON's grammar (leniently also +1, .5, 5., 007). Returns nothing when the
    // text there is not a number at all.
    std::optional<Value> number()
    {
        const size_t start = m_pos;
        size_t p = m_pos;
        if (p < m_text.size() && (m_text[p] == '-' || (m_mode.lenient && m_text[p] == '+')))
            ++p;
        const size_t intStart = p;
        while (p < m_text.size() && isDigit(m_text[p]))
            ++p;
        size_t intDigits = p - intStart;
        if (!m_mode.lenient) {
            if (intDigits == 0)
                return std::nullopt;
            if (intDigits > 1 && m_text[intStart] == '0')
                p = intStart + 1; // json.loads reads "0" and then reports extra data
        }
        bool isFloat = false;
        size_t fracDigits = 0;
        if (p < m_text.size() && m_text[p] == '.') {
            size_t q = p + 1;
            while (q < m_text.size() && isDigit(m_text[q]))
                ++q;
            fracDigits = q - p - 1;
            if (fracDigits > 0 || (m_mode.lenient && intDigits > 0)) {
                isFloat = true;
                p = q;
            }
        }
        if (intDigits == 0 && fracDigits == 0)
            return std::nullopt;
        if (p < m_text.size() && (m_text[p] == 'e' || m_text[p] == 'E')) {
            size_t q = p + 1;
            if (q < m_text.size() && (m_text[q] == '+' || m_text[q] == '-'))
                ++q;
            size_t expStart = q;
            while (q < m_text.size() && isDigit(m_text[q]))
                ++q;
            if (q > expStart) {
                isFloat = true;
                p = q;
            }
        }
        if (m_mode.lenient && p < m_text.size() && isWordChar(m_text[p]))
            return std::nullopt; // `1st`, `2024-01-01`-like words are words
        std::string digits(m_text.substr(start, p - start));
        if (!digits.empty() && digits[0] == '+')
            digits.erase(0, 1);
        m_pos = p;
        if (!isFloat) {
            int64_t i = 0;
            auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i);
            if (ec == std::errc() && end == digits.data() + digits.size())
                return Value(i);
            // Python would keep a big integer; the nearest float is the closest Value.
        }
        double d = 0;
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
        if (ec == std::errc::result_out_of_range)
            d = digits[0] == '-' ? -HUGE_VAL : HUGE_VAL;
        else if (ec != std::errc())
            failAt(start, "Expecting value");
        return Value(d);
    }

    static void appendUtf8(std::string& out, uint32_t cp) { utf8::append(out, char32_t(cp)); }

    std::string string(char quote)
    {
        const size_t start = m_pos;
        ++m_pos;
        std::string out;
        while (true) {
            if (atEnd()) {
                if (m_mode.truncated)
                    return out;
                failAt(start, "Unterminated string starting at");
            }
            char c = m_text[m_pos];
            if (c == quote) {
                ++m_pos;
                return out;
            }
            if (c == '\\') {
                if (m_pos + 1 >= m_text.size()) {
                    if (m_mode.truncated) {
                        ++m_pos;
                        return out;
                    }
                    failAt(start, "Unterminated string starting at");
                }
                char e = m_text[m_pos + 1];
                switch (e) {
                case '"':
                case '\\':
                case '/':
                    out += e;
                    m_pos += 2;
                    continue;
                case 'b':
                    out += '\b';
                    m_pos += 2;
                    continue;
                case 'f':
                    out += '\f';
                    m_pos += 2;
                    continue;
                case 'n':
                    out += '\n';
                    m_pos += 2;
                    continue;
                case 'r':
                    out += '\r';
                    m_pos += 2;
                    continue;
                case 't':
                    out += '\t';
                    m_pos += 2;
                    continue;
                case 'u': {
                    uint32_t cp = 0;
                    if (!hex4(m_pos + 2, cp)) {
                        if (!m_mode.lenient)
                            fail("Invalid \\uXXXX escape");
                        out += "\\u";
                        m_pos += 2;
                        continue;
                    }
                    m_pos += 6;
                    if (cp >= 0xD800 && cp < 0xDC00 && m_text.substr(m_pos, 2) == "\\u") {
                        uint32_t low = 0;
                        if (hex4(m_pos + 2, low) && low >= 0xDC00 && low < 0xE000) {
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                            m_pos += 6;
                        }
                    }
                    // A lone surrogate has no UTF-8 form.
                    if (cp >= 0xD800 && cp < 0xE000)
                        cp = 0xFFFD;
                    appendUtf8(out, cp);
                    continue;
                }
                default:
                    if (!m_mode.lenient)
                        fail("Invalid \\escape");
                    if (e == quote) {
                        out += e;
                    } else {
                        // `\d` in a model's regex: keep the backslash, as the model meant it.
                        out += '\\';
                        out += e;
                    }
                    m_pos += 2;
                    continue;
                }
            }
            if (static_cast<unsigned char>(c) < 0x20 && !m_mode.lenient)
                fail("Invalid control character at");
            out += c;
            ++m_pos;
        }
    }

    bool hex4(size_t at, uint32_t& cp) const
    {
        if (at + 4 > m_text.size())
            return false;
        cp = 0;
        for (size_t i = at; i < at + 4; ++i) {
            int h = hexDigitValue(m_text[i]);
            if (h < 0)
                return false;
            cp = cp * 16 + uint32_t(h);
        }
        return true;
    }

    // A bare word in a value or key position, up to a delimiter (lenient only).
    Value unquotedWord(bool key = false)
    {
        const size_t start = m_pos;
        while (!atEnd()) {
            char c = peek();
            if (c == ',' || c == '}' || c == ']' || c == '\n' || c == '{' || c == '[' ||
                (key && (c == ':' || isWs(c))))
                break;
            ++m_pos;
        }
        std::string_view word = m_text.substr(start, m_pos - start);
        while (!word.empty() && isWs(word.back()))
            word.remove_suffix(1);
        if (word.empty() || word.front() == '"' || word.front() == '\'')
            failAt(start,
                   key ? "Expecting property name enclosed in double quotes" : "Expecting value");
        return Value(word);
    }

    Value key()
    {
        char c = peek();
        if (c == '"')
            return Value(string('"'));
        if (m_mode.lenient) {
            if (c == '\'')
                return Value(string('\''));
            if (!atEnd() && c != ':' && c != ',' && c != '}' && c != ']')
                return unquotedWord(true);
        }
        fail("Expecting property name enclosed in double quotes");
    }

    Value object(int depth)
    {
        ++m_pos;
        Dict dict;
        skip();
        if (peek() == '}') {
            ++m_pos;
            return Value(std::move(dict));
        }
        while (true) {
            if (atEnd() && m_mode.truncated)
                return Value(std::move(dict));
            Value k = key();
            skip();
            if (peek() != ':') {
                if (atEnd() && m_mode.truncated)
                    return Value(std::move(dict));
                fail("Expecting ':' delimiter");
            }
            ++m_pos;
            skip();
            if (atEnd() && m_mode.truncated)
                return Value(std::move(dict));
            Value v = value(depth + 1);
            dict.set(std::move(k), std::move(v));
            skip();
            char c = peek();
            if (c == '}') {
                ++m_pos;
                return Value(std::move(dict));
            }
            if (c == ',') {
                ++m_pos;
                skip();
                if (m_mode.lenient && peek() == '}') { // trailing comma
                    ++m_pos;
                    return Value(std::move(dict));
                }
                if (!m_mode.lenient && peek() != '"')
                    fail("Expecting property name enclosed in double quotes");
                continue;
            }
            if (atEnd() && m_mode.truncated)
                return Value(std::move(dict));
            if (m_mode.lenient && (c == '"' || c == '\'' || isWordChar(c)))
                continue; // a missing comma between members
            fail("Expecting ',' delimiter");
        }
    }

    Value array(int depth)
    {
        ++m_pos;
        List items;
        skip();
        if (peek() == ']') {
            ++m_pos;
            return Value(std::move(items));
        }
        while (true) {
            if (atEnd() && m_mode.truncated)
                return Value(std::move(items));
            items.push_back(value(depth + 1));
            skip();
            char c = peek();
            if (c == ']') {
                ++m_pos;
                return Value(std::move(items));
            }
            if (c == ',') {
                ++m_pos;
                skip();
                if (m_mode.lenient && peek() == ']') { // trailing comma
                    ++m_pos;
                    return Value(std::move(items));
                }
                continue;
            }
            if (atEnd() && m_mode.truncated)
                return Value(std::move(items));
            if (m_mode.lenient && !atEnd() && c != '}' && c != ':')
                continue; // a missing comma between items
            fail("Expecting ',' delimiter");
        }
    }

    std::string_view m_text;
    Mode m_mode;
    size_t m_pos = 0;
};

// Python's "line L column C (char N)", counting code points.
std::string position(std::string_view text, size_t offset, int& line, int& column)
{
    offset = std::min(offset, text.size());
    line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    column = int(utf8::length(text.substr(lineStart, offset - lineStart))) + 1;
    const int64_t chars = utf8::length(text.substr(0, offset));
    return "line " + std::to_string(line) + " column " + std::to_string(column) + " (char " +
           std::to_string(chars) + ")";
}

Diagnostic diagnostic(std::string_view text, const Failure& f)
{
    int line = 0, column = 0;
    const std::string where = position(text, f.pos, line, column);
    SourceSpan span;
    span.line = span.endLine = line;
    span.column = span.endColumn = column;
    return makeError(QString::fromStdString(f.message + ": " + where), span);
}

bool tryParse(std::string_view text, size_t pos, bool toEnd, Mode mode, Value& out)
{
    try {
        out = Reader(text, mode).parse(pos, toEnd);
        return true;
    } catch (const Failure&) {
        return false;
    }
}

// Contents of ``` fences, in order (an unclosed fence runs to the end of the text).
std::vector<std::string_view> fencedBlocks(std::string_view text)
{
    std::vector<std::string_view> blocks;
    size_t i = 0;
    while ((i = text.find("```", i)) != std::string_view::npos) {
        size_t nl = text.find('\n', i + 3);
        if (nl == std::string_view::npos)
            break;
        size_t close = text.find("```", nl + 1);
        blocks.push_back(text.substr(
            nl + 1, close == std::string_view::npos ? std::string_view::npos : close - nl - 1));
        if (close == std::string_view::npos)
            break;
        i = close + 3;
    }
    return blocks;
}

bool scanForValue(std::string_view text, Mode mode, Value& out)
{
    int starts = 0;
    for (size_t i = text.find_first_of("{[");
         i != std::string_view::npos && starts < kMaxScanStarts;
         i = text.find_first_of("{[", i + 1), ++starts) {
        if (tryParse(text, i, false, mode, out))
            return true;
    }
    return false;
}

} // namespace

Result<Value> parseStrictJson(std::string_view text)
{
    try {
        return Reader(text, Mode{}).parse(0, true);
    } catch (const Failure& f) {
        return diagnostic(text, f);
    }
}

Result<Value> parseTolerantJson(std::string_view text)
{
    Failure strictFailure;
    try {
        return Reader(text, Mode{}).parse(0, true);
    } catch (const Failure& f) {
        strictFailure = f;
    }
    const Mode lenient{true, false};
    const Mode truncated{true, true};
    Value v;
    if (tryParse(text, 0, true, lenient, v))
        return v;
    const std::vector<std::string_view> fences = fencedBlocks(text);
    for (std::string_view block : fences) {
        if (tryParse(block, 0, true, lenient, v) || scanForValue(block, lenient, v))
            return v;
    }
    if (scanForValue(text, lenient, v))
        return v;
    // A reply cut off by a token limit or a stop sequence: close what is open.
    for (std::string_view block : fences) {
        if (scanForValue(block, truncated, v))
            return v;
    }
    if (scanForValue(text, truncated, v))
        return v;
    return diagnostic(text, strictFailure);
}

} // namespace hako::pdl::parsers
