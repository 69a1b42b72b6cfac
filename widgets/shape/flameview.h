#pragma once

#include "core/pdl/trace/flamegraph.h"
#include "widgets/shape/shapecanvas.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;

namespace hako {

class ShapeSource;
class WorkbenchContext;

/// The run as a flame (icicle) chart: the root on top, each block below its parent, as wide as
/// its duration, tokens or cost; bars matching the search are lit, the others dimmed. Click
/// selects the block in every pane, double click or Enter shows its source; the context's
/// current node is outlined. Ctrl+wheel or +/- zoom (around the selection), 0 resets, wheel and
/// dragging pan; Left/Right move between siblings, Up to the parent, Down to the first child.
/// GUI thread.
class FlameCanvas : public ShapeCanvas {
    Q_OBJECT
public:
    FlameCanvas(ShapeSource* source, QWidget* parent = nullptr);

    const pdl::FlameLayout& flame() const { return m_flame; }
    pdl::FlameMetric metric() const { return m_metric; }
    void setMetric(pdl::FlameMetric metric);
    /// Marks the bars matching `query`; returns how many match.
    int setSearch(const QString& query);
    const std::vector<char>& marks() const { return m_marks; }
    /// Selects the next matching bar after the current one (wrapping); false when none match.
    bool selectNextMatch();
    /// The selected bar (its span), or -1.
    int currentBar() const { return m_current; }
    void selectBar(int bar);
    double zoom() const { return m_zoom; }
    void setZoom(double zoom, double anchorX = -1);
    /// The bar's rectangle in widget coordinates.
    QRectF barRect(int bar) const;
    int barAt(QPointF pos) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    int itemAt(QPointF pos) const override;
    QRectF itemRect(int item) const override;
    QString itemTooltip(int item) const override;
    void clickItem(int item) override;
    void activateItem(int item) override;
    void panBy(QPoint delta) override;

private:
    void rebuild();
    void followCurrent(int span);
    void moveSelection(int key);
    void ensureVisible(int bar);
    void clampView();
    void updateDescription();
    void paintBar(QPainter& p, int bar, const QRectF& r) const;
    QString tooltipFor(int bar) const;
    QString valueText(double value) const;

    ShapeSource* m_source;
    pdl::FlameMetric m_metric = pdl::FlameMetric::Duration;
    pdl::FlameLayout m_flame;
    QString m_query;
    std::vector<char> m_marks;
    int m_matches = 0;
    int m_current = -1;
    double m_zoom = 1;  ///< horizontal: 1 shows the whole run
    double m_start = 0; ///< the fraction of the run at the left edge
    double m_scrollY = 0;
};

/// The Flame pane: the run's totals, "Size by" (duration, tokens, cost), a search field and
/// the chart (FlameCanvas).
class FlameView : public QWidget {
    Q_OBJECT
public:
    explicit FlameView(WorkbenchContext* context, QWidget* parent = nullptr);
    FlameCanvas* canvas() const { return m_canvas; }
    QLineEdit* searchField() const { return m_search; }
    QComboBox* metricBox() const { return m_metric; }
    QLabel* totalsLabel() const { return m_totals; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void search();

    ShapeSource* m_source;
    FlameCanvas* m_canvas;
    QLabel* m_totals;
    QComboBox* m_metric;
    QLineEdit* m_search;
    QLabel* m_matchLabel;
};

} // namespace hako
