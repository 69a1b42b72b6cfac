#include "core/pdl/programcheck.h"
#include "core/util/boundedfile.h"

#include "core/pdl/expr/expression.h"

#include <QFile>

#include <algorithm>

namespace hako::pdl {

namespace {

int indentation(const QString& line)
{
    int i = 0;
    while (i < line.size() && (line[i] == QLatin1Char(' ') || line[i] == QLatin1Char('\t')))
        ++i;
    return i;
}

// Columns are code points; QString indexes are UTF-16 units.
int codePointColumn(const QString& line, int utf16Index)
{
    return int(line.left(utf16Index).toUcs4().size()) + 1;
}

ParseOptions optionsFor(const QStringList& lines)
{
    ParseOptions options;
    options.checkExpression = [lines](const std::string& source, const SourceSpan& span,
                                      std::vector<Diagnostic>& diagnostics) {
        if (source.find("${") == std::string::npos && source.find("{#") == std::string::npos)
            return;
        std::optional<Diagnostic> error = checkTemplate(source);
        if (!error)
            return;
        Diagnostic d = *error;
        d.span = mapExpressionPosition(lines, source, span, error->span.line, error->span.column);
        diagnostics.push_back(std::move(d));
    };
    return options;
}

} // namespace

SourceSpan mapExpressionPosition(const QStringList& fileLines, const std::string& source,
                                 const SourceSpan& stringSpan, int line, int column)
{
    SourceSpan out = stringSpan;
    if (line <= 0 || stringSpan.line <= 0)
        return out;
    const QString text = QString::fromStdString(source);
    const QStringList srcLines = text.split(QLatin1Char('\n'));
    const QString first = srcLines.value(0);
    // Find where the string's first line stands in the file: on the span's line (plain or
    // quoted scalars) or on a following line (block scalars).
    const int lastSearch = std::min<int>(int(fileLines.size()), stringSpan.line + 2);
    for (int l = stringSpan.line; l <= lastSearch; ++l) {
        const QString& fileLine = fileLines.at(l - 1);
        const int from = l == stringSpan.line ? std::max(0, stringSpan.column - 1) : 0;
        const int at = first.isEmpty() ? -1 : int(fileLine.indexOf(first, from));
        if (at < 0)
            continue;
        if (line == 1) {
            out.line = l;
            out.column = codePointColumn(fileLine, at) + column - 1;
        } else {
            out.line = l + line - 1;
            const QString target = fileLines.value(out.line - 1);
            out.column = codePointColumn(target, indentation(target)) + column - 1;
        }
        out.endLine = out.line;
        out.endColumn = out.column;
        return out;
    }
    return out;
}

ParseResult checkProgramText(const QByteArray& text, const QString& fileName)
{
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    return parseProgramText(text, fileName, optionsFor(lines));
}

ParseResult checkProgram(const QString& path)
{
    Result<QByteArray> text = readBoundedFile(path);
    if (!text) {
        ParseResult result;
        result.diagnostics.push_back(text.error());
        return result;
    }
    return checkProgramText(*text, path);
}

int ProgramReport::errorCount() const
{
    return int(std::count_if(diagnostics.begin(), diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

ProgramReport analyzeProgramText(const QByteArray& text, const QString& fileName,
                                 const ScopeOptions& options)
{
    ProgramReport report;
    report.parse = checkProgramText(text, fileName);
    report.diagnostics = report.parse.diagnostics;
    if (report.parse.program) {
        auto scopes =
            std::make_shared<ScopeAnalysis>(analyzeScopes(*report.parse.program, text, options));
        report.diagnostics.insert(report.diagnostics.end(), scopes->warnings.begin(),
                                  scopes->warnings.end());
        report.scopes = std::move(scopes);
    }
    std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) {
                         return std::pair(a.span.line, a.span.column) <
                                std::pair(b.span.line, b.span.column);
                     });
    return report;
}

ProgramReport analyzeProgram(const QString& path, const ScopeOptions& options)
{
    Result<QByteArray> text = readBoundedFile(path);
    if (!text) {
        ProgramReport report;
        report.diagnostics.push_back(text.error());
        report.parse.diagnostics = report.diagnostics;
        return report;
    }
    return analyzeProgramText(*text, path, options);
}

} // namespace hako::pdl
