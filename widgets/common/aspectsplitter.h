#pragma once

#include <QSplitter>

namespace hako {

/// A splitter of two parts that lays them side by side when it is much wider than tall and one
/// above the other otherwise: a list and its detail in a pane docked along the bottom of a
/// wide window (short and wide) give the detail the window's width instead of a few lines, and
/// the same pane made tall or floated narrow stacks them again. Each orientation keeps the
/// sizes the user dragged its handle to.
class AspectSplitter : public QSplitter {
    Q_OBJECT
public:
    /// Side by side once the width is at least `ratio` times the height and at least
    /// `minWidth` (below it each part would be too narrow to read: a pane sharing the bottom
    /// of the window with another stays stacked).
    explicit AspectSplitter(QWidget* parent = nullptr, double ratio = 2.5, int minWidth = 960);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    double m_ratio;
    int m_minWidth;
    QList<int> m_sizes[2]; ///< the sizes last shown in each orientation (index: horizontal)
};

} // namespace hako
