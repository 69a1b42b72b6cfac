#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace hako::docs {

/// Maps positions in a normalised text back to the original text. Stored sparsely: one
/// breakpoint wherever the distance between the two changes, so plain text costs nothing.
class OffsetMap {
public:
    /// Records that normalised position `norm` comes from original position `orig`.
    void add(qsizetype norm, qsizetype orig);
    /// The original position of normalised position `norm`.
    qsizetype toOriginal(qsizetype norm) const;
    /// The original range [start, end) that normalised range [normStart, normEnd) came from.
    std::pair<qsizetype, qsizetype> toOriginal(qsizetype normStart, qsizetype normEnd) const;
    /// The first normalised position whose original position is >= `orig`.
    qsizetype toNormalised(qsizetype orig) const;
    size_t breakpointCount() const { return m_norm.size(); }

private:
    std::vector<qsizetype> m_norm;
    std::vector<qsizetype> m_orig;
    qsizetype m_delta = 0;
    bool m_started = false;
};

/// A ruby annotation: the base in normalised coordinates and its reading (normalised).
struct RubySpan {
    qsizetype normStart = 0;
    qsizetype normEnd = 0;
    QString reading;
};

/// Options of the search copy.
struct NormalizeOptions {
    /// Interpret Aozora markup: ruby `《…》` (base marked with `｜` or the preceding run of
    /// kanji) is dropped from the text and recorded as a RubySpan; `［＃…］` notes are dropped.
    bool aozora = false;
    /// Fold katakana to hiragana (カムパネルラ matches かむぱねるら).
    bool foldKana = false;
    /// Fold letters to lower case.
    bool foldCase = false;
};

/// The searchable copy of a text and how to get back to the original.
struct NormalizedText {
    QString text;
    OffsetMap map;
    std::vector<RubySpan> ruby;
};

/// Builds the search copy: NFKC (which also folds full-width ASCII and half-width katakana),
/// line ends kept (`\n` and `\r\n`; a lone `\r` becomes `\n`, so every line ends in `\n`),
/// Aozora markup handled as `options` say, optional kana and case folding. Pure function; safe on
/// any thread. Linear time, fast path for text NFKC leaves unchanged (kana, kanji, ASCII).
NormalizedText normalizeText(QStringView original, const NormalizeOptions& options);
/// The same; when normalising changes nothing (plain text with LF or CRLF line ends) the
/// search copy shares `original`'s storage instead of doubling the memory.
NormalizedText normalizeText(const QString& original, const NormalizeOptions& options);

/// The same normalisation for a query (no markup interpretation, no offset map).
QString normalizeQuery(QStringView query, const NormalizeOptions& options);

/// The writing system of a UTF-16 code unit, as Aozora Bunko ruby uses it: without a `｜`
/// marker, a reading belongs to the run of same-script characters before `《`.
enum class Script { Kanji, Hiragana, Katakana, Alnum, Other };

inline Script scriptOf(char16_t c)
{
    if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
        (c >= 0xF900 && c <= 0xFAFF) || c == 0x3005 || c == 0x3006 || c == 0x3007 || c == 0x30F6 ||
        QChar::isSurrogate(c))
        return Script::Kanji;
    if (c >= 0x3041 && c <= 0x309F)
        return Script::Hiragana;
    if ((c >= 0x30A1 && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF))
        return Script::Katakana;
    if (QChar::isLetterOrNumber(char32_t(c)))
        return Script::Alnum;
    return Script::Other;
}

/// Katakana (ァ–ヶ) to hiragana; other characters unchanged.
QString foldKatakana(QStringView text);
/// Hiragana (ぁ–ゖ) to katakana; other characters unchanged.
QString toKatakana(QStringView text);

} // namespace hako::docs
