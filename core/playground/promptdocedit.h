#pragma once

#include "core/playground/savetoprogram.h"
#include "core/util/diagnostic.h"

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace hako::playground {

// Edits of a program's structure the Prompt view makes for people who do not read YAML: a
// `defs` list or number written again, a model call added, moved, renamed or removed. Each
// function is pure, returns the minimal text edits (comments and everything else stay byte for
// byte) and checks its result by parsing it again; an error says in plain words why not.

/// The edit that makes the YAML sequence starting at 1-based (line, column) (its `[` or the
/// `-` of its first item, as the parser's span gives it) hold the strings `items`: a flow list
/// is written again as a flow list; in a block list, the items kept keep their text (and the
/// comments above them), removed ones go, new ones are written as `- item` lines where they
/// belong. An empty `items` writes `[]`. Checked by reading the list back.
Result<QList<TextEdit>> replaceList(const QString& source, int line, int column,
                                    const QStringList& items);

/// The edit that makes the number or boolean scalar starting at (line, column) read as
/// `value` (a number or a bool). Checked by reading it back.
Result<QList<TextEdit>> replaceFixedValue(const QString& source, int line, int column,
                                          const QJsonValue& value);

/// The edit that makes the flat mapping starting at (line, column) (a `spec:` of names and
/// types; `{` of a flow mapping or its first key) hold `fields` ("name: type" lines), written
/// again in its style (a flow mapping on one line, or one `name: type` line per field).
/// Checked by reading it back.
Result<QList<TextEdit>> replaceFields(const QString& source, int line, int column,
                                      const QStringList& fields);

/// A new model call `- def: NAME / model: MODEL / input: |` (the input `instruction`, written
/// as a literal block) appended to the program's top-level `text:` list, after the last item
/// and its lines. The call's result is shown (no `contribute`).
Result<QList<TextEdit>> addPrompt(const QString& source, const QString& name, const QString& model,
                                  const QString& instruction);

/// A `def` name for a new prompt that nothing in `source` uses yet: `base`, else `base2`, … .
QString freePromptName(const QString& source, const QString& base);

/// Moves the list item whose block starts at `blockSpan` (a card's span) one place up
/// (`delta` -1) or down (+1) among its siblings, with the comments right above it. Refused
/// when there is no sibling there, when the list is written inline, or when the move would put
/// a use of a variable before the step that sets it (the error names the variable).
Result<QList<TextEdit>> movePrompt(const QString& source, const SourceSpan& blockSpan, int delta);

/// Removes the list item whose block starts at `blockSpan`, with the comments right above
/// it. Refused for the only item of a list.
Result<QList<TextEdit>> removePrompt(const QString& source, const SourceSpan& blockSpan);

/// The lines (1-based, sorted, unique) of the uses outside the block at `blockSpan` of the
/// variable its `def` sets: the places that break when the block is removed. Empty when the
/// block has no `def` or nothing else reads it.
QList<int> usesOfPromptResult(const QString& source, const SourceSpan& blockSpan);

/// Renames the `def` of the block at `blockSpan` to `newName`, and every use of it
/// (pdl::planRename). A block without `def` gets `def: newName` as its first key.
Result<QList<TextEdit>> renamePrompt(const QString& source, const SourceSpan& blockSpan,
                                     const QString& newName);

} // namespace hako::playground
