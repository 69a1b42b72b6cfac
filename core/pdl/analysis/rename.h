#pragma once

#include "core/pdl/check/scopeanalysis.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace hako::pdl {

/// One replacement of a name. Offsets are exact: applying every edit of a plan changes nothing
/// but the names (comments, quoting and formatting stay as they were).
struct RenameEdit {
    SourceSpan span;          ///< the name replaced (1-based line, code-point columns)
    qsizetype byteOffset = 0; ///< into the UTF-8 text given to planRename
    qsizetype byteLength = 0;
    qsizetype utf16Offset = 0; ///< into QString::fromUtf8(text) (what an editor holds)
    qsizetype utf16Length = 0;
    QString replacement;
};

/// The variable a rename would change.
struct RenameTarget {
    QString name;
    VariableKind kind = VariableKind::Def;
    /// Indices into ScopeAnalysis::definitions: every definition site renamed together.
    std::vector<int> definitions;
};

/// What renaming a variable changes: its definition sites and every use that resolves to them
/// (`${ name }`, `${ name.field }`, `${ f(name) }`, `get: name`, the `def:` value, the `defs:`
/// key, the `for:` key, `index:`, `modelResponse:`, a match pattern's `def:`). For a function
/// parameter also the `args:` keys of `call:` blocks and the keyword arguments `f(name=…)` of
/// calls to that function. Sorted by offset, non-overlapping.
struct RenamePlan {
    RenameTarget target;
    QString newName;
    std::vector<RenameEdit> edits;
};

/// The variable under (line, column) — a definition or a use — or a plain-language error: no
/// variable there, a built-in, external data, a name defined in another (included) file.
/// Definitions that flow to later blocks (`def`, `defs`, `modelResponse`) with the same name
/// are one variable (a redefinition, or both branches of an `if`); parameters, loop variables
/// and match bindings are each their own. Thread-safe.
Result<RenameTarget> renameTargetAt(const Program& program, const ScopeAnalysis& scopes, int line,
                                    int column);

/// An empty string when `name` may name a variable; otherwise why not (not an identifier, a
/// Python or Jinja keyword, a built-in name).
QString checkVariableName(const QString& name);

/// Plans renaming the variable under (line, column) of `text` (which `program` and `scopes`
/// were built from) to `newName`. Errors: those of renameTargetAt and checkVariableName, the
/// same name, `newName` already in reach at a renamed place (one would hide the other), and a
/// site that cannot be located exactly in the text (nothing is changed then). Thread-safe.
Result<RenamePlan> planRename(const Program& program, const QByteArray& text,
                              const ScopeAnalysis& scopes, int line, int column,
                              const QString& newName);

/// `text` with `edits` (sorted, non-overlapping, byte offsets into `text`) applied.
QByteArray applyRenameEdits(const QByteArray& text, const std::vector<RenameEdit>& edits);

} // namespace hako::pdl
