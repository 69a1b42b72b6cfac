#pragma once

#include <QPointer>
#include <QString>
#include <QWidget>

namespace hako {

class WorkbenchContext;
namespace pdl {
class TraceModel;
}

/// Base of the trace panes that show one node (NodeDetailView, VariablesView): follows the
/// context's trace model and current node, and calls refresh() when the node to show changes,
/// when the model resets and when the shown node changes in the model (a live block finishing).
/// Without a context it shows nodes of no model until showNode is called. GUI thread.
class SingleNodePane : public QWidget {
    Q_OBJECT
public:
    /// Shows node `id` of the context's trace (what currentNodeChanged does).
    void showNode(const QString& id);
    /// The node shown (empty: none).
    QString nodeId() const { return m_id; }

protected:
    SingleNodePane(WorkbenchContext* context, QWidget* parent);
    /// Starts following the context (or shows "no trace" without one). Subclasses call it last
    /// in their constructor, once refresh() can run.
    void followContext();
    /// Shows the node `m_id` of `m_model` (either may be empty or null).
    virtual void refresh() = 0;
    void changeEvent(QEvent* event) override;

    QPointer<WorkbenchContext> m_context;
    QPointer<pdl::TraceModel> m_model;
    QString m_id;

private:
    void setModel(pdl::TraceModel* model);

    bool m_dark = false;
};

} // namespace hako
