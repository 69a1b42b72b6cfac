#include "core/otel/span.h"

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <cstring>

namespace hako::otel {

namespace {

/// Up to this many keys a builder scans its items; past it, it indexes them.
constexpr size_t kScannedKeys = 32;

} // namespace

void AttributesBuilder::set(std::string key, Attributes value)
{
    if (Attributes* existing = find(key)) {
        *existing = std::move(value);
        return;
    }
    // A builder lives for one span's attributes: room for a span's usual dozen at once, not
    // five reallocations on the way there.
    if (m_items.empty())
        m_items.reserve(16);
    m_items.emplace_back(std::move(key), std::move(value));
    if (!m_index.empty()) {
        m_index.emplace(m_items.back().first, m_items.size() - 1);
    } else if (m_items.size() > kScannedKeys) {
        m_index.reserve(m_items.size() * 2);
        for (size_t i = 0; i < m_items.size(); ++i)
            m_index.emplace(m_items[i].first, i);
    }
}

void AttributesBuilder::update(const Attributes& object)
{
    if (!object.is_object())
        return;
    for (auto it = object.begin(); it != object.end(); ++it)
        set(it.key(), it.value());
}

Attributes* AttributesBuilder::find(std::string_view key)
{
    if (m_index.empty()) {
        for (auto& [k, value] : m_items)
            if (k == key)
                return &value;
        return nullptr;
    }
    auto it = m_index.find(key);
    return it == m_index.end() ? nullptr : &m_items[it->second].second;
}

Attributes AttributesBuilder::take()
{
    Attributes out = Attributes::object();
    // Appended straight to the object's storage: its own insert would scan for the key again.
    auto& items = out.get_ref<Attributes::object_t&>();
    items.reserve(m_items.size());
    for (auto& [key, value] : m_items)
        items.emplace_back(std::move(key), std::move(value));
    m_items.clear();
    m_index.clear();
    return out;
}

std::string toHex(std::string_view bytes)
{
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out.push_back(digits[c >> 4]);
        out.push_back(digits[c & 15]);
    }
    return out;
}

bool isHexId(std::string_view text, size_t digits)
{
    if (text.size() != digits)
        return false;
    // Three ids a span, a million spans a file: a table and no branch per digit.
    static constexpr auto kHex = [] {
        std::array<bool, 256> t{};
        for (int c = 0; c < 256; ++c)
            t[size_t(c)] =
                (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        return t;
    }();
    bool hex = true, nonZero = false;
    for (char c : text) {
        hex &= kHex[static_cast<unsigned char>(c)];
        nonZero |= c != '0';
    }
    return hex && nonZero;
}

std::string attrString(const Attributes& attributes, std::string_view key, std::string fallback)
{
    auto it = attributes.find(key);
    if (it == attributes.end() || it->is_null())
        return fallback;
    if (it->is_string())
        return it->get<std::string>();
    return it->dump();
}

bool isValidUtf8(std::string_view s)
{
    // A protobuf request's every string is checked, and a byte-at-a-time loop was 2% of
    // `hako serve`'s time. Most are short and ASCII: eight bytes at a time find a byte past
    // 0x7F, and only a string holding one goes to simdjson's validator (the JSON reader's).
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        uint64_t word;
        std::memcpy(&word, s.data() + i, 8);
        if (word & 0x8080808080808080ULL)
            return simdjson::validate_utf8(s.data(), s.size());
    }
    for (; i < s.size(); ++i) {
        if (static_cast<unsigned char>(s[i]) >= 0x80)
            return simdjson::validate_utf8(s.data(), s.size());
    }
    return true;
}

} // namespace hako::otel
