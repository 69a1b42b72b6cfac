#pragma once

#include <QJsonValue>
#include <QString>
#include <QStringView>

namespace hako::eval {

/// Levenshtein distance between `a` and `b` counted in Unicode code points (a surrogate pair
/// is one character), insertions, deletions and substitutions costing 1. Exact, bit-parallel:
/// O(|a|·|b|/64) time, O(|a| + |b|) memory (two texts of 100,000 characters: well under a
/// second). Thread-safe.
int levenshtein(QStringView a, QStringView b);
/// The most characters (code points) of each text that the `levenshtein` and
/// `json_edit_distance` evaluators compare, so that one huge output cannot hold an experiment
/// for minutes: longer texts are compared on their first kMaxEditDistanceChars characters, and
/// the score's reasoning says so.
inline constexpr int kMaxEditDistanceChars = 100000;
/// 1 − levenshtein / max(length in code points); 1 for two empty strings.
double levenshteinSimilarity(QStringView a, QStringView b);

/// A JSON value in canonical form: keys sorted by code point, no whitespace, non-ASCII kept,
/// strings escaped as Python's `json.dumps(x, sort_keys=True, separators=(",", ":"),
/// ensure_ascii=False)` does, integral numbers without a fraction.
QString canonicalJson(const QJsonValue& value);
/// JSON edit distance: the Levenshtein distance between the canonical forms of `a` and `b`
/// (so key order and whitespace are ignored), normalised by the longer form: 0 equal, 1 all
/// different. Forms longer than kMaxEditDistanceChars are compared on their first
/// kMaxEditDistanceChars characters; `*truncated` (when given) says whether one was.
double jsonEditDistance(const QJsonValue& a, const QJsonValue& b, bool* truncated = nullptr);
/// The first `n` code points of `text` (a surrogate pair is never cut); `*cut` is set to true
/// when the text was longer (and left alone otherwise).
QStringView firstCodePoints(QStringView text, qsizetype n, bool* cut);

/// Number of Unicode code points.
int codePointCount(QStringView text);
/// Display width: East Asian Wide and Fullwidth characters (CJK ideographs, kana, Hangul,
/// fullwidth forms) count 2, combining marks 0, the rest 1.
int eastAsianWidth(QStringView text);
/// An approximate token count (no model's tokenizer): every CJK/kana/Hangul character is one
/// token, every run of ASCII letters and digits is ceil(length / 4) tokens, every other
/// non-space character one token. Within ~20% of cl100k on English and Japanese prose.
int approximateTokens(QStringView text);

} // namespace hako::eval
