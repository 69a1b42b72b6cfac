#include "widgets/docs/documentview.h"

#include "core/docs/document.h"

#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>

namespace hako {

namespace {
// Lines longer than this are painted only up to it: a 28,000-character line would otherwise
// cost a full text layout on every repaint.
constexpr qsizetype kMaxPaintedChars = 4000;
} // namespace

DocumentView::DocumentView(QWidget* parent) : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
}

void DocumentView::setDocument(std::shared_ptr<const docs::Document> document)
{
    m_document = std::move(document);
    m_highlightStart = m_highlightEnd = -1;
    m_highlightLine = 0;
    updateScrollBars();
    verticalScrollBar()->setValue(0);
    horizontalScrollBar()->setValue(0);
    viewport()->update();
}

int DocumentView::lineHeight() const
{
    return fontMetrics().height() + 2;
}

int DocumentView::gutterWidth() const
{
    const qsizetype lines = m_document ? m_document->lineCount() : 1;
    return fontMetrics().horizontalAdvance(QString::number(std::max<qsizetype>(lines, 100))) + 12;
}

void DocumentView::updateScrollBars()
{
    const qsizetype lines = m_document ? m_document->lineCount() : 0;
    const int visible = std::max(1, viewport()->height() / lineHeight());
    verticalScrollBar()->setRange(0, int(std::max<qsizetype>(0, lines - visible)));
    verticalScrollBar()->setPageStep(visible);
    // Horizontal extent: a generous estimate instead of measuring every line.
    horizontalScrollBar()->setRange(0, fontMetrics().horizontalAdvance(QChar(0x3042)) * 400);
    horizontalScrollBar()->setPageStep(viewport()->width());
}

void DocumentView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

qsizetype DocumentView::firstVisibleLine() const
{
    return verticalScrollBar()->value() + 1;
}

void DocumentView::scrollToLine(qsizetype line)
{
    const int visible = std::max(1, viewport()->height() / lineHeight());
    verticalScrollBar()->setValue(int(std::max<qsizetype>(0, line - 1 - visible / 3)));
    viewport()->update();
}

void DocumentView::highlight(qsizetype start, qsizetype end)
{
    if (!m_document)
        return;
    m_highlightStart = start;
    m_highlightEnd = end;
    m_highlightLine = m_document->lineAt(start);
    scrollToLine(m_highlightLine);
    // Bring the match into horizontal view too.
    const docs::LineSpan span = m_document->lineSpan(m_highlightLine);
    const QString before =
        m_document->text().mid(span.start, std::min(start - span.start, kMaxPaintedChars));
    const int x = fontMetrics().horizontalAdvance(before);
    if (x < horizontalScrollBar()->value() ||
        x > horizontalScrollBar()->value() + viewport()->width() - gutterWidth() - 40)
        horizontalScrollBar()->setValue(std::max(0, x - viewport()->width() / 3));
    viewport()->update();
}

void DocumentView::paintEvent(QPaintEvent* event)
{
    QPainter p(viewport());
    const QRect exposed = event->rect();
    if (!m_document)
        return;
    const int lh = lineHeight();
    const int gutter = gutterWidth();
    const int ascent = fontMetrics().ascent() + 1;
    const qsizetype first = verticalScrollBar()->value() + 1 + exposed.top() / lh;
    const qsizetype last = std::min<qsizetype>(
        m_document->lineCount(), verticalScrollBar()->value() + 1 + exposed.bottom() / lh);
    const int xOffset = horizontalScrollBar()->value();
    const QPalette pal = palette();
    p.fillRect(QRect(0, exposed.top(), gutter - 4, exposed.height()),
               pal.color(QPalette::AlternateBase));
    for (qsizetype line = first; line <= last; ++line) {
        const int y = int(line - 1 - verticalScrollBar()->value()) * lh;
        const docs::LineSpan span = m_document->lineSpan(line);
        const QString text =
            m_document->text().mid(span.start, std::min(span.length, kMaxPaintedChars));
        p.save();
        p.setClipRect(QRect(gutter, y, viewport()->width() - gutter, lh));
        if (line == m_highlightLine && m_highlightStart >= span.start) {
            const qsizetype s = m_highlightStart - span.start;
            const qsizetype e = std::min(m_highlightEnd - span.start, qsizetype(text.size()));
            if (s < text.size()) {
                const int hx = fontMetrics().horizontalAdvance(text.left(s));
                const int hw = std::max(2, fontMetrics().horizontalAdvance(text.mid(s, e - s)));
                p.fillRect(QRect(gutter + 4 + hx - xOffset, y, hw, lh), QColor(255, 214, 102));
            }
        }
        p.setPen(pal.color(QPalette::Text));
        p.drawText(gutter + 4 - xOffset, y + ascent, text);
        p.restore();
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(0, y, gutter - 8, lh), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(line));
    }
}

} // namespace hako
