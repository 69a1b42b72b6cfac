#pragma once

#include "widgets/editor/qsci.h"

namespace hako {

/// Syntax colouring for PDL programs: Scintilla's YAML lexer with Hako's fonts and palette.
/// Later versions add PDL block keywords and Jinja expression styles.
class PdlLexer : public QsciLexerYAML {
    Q_OBJECT
public:
    explicit PdlLexer(QObject* parent = nullptr);

    const char* language() const override { return "PDL"; }
    /// The editor's monospace font (the system fixed font at a comfortable size).
    static QFont editorFont();
};

} // namespace hako
