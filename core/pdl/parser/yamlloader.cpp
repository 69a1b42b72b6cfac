// Loading YAML: yaml-cpp's events to the YamlValue tree, with spans, checked characters,
// exact scalar text and merge keys.

#include "core/pdl/parser/yamlvalue.h"
#include "core/util/chars.h"

#include "core/pdl/parser/yamlscalar_p.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace hako::pdl {

// ---------------------------------------------------------------------------------------------
// Building the tree from yaml-cpp's events

/// Why a document could not be loaded, and where (a byte offset). Outside the anonymous
/// namespace because YamlBuilder, which has one, is not in it.
struct YamlLoadError {
    QString message;
    qsizetype offset;
};

namespace {

// Bounds on hostile documents. Collections nested deeper than this are refused, which keeps
// every recursion over the tree (checker, toValue, destructors, the interpreter) shallow.
// yaml-cpp itself gives up at 500 levels with a bare "bad file"; ours comes first, clearly.
constexpr size_t kMaxNesting = 400;
// Nodes that aliases may copy in all: a "billion laughs" document (anchors that alias earlier
// anchors many times over) stops here instead of exhausting memory.
constexpr size_t kMaxAliasNodes = 1'000'000;
} // namespace

class YamlBuilder : public YAML::EventHandler {
public:
    YamlBuilder(const QByteArray& text, const QString& fileName)
        : m_text(text), m_index(text), m_file(fileName)
    {}

    std::optional<YamlValue> root;
    std::optional<YamlLoadError> error;

    // What PyYAML's reader and scanner refuse and yaml-cpp accepts, checked over the whole
    // text once the document is read: characters outside YAML's printable set, and tabs
    // anywhere but inside a quoted or block scalar or a comment (PyYAML skips only spaces
    // between tokens and ends a plain scalar at a tab, so `a: 1<TAB>` is an error there).
    void checkCharacters()
    {
        const char* d = m_text.constData();
        const qsizetype n = m_text.size();
        size_t range = 0;
        bool comment = false;
        for (qsizetype i = 0; i < n && !error; ++i) {
            while (range < m_scalarRanges.size() && m_scalarRanges[range].second < i)
                ++range;
            const bool inScalar = range < m_scalarRanges.size() &&
                                  m_scalarRanges[range].first <= i &&
                                  i <= m_scalarRanges[range].second;
            const auto c = static_cast<unsigned char>(d[i]);
            if (c == '\n' || c == '\r')
                comment = false;
            else if (c == '#' && !inScalar &&
                     (i == 0 || d[i - 1] == ' ' || d[i - 1] == '\t' || d[i - 1] == '\n' ||
                      d[i - 1] == '\r'))
                comment = true;
            const bool control = (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F;
            const bool c1 = c == 0xC2 && i + 1 < n &&
                            static_cast<unsigned char>(d[i + 1]) >= 0x80 &&
                            static_cast<unsigned char>(d[i + 1]) <= 0x9F && d[i + 1] != '\x85';
            const bool nonCharacter = c == 0xEF && i + 2 < n && d[i + 1] == '\xBF' &&
                                      (d[i + 2] == '\xBE' || d[i + 2] == '\xBF');
            if (control || c1 || nonCharacter) {
                const uint32_t cp = control ? c
                                    : c1    ? static_cast<unsigned char>(d[i + 1])
                                            : 0xFFFE + (d[i + 2] == '\xBF');
                fail(
                    QStringLiteral("the control character U+%1 is not allowed in YAML; write "
                                   "it as an escape in a double-quoted string")
                        .arg(QString::number(cp, 16).toUpper().rightJustified(4, QLatin1Char('0'))),
                    i);
                return;
            }
            if (c == '\t' && !inScalar && !comment) {
                fail(QStringLiteral("a tab is not allowed here: YAML (as PyYAML reads it) takes "
                                    "tabs only inside quoted or block scalars and comments; "
                                    "use spaces"),
                     i);
                return;
            }
        }
    }
    int documents = 0;

    void OnDocumentStart(const YAML::Mark&) override { ++documents; }
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        YamlValue v;
        v.m_scalar = Value();
        qsizetype start = mark.pos;
        qsizetype len = 0;
        for (std::string_view word : {"~", "null", "Null", "NULL"}) {
            if (matchesWordAt(start, word)) {
                len = qsizetype(word.size());
                break;
            }
        }
        if (len == 0) {
            // An empty value: point just after whatever came before (usually the key's colon).
            start = std::max<qsizetype>(0, m_lastEnd + 1);
            while (start < m_text.size() && (m_text[start] == ':' || m_text[start] == '-'))
                ++start;
            v.m_span = spanOf(start - 1, start - 1);
        } else {
            v.m_span = spanOf(start, start + len - 1);
            m_lastEnd = start + len - 1;
        }
        add(std::move(v), anchor);
    }

    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        auto it = m_anchors.find(anchor);
        if (it == m_anchors.end()) {
            fail(QStringLiteral("unknown alias"), mark.pos);
            return;
        }
        const size_t nodes = m_anchorNodes[anchor];
        m_aliasNodes += nodes;
        if (m_aliasNodes > kMaxAliasNodes) {
            fail(QStringLiteral("aliases expand to more than %1 nodes (an alias bomb?); "
                                "use fewer or smaller aliases")
                     .arg(kMaxAliasNodes),
                 mark.pos);
            return;
        }
        YamlValue copy = it->second;
        qsizetype end = mark.pos + 1;
        while (end < m_text.size() && !isBreakOrSpace(m_text[end]) && m_text[end] != ',' &&
               m_text[end] != ']' && m_text[end] != '}')
            ++end;
        m_lastEnd = end - 1;
        add(std::move(copy), 0, nodes);
    }

    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& value) override
    {
        YamlValue v;
        const qsizetype start = mark.pos;
        const char first = start < m_text.size() ? m_text[start] : '\0';
        qsizetype end = start;
        if (tag == "!" || first == '"' || first == '\'' || first == '|' || first == '>') {
            v.m_style =
                (first == '|' || first == '>') ? YamlValue::Style::Block : YamlValue::Style::Quoted;
        }
        std::string text = value;
        if (first == '"' || first == '\'') {
            // Decoded again from the source: yaml-cpp folds quoted scalars that span lines
            // differently from PyYAML, and takes an unterminated one as a value.
            if (!decodeQuoted(start, text, end))
                return;
        } else {
            end = scalarEnd(start, value, v.m_style);
            if (v.m_style == YamlValue::Style::Block)
                keepTrailingBreaks(start, end, text);
        }
        v.m_span = spanOf(start, end);
        m_lastEnd = end;
        if (v.m_style != YamlValue::Style::Plain)
            m_scalarRanges.emplace_back(start, end);
        if (!typeScalar(v, tag, text, start))
            return;
        add(std::move(v), anchor);
    }

    void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value style) override
    {
        open(YamlValue::Kind::Sequence, mark, tag, anchor, style);
    }
    void OnSequenceEnd() override { close(']'); }

    void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override
    {
        open(YamlValue::Kind::Mapping, mark, tag, anchor, style);
    }
    void OnMapEnd() override { close('}'); }

    SourceSpan spanOf(qsizetype start, qsizetype end) const
    {
        SourceSpan s;
        s.file = m_file;
        auto [l, c] = m_index.position(start);
        auto [el, ec] = m_index.position(std::max(start, end));
        s.line = l;
        s.column = c;
        s.endLine = el;
        s.endColumn = ec;
        return s;
    }

    void fail(QString message, qsizetype offset)
    {
        if (!error)
            error = YamlLoadError{std::move(message), offset};
    }

private:
    struct Frame {
        YamlValue node;
        YAML::anchor_t anchor = 0;
        bool flow = false;
        qsizetype start = 0;
        size_t nodes = 1; ///< nodes in the subtree, aliased copies included
        std::optional<YamlValue> pendingKey;
        /// The document's own keys (by keyOf), so a duplicate is found in constant time.
        std::unordered_set<std::string> ownKeys;
        /// Entries that merge keys (`<<`) bring in, in PyYAML's order (see merge()).
        std::vector<YamlValue::Entry> merged;
    };

    // Python tells 1 and "1" apart: a key's identity is its text and whether it is a string.
    static std::string keyOf(const YamlValue::Entry& e)
    {
        return e.name + (e.key.m_scalar.isString() ? "\1s" : "\1v");
    }

    static bool isBreakOrSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

    bool matchesWordAt(qsizetype pos, std::string_view word) const
    {
        if (pos < 0 || pos + qsizetype(word.size()) > m_text.size())
            return false;
        if (std::string_view(m_text.constData() + pos, word.size()) != word)
            return false;
        const qsizetype after = pos + qsizetype(word.size());
        if (after >= m_text.size())
            return true;
        const char c = m_text[after];
        return isBreakOrSpace(c) || c == ',' || c == ']' || c == '}' || c == ':' || c == '#';
    }

    bool inFlow() const { return !m_stack.empty() && m_stack.back().flow; }

    qsizetype scalarEnd(qsizetype start, const std::string& value, YamlValue::Style style) const
    {
        const qsizetype n = m_text.size();
        const char* d = m_text.constData();
        if (start >= n)
            return n - 1;
        if (d[start] == '"') {
            for (qsizetype i = start + 1; i < n; ++i) {
                if (d[i] == '\\')
                    ++i;
                else if (d[i] == '"')
                    return i;
            }
            return n - 1;
        }
        if (d[start] == '\'') {
            for (qsizetype i = start + 1; i < n; ++i) {
                if (d[i] == '\'') {
                    if (i + 1 < n && d[i + 1] == '\'')
                        ++i;
                    else
                        return i;
                }
            }
            return n - 1;
        }
        if (style == YamlValue::Style::Block) {
            // Content lines: those after the header that are blank or indented at least as much
            // as the first non-blank one.
            qsizetype i = start;
            while (i < n && d[i] != '\n')
                ++i;
            qsizetype last = i - 1; // end of the header line
            int indent = -1;
            while (i < n) {
                qsizetype lineStart = i + 1;
                qsizetype j = lineStart;
                while (j < n && d[j] == ' ')
                    ++j;
                qsizetype lineEnd = j;
                while (lineEnd < n && d[lineEnd] != '\n')
                    ++lineEnd;
                const bool blank = j >= lineEnd || (j < n && d[j] == '\r');
                if (!blank) {
                    const int ind = int(j - lineStart);
                    if (indent < 0)
                        indent = ind;
                    if (ind < indent)
                        break;
                    last = lineEnd - 1;
                    if (last >= 0 && d[last] == '\r')
                        --last;
                }
                if (lineEnd >= n)
                    break;
                i = lineEnd;
            }
            return last;
        }
        // Plain scalar: on one line the source text is exactly the value.
        const qsizetype len = qsizetype(value.size());
        if (value.find('\n') == std::string::npos && start + len <= n &&
            std::string_view(d + start, len) == value)
            return start + std::max<qsizetype>(len, 1) - 1;
        // Folded over several lines: find where the last word ends.
        const size_t cut = value.find_last_of(" \n");
        const std::string_view lastWord = std::string_view(value).substr(cut + 1);
        if (!lastWord.empty()) {
            const qsizetype at = m_text.indexOf(
                QByteArray::fromRawData(lastWord.data(), qsizetype(lastWord.size())), start + 1);
            if (at >= 0)
                return at + qsizetype(lastWord.size()) - 1;
        }
        return start;
    }

    // yaml-cpp drops trailing empty lines of a folded block scalar with keep chomping (`>+`)
    // that PyYAML keeps: with `+`, every line break after the last content line belongs to
    // the value. `last` is the last content byte (scalarEnd).
    void keepTrailingBreaks(qsizetype start, qsizetype last, std::string& value) const
    {
        const char* d = m_text.constData();
        const qsizetype n = m_text.size();
        qsizetype h = start + 1;
        bool keep = false;
        while (h < n && (d[h] == '+' || d[h] == '-' || (d[h] >= '1' && d[h] <= '9'))) {
            keep = keep || d[h] == '+';
            ++h;
        }
        if (!keep || value.find_first_not_of('\n') == std::string::npos)
            return;
        // The content's indentation: that of the line holding `last`.
        qsizetype lineStart = last;
        while (lineStart > 0 && d[lineStart - 1] != '\n')
            --lineStart;
        qsizetype indent = 0;
        while (lineStart + indent < n && d[lineStart + indent] == ' ')
            ++indent;
        qsizetype i = last + 1;
        int breaks = 0;
        while (i < n) {
            if (d[i] == '\r' && i + 1 < n && d[i + 1] == '\n')
                ++i;
            if (d[i] != '\n' && d[i] != '\r')
                return; // not at a line end: leave yaml-cpp's value
            ++breaks;
            ++i;
            qsizetype spaces = 0;
            while (i + spaces < n && d[i + spaces] == ' ')
                ++spaces;
            const char next = i + spaces < n ? d[i + spaces] : '\n';
            if (next != '\n' && next != '\r')
                break; // the next non-blank line ends the scalar
            if (spaces > indent)
                return; // a line of spaces that is content: left to yaml-cpp
            i += spaces;
        }
        while (!value.empty() && value.back() == '\n')
            value.pop_back();
        value.append(size_t(breaks), '\n');
    }

    // --- quoted scalars as PyYAML's scanner reads them (scan_flow_scalar) ---------------------

    // Length of the line break at i (\r\n, \r, \n, NEL, LS, PS), 0 if none.
    qsizetype breakAt(qsizetype i) const
    {
        const qsizetype n = m_text.size();
        const char* d = m_text.constData();
        if (i >= n)
            return 0;
        if (d[i] == '\r')
            return i + 1 < n && d[i + 1] == '\n' ? 2 : 1;
        if (d[i] == '\n')
            return 1;
        if (d[i] == '\xC2' && i + 1 < n && d[i + 1] == '\x85')
            return 2;
        if (d[i] == '\xE2' && i + 2 < n && d[i + 1] == '\x80' &&
            (d[i + 2] == '\xA8' || d[i + 2] == '\xA9'))
            return 3;
        return 0;
    }

    // A break as PyYAML's scan_line_break returns it: CR, LF, CRLF and NEL are "\n"; LS and
    // PS are kept.
    std::string breakText(qsizetype i, qsizetype len) const
    {
        return len == 3 ? std::string(m_text.constData() + i, 3) : std::string("\n");
    }

    bool atDocumentMarker(qsizetype i) const
    {
        if (i + 3 > m_text.size())
            return false;
        const std::string_view three(m_text.constData() + i, 3);
        if (three != "---" && three != "...")
            return false;
        return i + 3 == m_text.size() || m_text[i + 3] == ' ' || m_text[i + 3] == '\t' ||
               breakAt(i + 3) > 0;
    }

    // Line breaks after a folded break (scan_flow_scalar_breaks).
    bool quotedBreaks(qsizetype& i, std::string& out, qsizetype start)
    {
        while (true) {
            if (atDocumentMarker(i)) {
                fail(QStringLiteral("a quoted scalar is interrupted by a document marker ('---' or "
                                    "'...'); close the quote before it"),
                     i);
                (void)start;
                return false;
            }
            while (i < m_text.size() && (m_text[i] == ' ' || m_text[i] == '\t'))
                ++i;
            const qsizetype len = breakAt(i);
            if (len == 0)
                return true;
            out += breakText(i, len);
            i += len;
        }
    }

    // Decodes the quoted scalar whose opening quote is at `start`; `end` gets the closing
    // quote's offset. An unterminated scalar is an error at its opening quote.
    bool decodeQuoted(qsizetype start, std::string& out, qsizetype& end)
    {
        const char* d = m_text.constData();
        const qsizetype n = m_text.size();
        const char quote = d[start];
        const bool dq = quote == '"';
        out.clear();
        qsizetype i = start + 1;
        const auto unterminated = [&] {
            fail(QStringLiteral("this quoted scalar is never closed: the opening %1 has no "
                                "closing %1 before the end of the file")
                     .arg(dq ? QLatin1Char('"') : QLatin1Char('\'')),
                 start);
            return false;
        };
        while (true) {
            // Non-space characters (scan_flow_scalar_non_spaces).
            while (true) {
                qsizetype j = i;
                while (j < n && d[j] != '\'' && d[j] != '"' && d[j] != '\\' && d[j] != ' ' &&
                       d[j] != '\t' && breakAt(j) == 0)
                    ++j;
                out.append(d + i, size_t(j - i));
                i = j;
                if (i >= n)
                    break;
                const char c = d[i];
                if (!dq && c == '\'' && i + 1 < n && d[i + 1] == '\'') {
                    out += '\'';
                    i += 2;
                } else if ((dq && c == '\'') || (!dq && (c == '"' || c == '\\'))) {
                    out += c;
                    ++i;
                } else if (dq && c == '\\') {
                    if (!escape(i, out, start))
                        return false;
                } else {
                    break;
                }
            }
            if (i >= n)
                return unterminated();
            if (d[i] == quote) {
                end = i;
                return true;
            }
            // Spaces and folded line breaks (scan_flow_scalar_spaces).
            qsizetype j = i;
            while (j < n && (d[j] == ' ' || d[j] == '\t'))
                ++j;
            if (j >= n)
                return unterminated();
            if (const qsizetype len = breakAt(j)) {
                const std::string lineBreak = breakText(j, len);
                i = j + len;
                std::string breaks;
                if (!quotedBreaks(i, breaks, start))
                    return false;
                if (lineBreak != "\n")
                    out += lineBreak;
                else if (breaks.empty())
                    out += ' ';
                out += breaks;
            } else {
                out.append(d + i, size_t(j - i));
                i = j;
            }
        }
    }

    // One backslash escape of a double-quoted scalar at `i` (the backslash).
    bool escape(qsizetype& i, std::string& out, qsizetype start)
    {
        const char* d = m_text.constData();
        const qsizetype n = m_text.size();
        const qsizetype at = i;
        ++i;
        if (i >= n) {
            fail(QStringLiteral("this quoted scalar is never closed"), start);
            return false;
        }
        static const std::pair<char, const char*> simple[] = {
            {'0', "\0"},           {'a', "\x07"},        {'b', "\x08"},     {'t', "\t"},
            {'\t', "\t"},          {'n', "\n"},          {'v', "\x0B"},     {'f', "\x0C"},
            {'r', "\r"},           {'e', "\x1B"},        {' ', " "},        {'"', "\""},
            {'\\', "\\"},          {'/', "/"},           {'N', "\xC2\x85"}, {'_', "\xC2\xA0"},
            {'L', "\xE2\x80\xA8"}, {'P', "\xE2\x80\xA9"}};
        const char c = d[i];
        for (const auto& [code, text] : simple) {
            if (c == code) {
                if (code == '0')
                    out += '\0';
                else
                    out += text;
                ++i;
                return true;
            }
        }
        const int digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
        if (digits) {
            ++i;
            uint32_t cp = 0;
            for (int k = 0; k < digits; ++k) {
                const char h = i + k < n ? d[i + k] : '\0';
                const int v = h >= '0' && h <= '9'   ? h - '0'
                              : h >= 'a' && h <= 'f' ? h - 'a' + 10
                              : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                     : -1;
                if (v < 0) {
                    fail(QStringLiteral("the escape \\%1 needs %2 hexadecimal digits")
                             .arg(QLatin1Char(c))
                             .arg(digits),
                         at);
                    return false;
                }
                cp = cp * 16 + uint32_t(v);
            }
            i += digits;
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                fail(QStringLiteral("the escape \\%1 is not a Unicode character")
                         .arg(QString::fromLatin1(d + at + 1, digits + 1)),
                     at);
                return false;
            }
            appendUtf8(out, cp);
            return true;
        }
        if (const qsizetype len = breakAt(i)) {
            // An escaped line break joins the lines without a space.
            i += len;
            return quotedBreaks(i, out, start);
        }
        fail(QStringLiteral("unknown escape '\\%1' in a double-quoted scalar")
                 .arg(QString::fromUtf8(d + i, 1)),
             at);
        return false;
    }

    bool typeScalar(YamlValue& v, const std::string& tag, const std::string& value, qsizetype start)
    {
        static const std::string yamlTag = "tag:yaml.org,2002:";
        std::string kind;
        if (tag == "?" || tag.empty())
            kind = v.m_style == YamlValue::Style::Plain ? "resolve" : "str";
        else if (tag == "!")
            kind = "str";
        else if (tag.rfind(yamlTag, 0) == 0)
            kind = tag.substr(yamlTag.size());
        else {
            fail(QStringLiteral("unsupported YAML tag '%1'").arg(QString::fromStdString(tag)),
                 start);
            return false;
        }
        if (kind == "str") {
            v.m_scalar = Value(value);
            return true;
        }
        const bool resolve = kind == "resolve";
        if ((resolve || kind == "null") && isYamlNull(value)) {
            v.m_scalar = Value();
            return true;
        }
        bool b = false;
        if ((resolve || kind == "bool") && isYamlBool(value, b)) {
            v.m_scalar = Value(b);
            return true;
        }
        if (resolve || kind == "int") {
            int64_t i = 0;
            switch (parseYamlInt(value, i)) {
            case IntParse::Ok:
                v.m_scalar = Value(i);
                return true;
            case IntParse::Overflow:
                fail(QStringLiteral("integer %1 does not fit in 64 bits")
                         .arg(QString::fromStdString(value)),
                     start);
                return false;
            case IntParse::NotInt:
                break;
            }
        }
        if (resolve || kind == "float") {
            if (auto f = parseYamlFloat(value)) {
                v.m_scalar = Value(*f);
                return true;
            }
            int64_t i = 0;
            // PyYAML's float constructor also takes integer text for an explicit !!float.
            if (!resolve && parseYamlInt(value, i) == IntParse::Ok) {
                v.m_scalar = Value(double(i));
                return true;
            }
        }
        if (resolve && value == "=") {
            // PyYAML resolves a plain `=` to YAML's value tag, which safe_load cannot build.
            fail(QStringLiteral("a plain '=' is not a valid value (PyYAML refuses it); quote it"),
                 start);
            return false;
        }
        if (!resolve) {
            fail(QStringLiteral("'%1' is not a valid !!%2")
                     .arg(QString::fromStdString(value), QString::fromStdString(kind)),
                 start);
            return false;
        }
        v.m_scalar = Value(value);
        return true;
    }

    void open(YamlValue::Kind kind, const YAML::Mark& mark, const std::string& tag,
              YAML::anchor_t anchor, YAML::EmitterStyle::value style)
    {
        if (tag != "?" && tag != "!" && !tag.empty() && tag != "tag:yaml.org,2002:seq" &&
            tag != "tag:yaml.org,2002:map")
            fail(QStringLiteral("unsupported YAML tag '%1'").arg(QString::fromStdString(tag)),
                 mark.pos);
        if (m_stack.size() >= kMaxNesting && !error) {
            fail(QStringLiteral("the document nests lists and mappings more than %1 levels deep")
                     .arg(kMaxNesting),
                 mark.pos);
        }
        if (error) {
            // Keep the stack balanced for the matching end event, but build nothing.
            m_stack.push_back(Frame{});
            return;
        }
        Frame f;
        f.node.m_kind = kind;
        f.anchor = anchor;
        f.flow = style == YAML::EmitterStyle::Flow;
        f.start = mark.pos;
        // yaml-cpp marks a block sequence inside a mapping at its first '-'; fine as a start.
        m_stack.push_back(std::move(f));
    }

    void close(char closer)
    {
        if (error) {
            m_stack.pop_back();
            return;
        }
        Frame f = std::move(m_stack.back());
        m_stack.pop_back();
        qsizetype end = f.start;
        if (f.flow) {
            qsizetype from = std::max(m_lastEnd + 1, f.start + 1);
            qsizetype at = m_text.indexOf(closer, from);
            end = at >= 0 ? at : m_lastEnd;
        } else {
            end = std::max(m_lastEnd, f.start);
        }
        m_lastEnd = end;
        f.node.m_span = spanOf(f.start, end);
        if (!f.merged.empty())
            applyMerge(f);
        add(std::move(f.node), f.anchor, f.nodes);
    }

    void add(YamlValue v, YAML::anchor_t anchor, size_t nodes = 1)
    {
        if (error)
            return;
        if (anchor != 0) {
            m_anchors[anchor] = v;
            m_anchorNodes[anchor] = nodes;
        }
        if (m_stack.empty()) {
            root = std::move(v);
            return;
        }
        Frame& top = m_stack.back();
        top.nodes += nodes;
        if (top.node.m_kind == YamlValue::Kind::Sequence) {
            top.node.m_items.push_back(std::move(v));
            return;
        }
        if (!top.pendingKey) {
            if (!v.isScalar()) {
                // PyYAML builds keys with hash(); lists and dicts are unhashable there.
                fail(QStringLiteral("a mapping key must be a scalar, not %1")
                         .arg(QString::fromStdString(v.describe())),
                     m_text.size() ? offsetOf(v.m_span) : 0);
                return;
            }
            top.pendingKey = std::move(v);
            return;
        }
        YamlValue key = std::move(*top.pendingKey);
        top.pendingKey.reset();
        std::string name = key.m_scalar.isString() ? key.m_scalar.asString() : key.m_scalar.str();
        if (key.m_style == YamlValue::Style::Plain && name == "<<" && key.m_scalar.isString()) {
            merge(top, v);
            return;
        }
        YamlValue::Entry entry{std::move(key), std::move(v), std::move(name)};
        // PyYAML keeps the last of duplicate keys; Hako refuses them (a second `text:` in a
        // block is a mistake that would silently drop the first).
        if (!top.ownKeys.insert(keyOf(entry)).second) {
            fail(QStringLiteral("duplicate key '%1' in a mapping")
                     .arg(QString::fromStdString(entry.name)),
                 offsetOf(entry.key.m_span));
            return;
        }
        top.node.m_entries.push_back(std::move(entry));
    }

    // YAML merge keys (`<<: *base`), applied as PyYAML's safe_load does (flatten_mapping): the
    // merged entries come first, in the order of the `<<` keys, the mappings of a list in
    // reverse (so the first listed wins); the mapping's own keys then override them. A key
    // keeps the position of its first occurrence and takes the value of its last.
    void merge(Frame& top, const YamlValue& source)
    {
        std::vector<const YamlValue*> maps;
        if (source.isMapping())
            maps.push_back(&source);
        else if (source.isSequence()) {
            for (auto it = source.m_items.rbegin(); it != source.m_items.rend(); ++it)
                maps.push_back(&*it);
        }
        if (maps.empty() && !source.isSequence()) {
            fail(QStringLiteral("a merge key '<<' needs a mapping or a list of mappings"),
                 offsetOf(source.m_span));
            return;
        }
        for (const YamlValue* m : maps) {
            if (!m->isMapping()) {
                fail(QStringLiteral("a merge key '<<' needs a mapping or a list of mappings"),
                     offsetOf(m->m_span));
                return;
            }
            top.merged.insert(top.merged.end(), m->m_entries.begin(), m->m_entries.end());
        }
    }

    void applyMerge(Frame& f)
    {
        std::vector<YamlValue::Entry> entries;
        std::unordered_map<std::string, size_t> at;
        auto put = [&](YamlValue::Entry&& e) {
            auto [it, inserted] = at.emplace(keyOf(e), entries.size());
            if (inserted)
                entries.push_back(std::move(e));
            else
                entries[it->second] = std::move(e);
        };
        for (YamlValue::Entry& e : f.merged)
            put(std::move(e));
        for (YamlValue::Entry& e : f.node.m_entries)
            put(std::move(e));
        f.node.m_entries = std::move(entries);
        f.merged.clear();
    }

    qsizetype offsetOf(const SourceSpan& span) const
    {
        qsizetype start = m_index.lineStart(span.line);
        // Walk code points to the column.
        qsizetype i = start;
        for (int c = 1; c < span.column && i < m_text.size(); ++c) {
            ++i;
            while (i < m_text.size() && (static_cast<unsigned char>(m_text[i]) & 0xC0) == 0x80)
                ++i;
        }
        return i;
    }

    const QByteArray& m_text;
    LineIndex m_index;
    QString m_file;
    std::vector<Frame> m_stack;
    std::map<YAML::anchor_t, YamlValue> m_anchors;
    std::map<YAML::anchor_t, size_t> m_anchorNodes;
    size_t m_aliasNodes = 0;
    /// Source ranges [first, last] of quoted and block scalars, in document order.
    std::vector<std::pair<qsizetype, qsizetype>> m_scalarRanges;
    qsizetype m_lastEnd = -1;
};

Result<YamlValue> loadYaml(const QByteArray& input, const QString& fileName)
{
    // yaml-cpp counts positions after a UTF-8 byte order mark; drop it so offsets match.
    QByteArray text = input.startsWith("\xEF\xBB\xBF") ? input.mid(3) : input;
    YamlBuilder builder(text, fileName);
    try {
        std::istringstream in(std::string(text.constData(), size_t(text.size())));
        YAML::Parser parser(in);
        const bool read = parser.HandleNextDocument(builder);
        if (read && !builder.error)
            builder.checkCharacters();
        if (read && !builder.error) {
            YamlBuilder second(text, fileName);
            if (parser.HandleNextDocument(second) && second.documents > 0) {
                return makeError(QStringLiteral("a PDL program must be a single YAML document"),
                                 builder.spanOf(0, 0));
            }
        }
    } catch (const YAML::Exception& e) {
        // yaml-cpp stops at its own recursion limit after ours has been recorded.
        if (builder.error)
            return makeError(builder.error->message,
                             builder.spanOf(builder.error->offset, builder.error->offset));
        SourceSpan span;
        span.file = fileName;
        if (dynamic_cast<const YAML::DeepRecursion*>(&e)) {
            if (!e.mark.is_null())
                span = builder.spanOf(e.mark.pos, e.mark.pos);
            return makeError(QStringLiteral("the document nests lists and mappings too deeply"),
                             span);
        }
        if (!e.mark.is_null()) {
            span = builder.spanOf(e.mark.pos, e.mark.pos);
        }
        if (e.msg == "illegal EOF in scalar") // yaml-cpp's words for an unclosed quote
            return makeError(QStringLiteral("the file ends inside a quoted scalar: its closing "
                                            "quote is missing"),
                             span);
        return makeError(QStringLiteral("YAML syntax error: %1").arg(QString::fromStdString(e.msg)),
                         span);
    }
    if (builder.error)
        return makeError(builder.error->message,
                         builder.spanOf(builder.error->offset, builder.error->offset));
    if (!builder.root) {
        YamlValue empty; // an empty document is null, as PyYAML loads it
        return empty;
    }
    return std::move(*builder.root);
}

} // namespace hako::pdl
