#pragma once

#include <QAbstractScrollArea>

#include <memory>

namespace hako::docs {
class Document;
}

namespace hako {

/// A read-only, virtualised viewer of a Document: paints only the visible lines (so 100 MB
/// files scroll as fast as small ones), with line numbers and one highlighted range. Long lines
/// are not wrapped; the horizontal scroll bar reaches them. GUI thread only.
class DocumentView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit DocumentView(QWidget* parent = nullptr);

    void setDocument(std::shared_ptr<const docs::Document> document);
    const docs::Document* document() const { return m_document.get(); }

    /// Highlights [start, end) of the document text and scrolls its line into view.
    void highlight(qsizetype start, qsizetype end);
    /// Scrolls so that 1-based `line` is near the top third.
    void scrollToLine(qsizetype line);
    qsizetype firstVisibleLine() const;
    qsizetype highlightedLine() const { return m_highlightLine; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateScrollBars();
    int lineHeight() const;
    int gutterWidth() const;

    std::shared_ptr<const docs::Document> m_document;
    qsizetype m_highlightStart = -1;
    qsizetype m_highlightEnd = -1;
    qsizetype m_highlightLine = 0;
};

} // namespace hako
