#include "core/playground/modelblockat.h"

#include "core/pdl/ast/block.h"
#include "core/pdl/parser/yamlvalue.h"

namespace hako::playground {

namespace {

bool before(int l1, int c1, int l2, int c2)
{
    return l1 < l2 || (l1 == l2 && c1 < c2);
}

bool holds(const SourceSpan& s, int line, int column)
{
    const int endLine = s.endLine > 0 ? s.endLine : s.line;
    const int endColumn = s.endLine > 0 ? s.endColumn : s.column;
    return !before(line, column, s.line, s.column) && !before(endLine, endColumn, line, column);
}

} // namespace

std::optional<SourceSpan> modelBlockAt(const pdl::Program& program, int line, int column)
{
    std::optional<SourceSpan> best;
    for (const pdl::YamlValue* node : program.blockNodes) {
        if (!node || !node->isMapping() || !node->find("model"))
            continue;
        const SourceSpan& s = node->span();
        if (!s.isValid() || !holds(s, line, column))
            continue;
        // The innermost: the one starting last (blocks nest, they do not overlap).
        if (!best || before(best->line, best->column, s.line, s.column))
            best = s;
    }
    if (best && best->file.isEmpty())
        best->file = program.file;
    return best;
}

} // namespace hako::playground
