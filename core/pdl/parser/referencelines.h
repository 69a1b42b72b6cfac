#pragma once

// The line numbers IBM's reference interpreter prints in its error messages.
//
// The reference does not keep YAML marks: it maps a block's path in the document (the field
// names and `[i]` list positions from the root) to a line through a table it builds from the
// program's text by indentation alone (pdl-semantics.md, "Error locations"). The table is
// approximate (a blank line inside a multi-line quoted scalar, for example, restarts its
// nesting), so its line can differ from where the block really starts. `hako run` prints that
// line in the reference's `file:line - message` form, for identical output, and its own exact
// `file:line:column` below it.

#include "core/util/diagnostic.h"

#include <QByteArray>

#include <string>
#include <unordered_map>
#include <vector>

namespace hako::pdl {

struct Program;
class YamlValue;

/// The reference's table from document paths to 1-based lines, built from the text alone.
class ReferenceLineTable {
public:
    explicit ReferenceLineTable(const QByteArray& text);

    /// The line of `path`, or of its longest prefix the table has; 0 if none.
    int line(std::vector<std::string> path) const;

    /// The number of paths in the table (for tests).
    size_t size() const { return m_lines.size(); }

private:
    static std::string key(const std::vector<std::string>& path);
    std::unordered_map<std::string, int> m_lines;
};

/// The path the reference gives an error at `at` in `program`: the path of the deepest node
/// holding `at` (a field, an entry of a data value, a list item), or of the block starting at
/// `at` for an error of a block as a whole. Empty when nothing in the document holds `at`.
std::vector<std::string> referenceErrorPath(const Program& program, const SourceSpan& at);

/// The line the reference reports for an error at `at` in `program` (whose text is `text`):
/// 0 when it would report none.
int referenceErrorLine(const Program& program, const QByteArray& text, const SourceSpan& at);

} // namespace hako::pdl
