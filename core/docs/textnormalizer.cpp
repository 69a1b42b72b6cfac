#include "core/docs/textnormalizer.h"

#include <algorithm>

namespace hako::docs {

void OffsetMap::add(qsizetype norm, qsizetype orig)
{
    const qsizetype delta = orig - norm;
    if (m_started && delta == m_delta)
        return;
    if (!m_norm.empty() && m_norm.back() == norm) {
        m_orig.back() = orig;
    } else {
        m_norm.push_back(norm);
        m_orig.push_back(orig);
    }
    m_delta = delta;
    m_started = true;
}

qsizetype OffsetMap::toOriginal(qsizetype norm) const
{
    auto it = std::upper_bound(m_norm.begin(), m_norm.end(), norm);
    if (it == m_norm.begin())
        return norm;
    const size_t k = size_t(it - m_norm.begin()) - 1;
    return m_orig[k] + (norm - m_norm[k]);
}

std::pair<qsizetype, qsizetype> OffsetMap::toOriginal(qsizetype normStart, qsizetype normEnd) const
{
    const qsizetype start = toOriginal(normStart);
    if (normEnd <= normStart)
        return {start, start};
    return {start, std::max(start, toOriginal(normEnd - 1) + 1)};
}

qsizetype OffsetMap::toNormalised(qsizetype orig) const
{
    // Original positions grow with normalised ones, so the breakpoints are sorted both ways.
    auto it = std::upper_bound(m_orig.begin(), m_orig.end(), orig);
    if (it == m_orig.begin())
        return orig;
    const size_t k = size_t(it - m_orig.begin()) - 1;
    const qsizetype candidate = m_norm[k] + (orig - m_orig[k]);
    if (k + 1 < m_norm.size())
        return std::min(candidate, m_norm[k + 1]);
    return candidate;
}

namespace {

// Characters NFKC leaves unchanged when no combining mark follows them (checked against
// Python's unicodedata): ASCII, Latin-1 letters, kana, CJK ideographs, Japanese punctuation.
inline bool nfkcInvariant(char16_t c)
{
    if (c >= 0x20 && c < 0x7F)
        return true;
    if (c >= 0x4E00 && c <= 0x9FFF)
        return true;
    if (c >= 0x3041 && c <= 0x30FE)
        return c <= 0x3096 || c >= 0x30A1 || c == 0x309D || c == 0x309E;
    if (c >= 0x3001 && c <= 0x301F)
        return c != 0x3004 && c != 0x3012 && c != 0x3013;
    if (c >= 0x3400 && c <= 0x4DBF)
        return true;
    if ((c >= 0xC0 && c <= 0xFF) || (c >= 0xA1 && c <= 0xA7))
        return true;
    if (c == 0x2010 || c == 0x2014 || c == 0x2015 || c == 0x2018 || c == 0x2019 || c == 0x201C ||
        c == 0x201D)
        return true;
    return c >= 0x25A0 && c <= 0x25FF;
}

inline bool isMarkAt(QStringView s, qsizetype i)
{
    const char16_t c = s[i].unicode();
    if (c < 0x300)
        return false;
    if (QChar::isHighSurrogate(c) && i + 1 < s.size())
        return QChar::isMark(QChar::surrogateToUcs4(c, s[i + 1].unicode()));
    // Voiced sound marks compose with the kana before them under NFKC.
    return QChar::isMark(char32_t(c)) || c == 0xFF9E || c == 0xFF9F;
}

// Output buffer with manual growth: appending QChar by QChar to a QString is several times
// slower on 100 MB inputs. While the output equals the input (plain text with LF or CRLF line
// ends), nothing is written: the search copy is then the original itself, shared, instead of
// a second copy as large as the text.
class Writer {
public:
    Writer(NormalizedText& r, QStringView in, qsizetype expected)
        : m_r(r), m_in(in), m_expected(expected)
    {}
    qsizetype pos() const { return m_pos; }
    char16_t at(qsizetype i) const { return m_same ? m_in[i].unicode() : m_data[i]; }
    void put(char16_t c, qsizetype orig)
    {
        if (m_same) {
            if (orig == m_pos && m_pos < m_in.size() && c == m_in[m_pos].unicode()) {
                m_r.map.add(m_pos, orig);
                ++m_pos;
                return;
            }
            materialize();
        }
        if (m_pos == m_cap)
            grow();
        m_r.map.add(m_pos, orig);
        m_data[m_pos++] = c;
    }
    // `owner` is the QString `in` views, when there is one to share.
    void finish(const QString* owner)
    {
        if (!m_same) {
            m_r.text.truncate(m_pos);
        } else if (owner && m_pos == owner->size()) {
            m_r.text = *owner;
        } else {
            m_r.text = m_in.first(m_pos).toString();
        }
    }

private:
    void materialize()
    {
        m_same = false;
        m_r.text.resize(std::max(m_expected, m_pos) + 16);
        m_data = reinterpret_cast<char16_t*>(m_r.text.data());
        m_cap = m_r.text.size();
        std::copy_n(reinterpret_cast<const char16_t*>(m_in.utf16()), m_pos, m_data);
    }
    void grow()
    {
        m_r.text.resize(m_cap + m_cap / 2 + 64);
        m_data = reinterpret_cast<char16_t*>(m_r.text.data());
        m_cap = m_r.text.size();
    }
    NormalizedText& m_r;
    QStringView m_in;
    qsizetype m_expected = 0;
    bool m_same = true;
    char16_t* m_data = nullptr;
    qsizetype m_cap = 0;
    qsizetype m_pos = 0;
};

inline char16_t foldChar(char16_t c, const NormalizeOptions& o)
{
    if (o.foldKana && c >= 0x30A1 && c <= 0x30F6)
        return char16_t(c - 0x60);
    if (o.foldCase) {
        if (c >= u'A' && c <= u'Z')
            return char16_t(c + 32);
        if (c >= 0xC0 && !QChar::isSurrogate(c))
            return QChar::toLower(c);
    }
    return c;
}

// Finds `close` after `from` on the same line and within `limit` characters.
qsizetype findOnLine(QStringView s, qsizetype from, char16_t close, qsizetype limit)
{
    const qsizetype end = std::min(s.size(), from + limit);
    for (qsizetype j = from; j < end; ++j) {
        const char16_t c = s[j].unicode();
        if (c == close)
            return j;
        if (c == u'\n' || c == u'\r')
            return -1;
    }
    return -1;
}

void normalizeInto(QStringView in, const NormalizeOptions& o, NormalizedText& r,
                   const QString* owner)
{
    Writer w(r, in, in.size());
    r.map.add(0, 0);
    const qsizetype n = in.size();
    const char16_t* s = reinterpret_cast<const char16_t*>(in.utf16());
    qsizetype lineStartOut = 0;
    qsizetype rubyMark = -1;
    qsizetype i = 0;
    while (i < n) {
        const char16_t c = s[i];
        if (c < 0x80) {
            if (c == u'\r') {
                // \r\n stays as it is: dropping the \r would make the search copy of a CRLF
                // file a second copy of the text with an offset-map breakpoint per line
                // (about 2.5 times the file's size), where an unchanged copy is shared. A lone
                // \r still ends a line, as Document counts lines: it becomes \n.
                if (i + 1 < n && s[i + 1] == u'\n') {
                    w.put(u'\r', i);
                    ++i;
                    continue;
                }
                w.put(u'\n', i);
                ++i;
                lineStartOut = w.pos();
                rubyMark = -1;
                continue;
            }
            w.put(foldChar(c, o), i);
            ++i;
            if (c == u'\n') {
                lineStartOut = w.pos();
                rubyMark = -1;
            }
            continue;
        }
        if (o.aozora) {
            if (c == 0xFF5C && findOnLine(in, i + 1, 0x300A, 60) >= 0) { // ｜ before a 《
                rubyMark = w.pos();
                ++i;
                continue;
            }
            if (c == 0x300A) { // 《reading》
                const qsizetype close = findOnLine(in, i + 1, 0x300B, 200);
                if (close > i + 1) {
                    qsizetype baseStart = rubyMark;
                    if (baseStart < 0 && w.pos() > lineStartOut) {
                        const Script script = scriptOf(w.at(w.pos() - 1));
                        baseStart = w.pos() - 1;
                        while (baseStart > lineStartOut && scriptOf(w.at(baseStart - 1)) == script)
                            --baseStart;
                    }
                    if (baseStart >= 0 && baseStart < w.pos()) {
                        NormalizeOptions ro = o;
                        ro.aozora = false;
                        r.ruby.push_back({baseStart, w.pos(),
                                          normalizeQuery(in.sliced(i + 1, close - i - 1), ro)});
                    }
                    rubyMark = -1;
                    i = close + 1;
                    continue;
                }
            }
            if (c == 0xFF3B && i + 1 < n && s[i + 1] == 0xFF03) { // ［＃note］
                const qsizetype close = findOnLine(in, i + 2, 0xFF3D, 400);
                if (close > 0) {
                    i = close + 1;
                    continue;
                }
            }
        }
        const bool nextMark = i + 1 < n && isMarkAt(in, i + 1);
        if (!nextMark && nfkcInvariant(c)) {
            w.put(foldChar(c, o), i);
            ++i;
            continue;
        }
        if (!nextMark && c >= 0xFF01 && c <= 0xFF5E) { // full-width ASCII
            w.put(foldChar(char16_t(c - 0xFEE0), o), i);
            ++i;
            continue;
        }
        // A cluster: the character (or surrogate pair) and the marks that follow it.
        qsizetype j = i + 1;
        if (QChar::isHighSurrogate(c) && j < n && QChar::isLowSurrogate(s[j]))
            ++j;
        while (j < n && isMarkAt(in, j))
            j += QChar::isHighSurrogate(s[j]) ? 2 : 1;
        const QString norm =
            in.sliced(i, j - i).toString().normalized(QString::NormalizationForm_KC);
        for (QChar q : norm)
            w.put(foldChar(q.unicode(), o), i);
        i = j;
    }
    w.finish(owner);
}

} // namespace

NormalizedText normalizeText(QStringView original, const NormalizeOptions& options)
{
    NormalizedText r;
    normalizeInto(original, options, r, nullptr);
    return r;
}

NormalizedText normalizeText(const QString& original, const NormalizeOptions& options)
{
    NormalizedText r;
    normalizeInto(original, options, r, &original);
    return r;
}

QString normalizeQuery(QStringView query, const NormalizeOptions& options)
{
    NormalizeOptions o = options;
    o.aozora = false;
    NormalizedText r;
    normalizeInto(query, o, r, nullptr);
    return r.text;
}

QString foldKatakana(QStringView text)
{
    QString out = text.toString();
    for (QChar& c : out) {
        if (c.unicode() >= 0x30A1 && c.unicode() <= 0x30F6)
            c = QChar(char16_t(c.unicode() - 0x60));
    }
    return out;
}

QString toKatakana(QStringView text)
{
    QString out = text.toString();
    for (QChar& c : out) {
        if (c.unicode() >= 0x3041 && c.unicode() <= 0x3096)
            c = QChar(char16_t(c.unicode() + 0x60));
    }
    return out;
}

} // namespace hako::docs
