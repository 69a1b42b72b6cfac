#include "core/eval/textmetrics.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace hako::eval {

namespace {

std::vector<char32_t> codePoints(QStringView text)
{
    std::vector<char32_t> out;
    out.reserve(size_t(text.size()));
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            out.push_back(QChar::surrogateToUcs4(c, text[i + 1]));
            ++i;
        } else {
            out.push_back(c.unicode());
        }
    }
    return out;
}

// Myers' bit-parallel edit distance (1999), extended to any length by blocks of 64 rows (as
// Hyyrö describes): `b` is cut into blocks of 64 characters; each block's vertical deltas
// advance across every character of `a` at once in a machine word, taking from the block above
// the horizontal delta at its bottom row. O(|a|·|b|/64) time, O(|a| + alphabet) memory.
int levenshteinCp(const std::vector<char32_t>& a, const std::vector<char32_t>& b)
{
    if (a.empty() || b.empty())
        return int(std::max(a.size(), b.size()));
    // Characters as small numbers, so a block's match masks are an array lookup.
    std::unordered_map<char32_t, uint32_t> ids;
    auto idOf = [&ids](char32_t c) {
        return ids.try_emplace(c, uint32_t(ids.size())).first->second;
    };
    std::vector<uint32_t> aIds(a.size()), bIds(b.size());
    for (size_t j = 0; j < a.size(); ++j)
        aIds[j] = idOf(a[j]);
    for (size_t i = 0; i < b.size(); ++i)
        bIds[i] = idOf(b[i]);
    std::vector<uint64_t> peq(ids.size(), 0);
    // The horizontal delta (+1, 0, -1) at the bottom of the previous block, per column of `a`;
    // above the first row (row 0 is 0, 1, 2, …) every step is +1.
    std::vector<int8_t> carry(a.size(), 1);
    for (size_t top = 0; top < b.size(); top += 64) {
        const size_t rows = std::min<size_t>(64, b.size() - top);
        for (size_t i = 0; i < rows; ++i)
            peq[bIds[top + i]] |= uint64_t(1) << i;
        const uint64_t last = uint64_t(1) << (rows - 1);
        uint64_t pv = ~uint64_t(0); // column 0 goes down by one per row
        uint64_t mv = 0;
        for (size_t j = 0; j < a.size(); ++j) {
            uint64_t eq = peq[aIds[j]];
            const int hin = carry[j];
            const uint64_t xv = eq | mv;
            if (hin < 0)
                eq |= 1;
            const uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
            uint64_t ph = mv | ~(xh | pv);
            uint64_t mh = pv & xh;
            carry[j] = (ph & last) ? 1 : (mh & last) ? -1 : 0;
            ph <<= 1;
            mh <<= 1;
            if (hin < 0)
                mh |= 1;
            else if (hin > 0)
                ph |= 1;
            pv = mh | ~(xv | ph);
            mv = ph & xv;
        }
        for (size_t i = 0; i < rows; ++i)
            peq[bIds[top + i]] = 0;
    }
    // The last row: |b| at column 0, then the bottom block's horizontal deltas.
    int64_t distance = int64_t(b.size());
    for (const int8_t d : carry)
        distance += d;
    return int(distance);
}

void appendString(QString& out, const QString& s)
{
    out += QLatin1Char('"');
    for (const QChar c : s) {
        switch (c.unicode()) {
        case '"':
            out += QLatin1String("\\\"");
            break;
        case '\\':
            out += QLatin1String("\\\\");
            break;
        case '\n':
            out += QLatin1String("\\n");
            break;
        case '\r':
            out += QLatin1String("\\r");
            break;
        case '\t':
            out += QLatin1String("\\t");
            break;
        case '\b':
            out += QLatin1String("\\b");
            break;
        case '\f':
            out += QLatin1String("\\f");
            break;
        default:
            if (c.unicode() < 0x20)
                out += QStringLiteral("\\u%1").arg(int(c.unicode()), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    out += QLatin1Char('"');
}

void appendCanonical(QString& out, const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out += QLatin1String("null");
        break;
    case QJsonValue::Bool:
        out += v.toBool() ? QLatin1String("true") : QLatin1String("false");
        break;
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 9.0e15) {
            out += QString::number(qint64(d));
        } else {
            char buf[64];
            auto r = std::to_chars(buf, buf + sizeof buf, d);
            out += QString::fromLatin1(buf, int(r.ptr - buf));
        }
        break;
    }
    case QJsonValue::String:
        appendString(out, v.toString());
        break;
    case QJsonValue::Array: {
        out += QLatin1Char('[');
        bool first = true;
        for (const QJsonValue& x : v.toArray()) {
            if (!first)
                out += QLatin1Char(',');
            first = false;
            appendCanonical(out, x);
        }
        out += QLatin1Char(']');
        break;
    }
    case QJsonValue::Object: {
        const QJsonObject o = v.toObject();
        QStringList keys = o.keys();
        // Python sorts by code point; UTF-16 order differs only above the BMP.
        std::sort(keys.begin(), keys.end(),
                  [](const QString& a, const QString& b) { return codePoints(a) < codePoints(b); });
        out += QLatin1Char('{');
        bool first = true;
        for (const QString& k : keys) {
            if (!first)
                out += QLatin1Char(',');
            first = false;
            appendString(out, k);
            out += QLatin1Char(':');
            appendCanonical(out, o.value(k));
        }
        out += QLatin1Char('}');
        break;
    }
    }
}

bool isWide(char32_t c)
{
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) ||
           (c >= 0x3041 && c <= 0x33FF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
           (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
           (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
           (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
           (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
}

bool isCjk(char32_t c)
{
    return isWide(c) && !(c >= 0xFF01 && c <= 0xFF5E && QChar::isLetterOrNumber(c - 0xFEE0));
}

} // namespace

int levenshtein(QStringView a, QStringView b)
{
    return levenshteinCp(codePoints(a), codePoints(b));
}

double levenshteinSimilarity(QStringView a, QStringView b)
{
    const auto ca = codePoints(a);
    const auto cb = codePoints(b);
    const size_t longest = std::max(ca.size(), cb.size());
    if (longest == 0)
        return 1.0;
    return 1.0 - double(levenshteinCp(ca, cb)) / double(longest);
}

QString canonicalJson(const QJsonValue& value)
{
    QString out;
    appendCanonical(out, value);
    return out;
}

double jsonEditDistance(const QJsonValue& a, const QJsonValue& b, bool* truncated)
{
    bool cut = false;
    const QString fa = canonicalJson(a);
    const QString fb = canonicalJson(b);
    const auto ca = codePoints(firstCodePoints(fa, kMaxEditDistanceChars, &cut));
    const auto cb = codePoints(firstCodePoints(fb, kMaxEditDistanceChars, &cut));
    if (truncated)
        *truncated = cut;
    const size_t longest = std::max(ca.size(), cb.size());
    if (longest == 0)
        return 0.0;
    return double(levenshteinCp(ca, cb)) / double(longest);
}

QStringView firstCodePoints(QStringView text, qsizetype n, bool* cut)
{
    // Cheap when the text is short: a code point is at most two UTF-16 units.
    if (text.size() <= n)
        return text;
    qsizetype i = 0;
    for (qsizetype count = 0; i < text.size() && count < n; ++count)
        i += (text[i].isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) ? 2
                                                                                                : 1;
    if (i < text.size())
        *cut = true;
    return text.first(i);
}

int codePointCount(QStringView text)
{
    return int(codePoints(text).size());
}

int eastAsianWidth(QStringView text)
{
    int width = 0;
    for (char32_t c : codePoints(text)) {
        const auto category = QChar::category(c);
        if (category == QChar::Mark_NonSpacing || category == QChar::Mark_Enclosing ||
            c == 0x200B || c == 0x200D)
            continue;
        width += isWide(c) ? 2 : 1;
    }
    return width;
}

int approximateTokens(QStringView text)
{
    int tokens = 0;
    int run = 0;
    auto endRun = [&] {
        tokens += (run + 3) / 4;
        run = 0;
    };
    for (char32_t c : codePoints(text)) {
        if (c < 128 && (std::isalnum(int(c)))) {
            ++run;
            continue;
        }
        endRun();
        if (isCjk(c) || !QChar::isSpace(c))
            ++tokens;
    }
    endRun();
    return tokens;
}

} // namespace hako::eval
