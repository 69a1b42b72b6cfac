#include "widgets/editor/pdllexer.h"

#include <QFontDatabase>

namespace hako {

QFont PdlLexer::editorFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace);
    if (font.pointSizeF() < 10)
        font.setPointSizeF(10);
    return font;
}

PdlLexer::PdlLexer(QObject* parent) : QsciLexerYAML(parent)
{
    const QFont font = editorFont();
    setDefaultFont(font);
    setFont(font, -1);
    setDefaultPaper(QColor(0xff, 0xff, 0xff));
    setPaper(QColor(0xff, 0xff, 0xff), -1);
    setDefaultColor(QColor(0x24, 0x29, 0x2e));
    setFoldComments(true);

    QFont bold = font;
    bold.setBold(true);
    QFont italic = font;
    italic.setItalic(true);

    setColor(QColor(0x24, 0x29, 0x2e), Default);
    setColor(QColor(0x6a, 0x73, 0x7d), Comment);
    setFont(italic, Comment);
    setColor(QColor(0x00, 0x5c, 0xc5), Identifier); // mapping keys: the block structure
    setColor(QColor(0xd7, 0x3a, 0x49), Keyword);
    setColor(QColor(0x00, 0x86, 0x72), Number);
    setColor(QColor(0x6f, 0x42, 0xc1), Reference);
    setColor(QColor(0x95, 0x5f, 0x00), DocumentDelimiter);
    setFont(bold, DocumentDelimiter);
    setColor(QColor(0x22, 0x86, 0x3a), TextBlockMarker);
    setColor(QColor(0xff, 0xff, 0xff), SyntaxErrorMarker);
    setPaper(QColor(0xcb, 0x24, 0x31), SyntaxErrorMarker);
    setColor(QColor(0x58, 0x60, 0x69), Operator);
}

} // namespace hako
