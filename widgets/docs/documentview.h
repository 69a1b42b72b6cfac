#pragma once

#include "core/docs/rubyline.h"

#include <QAbstractScrollArea>

#include <memory>

namespace hako::docs {
class Document;
class DocumentIndex;
} // namespace hako::docs

namespace hako {

/// A read-only, virtualised viewer of a Document: paints only the visible lines (so 100 MB
/// files scroll as fast as small ones), with line numbers and one highlighted range. In Aozora
/// Bunko texts ruby is shown as small readings above the base text (markup hidden) unless
/// setShowRuby(false) asks for the raw text. Long lines are not wrapped; the horizontal scroll
/// bar reaches them. With an index of sentences or paragraphs (setIndex), a second gutter
/// column gives the numbers of the units starting on each line (the numbers `show` takes) and
/// a tick marks where each starts. GUI thread only.
class DocumentView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit DocumentView(QWidget* parent = nullptr);

    void setDocument(std::shared_ptr<const docs::Document> document);
    const docs::Document* document() const { return m_document.get(); }
    /// The units to number in the gutter (none for line units or a null index). The index must
    /// be of the document shown.
    void setIndex(std::shared_ptr<const docs::DocumentIndex> index);
    /// The gutter's unit column for 1-based `line`: `§12`, `§12–14`, or empty.
    QString unitLabelForLine(qsizetype line) const;

    /// Highlights [start, end) of the document text (over several lines if it spans them) and
    /// scrolls its first line into view.
    void highlight(qsizetype start, qsizetype end);
    /// Scrolls so that 1-based `line` is near the top third.
    void scrollToLine(qsizetype line);
    qsizetype firstVisibleLine() const;
    qsizetype highlightedLine() const { return m_highlightLine; }
    /// The last line the highlighted range reaches (== highlightedLine() for one line).
    qsizetype highlightedLastLine() const { return m_highlightLastLine; }
    /// Where the highlighted range is painted on its first line, in viewport coordinates
    /// (empty when none).
    QRect highlightRect() const { return highlightRect(m_highlightLine); }
    /// The same on 1-based `line` (empty when the range does not reach it).
    QRect highlightRect(qsizetype line) const;

    /// Readings above their bases (the default) or the text as in the file.
    void setShowRuby(bool show);
    bool showRuby() const { return m_showRuby; }
    /// True when readings are painted: the setting is on and the document is Aozora text.
    bool rubyShown() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // A line as painted: display text, its readings, original→display positions.
    struct PaintedLine {
        QString text;
        QList<docs::RubyLine::Ruby> ruby;
        std::vector<qsizetype> toDisplay;
        qsizetype displayPos(qsizetype original) const
        {
            if (toDisplay.empty())
                return std::clamp<qsizetype>(original, 0, text.size());
            return toDisplay[size_t(
                std::clamp<qsizetype>(original, 0, qsizetype(toDisplay.size()) - 1))];
        }
    };
    PaintedLine paintedLine(qsizetype line) const;
    QFont rubyFont() const;
    int rubyHeight() const;
    void updateScrollBars();
    int lineHeight() const;
    int gutterWidth() const;
    int unitGutterWidth() const;

    std::shared_ptr<const docs::Document> m_document;
    std::shared_ptr<const docs::DocumentIndex> m_index;
    qsizetype m_highlightStart = -1;
    qsizetype m_highlightEnd = -1;
    qsizetype m_highlightLine = 0;
    qsizetype m_highlightLastLine = 0;
    bool m_showRuby = true;
};

} // namespace hako
