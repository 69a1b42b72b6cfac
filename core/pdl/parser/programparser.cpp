#include "core/pdl/parser/programparser.h"
#include "core/util/boundedfile.h"

#include "core/pdl/parser/checker_p.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QFile>

#include <algorithm>
#include <optional>

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
    // Optimal string alignment: two swapped letters (`modle`) count as one edit.
    std::vector<std::vector<int>> d(x.size() + 1, std::vector<int>(y.size() + 1));
    for (size_t i = 0; i <= x.size(); ++i)
        d[i][0] = int(i);
    for (size_t j = 0; j <= y.size(); ++j)
        d[0][j] = int(j);
    for (size_t i = 1; i <= x.size(); ++i) {
        for (size_t j = 1; j <= y.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                d[i - 1][j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[x.size()][y.size()];
}

int nameDistance(const QString& a, const QString& b)
{
    const QList<uint> x = a.toUcs4(), y = b.toUcs4();
    std::vector<std::vector<int>> d(size_t(x.size()) + 1, std::vector<int>(size_t(y.size()) + 1));
    for (qsizetype i = 0; i <= x.size(); ++i)
        d[size_t(i)][0] = int(i);
    for (qsizetype j = 0; j <= y.size(); ++j)
        d[0][size_t(j)] = int(j);
    for (qsizetype i = 1; i <= x.size(); ++i) {
        for (qsizetype j = 1; j <= y.size(); ++j) {
            int v = std::min({d[size_t(i - 1)][size_t(j)] + 1, d[size_t(i)][size_t(j - 1)] + 1,
                              d[size_t(i - 1)][size_t(j - 1)] + (x[i - 1] == y[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1])
                v = std::min(v, d[size_t(i - 2)][size_t(j - 2)] + 1);
            d[size_t(i)][size_t(j)] = v;
        }
    }
    return d[size_t(x.size())][size_t(y.size())];
}

void sortByPosition(std::vector<Diagnostic>& diagnostics)
{
    std::stable_sort(
        diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
            return std::pair(a.span.line, a.span.column) < std::pair(b.span.line, b.span.column);
        });
}

qsizetype firstInvalidUtf8(const QByteArray& text)
{
    const auto* d = reinterpret_cast<const unsigned char*>(text.constData());
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const unsigned char c = d[i];
        if (c < 0x80) {
            // NUL never occurs in text; it is the surest sign of a binary file.
            if (c == 0)
                return i;
            ++i;
            continue;
        }
        int extra = 0;
        unsigned char low = 0x80, high = 0xBF; // allowed range of the second byte
        if (c >= 0xC2 && c <= 0xDF) {
            extra = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            if (c == 0xE0)
                low = 0xA0; // no overlong forms
            else if (c == 0xED)
                high = 0x9F; // no UTF-16 surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            if (c == 0xF0)
                low = 0x90;
            else if (c == 0xF4)
                high = 0x8F; // nothing above U+10FFFF
        } else {
            return i;
        }
        if (i + extra >= n)
            return i;
        if (d[i + 1] < low || d[i + 1] > high)
            return i;
        for (int k = 2; k <= extra; ++k) {
            if ((d[i + k] & 0xC0) != 0x80)
                return i;
        }
        i += extra + 1;
    }
    return -1;
}

namespace {

// The diagnostic for a file that is not UTF-8 text, or nullopt when it is.
std::optional<Diagnostic> checkEncoding(const QByteArray& text, const QString& fileName)
{
    const qsizetype bad = firstInvalidUtf8(text);
    if (bad < 0)
        return std::nullopt;
    LineIndex index(text);
    auto [line, column] = index.position(bad);
    SourceSpan span;
    span.file = fileName;
    span.line = span.endLine = line;
    span.column = span.endColumn = column;
    const auto byte = static_cast<unsigned char>(text[bad]);
    const QString what =
        byte == 0
            ? QStringLiteral("a NUL byte (a binary file?)")
            : QStringLiteral("byte 0x%1, which is not valid UTF-8")
                  .arg(QString::number(byte, 16).toUpper().rightJustified(2, QLatin1Char('0')));
    return makeError(QStringLiteral("%1 is not a UTF-8 text file: %2 at line %3, column %4 "
                                    "(byte offset %5); save it as UTF-8")
                         .arg(fileName.isEmpty() ? QStringLiteral("the program") : fileName, what)
                         .arg(line)
                         .arg(column)
                         .arg(bad),
                     span);
}

} // namespace

ParseResult parseProgramText(const QByteArray& text, const QString& fileName,
                             const ParseOptions& options)
{
    ParseResult result;
    if (std::optional<Diagnostic> bad = checkEncoding(text, fileName)) {
        result.diagnostics.push_back(std::move(*bad));
        return result;
    }
    Result<YamlValue> doc = loadYaml(text, fileName);
    if (!doc) {
        result.diagnostics.push_back(doc.error());
        return result;
    }
    auto document = std::make_shared<const YamlValue>(std::move(doc).value());
    detail::Checker checker(options, document);
    auto program = std::make_shared<Program>();
    program->file = fileName;
    program->source = text;
    program->document = document;
    program->root = checker.parseBlock(*document);
    program->blockNodes = std::move(checker.blockNodes);
    std::sort(program->blockNodes.begin(), program->blockNodes.end());
    result.program = std::move(program);
    result.diagnostics = std::move(checker.diagnostics);
    sortByPosition(result.diagnostics);
    return result;
}

ParseResult parseProgram(const QString& path, const ParseOptions& options)
{
    Result<QByteArray> text = readBoundedFile(path);
    if (!text) {
        ParseResult result;
        result.diagnostics.push_back(text.error());
        return result;
    }
    return parseProgramText(*text, path, options);
}

} // namespace hako::pdl
