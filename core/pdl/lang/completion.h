#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace hako::pdl {

class ScopeAnalysis;
struct ProgramReport;

/// A block skeleton a completion inserts (see core/pdl/lang/snippets.h for placing it).
struct Snippet {
    QString id;   ///< stable name of the snippet: "model", "for", "repeatUntil", …
    QString body; ///< YAML lines relative to the insertion column, '\n'-separated, 2-space step
    int cursorOffset = 0; ///< UTF-16 index into `body` of the first placeholder
};

/// One proposal of the editor's completion list.
struct CompletionItem {
    enum class Kind { Field, BlockKind, Variable, Builtin, Model, Value, Snippet };
    QString text; ///< what the list shows (and, except for snippets, what it inserts)
    Kind kind = Kind::Field;
    QString documentation; ///< one translated sentence shown beside the item; may be empty
    Snippet snippet;       ///< Kind::Snippet only
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
/// - inside `${ }`: the variables in reach and the BuiltinDocs names (`doc.search`);
/// - where a block can start (snippetSiteAt()): block snippets (blockSnippets(), with
///   `defaultModel` in the model call), listed first.
/// Items are filtered by the prefix (case-insensitively) and sorted. Thread-safe.
Completions completionsAt(const QStringList& lines, int line, int column,
                          const ScopeAnalysis* scopes, const QStringList& modelNames,
                          const QString& defaultModel = QString());

/// The hover documentation at (line, column) as plain text (first line a title), or empty:
/// a variable (its kind and where it is defined), a BuiltinDocs name inside `${ }`, a field
/// or block-kind key, and any diagnostic of `report` covering the position. Thread-safe.
QString hoverTextAt(const QStringList& lines, int line, int column, const ProgramReport* report);

} // namespace hako::pdl
