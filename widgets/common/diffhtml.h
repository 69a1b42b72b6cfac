#pragma once

#include "core/util/worddiff.h"

#include <QString>

#include <vector>

namespace hako {

/// A diff as inline HTML for a rich-text view: deleted text struck through on red, inserted text
/// on green, the rest as it is (escaped; the caller keeps line breaks, e.g. with
/// `white-space: pre-wrap`). Every pane that shows a difference of texts (the playground's
/// replies, the library's versions, an experiment's output against its reference) renders it
/// here, so they look and read alike. Pure; any thread.
QString diffHtml(const std::vector<WordDiffSegment>& diff);
/// diffHtml() of the one word diff from `a` to `b` (wordDiff(): words, katakana runs, and
/// kanji and hiragana a character at a time).
QString diffHtml(const QString& a, const QString& b);

} // namespace hako
