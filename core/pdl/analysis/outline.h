#pragma once

#include "core/pdl/ast/block.h"
#include "core/util/diagnostic.h"

#include <QString>

#include <vector>

namespace hako::pdl {

/// One entry of a program's outline: a block worth navigating to.
struct OutlineItem {
    /// What the author sees: the block's `def` name (or its `defs:` key) when it has one, else
    /// its kind and a short summary (`model granite3`, `text “Hello there…”`, `repeat for x in
    /// items`, `function(a, b)`, `call f`, …).
    QString label;
    /// The kind and summary, also for named blocks (`function(a, b)` for `def: f`).
    QString detail;
    /// The `def` name or `defs:` key; empty when the block has none.
    QString name;
    BlockKind kind = BlockKind::Empty;
    /// The block as written (1-based lines, code-point columns, end inclusive).
    SourceSpan span;
    std::vector<OutlineItem> children;
};

/// The outline of `program`: one root item for the program's root block, whose children are the
/// blocks inside it, recursively (`defs:` entries, list children, object fields, if/else
/// branches, match cases, loop bodies, function bodies, model inputs, message contents,
/// fallbacks). Skipped, since they are not worth navigating to: empty blocks, and bare scalar
/// leaves (a plain string or number written without a mapping) inside a block that has other
/// children — a bare leaf that is the only content of its parent is kept. Blocks without a
/// span (from other files) are skipped with their subtree. Pure and thread-safe.
std::vector<OutlineItem> buildOutline(const Program& program);

/// The path (indices from the top level down) of the deepest item whose span holds (line,
/// column); empty when none does.
std::vector<int> outlinePathAt(const std::vector<OutlineItem>& items, int line, int column);

/// A short one-line summary of a string for labels: whitespace collapsed, at most `maxChars`
/// code points (an ellipsis marks a cut).
QString outlineSummary(const QString& text, int maxChars = 40);

} // namespace hako::pdl
