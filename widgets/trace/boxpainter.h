#pragma once

#include "core/pdl/trace/boxlayout.h"

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRectF>

#include <vector>

class QPainter;

namespace hako {

/// How the boxes are looked at: zoom, the scroll position (device pixels of the top-left corner
/// of the view within the zoomed layout, margin included) and the box states to show.
struct BoxViewport {
    double zoom = 1;
    QPointF scroll;
    double margin = 12;
    int current = -1;              ///< the selected box
    std::vector<char> highlighted; ///< per box: lit by the editor cursor (may be empty)
    int hovered = -1;
    QString paused; ///< the node id of the block a debugged run is paused at
};

/// Paints a BoxLayout: rounded boxes coloured by kind over a palette-derived background, labels,
/// wrapped text (model output on a tinted band with an accent bar), dimmed non-contributing
/// blocks, running/failed/selected/highlighted states, and a legend. Only boxes intersecting the
/// painted rectangle are visited; boxes under 2 px are skipped and text in boxes narrower than
/// six characters is left out. GUI thread, or any thread painting on a QImage.
class BoxPainter {
public:
    BoxPainter(const QPalette& palette, const QFont& labelFont, const QFont& textFont,
               const pdl::BoxLayoutParams& params);

    /// Paints the boxes of `layout` that fall into `target` (device pixels of the painter).
    void paint(QPainter& painter, const pdl::BoxLayout& layout, const BoxViewport& view,
               const QRectF& target) const;
    /// A legend of `kinds` (and of the text styles) in the bottom-right corner of `area`.
    void paintLegend(QPainter& painter, const QRectF& area,
                     const std::vector<pdl::BlockKind>& kinds) const;
    /// The legend as rows of entries flowing left to right over `area` (a strip beside the
    /// boxes, never over them); legendRowsHeight() is the height it needs for `width`.
    void paintLegendRows(QPainter& painter, const QRectF& area,
                         const std::vector<pdl::BlockKind>& kinds) const;
    double legendRowsHeight(double width, const std::vector<pdl::BlockKind>& kinds) const;

    /// The colour that identifies a block kind in boxes and legend.
    static QColor kindColor(pdl::BlockKind kind, bool dark);
    /// The label row text of a box: iteration number, def/kind, state.
    static QString headerText(const pdl::Box& box, bool paused = false);
    bool isDark() const { return m_dark; }

private:
    void paintBox(QPainter& painter, const pdl::BoxLayout& layout, int index,
                  const BoxViewport& view, const QRectF& target, const QFont& labelFont,
                  const QFont& textFont, double textFontHeight) const;
    void paintFrame(QPainter& painter, const pdl::Box& b, const QRectF& r, int index,
                    const BoxViewport& view) const;
    void paintHeader(QPainter& painter, const pdl::Box& b, const QRectF& header, double pad,
                     const QFont& labelFont, bool paused) const;
    void paintText(QPainter& painter, const pdl::BoxLayout& layout, const pdl::Box& b,
                   const QRectF& textArea, const QRectF& target, double pad, double z,
                   const QFont& textFont, double textFontHeight) const;

    QPalette m_palette;
    QFont m_labelFont;
    QFont m_textFont;
    pdl::BoxLayoutParams m_params;
    bool m_dark = false;
};

} // namespace hako
