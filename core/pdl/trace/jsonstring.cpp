#include "core/pdl/trace/jsonstring_p.h"

#include "core/util/chars.h"

#include <cstdint>
#include <cstring>

namespace hako::pdl {

bool jsonStringNeedsUnescape(std::string_view raw)
{
    // Eight bytes at a time (every string of a million-span file passes here).
    constexpr uint64_t ones = 0x0101010101010101ULL;
    const auto flagged = [](uint64_t w) {
        return jsonEscapeBits(w, false) != 0;
    };
    const char* p = raw.data();
    const size_t n = raw.size();
    if (n >= 8) {
        uint64_t w;
        for (size_t i = 0; i + 8 <= n; i += 8) {
            std::memcpy(&w, p + i, 8);
            if (flagged(w))
                return true;
        }
        // The last bytes in the word that ends the string (overlapping the one before).
        std::memcpy(&w, p + n - 8, 8);
        return flagged(w);
    }
    // Most keys and many values are shorter than a word: their bytes in one word, fixed-size
    // loads that may overlap, the rest spaces (neither a control character nor a backslash).
    uint64_t w = ones * uint64_t(' ');
    if (n >= 4) {
        uint32_t first, last;
        std::memcpy(&first, p, 4);
        std::memcpy(&last, p + n - 4, 4);
        w = first | uint64_t(last) << 32;
    } else if (n > 0) {
        w = (w & ~uint64_t(0xffffff)) | uint64_t(static_cast<unsigned char>(p[0])) |
            uint64_t(static_cast<unsigned char>(p[n / 2])) << 8 |
            uint64_t(static_cast<unsigned char>(p[n - 1])) << 16;
    }
    return flagged(w);
}

namespace {

bool hex4(std::string_view raw, size_t at, uint32_t& out)
{
    if (at + 4 > raw.size())
        return false;
    out = 0;
    for (size_t i = at; i < at + 4; ++i) {
        const char c = raw[i];
        out <<= 4;
        if (c >= '0' && c <= '9')
            out |= uint32_t(c - '0');
        else if (c >= 'a' && c <= 'f')
            out |= uint32_t(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            out |= uint32_t(c - 'A' + 10);
        else
            return false;
    }
    return true;
}

} // namespace

bool unescapeJsonString(std::string_view raw, std::string& out)
{
    out.clear();
    if (!jsonStringNeedsUnescape(raw)) {
        out.assign(raw);
        return true;
    }
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size();) {
        const unsigned char c = static_cast<unsigned char>(raw[i]);
        if (c < 0x20)
            return false;
        if (c != '\\') {
            out += char(c);
            ++i;
            continue;
        }
        if (i + 1 >= raw.size())
            return false;
        const char e = raw[i + 1];
        i += 2;
        switch (e) {
        case '"':
            out += '"';
            break;
        case '\\':
            out += '\\';
            break;
        case '/':
            out += '/';
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
        case 'u': {
            uint32_t cp = 0;
            if (!hex4(raw, i, cp))
                return false;
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t low = 0;
                if (i + 6 > raw.size() || raw[i] != '\\' || raw[i + 1] != 'u' ||
                    !hex4(raw, i + 2, low) || low < 0xDC00 || low > 0xDFFF)
                    return false;
                i += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return false;
            }
            appendUtf8(out, cp);
            break;
        }
        default:
            return false;
        }
    }
    return true;
}

} // namespace hako::pdl
