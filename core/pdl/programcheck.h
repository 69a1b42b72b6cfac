#pragma once

#include "core/pdl/check/scopeanalysis.h"
#include "core/pdl/parser/programparser.h"

#include <memory>

namespace hako::pdl {

/// Parses a program and checks everything that can be checked without running it: YAML,
/// structure (fields, kinds, types of fields) and the syntax of every `${ }` expression, whose
/// errors point at the line and column inside the file. What `hako check` and the editor's
/// live diagnostics report. Thread-safe.
ParseResult checkProgram(const QString& path);
ParseResult checkProgramText(const QByteArray& text, const QString& fileName);
/// A failed parse as one diagnostic: every error as a `file:line:col: error: …` line, located at
/// the first; `fallback` when the parse reported no error line. What a run that cannot start says.
Diagnostic parseFailure(const ParseResult& parsed, const QString& fallback = {});

/// Everything `hako check` and the editor's live diagnostics report about a program: the parse
/// (checkProgramText), the scope analysis (null when the YAML could not be read), and all
/// diagnostics (parse errors, undefined-variable warnings and the text mistakes of
/// textMistakes) sorted by position.
struct ProgramReport {
    ParseResult parse;
    std::shared_ptr<const ScopeAnalysis> scopes;
    std::vector<Diagnostic> diagnostics;

    int errorCount() const;
};

/// checkProgramText followed by analyzeScopes and textMistakes. Thread-safe (reads included files).
ProgramReport analyzeProgramText(const QByteArray& text, const QString& fileName,
                                 const ScopeOptions& options = {});
/// As analyzeProgramText, reading `path` (an unreadable file gives one error).
ProgramReport analyzeProgram(const QString& path, const ScopeOptions& options = {});

} // namespace hako::pdl
