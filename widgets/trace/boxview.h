#pragma once

#include "core/pdl/trace/boxlayout.h"
#include "core/util/diagnostic.h"
#include "core/util/latestjob.h"

#include <QAbstractScrollArea>
#include <QPointer>
#include <QTimer>

#include <memory>
#include <vector>

namespace hako {

class WorkbenchContext;
namespace pdl {
class TraceModel;
struct TraceItem;
} // namespace pdl

/// The trace as nested boxes (issue 5 §4): one rounded box per block, coloured by kind with a
/// legend, loop iterations as boxes with long loops collapsed behind an expander, model output
/// set apart from literal text, non-contributing blocks dimmed.
///
/// Follows `context->traceModel()`; relayouts run on a worker thread (latest wins) and are
/// coalesced to one per 50 ms while a run streams. Clicking a box selects that node in the
/// context and asks the editor to reveal its source; the context's current node and source
/// cursor are shown (selected box, highlighted boxes). Ctrl+wheel / Ctrl+= / Ctrl+- zoom,
/// Ctrl+0 fits, dragging or scrolling pans, double click toggles structure/output, arrows move
/// between boxes, Enter reveals the source. GUI thread only; the context must outlive the view.
class BoxView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit BoxView(WorkbenchContext* context, QWidget* parent = nullptr);
    ~BoxView() override;

    /// The boxes shown now (null before the first layout); shared with painting.
    std::shared_ptr<const pdl::BoxLayout> boxLayout() const { return m_layout; }
    /// True while a relayout is scheduled or running.
    bool isLayoutPending() const;
    /// The selected node (follows the context's current node), or null.
    const pdl::TraceItem* currentItem() const { return m_current; }
    /// The nodes lit by the editor cursor (every execution of the block under it).
    const std::vector<const pdl::TraceItem*>& highlightedItems() const { return m_highlighted; }
    /// Where `item`'s box is in viewport coordinates (empty when it has no box).
    QRect viewportRectOf(const pdl::TraceItem* item) const;
    /// The node whose box is at `pos` (viewport coordinates), or null.
    const pdl::TraceItem* itemAt(const QPoint& pos) const;

    double zoom() const { return m_zoom; }
    /// Sets the zoom (clamped), keeping the layout point under `anchor` (viewport coordinates;
    /// the centre when null) in place.
    void setZoom(double zoom, QPointF anchor = QPointF(-1, -1));
    void zoomIn();
    void zoomOut();
    /// Zooms so the whole trace fits the viewport (at most 100%).
    void fitToView();

    /// Shows every iteration of the loop `item`, or every child of the long block `item`
    /// (what clicking its expander does).
    void expandBlock(const pdl::TraceItem* item);
    /// Switches a box between structure and rendered output (a leaf: collapsed) — double click.
    void toggleItem(const pdl::TraceItem* item);
    /// Selects `item` and scrolls to it; with `notify`, tells the context (current node and the
    /// block's source span).
    void selectItem(const pdl::TraceItem* item, bool notify);
    /// Shows or hides the legend, a strip below the boxes (never over them); remembered in the
    /// application's settings.
    void setLegendVisible(bool visible);
    bool isLegendVisible() const { return m_legendVisible; }
    /// The legend strip (a child widget below the viewport; hidden with the legend).
    QWidget* legendWidget() const { return m_legendStrip; }

    /// Renders what the viewport would show at the current zoom and scroll into `painter`
    /// (target rectangle in device pixels), the legend strip below the boxes included:
    /// screenshots and benchmarks.
    void render(QPainter& painter, const QRect& target) const;

Q_SIGNALS:
    /// A new layout is shown (the trace changed, a loop expanded, a box toggled, a resize).
    void layoutUpdated();
    /// Re-run from Here was chosen on the box of the block `nodeId` (its `pdl__id`).
    void rerunRequested(const QString& nodeId);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void setModel(pdl::TraceModel* model);
    void modelAboutToReset();
    void rowsAboutToGo(const QModelIndex& parent, int first, int last);
    /// Draws the child of the collapsed `block` that `item` lies in (picked in the tree).
    void reveal(const pdl::TraceItem* item, const pdl::TraceItem* block);
    /// What clicking an expander does: a loop's iterations all, a long block's next children.
    void openExpander(int box);
    int firstHiddenChild(int expander) const;
    /// Draws kMoreChildren more children of the long `block` from its child `from` on.
    void showMoreChildren(const pdl::TraceItem* block, int from);
    /// Children drawn more per click on a long block's expander.
    static constexpr int kMoreChildren = 1000;
    void scheduleRelayout(int delayMs = 50);
    void startRelayout();
    void applyLayout(std::shared_ptr<const pdl::BoxLayout> layout);
    void describeLayout();
    void updateParams();
    void updateScrollBars();
    void updateHighlightFlags();
    void scrollToBox(int box);
    void revealCurrentSource();
    void onCurrentNodeChanged(const QString& id, QObject* origin);
    void onSourceCursorChanged(const SourceSpan& position, QObject* origin);
    int boxIndexAt(const QPoint& pos) const;
    QPointF toLayout(QPointF viewportPos) const;
    QPointF scrollOffset() const;
    void moveSelection(int key);
    void renderBoxes(QPainter& painter, const QRect& target) const;
    void updateLegendStrip();

    QPointer<WorkbenchContext> m_context;
    QPointer<pdl::TraceModel> m_model;
    std::vector<QMetaObject::Connection> m_modelConnections;

    pdl::BoxLayoutParams m_params;
    std::shared_ptr<const pdl::BoxLayout> m_layout;
    std::vector<pdl::BlockKind> m_kinds; ///< kinds present, for the legend
    QTimer m_relayoutTimer;
    bool m_inFlight = false;
    bool m_dirty = false;
    LatestJob m_latest;

    double m_zoom = 1;
    double m_margin = 12;
    bool m_legendVisible = true;
    QWidget* m_legendStrip = nullptr;
    bool m_fitPending = false;

    const pdl::TraceItem* m_current = nullptr;
    int m_currentBox = -1;
    const pdl::TraceItem* m_scrollTarget = nullptr; ///< to scroll to once laid out
    std::vector<const pdl::TraceItem*> m_highlighted;
    std::vector<char> m_highlightFlags; ///< per box of m_layout
    int m_hoveredBox = -1;

    QPoint m_pressPos;
    QPoint m_lastDragPos;
    bool m_pressed = false;
    bool m_panning = false;
};

} // namespace hako
