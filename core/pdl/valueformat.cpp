// Python's float repr and string quoting, JSON quoting, and UTF-8 code-point helpers.
#include "core/pdl/value.h"
#include "core/util/chars.h"

#include <QChar>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace hako::pdl {

namespace {

bool isPrintable(char32_t c)
{
    if (c == U' ')
        return true;
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse:
    case QChar::Other_NotAssigned:
    case QChar::Separator_Space:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return false;
    default:
        return true;
    }
}

void appendHex(std::string& out, uint32_t v, int digits)
{
    static const char* hex = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; --i)
        out += hex[(v >> (i * 4)) & 0xf];
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Formatting helpers

std::string formatFloat(double d)
{
    if (std::isnan(d))
        return "nan";
    if (std::isinf(d))
        return d > 0 ? "inf" : "-inf";
    if (d == 0.0)
        return std::signbit(d) ? "-0.0" : "0.0";

    // Shortest round-trip digits, then laid out the way Python's repr does: positional when
    // the decimal exponent is in [-4, 16), scientific otherwise.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    std::string out;
    size_t pos = 0;
    if (sci[0] == '-') {
        out += '-';
        pos = 1;
    }
    const size_t ePos = sci.find('e');
    std::string digits;
    for (size_t i = pos; i < ePos; ++i)
        if (sci[i] != '.')
            digits += sci[i];
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    const int exp = std::stoi(sci.substr(ePos + 1));
    const int decpt = exp + 1;
    const int n = int(digits.size());
    if (decpt > -4 && decpt <= 16) {
        if (decpt <= 0) {
            out += "0.";
            out.append(size_t(-decpt), '0');
            out += digits;
        } else if (decpt < n) {
            out += digits.substr(0, size_t(decpt));
            out += '.';
            out += digits.substr(size_t(decpt));
        } else {
            out += digits;
            out.append(size_t(decpt - n), '0');
            out += ".0";
        }
        return out;
    }
    out += digits[0];
    if (n > 1) {
        out += '.';
        out += digits.substr(1);
    }
    out += 'e';
    out += exp < 0 ? '-' : '+';
    const int aexp = exp < 0 ? -exp : exp;
    if (aexp < 10)
        out += '0';
    out += std::to_string(aexp);
    return out;
}

std::string pyQuote(std::string_view s)
{
    const bool hasSingle = s.find('\'') != std::string_view::npos;
    const bool hasDouble = s.find('"') != std::string_view::npos;
    const char quote = (hasSingle && !hasDouble) ? '"' : '\'';
    std::string out;
    out.reserve(s.size() + 2);
    out += quote;
    const std::u32string cps = utf8::decode(s);
    for (char32_t c : cps) {
        if (c == U'\\') {
            out += "\\\\";
        } else if (c == char32_t(quote)) {
            out += '\\';
            out += quote;
        } else if (c == U'\n') {
            out += "\\n";
        } else if (c == U'\r') {
            out += "\\r";
        } else if (c == U'\t') {
            out += "\\t";
        } else if (c < 0x7f && c >= 0x20) {
            out += char(c);
        } else if (isPrintable(c)) {
            appendUtf8(out, c);
        } else if (c <= 0xff) {
            out += "\\x";
            appendHex(out, c, 2);
        } else if (c <= 0xffff) {
            out += "\\u";
            appendHex(out, c, 4);
        } else {
            out += "\\U";
            appendHex(out, c, 8);
        }
    }
    out += quote;
    return out;
}

std::string jsonQuote(std::string_view s)
{
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    const std::u32string cps = utf8::decode(s);
    for (char32_t c : cps) {
        switch (c) {
        case U'"':
            out += "\\\"";
            break;
        case U'\\':
            out += "\\\\";
            break;
        case U'\n':
            out += "\\n";
            break;
        case U'\r':
            out += "\\r";
            break;
        case U'\t':
            out += "\\t";
            break;
        case U'\b':
            out += "\\b";
            break;
        case U'\f':
            out += "\\f";
            break;
        default:
            if (c >= 0x20 && c < 0x7f) {
                out += char(c);
            } else if (c <= 0xffff) {
                out += "\\u";
                appendHex(out, c, 4);
            } else {
                const uint32_t v = c - 0x10000;
                out += "\\u";
                appendHex(out, 0xd800 + (v >> 10), 4);
                out += "\\u";
                appendHex(out, 0xdc00 + (v & 0x3ff), 4);
            }
        }
    }
    out += '"';
    return out;
}

namespace utf8 {

int64_t length(std::string_view s)
{
    int64_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xc0) != 0x80;
    return n;
}

size_t offsetOf(std::string_view s, int64_t index)
{
    size_t i = 0;
    int64_t seen = 0;
    while (i < s.size()) {
        if ((static_cast<unsigned char>(s[i]) & 0xc0) != 0x80) {
            if (seen == index)
                return i;
            ++seen;
        }
        ++i;
    }
    return s.size();
}

std::u32string decode(std::string_view s)
{
    std::u32string out;
    out.reserve(s.size());
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        int extra = 0;
        char32_t cp = 0;
        if (c < 0x80) {
            out += char32_t(c);
            ++i;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            extra = 1;
            cp = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            extra = 2;
            cp = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            out += U'\ufffd';
            ++i;
            continue;
        }
        if (i + size_t(extra) >= s.size()) { // truncated sequence
            out += U'\ufffd';
            ++i;
            continue;
        }
        bool bad = false;
        for (int k = 1; k <= extra; ++k) {
            const unsigned char cc = static_cast<unsigned char>(s[i + size_t(k)]);
            if ((cc & 0xc0) != 0x80) {
                bad = true;
                break;
            }
            cp = (cp << 6) | (cc & 0x3f);
        }
        if (bad) {
            out += U'\ufffd';
            ++i;
            continue;
        }
        out += cp;
        i += size_t(extra) + 1;
    }
    return out;
}

std::string encode(std::u32string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char32_t c : s)
        appendUtf8(out, c);
    return out;
}

void append(std::string& out, char32_t c)
{
    appendUtf8(out, c);
}

} // namespace utf8

} // namespace hako::pdl
