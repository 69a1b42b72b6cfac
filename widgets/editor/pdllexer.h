#pragma once

#include "widgets/editor/qsci.h"

namespace hako {

/// Syntax colouring and folding for PDL programs: YAML structure (keys, list markers, quoted
/// strings, numbers, comments, block scalars) with PDL on top: block-kind keywords and the
/// fields every block has get their own colours, and `${ … }` expressions (and `{# #}`
/// comments) are coloured distinctly wherever they appear, including inside strings and block
/// scalars; so are anchors, aliases and tags (`&a`, `*a`, `!!str`). Folding follows indentation.
/// GUI thread only (Scintilla calls styleText).
class PdlLexer : public QsciLexerCustom {
    Q_OBJECT
public:
    enum Style {
        Default = 0,
        Comment,
        Key,
        BlockKindKey,
        CommonFieldKey,
        QuotedString,
        Number,
        Expression,
        ExpressionDelimiter,
        Operator,
        BlockText,
        DocumentDelimiter,
        TemplateComment,
        AnchorOrTag,
        StyleCount
    };

    explicit PdlLexer(QObject* parent = nullptr);

    /// Sets every style's colours from the editor's colour table (editorcolor.h), light or
    /// dark; an editor using this lexer restyles at once.
    void applyColors(bool dark);

    const char* language() const override { return "PDL"; }
    QString description(int style) const override;
    void styleText(int start, int end) override;
    const char* blockStartKeyword(int* style = nullptr) const override;

    /// The editor's monospace font (the system fixed font at a comfortable size), with CJK
    /// fallback left to the font system.
    static QFont editorFont();

    /// Styles of one line (one style per byte) given the state left by the previous line;
    /// returns the state for the next line. Exposed for tests.
    static int styleLine(const QByteArray& line, int state, QByteArray& styles);
};

} // namespace hako
