#pragma once

#include "core/util/diagnostic.h"

#include <QString>

#include <vector>

namespace hako::pdl {

struct Program;

/// Mistakes in the texts of a program that YAML and the expression syntax accept but that make
/// the text read differently from what was typed, each as a warning located at the mistake:
/// - a ` #` inside a one-line plain text of a text field (`input: 色 #赤 にして`), where `#` is
///   followed at once by a character: YAML reads the rest of the line as a comment, so the text
///   ends before it (message: "the text ends before '#…': ' #' starts a YAML comment");
/// - a `}` right after the `}` that closes a `${ … }` (`${ name }}`): written out as text
///   (message: "'}' after '${ … }' is not part of the expression: it is written out as text").
/// `text` is the program's source (what `program` was parsed from). Pure; thread-safe.
std::vector<Diagnostic> textMistakes(const Program& program, const QString& text);

} // namespace hako::pdl
