#pragma once

#include <QAbstractScrollArea>
#include <QPointer>

#include <span>
#include <vector>

class QTimer;

namespace hako::pdl {
class TraceModel;
struct TraceItem;
} // namespace hako::pdl

namespace hako {

/// The drawing surface of the TraceTimelineView: one bar per timed block (`pdl__timing`) on a time
/// axis, rows in tree order (one block per row, a flame chart read top-down) or by depth
/// (nesting levels). Paints only the rows and bars that intersect the viewport (binary search
/// per row, bars thinner than a pixel merged), so 100,000 blocks scroll smoothly. Ctrl+wheel or
/// +/- zoom around the pointer, drag or Shift+wheel pans, 0 fits. GUI thread.
class TimelineCanvas : public QAbstractScrollArea {
    Q_OBJECT
public:
    enum class RowMode { TreeOrder, Depth };

    explicit TimelineCanvas(QWidget* parent = nullptr);

    void setModel(pdl::TraceModel* model);
    void setRowMode(RowMode mode);
    RowMode rowMode() const { return m_mode; }

    void setSelectedItem(const pdl::TraceItem* item, bool scrollTo = true);
    const pdl::TraceItem* selectedItem() const { return m_selected; }

    void zoomBy(double factor, int anchorX = -1);
    void fit();
    /// Nanoseconds per pixel now.
    double scale() const { return m_nsPerPx; }
    /// Number of timed blocks drawn (after a pending rebuild).
    int barCount();
    /// The bar of `item` in viewport coordinates (may lie outside the viewport; null if none).
    QRect barRect(const pdl::TraceItem* item);
    /// The block whose bar is at viewport point `pos`, or null.
    const pdl::TraceItem* itemAt(const QPoint& pos);
    /// Bars drawn by the last paint (how much a frame costs).
    int lastPaintedBars() const { return m_lastPainted; }
    /// Rebuilds the bars from the model now (normally coalesced after model changes).
    void rebuild();

    static constexpr int kRowHeight = 20;
    static constexpr int kAxisHeight = 22;

Q_SIGNALS:
    void itemClicked(const hako::pdl::TraceItem* item);
    void extentChanged(qint64 durationNanos, int bars);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    class Axis;
    struct Bar {
        const pdl::TraceItem* item;
        qint64 start;
        qint64 end;
        int row;
    };
    void scheduleRebuild();
    void ensureBuilt();
    void updateScrollBars();
    qint64 barEnd(const Bar& bar) const;
    double xOf(qint64 nanos) const;
    const Bar* barOf(const pdl::TraceItem* item);
    void paintAxis(QPainter& p, const QRect& area);

    Axis* m_axis;
    QPointer<pdl::TraceModel> m_model;
    RowMode m_mode = RowMode::TreeOrder;
    std::vector<Bar> m_bars; ///< tree order
    /// The rows laid end to end (a million rows in tree order are not a million vectors): row
    /// r's bars are m_rowBars[m_rowStart[r] .. m_rowStart[r + 1]), indexes into m_bars sorted
    /// by start, and m_rowMaxEnd beside them the running maximum of their ends (what the binary
    /// search over a row uses).
    std::vector<int> m_rowStart;
    std::vector<int> m_rowBars;
    std::vector<qint64> m_rowMaxEnd;
    int rowCount() const { return m_rowStart.empty() ? 0 : int(m_rowStart.size()) - 1; }
    std::span<const int> rowBars(int row) const
    {
        return {m_rowBars.data() + m_rowStart[size_t(row)],
                size_t(m_rowStart[size_t(row) + 1] - m_rowStart[size_t(row)])};
    }
    std::span<const qint64> rowMaxEnd(int row) const
    {
        return {m_rowMaxEnd.data() + m_rowStart[size_t(row)],
                size_t(m_rowStart[size_t(row) + 1] - m_rowStart[size_t(row)])};
    }
    void clearRows();
    qint64 m_t0 = 0;
    qint64 m_t1 = 0;
    double m_nsPerPx = 1e6;
    bool m_fitted = false;
    bool m_dirty = true;
    bool m_anyRunning = false;
    const pdl::TraceItem* m_selected = nullptr;
    QTimer* m_rebuildTimer;
    QTimer* m_liveTimer;
    QPoint m_pressPos;
    int m_pressH = 0;
    int m_pressV = 0;
    bool m_dragging = false;
    int m_lastPainted = 0;
};

} // namespace hako
