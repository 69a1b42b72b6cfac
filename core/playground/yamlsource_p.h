#pragma once

#include "core/pdl/parser/yamlvalue.h"
#include "core/playground/yamlemit_p.h"

#include <QString>

#include <vector>

namespace hako::playground::detail {

/// The source as a QString with positions converted from the parser's (line, column in code
/// points) to UTF-16 offsets.
class Source {
public:
    explicit Source(const QString& text) : m_text(text)
    {
        m_starts.push_back(0);
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text.at(i) == QLatin1Char('\n'))
                m_starts.push_back(i + 1);
        }
    }
    const QString& text() const { return m_text; }

    qsizetype offset(int line, int column) const
    {
        if (line < 1)
            return 0;
        if (size_t(line) > m_starts.size())
            return m_text.size();
        qsizetype i = m_starts[size_t(line - 1)];
        for (int c = 1; c < column && i < m_text.size(); ++c)
            i += (m_text.at(i).isHighSurrogate() && i + 1 < m_text.size()) ? 2 : 1;
        return i;
    }
    qsizetype start(const pdl::YamlValue& node) const
    {
        return offset(node.span().line, node.span().column);
    }
    /// One past the node's last character (for a plain or block scalar, its last non-blank
    /// one).
    qsizetype end(const pdl::YamlValue& node) const
    {
        qsizetype e = offset(node.span().endLine, node.span().endColumn);
        if (e < m_text.size())
            e += m_text.at(e).isHighSurrogate() ? 2 : 1;
        const qsizetype s = start(node);
        // Neither a plain nor a block scalar ends in a blank or a line break (the parser's
        // span of the document's last scalar may take its final newline).
        if (node.isScalar() && node.style() != pdl::YamlValue::Style::Quoted) {
            while (e > s + 1 && m_text.at(e - 1).isSpace())
                --e;
        }
        return std::max(e, s);
    }
    qsizetype lineEnd(qsizetype offset) const
    {
        const qsizetype nl = m_text.indexOf(QLatin1Char('\n'), offset);
        return nl < 0 ? m_text.size() : nl;
    }
    qsizetype lineStart(qsizetype offset) const
    {
        const qsizetype nl = offset > 0 ? m_text.lastIndexOf(QLatin1Char('\n'), offset - 1) : -1;
        return nl + 1;
    }
    /// True when only blanks come before `offset` on its line.
    bool firstOnLine(qsizetype offset) const
    {
        for (qsizetype i = lineStart(offset); i < offset; ++i) {
            if (m_text.at(i) != QLatin1Char(' '))
                return false;
        }
        return true;
    }
    bool isFlow(const pdl::YamlValue& node) const
    {
        const qsizetype s = start(node);
        return s < m_text.size() &&
               (m_text.at(s) == QLatin1Char('{') || m_text.at(s) == QLatin1Char('['));
    }
    /// 0-based column (code points) of a node, which is what YAML indentation counts.
    static int column(const pdl::YamlValue& node) { return node.span().column - 1; }

private:
    QString m_text;
    std::vector<qsizetype> m_starts;
};

/// The style `node` (a scalar of `src`) is written in.
ScalarStyle styleOf(const Source& src, const pdl::YamlValue& node);

/// The indentation of a block scalar's content lines (parentIndent + 2 for other scalars or a
/// block scalar without content lines). LF and CRLF files alike.
int blockIndent(const Source& src, const pdl::YamlValue& node, int parentIndent);

} // namespace hako::playground::detail
