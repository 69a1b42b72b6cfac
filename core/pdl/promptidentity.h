#pragma once

// The identity of a prompt: a program and each model block in it, written into the program as
// YAML comments (which PDL ignores, so the reference interpreter runs the file unchanged):
//
//   # hako-prompt: 3f9a0c1b2d4e          <- the program's id, among the file's leading comments
//   description: Summarise a report      <- the program's name
//   text:
//   # hako-prompt: 77c0e1aa9b12          <- the block's id: directly above its `- ` line…
//   - description: Summary               <- …its name (else its `def`, else "<program> #<n>")
//     # hako-prompt: 0b5d6e7f8a9c        <- …or, in a mapping, directly above its `model:` key
//     model: ollama/granite3.2:2b
//
// An id is 12 lowercase hex characters. A block's id is the nearest `# hako-prompt:` line in the
// run of comment lines directly above its `model:` key line, else in the run directly above its
// first line (the program's own id line never counts as a block's). Ids survive editing the
// text, moving lines, inserting blocks before, saving an untitled program, renaming and moving
// the file; a pasted copy of a block gets a fresh id when the program is next saved.
//
// A program run before its ids were written gets derived ids instead (unsaved identity): "~"
// followed by 12 hex characters of the SHA-256 of the program's absolute path, and for a block
// that id with ".<n>", n its ordinal among the model blocks. isDerivedPromptId() tells them.

#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace hako::pdl {

struct Block;
struct Program;

/// A new random id: 12 lowercase hex characters (QRandomGenerator::system()). Thread-safe.
QString newPromptId();
/// Whether `text` is 12 lowercase hex characters.
bool isPromptId(const QString& text);
/// Whether `id` is a derived (unsaved) identity ("~…"), see the top of this header.
bool isDerivedPromptId(const QString& id);
/// The id a line `# hako-prompt: <id>` carries (any indentation), else an empty string.
QString promptIdInLine(const QString& line);

/// The program's id: the first `# hako-prompt:` line among the leading comment lines (before
/// the first line that is neither blank nor a comment); empty when there is none.
QString programPromptId(const QStringList& lines);
/// The 0-based index of that line, -1 when there is none.
int programPromptIdLine(const QStringList& lines);

/// The id written for the model block whose span is `blockSpan` (1-based, columns in code
/// points) and whose `model:` key starts at `modelKey` (invalid: unknown), read from the
/// program's `lines`; empty when none is written.
QString blockPromptId(const QStringList& lines, const SourceSpan& blockSpan,
                      const SourceSpan& modelKey = {});

/// The program's human name: the first line of its root `description`, else the file's base
/// name (`summarize` for `summarize.pdl`), else "untitled".
QString programDisplayName(const Program& program, const QString& filePath);
/// A model block's human name: the first line of its `description`, else its `def`, else
/// "<programName> #<ordinal>" (ordinal 1-based among the program's model blocks).
QString promptDisplayName(const Block& block, const QString& programName, int ordinal);

/// The identity of one model block of a program.
struct PromptIdentity {
    SourceSpan span; ///< the block's span
    int ordinal = 0; ///< 1-based, among the program's model blocks in document order
    QString id;      ///< as written, else derived (isDerivedPromptId)
    QString name;    ///< promptDisplayName()
};

/// The identity of a program and of each of its model blocks.
struct ProgramIdentity {
    QString id;                          ///< as written, else derived from the absolute path
    QString name;                        ///< programDisplayName()
    std::vector<PromptIdentity> prompts; ///< in document order

    /// The model block whose span is `span`, or nullptr.
    const PromptIdentity* find(const SourceSpan& span) const;
};

/// Reads every id of `program` (parsed from `lines`, its file `filePath`). A block without an
/// id — or whose id an earlier block of the file already has (a pasted copy) — gets a derived
/// one. Pure; thread-safe.
ProgramIdentity readProgramIdentity(const QStringList& lines, const Program& program,
                                    const QString& filePath);

/// `source` (the text `parsed` was read from) with every missing id written: the program's at
/// the top, each model block's where blockPromptId() reads it; a block whose id an earlier one
/// has gets a fresh one. Only whole lines are inserted (in the text's own line ending), nothing
/// is reformatted, and running it again changes nothing. Gives `source` unchanged when the
/// result would not read as the same YAML data (a layout the comments cannot be placed in).
QString ensurePromptIds(const QString& source, const Program& parsed);

/// One line ensurePromptIds() inserts: `text` (without a line break) goes before the 0-based
/// line `line` of the source as it is.
struct PromptIdLine {
    int line = 0;
    QString text;
};
/// The lines ensurePromptIds() inserts, in order (for an editor that inserts them itself, as
/// one undoable edit); none when nothing is missing or the result would not read the same.
std::vector<PromptIdLine> missingPromptIdLines(const QString& source, const Program& parsed);

/// The model blocks of `program` in document order (defs, functions and nested blocks too).
std::vector<const Block*> modelBlocks(const Program& program);

} // namespace hako::pdl
