#include "widgets/editor/pdllexer.h"

#include "core/pdl/parser/fieldtables.h"
#include "widgets/editor/editorcolor.h"

#include <QFontDatabase>

#include <iterator>
#include <string_view>
#include <utility>

namespace hako {

namespace {

// Line state: bit 0 = inside an unclosed `${`; bits 1.. = block scalar parent column + 1
// (0 when not in a block scalar).
constexpr int kInExpression = 1;

int blockColumn(int state)
{
    return (state >> 1) - 1;
}
int withBlockColumn(int state, int column)
{
    return (state & kInExpression) | ((column + 1) << 1);
}

bool isKeyChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Colours `${ … }` and `{# … #}` inside [from, to) of a scalar whose own style is `base`.
// Returns whether an expression is still open at `to`.
bool styleTemplate(const QByteArray& line, int from, int to, char base, bool open,
                   QByteArray& styles)
{
    int depth = open ? 1 : 0;
    char quote = 0;
    for (int i = from; i < to; ++i) {
        const char c = line.at(i);
        if (depth > 0) {
            if (quote) {
                if (c == quote)
                    quote = 0;
                styles[i] = char(PdlLexer::Expression);
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '{') {
                ++depth;
            } else if (c == '}') {
                if (--depth == 0) {
                    styles[i] = char(PdlLexer::ExpressionDelimiter);
                    continue;
                }
            }
            styles[i] = char(PdlLexer::Expression);
            continue;
        }
        if (c == '$' && i + 1 < to && line.at(i + 1) == '{') {
            styles[i] = styles[i + 1] = char(PdlLexer::ExpressionDelimiter);
            ++i;
            depth = 1;
            continue;
        }
        if (c == '{' && i + 1 < to && line.at(i + 1) == '#') {
            const int end = int(line.indexOf("#}", i + 2));
            const int stop = end < 0 || end + 2 > to ? to : end + 2;
            for (int k = i; k < stop; ++k)
                styles[k] = char(PdlLexer::TemplateComment);
            i = stop - 1;
            continue;
        }
        styles[i] = base;
    }
    return depth > 0;
}

PdlLexer::Style keyStyle(const QByteArray& key)
{
    const std::string_view k(key.constData(), size_t(key.size()));
    for (std::string_view kw : pdl::kindKeywords()) {
        if (kw == k)
            return PdlLexer::BlockKindKey;
    }
    if (pdl::isCommonField(k) || k == "kind")
        return PdlLexer::CommonFieldKey;
    return PdlLexer::Key;
}

bool isScalarConstant(const QByteArray& v)
{
    static const QByteArray words[] = {"true", "false", "True", "False", "null", "Null",
                                       "~",    "yes",   "no",   "on",    "off"};
    for (const QByteArray& w : words) {
        if (v == w)
            return true;
    }
    bool ok = false;
    v.toDouble(&ok);
    return ok;
}

// A quoted scalar from `i` (its opening quote), templates inside styled; what follows the
// closing quote is punctuation or a comment.
int styleQuoted(const QByteArray& line, int i, int len, QByteArray& styles)
{
    const char c = line.at(i);
    int close = i + 1;
    while (close < len) {
        if (line.at(close) == c) {
            if (c == '\'' && close + 1 < len && line.at(close + 1) == '\'') {
                close += 2;
                continue;
            }
            break;
        }
        if (c == '"' && line.at(close) == '\\')
            ++close;
        ++close;
    }
    const int end = std::min(close + 1, len);
    styles[i] = char(PdlLexer::QuotedString);
    const bool open = styleTemplate(line, i + 1, std::min(close, len), char(PdlLexer::QuotedString),
                                    false, styles);
    if (close < len)
        styles[close] = char(PdlLexer::QuotedString);
    for (int p = end; p < len; ++p)
        styles[p] = line.at(p) == '#' ? char(PdlLexer::Comment) : char(PdlLexer::Operator);
    return open ? kInExpression : 0;
}

// Flow collections: punctuation as operators, the rest as scalars.
int styleFlow(const QByteArray& line, int i, int len, QByteArray& styles)
{
    bool open = false;
    for (int p = i; p < len; ++p) {
        const char d = line.at(p);
        if (d == '$' && p + 1 < len && line.at(p + 1) == '{') {
            int q = p;
            int depth = 0;
            for (; q < len; ++q) {
                if (line.at(q) == '{')
                    ++depth;
                else if (line.at(q) == '}' && --depth == 0)
                    break;
            }
            open = styleTemplate(line, p, std::min(q + 1, len), char(PdlLexer::Default), false,
                                 styles);
            p = std::min(q, len - 1);
            continue;
        }
        if (d == '[' || d == ']' || d == '{' || d == '}' || d == ',' || d == ':')
            styles[p] = char(PdlLexer::Operator);
    }
    return open ? kInExpression : 0;
}

// A node's value from column `i`: a comment, a block scalar header (its content must be more
// indented than `nodeColumn`), a quoted scalar, a flow collection or a plain scalar.
int styleValue(const QByteArray& line, int i, int len, int nodeColumn, QByteArray& styles)
{
    bool open = false;
    const char c = line.at(i);
    if (c == '#') {
        for (int p = i; p < len; ++p)
            styles[p] = char(PdlLexer::Comment);
        return 0;
    }
    if (c == '|' || c == '>') {
        int p = i + 1;
        while (p < len &&
               (line.at(p) == '-' || line.at(p) == '+' || (line.at(p) >= '0' && line.at(p) <= '9')))
            ++p;
        int q = p;
        while (q < len && line.at(q) == ' ')
            ++q;
        if (q >= len || line.at(q) == '#') {
            for (int s = i; s < p; ++s)
                styles[s] = char(PdlLexer::Operator);
            for (int s = q; s < len; ++s)
                styles[s] = char(PdlLexer::Comment);
            return withBlockColumn(0, nodeColumn);
        }
    }
    if (c == '"' || c == '\'')
        return styleQuoted(line, i, len, styles);
    // Flow collections (not a `{#` template comment).
    if ((c == '[' || c == '{') && !(c == '{' && i + 1 < len && line.at(i + 1) == '#'))
        return styleFlow(line, i, len, styles);
    // A plain scalar, up to a ` #` comment.
    int end = len;
    for (int p = i; p + 1 < len; ++p) {
        if (line.at(p) == ' ' && line.at(p + 1) == '#') {
            end = p;
            break;
        }
    }
    QByteArray trimmed = line.mid(i, end - i).trimmed();
    if (isScalarConstant(trimmed)) {
        for (int p = i; p < end; ++p)
            styles[p] = char(PdlLexer::Number);
    } else {
        open = styleTemplate(line, i, end, char(PdlLexer::Default), false, styles);
    }
    for (int p = end; p < len; ++p)
        styles[p] = char(PdlLexer::Comment);
    return open ? kInExpression : 0;
}

} // namespace

QFont PdlLexer::editorFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace);
    if (font.pointSizeF() < 10)
        font.setPointSizeF(10);
    return font;
}

PdlLexer::PdlLexer(QObject* parent) : QsciLexerCustom(parent)
{
    const QFont font = editorFont();
    setDefaultFont(font);
    setFont(font, -1);

    QFont bold = font;
    bold.setBold(true);
    QFont italic = font;
    italic.setItalic(true);

    setFont(italic, Comment);
    setFont(bold, BlockKindKey);
    setFont(bold, CommonFieldKey);
    setFont(bold, ExpressionDelimiter);
    setFont(bold, DocumentDelimiter);
    setFont(italic, TemplateComment);
    applyColors(false);
}

void PdlLexer::applyColors(bool dark)
{
    const QColor background = editorColor(EditorColor::Background, dark);
    setDefaultPaper(background);
    setPaper(background, -1);
    setDefaultColor(editorColor(EditorColor::Text, dark));
    static constexpr std::pair<Style, EditorColor> kColors[] = {
        {Default, EditorColor::Text},
        {Comment, EditorColor::Comment},
        {Key, EditorColor::Key},
        {BlockKindKey, EditorColor::BlockKindKey},
        {CommonFieldKey, EditorColor::CommonFieldKey},
        {QuotedString, EditorColor::QuotedString},
        {Number, EditorColor::Number},
        {Expression, EditorColor::Expression},
        {ExpressionDelimiter, EditorColor::ExpressionDelimiter},
        {Operator, EditorColor::Operator},
        {BlockText, EditorColor::BlockText},
        {DocumentDelimiter, EditorColor::DocumentDelimiter},
        {TemplateComment, EditorColor::TemplateComment},
        {AnchorOrTag, EditorColor::AnchorOrTag},
    };
    static_assert(std::size(kColors) == StyleCount, "a colour for every style");
    for (const auto& [style, role] : kColors)
        setColor(editorColor(role, dark), style);
    const QColor expression = editorColor(EditorColor::ExpressionBackground, dark);
    setPaper(expression, Expression);
    setPaper(expression, ExpressionDelimiter);
}

QString PdlLexer::description(int style) const
{
    switch (style) {
    case Default:
        return tr("Default");
    case Comment:
        return tr("Comment");
    case Key:
        return tr("Mapping key");
    case BlockKindKey:
        return tr("Block kind");
    case CommonFieldKey:
        return tr("Common field");
    case QuotedString:
        return tr("Quoted string");
    case Number:
        return tr("Number or constant");
    case Expression:
        return tr("Expression");
    case ExpressionDelimiter:
        return tr("Expression delimiter");
    case Operator:
        return tr("YAML punctuation");
    case BlockText:
        return tr("Block scalar text");
    case DocumentDelimiter:
        return tr("Document marker");
    case TemplateComment:
        return tr("Template comment");
    case AnchorOrTag:
        return tr("Anchor, alias or tag");
    default:
        return {};
    }
}

const char* PdlLexer::blockStartKeyword(int* style) const
{
    if (style)
        *style = 0;
    return nullptr;
}

int PdlLexer::styleLine(const QByteArray& line, int state, QByteArray& styles)
{
    const int n = int(line.size());
    styles.fill(char(Default), n);
    int len = n;
    while (len > 0 && (line.at(len - 1) == '\n' || line.at(len - 1) == '\r'))
        --len;
    int indent = 0;
    while (indent < len && line.at(indent) == ' ')
        ++indent;
    const bool blank = indent >= len;
    bool open = state & kInExpression;

    // Block scalar content: more indented than its parent (or blank).
    const int parent = blockColumn(state);
    if (parent >= 0 && (blank || indent > parent)) {
        open = styleTemplate(line, 0, len, char(BlockText), open, styles);
        return withBlockColumn(open ? kInExpression : 0, parent);
    }
    state = 0;
    if (open) {
        // An expression continued from the previous line (multi-line flow scalar).
        open = styleTemplate(line, 0, len, char(Default), true, styles);
        return open ? kInExpression : 0;
    }
    if (blank)
        return 0;
    if (indent == 0 && (line.startsWith("---") || line.startsWith("..."))) {
        for (int i = 0; i < len; ++i)
            styles[i] = char(DocumentDelimiter);
        return 0;
    }
    int i = indent;
    if (line.at(i) == '#') {
        for (int k = i; k < len; ++k)
            styles[k] = char(Comment);
        return 0;
    }
    int nodeColumn = indent; // the column a block scalar's content must exceed
    while (i + 1 < len && line.at(i) == '-' && (line.at(i + 1) == ' ')) {
        styles[i] = char(Operator);
        nodeColumn = i;
        i += 2;
        while (i < len && line.at(i) == ' ')
            ++i;
    }
    if (i < len && line.at(i) == '-' && i + 1 == len) {
        styles[i] = char(Operator);
        return 0;
    }
    // A `key:` at the start of the node.
    int k = i;
    if (k < len && (line.at(k) == '"' || line.at(k) == '\'')) {
        const char q = line.at(k);
        const int close = int(line.indexOf(q, k + 1));
        if (close > 0 && close + 1 < len && line.at(close + 1) == ':')
            k = close + 1;
    } else {
        while (k < len && isKeyChar(line.at(k)))
            ++k;
    }
    if (k > i && k < len && line.at(k) == ':' && (k + 1 == len || line.at(k + 1) == ' ')) {
        const QByteArray key = line.mid(i, k - i);
        const Style ks = (key.startsWith('"') || key.startsWith('\'')) ? Key : keyStyle(key);
        for (int p = i; p < k; ++p)
            styles[p] = char(ks);
        styles[k] = char(Operator);
        nodeColumn = i;
        i = k + 1;
        while (i < len && line.at(i) == ' ')
            ++i;
    }
    if (i >= len)
        return 0;
    // Anchors (`&a`), aliases (`*a`) and tags (`!!str`) before the value.
    while (i < len && (line.at(i) == '&' || line.at(i) == '*' || line.at(i) == '!')) {
        int p = i;
        while (p < len && line.at(p) != ' ')
            ++p;
        for (int s = i; s < p; ++s)
            styles[s] = char(AnchorOrTag);
        i = p;
        while (i < len && line.at(i) == ' ')
            ++i;
    }
    if (i >= len)
        return 0;
    return styleValue(line, i, len, nodeColumn, styles);
}

void PdlLexer::styleText(int start, int end)
{
    QsciScintilla* ed = editor();
    if (!ed)
        return;
    int firstLine = int(ed->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, start));
    // The previous line's fold header flag depends on this line's indentation.
    if (firstLine > 0)
        --firstLine;
    const int lastLine = int(ed->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, end));
    const int lineCount = ed->lines();
    int state = firstLine > 0
                    ? int(ed->SendScintilla(QsciScintillaBase::SCI_GETLINESTATE, firstLine - 1))
                    : 0;
    auto lineBytes = [ed](int line) {
        const long from = ed->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, line);
        const long to = ed->SendScintilla(QsciScintillaBase::SCI_GETLINEENDPOSITION, line);
        QByteArray bytes(int(to - from), '\0');
        if (to > from)
            ed->SendScintilla(QsciScintillaBase::SCI_GETTEXTRANGE, from, to, bytes.data());
        return bytes;
    };
    // Indentation for folding: a `- ` list item counts one deeper than its column so the items
    // under `key:` at the same column fold into it.
    auto foldIndent = [](const QByteArray& text, bool* blank) {
        int i = 0;
        while (i < text.size() && text.at(i) == ' ')
            ++i;
        *blank = i >= text.size() || text.at(i) == '#';
        const bool item = i + 1 < text.size() && text.at(i) == '-' && text.at(i + 1) == ' ';
        return i * 2 + (item ? 1 : 0);
    };
    QByteArray styles;
    for (int line = firstLine; line <= lastLine && line < lineCount; ++line) {
        const long from = ed->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, line);
        const long to = line + 1 < lineCount
                            ? ed->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, line + 1)
                            : ed->SendScintilla(QsciScintillaBase::SCI_GETLENGTH);
        QByteArray bytes(int(to - from), '\0');
        if (to > from)
            ed->SendScintilla(QsciScintillaBase::SCI_GETTEXTRANGE, from, to, bytes.data());
        state = styleLine(bytes, state, styles);
        ed->SendScintilla(QsciScintillaBase::SCI_SETLINESTATE, line, state);
        startStyling(int(from));
        int runStart = 0;
        for (int p = 1; p <= styles.size(); ++p) {
            if (p == styles.size() || styles.at(p) != styles.at(runStart)) {
                setStyling(p - runStart, int(styles.at(runStart)));
                runStart = p;
            }
        }
        // Fold level from indentation; blank lines take the next content line's level.
        bool blank = false;
        const int here = foldIndent(lineBytes(line), &blank);
        int next = -1;
        for (int l = line + 1; l < lineCount && l < line + 200; ++l) {
            bool nextBlank = false;
            const int n = foldIndent(lineBytes(l), &nextBlank);
            if (!nextBlank) {
                next = n;
                break;
            }
        }
        int level = QsciScintillaBase::SC_FOLDLEVELBASE + (blank ? std::max(next, 0) : here);
        if (blank)
            level |= QsciScintillaBase::SC_FOLDLEVELWHITEFLAG;
        else if (next > here)
            level |= QsciScintillaBase::SC_FOLDLEVELHEADERFLAG;
        ed->SendScintilla(QsciScintillaBase::SCI_SETFOLDLEVEL, line, level);
    }
}

} // namespace hako
