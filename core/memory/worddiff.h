#pragma once

#include <QString>

#include <vector>

namespace hako::memory {

/// One run of a word-level diff.
struct DiffSegment {
    enum class Op { Same, Removed, Added };
    Op op;
    QString text; ///< the words with the whitespace that followed them
};

/// Word-level diff of two texts (longest common subsequence over words; whitespace stays with
/// the word before it). Adjacent segments of the same kind are merged. Pure.
std::vector<DiffSegment> wordDiff(const QString& before, const QString& after);

/// The diff as HTML: removed words struck through on red, added on green.
QString diffToHtml(const std::vector<DiffSegment>& diff);

} // namespace hako::memory
