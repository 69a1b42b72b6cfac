#include "core/pdl/analysis/textfixes.h"

#include "core/pdl/analysis/plaindiagnostic.h"
#include "core/pdl/programcheck.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace hako::pdl {

namespace {

// Positions in the text: 1-based lines, columns in code points, as the checker gives them.
class Text {
public:
    explicit Text(const QString& text) : m_text(text)
    {
        m_starts.push_back(0);
        for (qsizetype i = 0; i < text.size(); ++i)
            if (text.at(i) == QLatin1Char('\n'))
                m_starts.push_back(i + 1);
    }
    const QString& text() const { return m_text; }
    int lineOf(qsizetype offset) const
    {
        return int(std::upper_bound(m_starts.begin(), m_starts.end(), offset) - m_starts.begin());
    }
    qsizetype start(int line) const
    {
        return line < 1                      ? 0
               : line > int(m_starts.size()) ? m_text.size()
                                             : m_starts[size_t(line - 1)];
    }
    /// The offset after the line's last character (before "\r\n" or "\n").
    qsizetype end(int line) const
    {
        qsizetype e = line < int(m_starts.size()) ? m_starts[size_t(line)] - 1 : m_text.size();
        if (e > start(line) && m_text.at(e - 1) == QLatin1Char('\r'))
            --e;
        return e;
    }
    qsizetype offset(int line, int column) const
    {
        qsizetype i = start(line);
        const qsizetype e = end(line);
        for (int c = 1; c < column && i < e; ++c)
            i += (m_text.at(i).isHighSurrogate() && i + 1 < e) ? 2 : 1;
        return i;
    }

private:
    QString m_text;
    std::vector<qsizetype> m_starts;
};

int errors(const std::vector<Diagnostic>& diagnostics)
{
    return int(std::count_if(diagnostics.begin(), diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

QString fileOf(const ProgramReport& report, const Diagnostic& d)
{
    return report.parse.program ? report.parse.program->file : d.span.file;
}

// The `${` before `at` that no `}` closes before it, or -1.
qsizetype unclosedBefore(const QString& text, qsizetype at)
{
    qsizetype open = -1;
    int depth = 0;
    for (qsizetype i = 0; i < at && i < text.size(); ++i) {
        if (open < 0) {
            if (text.at(i) == QLatin1Char('$') && i + 1 < text.size() &&
                text.at(i + 1) == QLatin1Char('{')) {
                open = i;
                depth = 1;
                ++i;
            }
        } else if (text.at(i) == QLatin1Char('{')) {
            ++depth;
        } else if (text.at(i) == QLatin1Char('}') && --depth == 0) {
            open = -1;
        }
    }
    return open;
}

std::optional<QuickFix> closeFix(const ProgramReport& report, const Text& t, const Diagnostic& d)
{
    const qsizetype at = t.offset(d.span.line, d.span.column);
    const qsizetype open = unclosedBefore(t.text(), at);
    if (open < 0)
        return std::nullopt;
    const int openLine = t.lineOf(open);
    const bool wordsAfter = d.message.contains(QLatin1String("got '"));
    qsizetype insert = at;
    if (openLine != d.span.line) {
        // The expression ran on into the next lines (a `|` text): close it where its line ends.
        insert = t.end(openLine);
        while (insert > open && t.text().at(insert - 1).isSpace())
            --insert;
    } else if (wordsAfter) {
        return std::nullopt; // `${ 名前 さん }`: where the expression should end is a guess
    }
    const bool space = insert > 0 && t.text().at(insert - 1) == QLatin1Char(' ');
    QuickFix fix;
    fix.kind = QuickFix::Kind::Close;
    fix.title = QCoreApplication::translate("hako::pdl::QuickFix", "Close the `${` with `}`");
    fix.edits.append({insert, 0, space ? QStringLiteral("}") : QStringLiteral(" }")});
    const ParseResult check =
        checkProgramText(applyQuickFix(t.text(), fix).toUtf8(), fileOf(report, d));
    if (errors(check.diagnostics) >= errors(report.parse.diagnostics))
        return std::nullopt;
    return fix;
}

// Where a plain text starts on `line`: after the indentation, `- ` items and one `key: `; or
// at `column` when a key starts there (`- お問い合わせ: 返品したい`, read as a field). -1 when
// the value is quoted, a block, a flow collection or empty.
qsizetype plainTextStart(const Text& t, int line, int column, bool keyIsText)
{
    const qsizetype s = t.start(line);
    const QString content = t.text().mid(s, t.end(line) - s);
    qsizetype i = 0;
    if (keyIsText) {
        i = t.offset(line, column) - s;
    } else {
        while (i < content.size() && content.at(i) == QLatin1Char(' '))
            ++i;
        while (content.mid(i).startsWith(QLatin1String("- ")))
            for (i += 2; i < content.size() && content.at(i) == QLatin1Char(' ');)
                ++i;
        static const QRegularExpression key(
            QStringLiteral("^[^\\s'\"#:{}\\[\\],&*!|>%@`?-][^\\s:]*:[ \\t]+"));
        const QRegularExpressionMatch m = key.match(content.mid(i));
        if (m.hasMatch())
            i += m.capturedLength();
    }
    if (i >= content.size() || QStringLiteral("'\"|>[{&*!").contains(content.at(i)))
        return -1;
    return s + i;
}

std::optional<QuickFix> quoteFix(const ProgramReport& report, const Text& t, const Diagnostic& d,
                                 Mistake mistake)
{
    const bool keyIsText =
        mistake == Mistake::ColonInText && d.message.contains(QLatin1String("is not allowed in"));
    const qsizetype from = plainTextStart(t, d.span.line, d.span.column, keyIsText);
    if (from < 0)
        return std::nullopt;
    qsizetype to = t.end(d.span.line);
    while (to > from && t.text().at(to - 1).isSpace())
        --to;
    const QString written = t.text().mid(from, to - from);
    QuickFix fix;
    fix.kind = QuickFix::Kind::Quote;
    fix.title = QCoreApplication::translate("hako::pdl::QuickFix", "Put the text in double quotes");
    fix.edits.append({from, to - from, doubleQuoted(written)});
    const QString fixed = applyQuickFix(t.text(), fix);
    const ProgramReport after = analyzeProgramText(fixed.toUtf8(), fileOf(report, d));
    if (!after.parse.program)
        return std::nullopt;
    const bool stillThere =
        std::any_of(after.diagnostics.begin(), after.diagnostics.end(), [&](const Diagnostic& x) {
            return x.span.line == d.span.line && x.message == d.message;
        });
    if (stillThere || after.errorCount() > report.errorCount())
        return std::nullopt;
    return fix;
}

} // namespace

QString doubleQuoted(const QString& text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    out.replace(QLatin1Char('"'), QLatin1String("\\\""));
    out.replace(QLatin1Char('\t'), QLatin1String("\\t"));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

std::vector<QuickFix> textQuickFixes(const ProgramReport& report, const QString& text,
                                     const Diagnostic& diagnostic)
{
    std::vector<QuickFix> out;
    const std::optional<PlainDiagnostic> plain = commonMistake(diagnostic.message);
    if (!plain || !diagnostic.span.isValid())
        return out;
    const Text t(text);
    std::optional<QuickFix> fix;
    switch (plain->mistake) {
    case Mistake::UnclosedExpression:
        fix = closeFix(report, t, diagnostic);
        break;
    case Mistake::ColonInText:
    case Mistake::CommentInText:
        fix = quoteFix(report, t, diagnostic, plain->mistake);
        break;
    case Mistake::StrayBrace: {
        const qsizetype at = t.offset(diagnostic.span.line, diagnostic.span.column);
        if (at < text.size() && text.at(at) == QLatin1Char('}')) {
            fix =
                QuickFix{QuickFix::Kind::RemoveBrace,
                         QCoreApplication::translate("hako::pdl::QuickFix", "Remove the extra `}`"),
                         {{at, 1, QString()}}};
        }
        break;
    }
    default:
        break;
    }
    if (fix)
        out.push_back(std::move(*fix));
    return out;
}

} // namespace hako::pdl
