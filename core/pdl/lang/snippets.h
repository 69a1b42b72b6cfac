#pragma once

#include "core/pdl/lang/completion.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace hako::pdl {

/// The block snippets of completion, one per block kind a person writes by hand (model call,
/// text, lastOf, array, object, data, Python code, read, include, import, if/then/else, loops,
/// function, call, def, match, message, get): each a CompletionItem of Kind::Snippet with a
/// plain translated label (starting with its keyword, so typing the keyword selects it) and a
/// one-sentence documentation. The model call names `defaultModel` (`default`, the configured
/// default's alias, when empty). Thread-safe.
QList<CompletionItem> blockSnippets(const QString& defaultModel);

/// Where a snippet goes when the cursor is at 1-based (line, column) (code points): at the
/// start of a new list item (`- |`), of the top level of an empty file, on a fresh line under a
/// field that takes a block (`then:`), or after such a field on its line (`then: |`), always
/// with at most an identifier typed before the cursor and nothing after it on the line. Never
/// inside a scalar (plain, quoted or block), a `${ }` expression or a comment.
struct SnippetSite {
    int fromColumn = 0; ///< 1-based column where the replaced text starts
    int toColumn = 0;   ///< 1-based column where it ends (the cursor)
    int baseIndent = 0; ///< column (0-based) the snippet's own column 0 lands on
    QString lead;       ///< written before the snippet: empty, or a line break, indentation and
                        ///< maybe `- ` (with '\n' for the break)
};
std::optional<SnippetSite> snippetSiteAt(const QStringList& lines, int line, int column);

/// The indentation step of a program: 4 when its first indented mapping key or list item is
/// indented by 4 spaces relative to its parent, else 2.
int indentStepOf(const QStringList& lines);

/// `body` (2-space step, '\n', with `cursorOffset`) re-indented for a file with `step` and
/// the snippet's column 0 at `baseIndent`; lines joined by `lineEnding`. The first line is not
/// indented (it continues the insertion line). `cursorOffset` is updated to the result.
QString reindentSnippet(const QString& body, int baseIndent, int step, const QString& lineEnding,
                        int* cursorOffset);

/// The text edit inserting `snippet` at (line, column): replace [fromColumn, toColumn) of
/// `line` with `text`, then put the cursor `cursorOffset` UTF-16 units into `text`.
struct SnippetEdit {
    int line = 0;
    int fromColumn = 0;
    int toColumn = 0;
    QString text;
    int cursorOffset = 0;
};
std::optional<SnippetEdit> snippetEditAt(const QStringList& lines, int line, int column,
                                         const Snippet& snippet, const QString& lineEnding);

} // namespace hako::pdl
