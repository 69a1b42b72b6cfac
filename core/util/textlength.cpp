#include "core/util/textlength.h"

#include <QTextBoundaryFinder>

#include <vector>

namespace hako {

namespace {

// Qt 6.4's grapheme segmentation leaves out two rules of extended grapheme clusters (UAX #29):
// no break before a SpacingMark (GB9a: Devanagari, Thai sara am, …) and none after a Prepend
// (GB9b: the Arabic number sign, …). They are applied here on Qt's breaks.

bool isPrepend(char32_t c)
{
    return (c >= 0x0600 && c <= 0x0605) || c == 0x06DD || c == 0x070F || c == 0x0890 ||
           c == 0x0891 || c == 0x08E2 || c == 0x0D4E || c == 0x110BD || c == 0x110CD ||
           c == 0x111C2 || c == 0x111C3 || c == 0x1193F || c == 0x11941 || c == 0x11A3A ||
           (c >= 0x11A84 && c <= 0x11A89) || c == 0x11D46 || c == 0x11F02;
}

bool isSpacingMark(char32_t c)
{
    if (c == 0x0E33 || c == 0x0EB3)
        return true;
    // Spacing combining marks that Unicode counts as Other for grapheme breaks.
    static const char32_t others[] = {
        0x102B, 0x102C, 0x1038, 0x1062, 0x1063, 0x1064, 0x1067, 0x1068,  0x1069, 0x106A, 0x106B,
        0x106C, 0x106D, 0x1083, 0x1087, 0x1088, 0x1089, 0x108A, 0x108B,  0x108C, 0x108F, 0x109A,
        0x109B, 0x109C, 0x1A61, 0x1A63, 0x1A64, 0xAA7B, 0xAA7D, 0x11720, 0x11721};
    for (char32_t o : others)
        if (c == o)
            return false;
    return QChar::category(c) == QChar::Mark_SpacingCombining;
}

// CR, LF and Control break on both sides whatever follows (GB4, GB5).
bool isControl(char32_t c)
{
    if (c == 0x200C || c == 0x200D || isPrepend(c))
        return false;
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
    case QChar::Other_Format:
        return true;
    default:
        return false;
    }
}

char32_t codePointAt(const QString& s, qsizetype i)
{
    const QChar c = s.at(i);
    if (c.isHighSurrogate() && i + 1 < s.size() && s.at(i + 1).isLowSurrogate())
        return QChar::surrogateToUcs4(c, s.at(i + 1));
    return c.unicode();
}

char32_t codePointBefore(const QString& s, qsizetype i)
{
    const QChar c = s.at(i - 1);
    if (c.isLowSurrogate() && i >= 2 && s.at(i - 2).isHighSurrogate())
        return QChar::surrogateToUcs4(s.at(i - 2), c);
    return c.unicode();
}

} // namespace

qsizetype characterCount(const QString& text)
{
    if (text.isEmpty())
        return 0;
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, text);
    qsizetype count = 0;
    for (qsizetype at = finder.toNextBoundary(); at > 0; at = finder.toNextBoundary()) {
        ++count;
        if (at >= text.size())
            break;
        const char32_t before = codePointBefore(text, at);
        const char32_t after = codePointAt(text, at);
        if (isControl(before) || isControl(after))
            continue;
        if (isSpacingMark(after) || isPrepend(before))
            --count; // the cluster goes on
    }
    return count;
}

} // namespace hako
