#pragma once

#include "core/playground/playgroundprompt.h"
#include "core/util/diagnostic.h"

#include <QList>
#include <QString>

namespace hako::playground {

/// One replacement in a text: `length` UTF-16 code units at `offset` (into the QString the
/// edit was computed for) become `replacement`.
struct TextEdit {
    qsizetype offset = 0;
    qsizetype length = 0;
    QString replacement;

    bool operator==(const TextEdit&) const = default;
};

/// The prompt the model block at `blockSpan` (its mapping's start, as Block::span gives it) of
/// the program `sourceText` describes: its model, its `parameters` mapping and its `input`
/// messages (a string, a list or `array:` of `{role, content}` messages, or one message;
/// none when the block has no `input`). The error says why the block cannot be read that way.
Result<PlaygroundPrompt> promptFromSource(const QString& sourceText, const SourceSpan& blockSpan);

/// "Save to program": the smallest edits of `sourceText` that make the model block at
/// `blockSpan` say what `edited` says: the model name, each changed, added or removed
/// parameter and each changed message (role, content; messages added or removed at the end).
/// Everything else (comments, key order, quoting and indentation of untouched values) is left
/// byte for byte; a rewritten string keeps its quoting style (plain, '…', "…" or a `|` block)
/// when that style can hold the new text. A missing `parameters:` or `input:` is inserted. An
/// `input` of another shape is replaced as a whole by `input: {array: [...]}`. Edits are sorted
/// by offset and do not overlap. Pure.
Result<QList<TextEdit>> saveToProgram(const QString& sourceText, const SourceSpan& blockSpan,
                                      const PlaygroundPrompt& edited);

/// `text` with `edits` (sorted, non-overlapping, as saveToProgram gives them) applied.
QString applyEdits(const QString& text, const QList<TextEdit>& edits);

} // namespace hako::playground
