#pragma once

#include "core/pdl/analysis/quickfix.h"

namespace hako::pdl {

/// The fixes for the text mistakes a beginner makes (what plainDiagnostic calls
/// UnclosedExpression, ColonInText, CommentInText and StrayBrace), recognised by the
/// diagnostic's wording and checked against the text:
/// - a `${` without its `}`: ` }` inserted where the text ends (the line of the `${` when the
///   expression ran on to the next line), kept only when the re-checked text has fewer errors;
/// - a plain text that `: ` or ` #` cut: the text from its start to the end of the line put in
///   double quotes (`input: "色 #赤 にして"`), kept only when the text then reads as one scalar
///   with fewer errors (a colon) or without the warning (a `#`);
/// - a `}` too many after `${ … }`: that `}` removed.
/// Empty for any other diagnostic. Used by quickFixes(). Pure; thread-safe.
std::vector<QuickFix> textQuickFixes(const ProgramReport& report, const QString& text,
                                     const Diagnostic& diagnostic);

/// `text` as a YAML double-quoted scalar. Pure.
QString doubleQuoted(const QString& text);

} // namespace hako::pdl
