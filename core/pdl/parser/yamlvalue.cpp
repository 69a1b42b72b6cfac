// The parsed YAML tree's reading side: source positions (LineIndex) and YamlValue's lookups and
// conversions. Loading (yaml-cpp events to the tree) is in yamlloader.cpp.

#include "core/pdl/parser/yamlvalue.h"

#include <algorithm>

namespace hako::pdl {

// ---------------------------------------------------------------------------------------------
// LineIndex

LineIndex::LineIndex(const QByteArray& text) : m_text(text)
{
    m_starts.push_back(0);
    const char* d = text.constData();
    m_chunkCodePoints.reserve(size_t(text.size() / kChunk) + 2);
    qsizetype codePoints = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (i % kChunk == 0)
            m_chunkCodePoints.push_back(codePoints);
        if ((static_cast<unsigned char>(d[i]) & 0xC0) != 0x80)
            ++codePoints;
        if (d[i] == '\n')
            m_starts.push_back(i + 1);
    }
    m_chunkCodePoints.push_back(codePoints);
}

qsizetype LineIndex::codePointsBefore(qsizetype offset) const
{
    const qsizetype chunk = offset / kChunk;
    qsizetype count = m_chunkCodePoints[size_t(chunk)];
    const char* d = m_text.constData();
    for (qsizetype i = chunk * kChunk; i < offset; ++i) {
        if ((static_cast<unsigned char>(d[i]) & 0xC0) != 0x80)
            ++count;
    }
    return count;
}

std::pair<int, int> LineIndex::position(qsizetype offset) const
{
    offset = std::clamp<qsizetype>(offset, 0, m_text.size());
    auto it = std::upper_bound(m_starts.begin(), m_starts.end(), offset);
    const int line = int(it - m_starts.begin());
    const qsizetype start = m_starts[size_t(line - 1)];
    // Chunked counts keep this cheap on very long lines (single-line JSON traces).
    int column = 1;
    if (offset - start <= kChunk) {
        const char* d = m_text.constData();
        for (qsizetype i = start; i < offset; ++i)
            column += (static_cast<unsigned char>(d[i]) & 0xC0) != 0x80;
    } else {
        column += int(codePointsBefore(offset) - codePointsBefore(start));
    }
    return {line, column};
}

qsizetype LineIndex::lineStart(int line) const
{
    if (line < 1)
        return 0;
    if (size_t(line) > m_starts.size())
        return m_text.size();
    return m_starts[line - 1];
}

// Scalar typing (PyYAML's resolver) is in yamlscalar.cpp.

// ---------------------------------------------------------------------------------------------
// YamlValue

const YamlValue::Entry* YamlValue::find(std::string_view key) const
{
    for (const Entry& e : m_entries) {
        if (e.key.isString() && e.name == key)
            return &e;
    }
    return nullptr;
}

const YamlValue* YamlValue::value(std::string_view key) const
{
    const Entry* e = find(key);
    return e ? &e->value : nullptr;
}

Value YamlValue::toValue() const
{
    switch (m_kind) {
    case Kind::Scalar:
        return m_scalar;
    case Kind::Sequence: {
        List list;
        list.reserve(m_items.size());
        for (const YamlValue& item : m_items)
            list.push_back(item.toValue());
        return Value(std::move(list));
    }
    case Kind::Mapping: {
        Dict dict;
        for (const Entry& e : m_entries)
            dict.set(e.key.toValue(), e.value.toValue());
        return Value(std::move(dict));
    }
    }
    return {};
}

std::string YamlValue::describe() const
{
    switch (m_kind) {
    case Kind::Sequence:
        return "a list";
    case Kind::Mapping:
        return "a mapping";
    case Kind::Scalar:
        break;
    }
    switch (m_scalar.type()) {
    case Value::Type::Null:
        return "null";
    case Value::Type::Bool:
        return "a boolean";
    case Value::Type::Int:
        return "an integer";
    case Value::Type::Float:
        return "a number";
    case Value::Type::String:
        return "a string";
    default:
        return "a value";
    }
}

} // namespace hako::pdl
