#pragma once

#include <QList>
#include <QString>

#include <algorithm>
#include <vector>

namespace hako::docs {

/// One line of Aozora Bunko text as it is read: the `｜` markers, `《reading》` annotations and
/// `［＃…］` notes removed from the text, each reading attached to its base, and a map from
/// positions in the original line to positions in the displayed text (so a search hit found
/// in the original is highlighted in the right place).
struct RubyLine {
    struct Ruby {
        qsizetype start = 0;  ///< first character of the base in `text`
        qsizetype length = 0; ///< characters of the base
        QString reading;
    };
    QString text;
    QList<Ruby> ruby;
    /// For each original position 0..line.size(): its position in `text` (markup maps to the
    /// position where it was removed).
    std::vector<qsizetype> toDisplay;

    qsizetype displayPos(qsizetype original) const
    {
        if (toDisplay.empty())
            return original;
        return toDisplay[size_t(
            std::clamp<qsizetype>(original, 0, qsizetype(toDisplay.size()) - 1))];
    }
};

/// Lays out one line (without its terminator) as described above. A `《` without its `》` on
/// the line, or with no base before it, stays as text. Pure; safe on any thread; linear time.
RubyLine layoutRubyLine(QStringView line);

} // namespace hako::docs
