#include "core/util/worddiff.h"

#include "core/util/shortestedit.h"

#include <QHash>

namespace hako {

namespace {

enum class TokenClass { Word, Space, Katakana, Single };

TokenClass classOf(char32_t c)
{
    // Katakana letters and the prolonged sound mark (ー), phonetic extensions, half-width forms.
    if ((c >= 0x30A1 && c <= 0x30FA) || c == 0x30FC || (c >= 0x31F0 && c <= 0x31FF) ||
        (c >= 0xFF66 && c <= 0xFF9F))
        return TokenClass::Katakana;
    // Hiragana, the rest of the kana block, CJK ideographs (extension A, unified, compatibility,
    // supplementary planes) and hangul syllables: one character, one token.
    if ((c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
        (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
        (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x3FFFF))
        return TokenClass::Single;
    if (QChar::isSpace(c))
        return TokenClass::Space;
    if (QChar::isLetterOrNumber(c) || QChar::category(c) == QChar::Mark_NonSpacing ||
        QChar::category(c) == QChar::Mark_SpacingCombining || c == U'_')
        return TokenClass::Word;
    return TokenClass::Single;
}

// Builds the segments token by token: merges runs of one kind and keeps each change's
// deletions before its insertions.
class SegmentWriter {
public:
    std::vector<WordDiffSegment> out;

    void append(WordDiffSegment::Op op, const QString& text, int tokens = 1)
    {
        using Op = WordDiffSegment::Op;
        if (text.isEmpty())
            return;
        if (!out.empty() && out.back().op == op) {
            out.back().text += text;
            out.back().tokens += tokens;
            return;
        }
        // An insertion then a deletion in one change region: the deletion goes first.
        if (op == Op::Delete && !out.empty() && out.back().op == Op::Insert) {
            if (out.size() >= 2 && out[out.size() - 2].op == Op::Delete) {
                out[out.size() - 2].text += text;
                out[out.size() - 2].tokens += tokens;
            } else {
                out.insert(out.end() - 1, WordDiffSegment{op, text, tokens});
            }
            return;
        }
        out.push_back(WordDiffSegment{op, text, tokens});
    }
};

// The tokens as numbers, equal tokens equal numbers (shared by both sides).
std::vector<uint64_t> intern(const QStringList& tokens, QHash<QString, uint64_t>& ids)
{
    std::vector<uint64_t> v;
    v.reserve(size_t(tokens.size()));
    for (const QString& t : tokens) {
        auto it = ids.constFind(t);
        if (it == ids.constEnd())
            it = ids.insert(t, uint64_t(ids.size()));
        v.push_back(it.value());
    }
    return v;
}

} // namespace

QStringList wordDiffTokens(const QString& text)
{
    QStringList tokens;
    const qsizetype n = text.size();
    qsizetype start = 0;
    bool started = false;
    TokenClass current = TokenClass::Single;
    for (qsizetype i = 0; i < n;) {
        char32_t c = text.at(i).unicode();
        qsizetype len = 1;
        if (QChar::isHighSurrogate(c) && i + 1 < n && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            len = 2;
        }
        const TokenClass k = classOf(c);
        if (!started || k != current || k == TokenClass::Single) {
            if (started)
                tokens << text.mid(start, i - start);
            start = i;
            current = k;
            started = true;
        }
        i += len;
    }
    if (started)
        tokens << text.mid(start, n - start);
    return tokens;
}

std::vector<WordDiffSegment> wordDiff(const QString& a, const QString& b)
{
    using Op = WordDiffSegment::Op;
    const QStringList ta = wordDiffTokens(a);
    const QStringList tb = wordDiffTokens(b);
    SegmentWriter w;
    if (a == b) {
        w.append(Op::Equal, a, int(ta.size()));
        return std::move(w.out);
    }
    QHash<QString, uint64_t> ids;
    const std::vector<uint64_t> ia = intern(ta, ids);
    const std::vector<uint64_t> ib = intern(tb, ids);
    // Past the budget only the common head and tail are matched: what lies between is then one
    // deletion and one insertion, which is what a reader makes of two different texts anyway.
    std::vector<EditMatch> matches;
    shortestEdit(ia.data(), int(ia.size()), ib.data(), int(ib.size()), 0, 0, matches);
    int ca = 0, cb = 0;
    auto gap = [&](int ea, int eb) {
        for (; ca < ea; ++ca)
            w.append(Op::Delete, ta.at(ca));
        for (; cb < eb; ++cb)
            w.append(Op::Insert, tb.at(cb));
    };
    for (const auto& [i, j] : matches) {
        gap(i, j);
        w.append(Op::Equal, ta.at(i));
        ca = i + 1;
        cb = j + 1;
    }
    gap(int(ta.size()), int(tb.size()));
    return std::move(w.out);
}

std::vector<WordDiffSegment> joinChangesAcrossSpaces(std::vector<WordDiffSegment> diff)
{
    using Op = WordDiffSegment::Op;
    if (diff.size() < 3)
        return diff;
    SegmentWriter w;
    for (size_t i = 0; i < diff.size(); ++i) {
        const WordDiffSegment& c = diff[i];
        const bool joins = c.op == Op::Equal && i > 0 && i + 1 < diff.size() &&
                           diff[i - 1].op != Op::Equal && diff[i + 1].op != Op::Equal &&
                           c.text.size() <= 3 && c.text.trimmed().isEmpty() &&
                           !c.text.contains(QLatin1Char('\n'));
        if (joins) {
            w.append(Op::Delete, c.text, c.tokens);
            w.append(Op::Insert, c.text, c.tokens);
        } else {
            w.append(c.op, c.text, c.tokens);
        }
    }
    return std::move(w.out);
}

QString formatWordDiff(const std::vector<WordDiffSegment>& diff)
{
    QString s;
    for (const WordDiffSegment& c : diff) {
        switch (c.op) {
        case WordDiffSegment::Op::Equal:
            s += c.text;
            break;
        case WordDiffSegment::Op::Delete:
            s += QLatin1String("[-") + c.text + QLatin1String("-]");
            break;
        case WordDiffSegment::Op::Insert:
            s += QLatin1String("{+") + c.text + QLatin1String("+}");
            break;
        }
    }
    return s;
}

} // namespace hako
