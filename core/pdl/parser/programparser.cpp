#include "core/pdl/parser/programparser.h"

#include "core/pdl/parser/checker.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QFile>

#include <algorithm>

namespace hako::pdl {

bool ParseResult::ok() const
{
    return std::none_of(diagnostics.begin(), diagnostics.end(),
                        [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

int fieldNameDistance(std::string_view a, std::string_view b)
{
    auto norm = [](std::string_view s) {
        std::string out;
        for (char c : s) {
            if (c != '_')
                out += char(std::tolower(static_cast<unsigned char>(c)));
        }
        return out;
    };
    const std::string x = norm(a), y = norm(b);
    std::vector<int> prev(y.size() + 1), cur(y.size() + 1);
    for (size_t j = 0; j <= y.size(); ++j)
        prev[j] = int(j);
    for (size_t i = 1; i <= x.size(); ++i) {
        cur[0] = int(i);
        for (size_t j = 1; j <= y.size(); ++j) {
            cur[j] = std::min(
                {prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)});
        }
        std::swap(prev, cur);
    }
    return prev[y.size()];
}

ParseResult parseProgramText(const QByteArray& text, const QString& fileName,
                             const ParseOptions& options)
{
    ParseResult result;
    Result<YamlValue> doc = loadYaml(text, fileName);
    if (!doc) {
        result.diagnostics.push_back(doc.error());
        return result;
    }
    auto document = std::make_shared<const YamlValue>(std::move(doc).value());
    detail::Checker checker(options, document);
    auto program = std::make_shared<Program>();
    program->file = fileName;
    program->document = document;
    program->root = checker.parseBlock(*document);
    result.program = std::move(program);
    result.diagnostics = std::move(checker.diagnostics);
    std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) {
                         return std::pair(a.span.line, a.span.column) <
                                std::pair(b.span.line, b.span.column);
                     });
    return result;
}

ParseResult parseProgram(const QString& path, const ParseOptions& options)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ParseResult result;
        SourceSpan span;
        span.file = path;
        result.diagnostics.push_back(
            makeError(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()), span));
        return result;
    }
    return parseProgramText(file.readAll(), path, options);
}

} // namespace hako::pdl
