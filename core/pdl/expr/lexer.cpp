#include "core/pdl/expr/lexer.h"
#include "core/util/chars.h"

#include <cstring>

namespace hako::pdl::expr {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Jinja accepts Unicode identifiers; any non-ASCII byte is taken as part of a name.
bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}

bool isNameChar(char c)
{
    return isNameStart(c) || isDigit(c);
}

std::string codePointIndex(std::string_view source, size_t offset)
{
    return std::to_string(utf8::length(source.substr(0, offset)));
}

void appendCodePoint(std::string& out, uint32_t cp)
{
    // Lone surrogates cannot be encoded in UTF-8.
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        cp = 0xFFFD;
    utf8::append(out, static_cast<char32_t>(cp));
}

// Python's "unicode-escape" decoding, which is what Jinja applies to string literals.
std::string unescape(std::string_view body, size_t bodyOffset)
{
    std::string out;
    out.reserve(body.size());
    for (size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (c == '\r') {
            // Jinja normalizes newlines inside string literals.
            out += '\n';
            if (i + 1 < body.size() && body[i + 1] == '\n')
                ++i;
            continue;
        }
        if (c != '\\' || i + 1 >= body.size()) {
            out += c;
            continue;
        }
        char e = body[++i];
        switch (e) {
        case '\n':
            break;
        case '\\':
            out += '\\';
            break;
        case '\'':
            out += '\'';
            break;
        case '"':
            out += '"';
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'v':
            out += '\v';
            break;
        case 'x':
        case 'u':
        case 'U': {
            int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            uint32_t cp = 0;
            for (int k = 0; k < digits; ++k) {
                int h = i + 1 + k < body.size() ? hexDigitValue(body[i + 1 + k]) : -1;
                if (h < 0) {
                    const char* kind = e == 'x' ? "\\xXX" : e == 'u' ? "\\uXXXX" : "\\UXXXXXXXX";
                    throw SyntaxError(std::string("truncated ") + kind + " escape in string",
                                      bodyOffset + i - 1);
                }
                cp = cp * 16 + static_cast<uint32_t>(h);
            }
            i += digits;
            appendCodePoint(out, cp);
            break;
        }
        case 'N':
            // Python's named escapes need the Unicode name database; refuse rather than
            // silently keeping the text.
            throw SyntaxError("\\N{...} escapes are not supported; use \\uXXXX",
                              bodyOffset + i - 1);
        default:
            if (e >= '0' && e <= '7') {
                uint32_t cp = static_cast<uint32_t>(e - '0');
                for (int k = 0;
                     k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
                    cp = cp * 8 + static_cast<uint32_t>(body[++i] - '0');
                appendCodePoint(out, cp);
            } else {
                // Unknown escapes stay as written, like Python.
                out += '\\';
                out += e;
            }
        }
    }
    return out;
}

// Parses digits with optional single underscores between them in `base`.
bool parseInteger(std::string_view digits, int base, int64_t& out)
{
    uint64_t v = 0;
    bool any = false;
    for (char c : digits) {
        if (c == '_')
            continue;
        int d = hexDigitValue(c);
        if (d < 0 || d >= base)
            return false;
        if (v > (static_cast<uint64_t>(INT64_MAX) - static_cast<uint64_t>(d)) / base)
            throw std::overflow_error("integer literal too large");
        v = v * base + static_cast<uint64_t>(d);
        any = true;
    }
    out = static_cast<int64_t>(v);
    return any;
}

size_t scanDigits(std::string_view s, size_t i, bool (*ok)(char))
{
    // Jinja allows one underscore between digits.
    while (i < s.size()) {
        if (ok(s[i]))
            ++i;
        else if (s[i] == '_' && i + 1 < s.size() && ok(s[i + 1]) && i > 0 && ok(s[i - 1]))
            ++i;
        else
            break;
    }
    return i;
}

bool isHexDigit(char c)
{
    return hexDigitValue(c) >= 0;
}

void pushToken(std::vector<Token>& tokens, std::string_view src, Tok type, size_t start, size_t end,
               Value value = {})
{
    Token t;
    t.type = type;
    t.pos = static_cast<uint32_t>(start);
    t.text = src.substr(start, end - start);
    t.value = std::move(value);
    tokens.push_back(std::move(t));
}

int64_t integerLiteral(std::string_view digits, int base, size_t start)
{
    int64_t v = 0;
    bool ok = false;
    try {
        ok = parseInteger(digits, base, v);
    } catch (const std::overflow_error&) {
        throw SyntaxError("integer literal too large", start);
    }
    if (!ok)
        throw SyntaxError("invalid integer literal", start);
    return v;
}

// A number starting at `start` (a digit): 0x/0o/0b integers, decimal integers and floats.
// Returns the offset after it.
size_t lexNumber(std::string_view src, size_t start, std::vector<Token>& tokens)
{
    if (src[start] == '0' && start + 1 < src.size() && src[start + 1] != '\0' &&
        std::strchr("xXoObB", src[start + 1]) != nullptr) {
        char p = static_cast<char>(src[start + 1] | 0x20);
        int base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
        size_t j = start + 2;
        if (j < src.size() && src[j] == '_')
            ++j;
        size_t end = scanDigits(src, j, isHexDigit);
        pushToken(tokens, src, Tok::Int, start, end,
                  Value(integerLiteral(src.substr(j, end - j), base, start)));
        return end;
    }
    size_t end = scanDigits(src, start, isDigit);
    bool isFloat = false;
    // After a dot (`x.1.2`) Jinja reads integers only: items 1 then 2, not 1.2.
    bool afterDot = start > 0 && src[start - 1] == '.';
    if (!afterDot && end + 1 < src.size() && src[end] == '.' && isDigit(src[end + 1])) {
        end = scanDigits(src, end + 1, isDigit);
        isFloat = true;
    }
    if (!afterDot && end < src.size() && (src[end] == 'e' || src[end] == 'E')) {
        size_t k = end + 1;
        if (k < src.size() && (src[k] == '+' || src[k] == '-'))
            ++k;
        if (k < src.size() && isDigit(src[k])) {
            end = scanDigits(src, k, isDigit);
            isFloat = true;
        }
    }
    std::string_view lit = src.substr(start, end - start);
    if (isFloat) {
        std::string clean;
        for (char d : lit)
            if (d != '_')
                clean += d;
        pushToken(tokens, src, Tok::Float, start, end, Value(std::strtod(clean.c_str(), nullptr)));
    } else {
        if (lit.size() > 1 && lit[0] == '0' && lit.find_first_not_of("0_") != lit.npos)
            throw SyntaxError("invalid integer literal (leading zeros)", start);
        // Decimal digits always parse; only overflow can fail.
        pushToken(tokens, src, Tok::Int, start, end, Value(integerLiteral(lit, 10, start)));
    }
    return end;
}

// A quoted string starting at `start`; returns the offset after its closing quote.
size_t lexString(std::string_view src, size_t start, std::vector<Token>& tokens)
{
    const char quote = src[start];
    size_t j = start + 1;
    while (j < src.size() && src[j] != quote) {
        if (src[j] == '\\')
            ++j;
        ++j;
    }
    if (j >= src.size())
        throw SyntaxError("unterminated string literal", start);
    std::string_view body = src.substr(start + 1, j - start - 1);
    pushToken(tokens, src, Tok::String, start, j + 1, Value(unescape(body, start + 1)));
    return j + 1;
}

// An operator or bracket at `i`; brackets are matched against `balance`. Returns the offset
// after it.
size_t lexOperator(std::string_view src, size_t i, std::vector<char>& balance,
                   std::vector<Token>& tokens)
{
    static constexpr std::string_view twoChar[] = {"**", "//", "==", "!=", ">=", "<="};
    for (std::string_view op : twoChar) {
        if (src.substr(i, 2) == op) {
            pushToken(tokens, src, Tok::Operator, i, i + 2);
            return i + 2;
        }
    }
    const char c = src[i];
    if (std::strchr("+-/*%~[](){}><=.:|,;", c) == nullptr || c == '\0')
        throw SyntaxError(
            "unexpected char '" + std::string(1, c) + "' at " + codePointIndex(src, i), i);
    if (c == '(' || c == '[' || c == '{') {
        balance.push_back(c);
    } else if (c == ')' || c == ']' || c == '}') {
        char open = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (balance.empty())
            throw SyntaxError("unexpected '" + std::string(1, c) + "'", i);
        if (balance.back() != open) {
            char want = balance.back() == '(' ? ')' : balance.back() == '[' ? ']' : '}';
            throw SyntaxError("unexpected '" + std::string(1, c) + "', expected '" +
                                  std::string(1, want) + "'",
                              i);
        }
        balance.pop_back();
    }
    pushToken(tokens, src, Tok::Operator, i, i + 1);
    return i + 1;
}

// Whether the expression ends at `i` (with no bracket open): `}` (or `-}` in a template,
// which also strips the white space after it). Pushes the End token and sets `next`.
bool lexEnd(std::string_view src, size_t i, bool templateMode, LexedExpression& result)
{
    const char c = src[i];
    if (!templateMode && c == '}') {
        // Jinja lexes a bare expression in its "variable" state, where `}` ends the
        // expression; the parser then reports the rest as "chunk after expression".
        pushToken(result.tokens, src, Tok::End, i, i + 1);
        result.next = i + 1;
        return true;
    }
    if (!templateMode || !(c == '}' || (c == '-' && i + 1 < src.size() && src[i + 1] == '}')))
        return false;
    size_t endPos = c == '}' ? i : i + 1;
    pushToken(result.tokens, src, Tok::End, endPos, endPos + 1);
    result.next = endPos + 1;
    if (c == '-') {
        result.stripAfter = true;
        while (result.next < src.size() && isAsciiSpace(src[result.next]))
            ++result.next;
    }
    return true;
}

} // namespace

std::string describeToken(const Token& token)
{
    switch (token.type) {
    case Tok::End:
        return "end of print statement";
    case Tok::Eof:
        return "end of template";
    case Tok::String:
        return "string";
    case Tok::Int:
        return "integer";
    case Tok::Float:
        return "float";
    default:
        return std::string(token.text);
    }
}

LexedExpression lexExpression(std::string_view src, size_t begin, bool templateMode)
{
    LexedExpression result;
    std::vector<char> balance; // open brackets, to find the `}` that ends the expression
    size_t i = begin;
    while (true) {
        while (i < src.size() && isAsciiSpace(src[i]))
            ++i;
        if (i >= src.size()) {
            pushToken(result.tokens, src, Tok::Eof, i, i);
            result.next = i;
            return result;
        }
        if (balance.empty() && lexEnd(src, i, templateMode, result))
            return result;
        const char c = src[i];
        if (isNameStart(c)) {
            const size_t start = i;
            while (i < src.size() && isNameChar(src[i]))
                ++i;
            pushToken(result.tokens, src, Tok::Name, start, i);
        } else if (isDigit(c)) {
            i = lexNumber(src, i, result.tokens);
        } else if (c == '\'' || c == '"') {
            i = lexString(src, i, result.tokens);
        } else {
            i = lexOperator(src, i, balance, result.tokens);
        }
    }
}

} // namespace hako::pdl::expr
