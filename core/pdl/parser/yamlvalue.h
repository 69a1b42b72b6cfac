#pragma once

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hako::pdl {

/// One node of a YAML document with its source span: a typed scalar, a sequence or a mapping.
///
/// Scalars are typed as PyYAML's safe_load types them (YAML 1.1: `yes`/`no`/`on`/`off` are
/// booleans, `0x1F`/`0o17`-style `017`/`1_000`/`1:30` are ints, `.inf` is a float, `~`/`null`
/// and empty values are null); quoted and block scalars are always strings. Mapping keys keep
/// the document's order. Immutable once loaded; safe to share between threads.
class YamlValue {
public:
    enum class Kind : uint8_t { Scalar, Sequence, Mapping };
    /// How a scalar was written: plain, quoted ('…' or "…") or as a block (| or >).
    enum class Style : uint8_t { Plain, Quoted, Block };

    struct Entry;

    Kind kind() const { return m_kind; }
    bool isScalar() const { return m_kind == Kind::Scalar; }
    bool isSequence() const { return m_kind == Kind::Sequence; }
    bool isMapping() const { return m_kind == Kind::Mapping; }
    bool isNull() const { return m_kind == Kind::Scalar && m_scalar.isNull(); }
    bool isString() const { return m_kind == Kind::Scalar && m_scalar.isString(); }

    /// The typed scalar (null for collections).
    const Value& scalar() const { return m_scalar; }
    Style style() const { return m_style; }
    const SourceSpan& span() const { return m_span; }

    const std::vector<YamlValue>& items() const { return m_items; }
    const std::vector<Entry>& entries() const { return m_entries; }

    /// The entry whose key is the string `key`, or nullptr.
    const Entry* find(std::string_view key) const;
    /// The value for the string key `key`, or nullptr.
    const YamlValue* value(std::string_view key) const;

    /// The whole subtree as a plain Value (lists and dicts; spans dropped).
    Value toValue() const;

    /// A short name of the node's type for messages: "a string", "a list", "a mapping", ...
    std::string describe() const;

private:
    friend class YamlBuilder;

    Kind m_kind = Kind::Scalar;
    Style m_style = Style::Plain;
    Value m_scalar;
    SourceSpan m_span;
    std::vector<YamlValue> m_items;
    std::vector<Entry> m_entries;
};

struct YamlValue::Entry {
    YamlValue key;
    YamlValue value;
    /// The key as text (scalar keys in their str() form) for field lookup.
    std::string name;
};

/// Loads one YAML document. Errors (syntax errors, duplicate keys, several documents, integers
/// that do not fit in 64 bits) come back as a Diagnostic with its line and column. `fileName` is
/// copied into every span. Thread-safe (no shared state).
Result<YamlValue> loadYaml(const QByteArray& text, const QString& fileName);

/// Converts a byte offset of UTF-8 text into 1-based line/column counted in code points, using a
/// precomputed table of line starts. Exposed for the editor and tests.
class LineIndex {
public:
    explicit LineIndex(const QByteArray& text);
    /// 1-based (line, column) of the byte at `offset` (clamped to the text).
    std::pair<int, int> position(qsizetype offset) const;
    /// Byte offset where 1-based `line` starts.
    qsizetype lineStart(int line) const;

private:
    static constexpr qsizetype kChunk = 64;
    qsizetype codePointsBefore(qsizetype offset) const;

    QByteArray m_text;
    std::vector<qsizetype> m_starts;
    std::vector<qsizetype> m_chunkCodePoints; // code points before each kChunk-byte chunk
};

} // namespace hako::pdl
