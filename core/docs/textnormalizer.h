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
/// `\r` dropped (so `\r\n` becomes `\n`), Aozora markup handled as `options` say, optional kana
/// and case folding. Pure function; safe on any thread. Linear time, fast path for text NFKC
/// leaves unchanged (kana, kanji, ASCII).
NormalizedText normalizeText(QStringView original, const NormalizeOptions& options);

/// The same normalisation for a query (no markup interpretation, no offset map).
QString normalizeQuery(QStringView query, const NormalizeOptions& options);

/// Katakana (ァ–ヶ) to hiragana; other characters unchanged.
QString foldKatakana(QStringView text);
/// Hiragana (ぁ–ゖ) to katakana; other characters unchanged.
QString toKatakana(QStringView text);

} // namespace hako::docs
