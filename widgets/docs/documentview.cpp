#include "widgets/docs/documentview.h"

#include "core/docs/document.h"
#include "core/docs/documentindex.h"
#include "core/docs/rubyline.h"

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
    if (m_index && m_index->documentPtr() != document)
        m_index.reset();
    m_document = std::move(document);
    m_highlightStart = m_highlightEnd = -1;
    m_highlightLine = m_highlightLastLine = 0;
    updateScrollBars();
    verticalScrollBar()->setValue(0);
    horizontalScrollBar()->setValue(0);
    viewport()->update();
}

void DocumentView::setShowRuby(bool show)
{
    if (m_showRuby == show)
        return;
    m_showRuby = show;
    updateScrollBars();
    viewport()->update();
}

bool DocumentView::rubyShown() const
{
    return m_showRuby && m_document && m_document->isAozora();
}

QFont DocumentView::rubyFont() const
{
    QFont f = font();
    f.setPointSizeF(std::max(5.0, f.pointSizeF() * 0.55));
    if (f.pointSizeF() <= 0)
        f.setPixelSize(std::max(6, fontMetrics().height() / 2));
    return f;
}

int DocumentView::rubyHeight() const
{
    return rubyShown() ? QFontMetrics(rubyFont()).height() : 0;
}

int DocumentView::lineHeight() const
{
    return fontMetrics().height() + 2 + rubyHeight();
}

void DocumentView::setIndex(std::shared_ptr<const docs::DocumentIndex> index)
{
    if (index && index->options().units == docs::UnitKind::Lines)
        index.reset();
    m_index = std::move(index);
    viewport()->update();
}

QString DocumentView::unitLabelForLine(qsizetype line) const
{
    if (!m_index)
        return {};
    const auto [first, last] = m_index->unitsOnLine(line);
    if (first == last)
        return {};
    const qsizetype a = first + 1;
    const qsizetype b = last;
    return a == b ? QStringLiteral("§%1").arg(a) : QStringLiteral("§%1–%2").arg(a).arg(b);
}

int DocumentView::unitGutterWidth() const
{
    if (!m_index)
        return 0;
    const QString widest =
        QStringLiteral("§%1–%1").arg(std::max<qsizetype>(m_index->unitCount(), 10));
    return fontMetrics().horizontalAdvance(widest) + 8;
}

int DocumentView::gutterWidth() const
{
    const qsizetype lines = m_document ? m_document->lineCount() : 1;
    return fontMetrics().horizontalAdvance(QString::number(std::max<qsizetype>(lines, 100))) + 12 +
           unitGutterWidth();
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

DocumentView::PaintedLine DocumentView::paintedLine(qsizetype line) const
{
    PaintedLine out;
    const docs::LineSpan span = m_document->lineSpan(line);
    const QStringView original =
        QStringView(m_document->text()).sliced(span.start, std::min(span.length, kMaxPaintedChars));
    // Only the body: the Aozora header explains the notation with examples (《》：ルビ,
    // ［＃］：入力者注…) that must be read as written.
    if (rubyShown() && line >= m_document->bodyFirstLine() && line <= m_document->bodyLastLine()) {
        docs::RubyLine laid = docs::layoutRubyLine(original);
        out.text = std::move(laid.text);
        out.ruby = std::move(laid.ruby);
        out.toDisplay = std::move(laid.toDisplay);
    } else {
        out.text = original.toString();
    }
    return out;
}

void DocumentView::highlight(qsizetype start, qsizetype end)
{
    if (!m_document)
        return;
    m_highlightStart = start;
    m_highlightEnd = end;
    m_highlightLine = m_document->lineAt(start);
    m_highlightLastLine = std::max(m_highlightLine, m_document->lineAt(std::max(start, end - 1)));
    scrollToLine(m_highlightLine);
    // Bring the match into horizontal view too.
    const docs::LineSpan span = m_document->lineSpan(m_highlightLine);
    const PaintedLine painted = paintedLine(m_highlightLine);
    const qsizetype s = painted.displayPos(start - span.start);
    const int x = fontMetrics().horizontalAdvance(painted.text.left(s));
    if (x < horizontalScrollBar()->value() ||
        x > horizontalScrollBar()->value() + viewport()->width() - gutterWidth() - 40)
        horizontalScrollBar()->setValue(std::max(0, x - viewport()->width() / 3));
    viewport()->update();
}

QRect DocumentView::highlightRect(qsizetype line) const
{
    if (!m_document || m_highlightLine <= 0 || line < m_highlightLine || line > m_highlightLastLine)
        return {};
    const qsizetype first = verticalScrollBar()->value() + 1;
    const int y = int(line - first) * lineHeight();
    const docs::LineSpan span = m_document->lineSpan(line);
    const PaintedLine painted = paintedLine(line);
    const qsizetype s = painted.displayPos(std::max<qsizetype>(m_highlightStart - span.start, 0));
    const qsizetype e =
        std::max(s, painted.displayPos(std::min(m_highlightEnd - span.start, span.length)));
    const int hx = fontMetrics().horizontalAdvance(painted.text.left(s));
    const int hw = std::max(2, fontMetrics().horizontalAdvance(painted.text.mid(s, e - s)));
    return QRect(gutterWidth() + 4 + hx - horizontalScrollBar()->value(), y + rubyHeight(), hw,
                 lineHeight() - rubyHeight());
}

void DocumentView::paintEvent(QPaintEvent* event)
{
    QPainter p(viewport());
    const QRect exposed = event->rect();
    if (!m_document)
        return;
    const int lh = lineHeight();
    const int rh = rubyHeight();
    const int gutter = gutterWidth();
    const int ascent = fontMetrics().ascent() + 1 + rh;
    const qsizetype first = verticalScrollBar()->value() + 1 + exposed.top() / lh;
    const qsizetype last = std::min<qsizetype>(
        m_document->lineCount(), verticalScrollBar()->value() + 1 + exposed.bottom() / lh);
    const int xOffset = horizontalScrollBar()->value();
    const QPalette pal = palette();
    const QFont small = rubyFont();
    const QFontMetrics smallMetrics(small);
    p.fillRect(QRect(0, exposed.top(), gutter - 4, exposed.height()),
               pal.color(QPalette::AlternateBase));
    for (qsizetype line = first; line <= last; ++line) {
        const int y = int(line - 1 - verticalScrollBar()->value()) * lh;
        const PaintedLine painted = paintedLine(line);
        p.save();
        p.setClipRect(QRect(gutter, y, viewport()->width() - gutter, lh));
        if (line >= m_highlightLine && line <= m_highlightLastLine)
            p.fillRect(highlightRect(line), QColor(255, 214, 102));
        p.setPen(pal.color(QPalette::Text));
        const int x0 = gutter + 4 - xOffset;
        p.drawText(x0, y + ascent, painted.text);
        if (!painted.ruby.isEmpty()) {
            // Readings in a small font, centred over their bases.
            p.setFont(small);
            p.setPen(pal.color(QPalette::PlaceholderText).darker(130));
            for (const docs::RubyLine::Ruby& r : painted.ruby) {
                const int bx = fontMetrics().horizontalAdvance(painted.text.left(r.start));
                const int bw = fontMetrics().horizontalAdvance(painted.text.mid(r.start, r.length));
                const int rw = smallMetrics.horizontalAdvance(r.reading);
                p.drawText(x0 + bx + (bw - rw) / 2, y + 1 + smallMetrics.ascent(), r.reading);
            }
            p.setFont(font());
        }
        p.restore();
        p.setPen(pal.color(QPalette::PlaceholderText));
        const int unitColumn = unitGutterWidth();
        p.drawText(QRect(0, y + rh, gutter - 8 - unitColumn, lh - rh),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
        if (unitColumn > 0) {
            const QString units = unitLabelForLine(line);
            if (!units.isEmpty()) {
                p.drawText(QRect(gutter - 4 - unitColumn, y + rh, unitColumn - 4, lh - rh),
                           Qt::AlignLeft | Qt::AlignVCenter, units);
                // A tick where each unit after the first of the line starts.
                const docs::LineSpan span = m_document->lineSpan(line);
                qsizetype u = m_index->unitForLine(line);
                p.save();
                p.setClipRect(QRect(gutter, y, viewport()->width() - gutter, lh));
                for (++u; u >= 1 && u < m_index->unitCount() && m_index->unit(u).line == line;
                     ++u) {
                    const qsizetype pos =
                        painted.displayPos(m_index->unit(u).origStart - span.start);
                    const int x = gutter + 4 - xOffset +
                                  fontMetrics().horizontalAdvance(painted.text.left(pos));
                    p.drawLine(x - 1, y + rh + 2, x - 1, y + lh - 2);
                }
                p.restore();
            }
        }
    }
}

} // namespace hako
