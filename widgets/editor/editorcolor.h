#pragma once

#include <QColor>

namespace hako {

/// Every colour the program editor (PdlEditor and its PdlLexer) paints with. One table in
/// editorcolor.cpp holds a light and a dark value for each; the editor picks the column by
/// ThemeManager::isDark(its palette) and re-applies it when the palette changes.
enum class EditorColor {
    // The editing area.
    Background,
    Text,
    Caret,
    CaretLine,
    Selection,
    IndentationGuide,
    BraceMatchBackground,
    BraceMatchText,
    BraceUnmatchedText,
    // The margins.
    MarginBackground,
    LineNumber,
    FoldMargin,
    FoldMarkerFore, ///< Scintilla's marker foreground: the fold boxes' fill
    FoldMarkerBack, ///< their outline, sign and tree lines
    // Diagnostics (squiggles under the text, dots in the marker margin).
    ErrorSquiggle,
    WarningSquiggle,
    ErrorMarker,
    WarningMarker,
    // Debugging: breakpoint dots (marker 2), conditional ones (marker 4), the paused line (3).
    Breakpoint,
    BreakpointOutline,
    ConditionalBreakpoint,
    ConditionalBreakpointOutline,
    PausedLine,
    // The lexer's styles (PdlLexer::Style; Default is Text).
    Comment,
    Key,
    BlockKindKey,
    CommonFieldKey,
    QuotedString,
    Number,
    Expression,
    ExpressionBackground,
    ExpressionDelimiter,
    Operator,
    BlockText,
    DocumentDelimiter,
    TemplateComment,
    AnchorOrTag,
    Count
};

/// The colour of `role` for a light (`dark` false) or dark editor.
QColor editorColor(EditorColor role, bool dark);
/// The role's name in the table ("Background", "LineNumber", …), for tests and messages.
const char* editorColorName(EditorColor role);

} // namespace hako
