#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace hako {

/// One run of a word-level diff: tokens (see wordDiffTokens()) that are in both texts, only in
/// the first (Delete) or only in the second (Insert).
struct WordDiffSegment {
    enum class Op { Equal, Delete, Insert };
    Op op = Op::Equal;
    QString text;   ///< the tokens of the run, concatenated
    int tokens = 0; ///< how many tokens the run holds

    bool operator==(const WordDiffSegment&) const = default;
};

/// The tokens every word diff in Hako compares: runs of letters and digits (one word, combining
/// marks and `_` included), runs of whitespace, each punctuation or symbol character alone (an
/// emoji is one, surrogate pairs are never split), runs of katakana (a loanword such as
/// コンピュータ is one unit, as a Latin word is), and each kanji, hiragana or hangul syllable
/// alone (Japanese and Chinese have no spaces, so the character is the unit that makes a changed
/// word show as itself instead of the whole sentence). Concatenated they give `text` back. Pure;
/// any thread.
QStringList wordDiffTokens(const QString& text);

/// Word-level diff from `a` to `b`: a shortest edit script (Myers) over wordDiffTokens(),
/// adjacent runs of one kind merged, and in each change its deletions before its insertions.
/// The Equal and Delete runs concatenated give `a`; the Equal and Insert runs give `b`. Past
/// shortestEdit()'s budget (two long, mostly different texts) the middle between the common
/// head and tail is one Delete and one Insert. Pure; any thread.
std::vector<WordDiffSegment> wordDiff(const QString& a, const QString& b);

/// `diff` with each lone space (up to three whitespace characters, no line break) between two
/// changes made part of both, so that "[-one line-]{+two lines+}" reads as the edit was made
/// rather than "[-one-]{+two+} [-line-]{+lines+}" (what the trace diff shows). Both sides still
/// rebuild from the result. Pure.
std::vector<WordDiffSegment> joinChangesAcrossSpaces(std::vector<WordDiffSegment> diff);

/// The diff inline as `same [-old-]{+new+} same` (what the command line prints). Pure.
QString formatWordDiff(const std::vector<WordDiffSegment>& diff);

} // namespace hako
