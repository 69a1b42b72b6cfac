#pragma once

#include <QString>

namespace hako {

/// How many characters a person counts in `text`: user-perceived characters (grapheme
/// clusters), so that 日本語 is 3, a kana with a combining sound mark is 1, an emoji made of
/// several code points (👩‍💻, 🇯🇵) is 1, and CR LF is 1. Not UTF-16 units or bytes.
qsizetype characterCount(const QString& text);

} // namespace hako
