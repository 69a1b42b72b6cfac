#include "core/pdl/programcheck.h"
#include "core/util/boundedfile.h"

#include "core/pdl/check/textmistakes.h"
#include "core/pdl/expr/expression.h"
#include "core/pdl/parser/expressionposition.h"

#include <QFile>

#include <algorithm>

namespace hako::pdl {

namespace {

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

Diagnostic parseFailure(const ParseResult& parsed, const QString& fallback)
{
    QStringList lines;
    SourceSpan first;
    for (const Diagnostic& d : parsed.diagnostics) {
        if (d.severity != Severity::Error)
            continue;
        if (!first.isValid())
            first = d.span;
        lines << d.toString();
    }
    return makeError(lines.isEmpty() ? fallback : lines.join(QLatin1Char('\n')), first);
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
        const std::vector<Diagnostic> texts =
            textMistakes(*report.parse.program, QString::fromUtf8(text));
        report.diagnostics.insert(report.diagnostics.end(), texts.begin(), texts.end());
        report.scopes = std::move(scopes);
    }
    sortByPosition(report.diagnostics);
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
