#include "core/pdl/trace/jsonstring_p.h"

#include "core/util/chars.h"

#include <cstdint>
#include <cstring>

namespace hako::pdl {

bool jsonStringNeedsUnescape(std::string_view raw)
{
    // Eight bytes at a time (every string of a million-span file passes here): a word has a
    // byte below 0x20 when subtracting 0x20 from each byte borrows into a byte whose top bit
    // was clear; a backslash is such a zero byte after XOR with backslashes.
    constexpr uint64_t ones = 0x0101010101010101ULL, tops = 0x8080808080808080ULL;
    constexpr uint64_t backslashes = ones * uint64_t('\\');
    size_t i = 0;
    for (; i + 8 <= raw.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, raw.data() + i, 8);
        const uint64_t x = w ^ backslashes;
        if ((((w - ones * 0x20) & ~w) | ((x - ones) & ~x)) & tops)
            return true;
    }
    for (; i < raw.size(); ++i)
        if (raw[i] == '\\' || static_cast<unsigned char>(raw[i]) < 0x20)
            return true;
    return false;
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
