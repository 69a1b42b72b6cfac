#pragma once

#include "core/pdl/ast/block.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hako::pdl {

/// Called by the checker for every string in an expression position (data, model, if, for
/// values, args, …) with the string's span; it appends diagnostics for bad expression syntax.
/// The expression engine plugs in here; without it expressions are not checked.
using ExpressionChecker = std::function<void(const std::string& source, const SourceSpan& span,
                                             std::vector<Diagnostic>& diagnostics)>;

struct ParseOptions {
    ExpressionChecker checkExpression;
};

/// A parsed program and every problem found. `program` is set whenever the YAML itself could
/// be read (blocks with errors are kept as well as possible); it is null after a YAML error.
struct ParseResult {
    std::shared_ptr<const Program> program;
    std::vector<Diagnostic> diagnostics;

    /// True when there are no errors (warnings allowed).
    bool ok() const;
};

/// Sorts diagnostics by line and column, keeping the order of those at the same position (how
/// every diagnostic list of a program is shown).
void sortByPosition(std::vector<Diagnostic>& diagnostics);

/// Parses and checks a PDL program (or a trace, which is a program too) from a file. Reports all
/// structural errors in one pass, sorted by position. Thread-safe; no shared state.
ParseResult parseProgram(const QString& path, const ParseOptions& options = {});

/// As parseProgram, from text in memory; `fileName` goes into every span. Text that is not
/// UTF-8 (see firstInvalidUtf8) gives one error naming the file, line, column and byte offset.
ParseResult parseProgramText(const QByteArray& text, const QString& fileName,
                             const ParseOptions& options = {});

/// The byte offset of the first byte that is not part of well-formed UTF-8 (overlong forms,
/// surrogates and code points above U+10FFFF count as malformed) or of a NUL byte, or -1 when
/// the whole text is UTF-8. A UTF-8 byte order mark is well-formed. Programs are refused with
/// this position, since YAML (and the reference) reads them as UTF-8.
qsizetype firstInvalidUtf8(const QByteArray& text);

/// Levenshtein distance after lowercasing and dropping underscores (for "did you mean").
int fieldNameDistance(std::string_view a, std::string_view b);
/// Edits between two names counted in code points (a kanji is one), two swapped letters
/// counting one (optimal string alignment); case-sensitive (for variable and model names).
int nameDistance(const QString& a, const QString& b);

} // namespace hako::pdl
