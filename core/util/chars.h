#pragma once

#include <cstdint>
#include <string>

namespace hako {

/// The value of an ASCII hexadecimal digit, or -1 for any other character.
constexpr int hexDigitValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/// An ASCII white-space character as C's isspace() sees it in the C locale: space, tab, line
/// feed, carriage return, form feed, vertical tab.
constexpr bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// Whether the position (line1, col1) comes before (line2, col2) in a text.
constexpr bool positionBefore(int line1, int col1, int line2, int col2)
{
    return line1 < line2 || (line1 == line2 && col1 < col2);
}

/// The top bit of each byte of `w` (eight bytes of text, the first in the low byte) set where
/// a JSON string needs an escape: a control character (below 0x20), a backslash and, with
/// `quotes`, a quote. A byte is below 0x20 when subtracting 0x20 from each byte borrows into a
/// byte whose top bit was clear; a backslash or quote is such a zero byte after XOR with it.
/// The lowest byte flagged is exact; bytes above it may be flagged by a borrow.
constexpr uint64_t jsonEscapeBits(uint64_t w, bool quotes)
{
    constexpr uint64_t ones = 0x0101010101010101ULL, tops = 0x8080808080808080ULL;
    const uint64_t b = w ^ (ones * uint64_t('\\'));
    uint64_t hit = ((w - ones * 0x20) & ~w) | ((b - ones) & ~b);
    if (quotes) {
        const uint64_t q = w ^ (ones * uint64_t('"'));
        hit |= (q - ones) & ~q;
    }
    return hit & tops;
}

/// Appends the code point `cp` to `out` as UTF-8 (1 to 4 bytes; no check that it is a scalar
/// value: callers decode escapes and surrogate pairs first).
inline void appendUtf8(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

} // namespace hako
