// Unicode helpers with Python's str semantics (code points, full case mapping via Qt).

#include "core/pdl/expr/builtins_p.h"
#include "core/pdl/expr/operators.h"

#include <QChar>
#include <QList>
#include <QString>
#include <optional>

namespace hako::pdl::builtins::detail {

std::u32string u32(std::string_view s)
{
    return utf8::decode(s);
}

std::string u8(std::u32string_view s)
{
    return utf8::encode(s);
}

bool isPySpace(char32_t c)
{
    switch (c) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case '\x0b':
    case '\x0c':
    case 0x1c:
    case 0x1d:
    case 0x1e:
    case 0x1f:
    case 0x85:
    case 0xa0:
        return true;
    default:
        return c > 0x7f && QChar::isSpace(c);
    }
}

bool isLineBreak(char32_t c)
{
    switch (c) {
    case '\n':
    case '\r':
    case 0x0b:
    case 0x0c:
    case 0x1c:
    case 0x1d:
    case 0x1e:
    case 0x85:
    case 0x2028:
    case 0x2029:
        return true;
    default:
        return false;
    }
}

bool isAlphaCp(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Letter_Uppercase:
    case QChar::Letter_Lowercase:
    case QChar::Letter_Titlecase:
    case QChar::Letter_Modifier:
    case QChar::Letter_Other:
        return true;
    default:
        return false;
    }
}

bool isDecimalCp(char32_t c)
{
    return QChar::category(c) == QChar::Number_DecimalDigit;
}

bool isDigitCp(char32_t c)
{
    return isDecimalCp(c) ||
           (QChar::category(c) == QChar::Number_Other && QChar::digitValue(c) >= 0);
}

bool isNumericCp(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Number_DecimalDigit:
    case QChar::Number_Letter:
    case QChar::Number_Other:
        return true;
    default:
        // CJK ideographic numerals are letters with a numeric value in Unicode.
        return c == 0x3007 || c == 0x96f6 || c == 0x4e00 || c == 0x4e8c || c == 0x4e09 ||
               c == 0x56db || c == 0x4e94 || c == 0x516d || c == 0x4e03 || c == 0x516b ||
               c == 0x4e5d || c == 0x5341 || c == 0x767e || c == 0x5343 || c == 0x4e07 ||
               c == 0x5104 || c == 0x5146;
    }
}

bool isUpperCp(char32_t c)
{
    return QChar::isUpper(c);
}

bool isLowerCp(char32_t c)
{
    return QChar::isLower(c);
}

bool isTitleCp(char32_t c)
{
    return QChar::isTitleCase(c);
}

static bool isCased(char32_t c)
{
    return QChar::isUpper(c) || QChar::isLower(c) || QChar::isTitleCase(c);
}

bool isWordCp(char32_t c)
{
    return c == '_' || isAlphaCp(c) || isNumericCp(c) ||
           QChar::category(c) == QChar::Mark_NonSpacing ||
           QChar::category(c) == QChar::Mark_SpacingCombining;
}

static QString qstr(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

static std::string fromQ(const QString& s)
{
    QByteArray b = s.toUtf8();
    return std::string(b.constData(), static_cast<size_t>(b.size()));
}

// The ASCII case mapping of `s` (letters from `from` shifted to the other case) when `s` is all
// ASCII, nullopt otherwise: the common case, without decoding.
static std::optional<std::string> asciiCase(std::string_view s, char from)
{
    std::string out(s);
    const int shift = from == 'a' ? -32 : 32;
    for (char& ch : out) {
        if (static_cast<unsigned char>(ch) >= 0x80)
            return std::nullopt;
        if (ch >= from && ch <= from + 25)
            ch = static_cast<char>(ch + shift);
    }
    return out;
}

std::string toUpper(std::string_view s)
{
    if (std::optional<std::string> ascii = asciiCase(s, 'a'))
        return std::move(*ascii);
    return fromQ(qstr(s).toUpper());
}

static bool isCaseIgnorable(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_Enclosing:
    case QChar::Other_Format:
    case QChar::Letter_Modifier:
    case QChar::Symbol_Modifier:
        return true;
    default:
        return c == '\'' || c == '.' || c == ':' || c == 0x2019;
    }
}

// Lower case of s[i] in context: Python maps Σ to final ς after a cased letter when no cased
// letter follows.
static std::u32string lowerAt(const std::u32string& s, size_t i)
{
    if (s[i] != 0x3a3)
        return lowerCp(s[i]);
    size_t j = i;
    bool before = false;
    while (j > 0) {
        char32_t c = s[--j];
        if (isCaseIgnorable(c))
            continue;
        before = isCased(c);
        break;
    }
    bool after = false;
    for (size_t k = i + 1; k < s.size(); ++k) {
        if (isCaseIgnorable(s[k]))
            continue;
        after = isCased(s[k]);
        break;
    }
    return std::u32string(1, before && !after ? char32_t(0x3c2) : char32_t(0x3c3));
}

std::string toLower(std::string_view s)
{
    if (std::optional<std::string> ascii = asciiCase(s, 'A'))
        return std::move(*ascii);
    std::u32string in = u32(s), low;
    for (size_t i = 0; i < in.size(); ++i)
        low += lowerAt(in, i);
    return u8(low);
}

std::string caseFold(std::string_view s)
{
    // Qt folds simply; Python's full folding expands characters like ß → ss.
    QString out;
    for (char32_t c : u32(s)) {
        char32_t one[1] = {c};
        QString q = QString::fromUcs4(one, 1);
        QString upper = q.toUpper();
        out += upper.size() > q.size() ? upper.toLower() : q.toCaseFolded();
    }
    return fromQ(out);
}

static std::u32string mapCp(char32_t c, int mode)
{
    if (c < 0x80) {
        char32_t r = c;
        if (mode == 0 && c >= 'a' && c <= 'z')
            r = c - 32;
        else if (mode == 1 && c >= 'A' && c <= 'Z')
            r = c + 32;
        else if (mode == 2 && c >= 'a' && c <= 'z')
            r = c - 32;
        return std::u32string(1, r);
    }
    char32_t one[1] = {c};
    QString q = QString::fromUcs4(one, 1);
    if (mode == 0)
        q = q.toUpper();
    else if (mode == 1)
        q = q.toLower();
    else {
        // Title case: the simple titlecase mapping when it differs from upper (ǆ → ǅ).
        char32_t t = QChar::toTitleCase(c);
        if (t != c || QChar::isTitleCase(c))
            return std::u32string(1, t);
        // Full title case of a character whose upper case is several: the first upper, the
        // rest lower (ß → Ss, ﬁ → Fi).
        q = q.toUpper();
        if (q.size() > 1)
            q = q.left(1) + q.mid(1).toLower();
    }
    QList<uint> ucs = q.toUcs4();
    std::u32string out;
    for (uint u : ucs)
        out.push_back(static_cast<char32_t>(u));
    return out;
}

std::u32string upperCp(char32_t c)
{
    return mapCp(c, 0);
}

std::u32string lowerCp(char32_t c)
{
    return mapCp(c, 1);
}

std::u32string titleCp(char32_t c)
{
    return mapCp(c, 2);
}

std::string pyTitle(std::string_view s)
{
    std::u32string in = u32(s), out;
    bool prevCased = false;
    for (size_t i = 0; i < in.size(); ++i) {
        out += prevCased ? lowerAt(in, i) : titleCp(in[i]);
        prevCased = isCased(in[i]);
    }
    return u8(out);
}

std::string pyCapitalize(std::string_view s)
{
    std::u32string in = u32(s), out;
    for (size_t i = 0; i < in.size(); ++i)
        out += i == 0 ? titleCp(in[i]) : lowerAt(in, i);
    return u8(out);
}

std::string pySwapcase(std::string_view s)
{
    std::u32string in = u32(s), out;
    for (char32_t c : in) {
        if (isUpperCp(c))
            out += lowerCp(c);
        else if (isLowerCp(c))
            out += upperCp(c);
        else
            out.push_back(c);
    }
    return u8(out);
}

std::vector<std::u32string> splitWhitespace(const std::u32string& s, int64_t maxsplit,
                                            bool fromRight)
{
    std::vector<std::u32string> parts;
    if (maxsplit < 0)
        maxsplit = INT64_MAX;
    if (!fromRight) {
        size_t i = 0, n = s.size();
        while (true) {
            while (i < n && isPySpace(s[i]))
                ++i;
            if (i >= n)
                break;
            if (static_cast<int64_t>(parts.size()) == maxsplit) {
                parts.push_back(s.substr(i));
                break;
            }
            size_t j = i;
            while (j < n && !isPySpace(s[j]))
                ++j;
            parts.push_back(s.substr(i, j - i));
            i = j;
        }
        return parts;
    }
    int64_t j = static_cast<int64_t>(s.size());
    while (true) {
        while (j > 0 && isPySpace(s[static_cast<size_t>(j - 1)]))
            --j;
        if (j <= 0)
            break;
        if (static_cast<int64_t>(parts.size()) == maxsplit) {
            parts.push_back(s.substr(0, static_cast<size_t>(j)));
            break;
        }
        int64_t i = j;
        while (i > 0 && !isPySpace(s[static_cast<size_t>(i - 1)]))
            --i;
        parts.push_back(s.substr(static_cast<size_t>(i), static_cast<size_t>(j - i)));
        j = i;
    }
    std::reverse(parts.begin(), parts.end());
    return parts;
}

std::u32string stripChars(const std::u32string& s, const std::u32string* chars, bool left,
                          bool right)
{
    auto strip = [&](char32_t c) {
        return chars ? chars->find(c) != std::u32string::npos : isPySpace(c);
    };
    size_t a = 0, b = s.size();
    if (left)
        while (a < b && strip(s[a]))
            ++a;
    if (right)
        while (b > a && strip(s[b - 1]))
            --b;
    return s.substr(a, b - a);
}

std::vector<std::u32string> splitLines(const std::u32string& s, bool keepends)
{
    std::vector<std::u32string> lines;
    size_t i = 0, n = s.size();
    while (i < n) {
        size_t j = i;
        while (j < n && !isLineBreak(s[j]))
            ++j;
        size_t eol = j;
        if (j < n) {
            if (s[j] == '\r' && j + 1 < n && s[j + 1] == '\n')
                j += 2;
            else
                ++j;
            if (keepends)
                eol = j;
        }
        lines.push_back(s.substr(i, eol - i));
        i = j;
    }
    return lines;
}

std::string padString(std::string_view s, int64_t width, char32_t fill, char align)
{
    // Bounded like repetition: `center(999999999)` would otherwise allocate gigabytes.
    if (width > expr::kMaxResultSize)
        fail("padding width " + std::to_string(width) + " is too large (at most " +
             std::to_string(expr::kMaxResultSize) + ")");
    int64_t len = utf8::length(s);
    if (width <= len)
        return std::string(s);
    int64_t pad = width - len;
    int64_t left = 0;
    if (align == '>')
        left = pad;
    else if (align == '^')
        left = pad / 2;
    else if (align == 'c')
        // str.center puts the odd space on the left when both padding and width are odd.
        left = pad / 2 + (pad & width & 1);
    std::string f;
    utf8::append(f, fill);
    std::string out;
    for (int64_t i = 0; i < left; ++i)
        out += f;
    out += s;
    for (int64_t i = 0; i < pad - left; ++i)
        out += f;
    return out;
}

} // namespace hako::pdl::builtins::detail
