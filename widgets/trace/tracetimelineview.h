#pragma once

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;

namespace hako {
class WorkbenchContext;
namespace pdl {
class TraceModel;
}

class TimelineCanvas;

/// Gantt-style timeline of the context's trace from `pdl__timing`: a toolbar (rows in tree
/// order or by depth, zoom in/out, fit, total time) over a TimelineCanvas. Shares the context's
/// selection: clicking a bar sets the current node; the current node set elsewhere is
/// highlighted and scrolled into view. Follows the context's trace model (bars grow while a
/// live run streams). GUI thread.
class TraceTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TraceTimelineView(WorkbenchContext* context, QWidget* parent = nullptr);

    TimelineCanvas* canvas() const { return m_canvas; }
    QComboBox* rowModeBox() const { return m_rowMode; }

private:
    void setModel(pdl::TraceModel* model);
    void followCurrentNode(const QString& id);

    QPointer<WorkbenchContext> m_context;
    QPointer<pdl::TraceModel> m_model;
    TimelineCanvas* m_canvas;
    QComboBox* m_rowMode;
    QLabel* m_extent;
};

} // namespace hako
