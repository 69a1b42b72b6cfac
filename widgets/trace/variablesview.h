#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace hako {
class WorkbenchContext;
namespace pdl {
class TraceModel;
class ValueTreeModel;
struct TraceItem;
} // namespace pdl

namespace trace {

/// The variables in scope at the context's current trace node: the scope the run captured
/// there, or — for traces without one (files) — the scope rebuilt from the trace (earlier
/// `def`s, loop variables). Name, type and a value preview; lists and dicts expand. Follows the
/// context's current node and trace model. GUI thread.
class VariablesView : public QWidget {
    Q_OBJECT
public:
    explicit VariablesView(WorkbenchContext* context, QWidget* parent = nullptr);

    QTreeView* treeView() const { return m_tree; }
    pdl::ValueTreeModel* variablesModel() const { return m_values; }
    /// The node shown (empty: none).
    QString nodeId() const { return m_id; }
    /// Whether the shown scope was rebuilt from the trace rather than captured by the run.
    bool isReconstructed() const { return m_reconstructed; }
    /// Shows the scope at node `id` of the context's trace (what currentNodeChanged does).
    void showNode(const QString& id);

private:
    void setModel(pdl::TraceModel* model);
    void refresh();

    QPointer<WorkbenchContext> m_context;
    QPointer<pdl::TraceModel> m_model;
    pdl::ValueTreeModel* m_values;
    QSortFilterProxyModel* m_filter;
    QLabel* m_header;
    QLineEdit* m_search;
    QTreeView* m_tree;
    QString m_id;
    bool m_reconstructed = false;
};

} // namespace trace
} // namespace hako
