#pragma once

#include "widgets/editor/qsci.h"

namespace hako {

/// How findNext()/replaceAll() interpret the search text.
struct FindOptions {
    bool matchCase = false;
    bool wholeWord = false;
    bool regex = false; ///< ECMAScript-style regular expression; replacements may use \1…\9
};

/// The PDL source editor: QScintilla set up for YAML (2-space soft tabs, UTF-8, line numbers,
/// folding, brace matching) plus search, replace and comment toggling. GUI thread only.
class PdlEditor : public QsciScintilla {
    Q_OBJECT
public:
    explicit PdlEditor(QWidget* parent = nullptr);

    /// Selects the next match after the selection (or the previous one before it when
    /// `backwards`), wrapping around the document. Returns false when there is no match.
    bool findNext(const QString& text, const FindOptions& options, bool backwards = false);
    /// Replaces the selection if it is a match of `text`, then selects the next match.
    /// Returns true if a replacement was made.
    bool replaceCurrent(const QString& text, const QString& replacement,
                        const FindOptions& options);
    /// Replaces every match in the document as one undo step; returns the number replaced.
    int replaceAll(const QString& text, const QString& replacement, const FindOptions& options);

    /// Comments out the selected lines (or the current line) with `# `, or uncomments them when
    /// they are all comments already. One undo step.
    void toggleComment();

    /// The cursor position as 1-based line and column counted in Unicode code points.
    QPair<int, int> cursorLineColumn() const;

    /// Replaces the whole text as a fresh document: no undo history, not modified, and new lines
    /// typed afterwards use the text's own line ending.
    void setDocumentText(const QString& text);

Q_SIGNALS:
    /// Emitted when the cursor moves; line and column are 1-based code-point positions.
    void cursorLineColumnChanged(int line, int column);

private:
    /// Searches [from, to) (backwards when from > to); returns the match start or -1 and
    /// leaves the target set to the match.
    long searchRange(const QByteArray& needle, int flags, long from, long to);
    int searchFlags(const FindOptions& options) const;
    bool selectionMatches(const QByteArray& needle, int flags);
    void updateMarginWidth();
};

} // namespace hako
