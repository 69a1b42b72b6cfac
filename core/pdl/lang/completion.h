#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace hako::pdl {

class ScopeAnalysis;
struct ProgramReport;

/// One proposal of the editor's completion list.
struct CompletionItem {
    enum class Kind { Field, BlockKind, Variable, Builtin, Model, Value };
    QString text;
    Kind kind = Kind::Field;
};

/// What to offer at a cursor: the proposals and the text before the cursor they replace.
struct Completions {
    QString prefix;       ///< the typed text the proposals complete (may be empty)
    int prefixColumn = 0; ///< 1-based column (code points) where `prefix` starts
    QList<CompletionItem> items;
};

/// Proposals at 1-based (line, column) (code points; the cursor is before `column`) of a
/// program's text, from the text alone plus, when given, the latest scope analysis:
/// - at a key position: the fields the enclosing block kind allows and the common fields
///   (block kinds too where the mapping has no kind yet);
/// - after `model:`: `modelNames`; after `lang:`, `role:`, `context:`, `as:`, `parser:`,
///   `kind:` their allowed values;
/// - inside `${ }`: the variables in reach and the BuiltinDocs names (`doc.search`).
/// Items are filtered by the prefix (case-insensitively) and sorted. Thread-safe.
Completions completionsAt(const QStringList& lines, int line, int column,
                          const ScopeAnalysis* scopes, const QStringList& modelNames);

/// The hover documentation at (line, column) as plain text (first line a title), or empty:
/// a variable (its kind and where it is defined), a BuiltinDocs name inside `${ }`, a field
/// or block-kind key, and any diagnostic of `report` covering the position. Thread-safe.
QString hoverTextAt(const QStringList& lines, int line, int column, const ProgramReport* report);

} // namespace hako::pdl
