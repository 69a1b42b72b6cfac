#pragma once

#include "core/util/diagnostic.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace hako::pdl {

struct ProgramReport;

/// One replacement in a program's text: `length` UTF-16 code units at `offset` (an index into
/// the QString the fix was computed for) become `replacement` — the units
/// PdlEditor::applyTextEdits takes.
struct QuickFixEdit {
    qsizetype offset = 0;
    qsizetype length = 0;
    QString replacement;

    bool operator==(const QuickFixEdit&) const = default;
};

/// A repair offered for a diagnostic: a plain-language title ("Change to `model`", "Indent
/// `input:` under the model block above", "Define `article` as an input of the program") and
/// the exact edits (sorted by offset, non-overlapping, offsets into the text before any of
/// them). Nothing outside the edits changes.
struct QuickFix {
    enum class Kind {
        Rename,      ///< a misspelt field, block kind, variable or model name
        Indent,      ///< a field that landed outside its block, re-indented into it
        DefineInput, ///< an undefined variable added to the top-level `defs:`
        Spaces,      ///< full-width spaces (U+3000) around a name in `${ }` made ordinary
        Close,       ///< a `${` without its `}` closed
        Quote,       ///< a plain text with `: ` or ` #` in it put in double quotes
        RemoveBrace, ///< one `}` too many after `${ … }` removed
    };
    Kind kind = Kind::Rename;
    QString title;
    QList<QuickFixEdit> edits;

    bool operator==(const QuickFix&) const = default;
};

/// The fixes for `diagnostic` (one of report.diagnostics), best first; empty when there is
/// none. `report` must be the analysis of `text` (analyzeProgramText of its UTF-8). Recognises
/// the problems by looking at the program, never by the diagnostic's wording:
/// - a key of a block that is not a field of its kind: the fields of that kind (and the kind
///   keywords when the block has no kind) within a small edit distance;
/// - a `kind:` value that names no block kind: the kind names within that distance;
/// - a field that is not allowed where it stands, or a line the YAML cannot read, whose key
///   lines up only once indented under the block (or the empty field) above: that
///   re-indentation, kept only when the re-checked text reads the field there with fewer
///   errors;
/// - a variable no definition reaches whose name holds full-width spaces (what a Japanese input
///   method types for a space: `${　name　}`): those spaces made ordinary, first;
/// - a variable no definition reaches: the names in reach at that point within the distance,
///   then defining it as an empty string in the top-level `defs:` (created when absent) when
///   the program is a block mapping.
/// - the text mistakes (see textQuickFixes): a `${` closed, a text with `: ` or ` #` quoted,
///   a `}` too many removed.
/// Titles are translated (context "hako::pdl::QuickFix"). Pure; thread-safe; may re-check
/// the text (a parse) to validate an indentation.
std::vector<QuickFix> quickFixes(const ProgramReport& report, const QString& text,
                                 const Diagnostic& diagnostic);

/// For a `model:` value written on 1-based `line` that is not one of `modelNames` (the
/// configured endpoints' models, `provider/` prefixes and aliases the editor offers): the
/// listed names within a small edit distance, the same name under a listed provider prefix
/// whose spelling is close, and a listed `provider/name` for a bare `name`. Best first. Pure.
std::vector<QuickFix> modelNameFixes(const ProgramReport& report, const QString& text, int line,
                                     const QStringList& modelNames);

/// Everything offered on 1-based `line`: the fixes of each diagnostic whose span starts on it
/// (in the report's order) and the model-name fixes, without duplicates. Pure; thread-safe.
std::vector<QuickFix> quickFixesOnLine(const ProgramReport& report, const QString& text, int line,
                                       const QStringList& modelNames = {});

/// `text` with the fix's edits applied.
QString applyQuickFix(const QString& text, const QuickFix& fix);

} // namespace hako::pdl
