#include "core/pdl/parser/expressionposition.h"

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

} // namespace hako::pdl
