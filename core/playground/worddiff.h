#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace hako::playground {

/// One run of a word-level diff.
struct DiffSegment {
    enum class Op { Equal, Insert, Delete };
    Op op = Op::Equal;
    QString text;   ///< the tokens of the run, concatenated
    int tokens = 0; ///< how many tokens (see diffTokens()) the run holds

    bool operator==(const DiffSegment&) const = default;
};

/// The tokens a diff compares: runs of letters and digits (one word), runs of whitespace, each
/// punctuation or symbol character on its own, and each CJK ideograph, kana or hangul syllable
/// on its own (Japanese and Chinese have no spaces, so a character is the unit that makes a
/// diff readable). Concatenated, the tokens give `text` back. Pure.
QStringList diffTokens(const QString& text);

/// Word-level diff from `a` to `b` over diffTokens(): a longest common subsequence of tokens is
/// Equal, the rest of `a` Delete and of `b` Insert. Adjacent runs of one kind are merged, and a
/// Delete comes before the Insert that replaces it. The Equal and Delete runs concatenated give
/// `a`; the Equal and Insert runs give `b`. Pure; quadratic in the tokens between the common
/// head and tail, falling back to one Delete + one Insert of the middle past ~16 M cells.
std::vector<DiffSegment> wordDiff(const QString& a, const QString& b);

} // namespace hako::playground
