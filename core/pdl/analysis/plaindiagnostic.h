#pragma once

#include "core/util/diagnostic.h"

#include <QString>

#include <optional>

namespace hako::pdl {

/// The common mistakes of someone new to PDL that Hako says in plain words.
enum class Mistake {
    None,               ///< not one of them: the message is passed through
    UnclosedExpression, ///< a `${` without its `}` (or words after the expression inside it)
    StrayBrace,         ///< one `}` too many after `${ … }`
    ColonInText,        ///< `: ` inside a plain text made YAML read a field
    CommentInText,      ///< ` #` inside a plain text made YAML cut the rest as a comment
    FullWidthSpaces,    ///< full-width spaces (U+3000) inside `${ }`
    UndefinedName,      ///< a name used but never defined (for a program: an input)
};

/// A diagnostic as a prompt author reads it: one plain sentence in the interface's language
/// saying what is wrong and what to do, the checker's technical wording as the detail.
struct PlainDiagnostic {
    QString text;   ///< one sentence, no line breaks
    QString detail; ///< the original message; empty when `text` is that message
    Mistake mistake = Mistake::None;
};

/// Recognises a common mistake in the wording of a check diagnostic (analyzeProgramText) or a
/// run error (the interpreter, the YAML reader, parseFailure's lines) and says it plainly, with
/// `message` as the detail; nullopt for anything else. Translated (context
/// "hako::pdl::PlainError"). Pure; thread-safe.
std::optional<PlainDiagnostic> commonMistake(const QString& message);

/// `diagnostic` (one of analyzeProgramText's) in plain words: a common mistake as
/// commonMistake says it; anything else passed through as its first line (a multi-line
/// message keeps the whole of it as the detail). Pure; thread-safe.
PlainDiagnostic plainDiagnostic(const Diagnostic& diagnostic);

/// `text` with each full-width space (U+3000) shown as "□", so that it can be seen in a
/// message. Pure.
QString showFullWidthSpaces(const QString& text);

} // namespace hako::pdl
