#include "core/otel/span.h"

namespace hako::otel {

void AttributesBuilder::set(std::string key, Attributes value)
{
    auto [it, fresh] = m_index.try_emplace(key, m_items.size());
    if (fresh)
        m_items.emplace_back(std::move(key), std::move(value));
    else
        m_items[it->second].second = std::move(value);
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
    auto it = m_index.find(std::string(key));
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
    bool nonZero = false;
    for (char c : text) {
        const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!hex)
            return false;
        nonZero = nonZero || c != '0';
    }
    return nonZero;
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
    size_t i = 0;
    const size_t n = s.size();
    while (i < n) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        int extra;
        uint32_t cp;
        if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + size_t(extra) >= n)
            return false;
        for (int k = 1; k <= extra; ++k) {
            const unsigned char d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) ||
            (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += extra + 1;
    }
    return true;
}

} // namespace hako::otel
