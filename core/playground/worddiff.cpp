#include "core/playground/worddiff.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace hako::playground {

namespace {

enum class TokenClass { Word, Space, Single };

bool isCjk(char32_t c)
{
    return (c >= 0x3040 && c <= 0x30FF) || // hiragana, katakana
           (c >= 0x31F0 && c <= 0x31FF) || // katakana phonetic extensions
           (c >= 0x3400 && c <= 0x4DBF) || // CJK extension A
           (c >= 0x4E00 && c <= 0x9FFF) || // CJK unified ideographs
           (c >= 0xAC00 && c <= 0xD7AF) || // hangul syllables
           (c >= 0xF900 && c <= 0xFAFF) || // compatibility ideographs
           (c >= 0xFF66 && c <= 0xFF9F) || // half-width katakana
           (c >= 0x20000 && c <= 0x3FFFF); // supplementary ideographs
}

TokenClass classOf(char32_t c)
{
    if (isCjk(c))
        return TokenClass::Single;
    if (QChar::isSpace(c))
        return TokenClass::Space;
    if (QChar::isLetterOrNumber(c) || QChar::category(c) == QChar::Mark_NonSpacing ||
        QChar::category(c) == QChar::Mark_SpacingCombining || c == U'_')
        return TokenClass::Word;
    return TokenClass::Single;
}

} // namespace

QStringList diffTokens(const QString& text)
{
    QStringList tokens;
    qsizetype i = 0;
    const qsizetype n = text.size();
    std::optional<TokenClass> current;
    qsizetype start = 0;
    while (i < n) {
        char32_t c = text.at(i).unicode();
        qsizetype len = 1;
        if (QChar::isHighSurrogate(c) && i + 1 < n && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            len = 2;
        }
        const TokenClass k = classOf(c);
        const bool joins = current && *current == k && k != TokenClass::Single;
        if (!joins) {
            if (current)
                tokens << text.mid(start, i - start);
            start = i;
            current = k;
        }
        i += len;
    }
    if (current)
        tokens << text.mid(start, n - start);
    return tokens;
}

std::vector<DiffSegment> wordDiff(const QString& a, const QString& b)
{
    const QStringList ta = diffTokens(a);
    const QStringList tb = diffTokens(b);
    qsizetype head = 0;
    while (head < ta.size() && head < tb.size() && ta.at(head) == tb.at(head))
        ++head;
    qsizetype tail = 0;
    while (tail < ta.size() - head && tail < tb.size() - head &&
           ta.at(ta.size() - 1 - tail) == tb.at(tb.size() - 1 - tail))
        ++tail;

    // Ops in order over the whole token lists: (op, index into ta or tb).
    std::vector<std::pair<DiffSegment::Op, qsizetype>> ops;
    for (qsizetype i = 0; i < head; ++i)
        ops.emplace_back(DiffSegment::Op::Equal, i);

    const qsizetype n = ta.size() - head - tail;
    const qsizetype m = tb.size() - head - tail;
    constexpr qsizetype kMaxCells = 16 * 1024 * 1024;
    if (n > 0 && m > 0 && (n + 1) * (m + 1) <= kMaxCells) {
        // lcs[i][j]: LCS length of ta[head+i..] and tb[head+j..] (suffixes), so the walk runs
        // forwards and emits deletions before insertions.
        const qsizetype w = m + 1;
        std::vector<uint32_t> lcs(size_t((n + 1) * w), 0);
        for (qsizetype i = n - 1; i >= 0; --i) {
            for (qsizetype j = m - 1; j >= 0; --j) {
                lcs[size_t(i * w + j)] =
                    ta.at(head + i) == tb.at(head + j)
                        ? lcs[size_t((i + 1) * w + j + 1)] + 1
                        : std::max(lcs[size_t((i + 1) * w + j)], lcs[size_t(i * w + j + 1)]);
            }
        }
        qsizetype i = 0, j = 0;
        while (i < n && j < m) {
            if (ta.at(head + i) == tb.at(head + j)) {
                ops.emplace_back(DiffSegment::Op::Equal, head + i);
                ++i;
                ++j;
            } else if (lcs[size_t((i + 1) * w + j)] >= lcs[size_t(i * w + j + 1)]) {
                ops.emplace_back(DiffSegment::Op::Delete, head + i);
                ++i;
            } else {
                ops.emplace_back(DiffSegment::Op::Insert, head + j);
                ++j;
            }
        }
        for (; i < n; ++i)
            ops.emplace_back(DiffSegment::Op::Delete, head + i);
        for (; j < m; ++j)
            ops.emplace_back(DiffSegment::Op::Insert, head + j);
    } else {
        for (qsizetype i = 0; i < n; ++i)
            ops.emplace_back(DiffSegment::Op::Delete, head + i);
        for (qsizetype j = 0; j < m; ++j)
            ops.emplace_back(DiffSegment::Op::Insert, head + j);
    }
    for (qsizetype k = 0; k < tail; ++k)
        ops.emplace_back(DiffSegment::Op::Equal, ta.size() - tail + k);

    // Merge, keeping each change region as its deletions followed by its insertions.
    std::vector<DiffSegment> out;
    auto append = [&out](DiffSegment::Op op, const QString& token) {
        if (!out.empty() && out.back().op == op) {
            out.back().text += token;
            ++out.back().tokens;
            return;
        }
        // An Insert then a Delete inside one change region: put the Delete first.
        if (op == DiffSegment::Op::Delete && !out.empty() &&
            out.back().op == DiffSegment::Op::Insert) {
            if (out.size() >= 2 && out[out.size() - 2].op == DiffSegment::Op::Delete) {
                out[out.size() - 2].text += token;
                ++out[out.size() - 2].tokens;
                return;
            }
            out.insert(out.end() - 1, DiffSegment{op, token, 1});
            return;
        }
        out.push_back(DiffSegment{op, token, 1});
    };
    for (const auto& [op, index] : ops)
        append(op, op == DiffSegment::Op::Insert ? tb.at(index) : ta.at(index));
    return out;
}

} // namespace hako::playground
