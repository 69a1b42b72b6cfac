#include "core/pdl/check/textmistakes.h"

#include "core/pdl/ast/block.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QRegularExpression>
#include <QStringList>

#include <set>
#include <string>

namespace hako::pdl {

namespace {

// The fields whose value is a text a person writes (the Prompt view's texts and messages).
bool isTextField(const std::string& key)
{
    static const std::set<std::string> keys = {"text",   "input", "content", "data",
                                               "lastOf", "array", "message", "description",
                                               "prompt", "then",  "else",    "system"};
    return keys.count(key) > 0;
}

class Lint {
public:
    Lint(const QString& text) : m_lines(text.split(QLatin1Char('\n'))) {}

    std::vector<Diagnostic> out;
    QString file;

    void walk(const YamlValue& node, bool textContext)
    {
        if (node.isMapping()) {
            for (const YamlValue::Entry& e : node.entries()) {
                // The entries of `defs:` are the program's values (the Prompt view's 値).
                const bool isDefs = e.name == "defs";
                if (isDefs && e.value.isMapping()) {
                    for (const YamlValue::Entry& d : e.value.entries())
                        walk(d.value, true);
                    continue;
                }
                walk(e.value, isTextField(e.name));
            }
        } else if (node.isSequence()) {
            for (const YamlValue& item : node.items())
                walk(item, textContext);
        } else if (node.isString()) {
            strayBraces(node);
            if (textContext)
                comment(node);
        }
    }

private:
    QStringList m_lines;

    QString line(int l) const
    {
        if (l < 1 || l > m_lines.size())
            return {};
        QString s = m_lines.at(l - 1);
        if (s.endsWith(QLatin1Char('\r')))
            s.chop(1);
        return s;
    }

    // The UTF-16 index of 1-based code-point column `column` in `s`.
    static qsizetype indexOf(const QString& s, int column)
    {
        qsizetype i = 0;
        for (int c = 1; c < column && i < s.size(); ++c)
            i += (s.at(i).isHighSurrogate() && i + 1 < s.size()) ? 2 : 1;
        return i;
    }
    // The 1-based code-point column of UTF-16 index `index` in `s`.
    static int columnOf(const QString& s, qsizetype index)
    {
        return int(QStringView(s).left(index).toUcs4().size()) + 1;
    }

    void comment(const YamlValue& node)
    {
        const SourceSpan& span = node.span();
        if (node.style() != YamlValue::Style::Plain || (span.endLine && span.endLine != span.line))
            return;
        const QString s = line(span.line);
        const QString value = QString::fromStdString(node.scalar().asString());
        const qsizetype start = indexOf(s, span.column);
        if (value.isEmpty() || QStringView(s).mid(start, value.size()) != value)
            return;
        // ` #` then a character at once (`#赤`, `#1`): a person's text, not `# a comment`.
        static const QRegularExpression rest(QStringLiteral("^[ \\t]+#([^\\s#].*)$"));
        const qsizetype end = start + value.size();
        const QRegularExpressionMatch m = rest.match(s.mid(end));
        if (!m.hasMatch())
            return;
        const qsizetype hash = end + m.capturedStart(1) - 1;
        SourceSpan at{file, span.line, columnOf(s, hash), span.line, columnOf(s, s.size())};
        out.push_back({Severity::Warning,
                       QStringLiteral("the text ends before '%1': ' #' starts a YAML comment")
                           .arg(s.mid(hash).trimmed()),
                       at});
    }

    void strayBraces(const YamlValue& node)
    {
        const SourceSpan& span = node.span();
        const int last = span.endLine > 0 ? span.endLine : span.line;
        for (int l = span.line; l <= last; ++l) {
            const QString s = line(l);
            qsizetype from = l == span.line ? indexOf(s, span.column) : 0;
            while ((from = s.indexOf(QLatin1String("${"), from)) >= 0) {
                int depth = 0;
                qsizetype i = from + 1;
                for (; i < s.size(); ++i) {
                    if (s.at(i) == QLatin1Char('{'))
                        ++depth;
                    else if (s.at(i) == QLatin1Char('}') && --depth == 0)
                        break;
                }
                if (i >= s.size())
                    break;
                if (i + 1 < s.size() && s.at(i + 1) == QLatin1Char('}')) {
                    const int column = columnOf(s, i + 1);
                    out.push_back({Severity::Warning,
                                   QStringLiteral("'}' after '%1' is not part of the expression: "
                                                  "it is written out as text")
                                       .arg(s.mid(from, i + 1 - from)),
                                   SourceSpan{file, l, column, l, column + 1}});
                }
                from = i + 1;
            }
        }
    }
};

} // namespace

std::vector<Diagnostic> textMistakes(const Program& program, const QString& text)
{
    if (!program.document)
        return {};
    Lint lint(text);
    lint.file = program.file;
    lint.walk(*program.document, true);
    return lint.out;
}

} // namespace hako::pdl
