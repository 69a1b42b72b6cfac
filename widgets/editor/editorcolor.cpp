#include "widgets/editor/editorcolor.h"

#include <iterator>

namespace hako {

namespace {

// The table, in EditorColor order (checked below). The light column follows GitHub's light
// editor colours, the dark one GitHub's dark ones on a slightly lifted background, so that a
// program reads the same in both. Every text style keeps a contrast of 4.5:1 or more against
// the background it is drawn on, line numbers 3:1 against the margin (tst_theme measures them).
struct Entry {
    EditorColor role;
    const char* name;
    QRgb light;
    QRgb dark;
};
#define HAKO_ENTRY(role, light, dark)                                                              \
    {                                                                                              \
        EditorColor::role, #role, light, dark                                                      \
    }
constexpr Entry kTable[] = {
    HAKO_ENTRY(Background, 0xffffff, 0x1e2228),
    HAKO_ENTRY(Text, 0x24292e, 0xe1e4e8),
    HAKO_ENTRY(Caret, 0x24292e, 0xe1e4e8),
    HAKO_ENTRY(CaretLine, 0xf3f6fb, 0x262b33),
    HAKO_ENTRY(Selection, 0xc8e1ff, 0x27466e),
    HAKO_ENTRY(IndentationGuide, 0xe1e4e8, 0x353b45),
    HAKO_ENTRY(BraceMatchBackground, 0xd6e9ff, 0x2b4a70),
    HAKO_ENTRY(BraceMatchText, 0x0550ae, 0xe6f1ff),
    HAKO_ENTRY(BraceUnmatchedText, 0xcb2431, 0xff7b72),
    HAKO_ENTRY(MarginBackground, 0xf6f8fa, 0x191c21),
    HAKO_ENTRY(LineNumber, 0x848d97, 0x7d8590),
    HAKO_ENTRY(FoldMargin, 0xf6f8fa, 0x191c21),
    HAKO_ENTRY(FoldMarkerFore, 0xffffff, 0x191c21),
    HAKO_ENTRY(FoldMarkerBack, 0x8c959f, 0x6e7681),
    HAKO_ENTRY(ErrorSquiggle, 0xd73a49, 0xf85149),
    HAKO_ENTRY(WarningSquiggle, 0xd18b00, 0xd29922),
    HAKO_ENTRY(ErrorMarker, 0xd73a49, 0xf85149),
    HAKO_ENTRY(WarningMarker, 0xd18b00, 0xd29922),
    HAKO_ENTRY(Breakpoint, 0xd73a49, 0xf85149),
    HAKO_ENTRY(BreakpointOutline, 0xb31d28, 0xffa198),
    HAKO_ENTRY(ConditionalBreakpoint, 0xe07b00, 0xf0883e),
    HAKO_ENTRY(ConditionalBreakpointOutline, 0xb35c00, 0xffc08a),
    HAKO_ENTRY(PausedLine, 0xfff3b0, 0x463d1b),
    HAKO_ENTRY(Comment, 0x656d76, 0x8b949e),
    HAKO_ENTRY(Key, 0x005cc5, 0x79c0ff),
    HAKO_ENTRY(BlockKindKey, 0xa626a4, 0xd2a8ff),
    HAKO_ENTRY(CommonFieldKey, 0x005cc5, 0x79c0ff),
    HAKO_ENTRY(QuotedString, 0x032f62, 0xa5d6ff),
    HAKO_ENTRY(Number, 0x007a68, 0x56d4bc),
    HAKO_ENTRY(Expression, 0x953800, 0xffa657),
    HAKO_ENTRY(ExpressionBackground, 0xfff5e6, 0x30291f),
    HAKO_ENTRY(ExpressionDelimiter, 0xcb2431, 0xff7b72),
    HAKO_ENTRY(Operator, 0x586069, 0x9da5ae),
    HAKO_ENTRY(BlockText, 0x1a7f37, 0x7ee787),
    HAKO_ENTRY(DocumentDelimiter, 0x955f00, 0xe3b341),
    HAKO_ENTRY(TemplateComment, 0x656d76, 0x8b949e),
    HAKO_ENTRY(AnchorOrTag, 0xbf3989, 0xff9bce),
};
#undef HAKO_ENTRY

constexpr bool tableInOrder()
{
    for (size_t i = 0; i < std::size(kTable); ++i)
        if (size_t(kTable[i].role) != i)
            return false;
    return std::size(kTable) == size_t(EditorColor::Count);
}
static_assert(tableInOrder(), "one entry per EditorColor, in its order");

} // namespace

QColor editorColor(EditorColor role, bool dark)
{
    const Entry& e = kTable[size_t(role)];
    return QColor::fromRgb(dark ? e.dark : e.light);
}

const char* editorColorName(EditorColor role)
{
    return kTable[size_t(role)].name;
}

} // namespace hako
