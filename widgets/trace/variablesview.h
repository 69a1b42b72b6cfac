#pragma once

#include "widgets/trace/singlenodepane.h"

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

/// The variables in scope at the context's current trace node: the scope the run captured
/// there, or — for traces without one (files) — the scope rebuilt from the trace (earlier
/// `def`s, loop variables). Name, type and a value preview; lists and dicts expand. Follows the
/// context's current node and trace model. GUI thread.
class VariablesView : public SingleNodePane {
    Q_OBJECT
public:
    explicit VariablesView(WorkbenchContext* context, QWidget* parent = nullptr);

    QTreeView* treeView() const { return m_tree; }
    pdl::ValueTreeModel* variablesModel() const { return m_values; }
    /// Whether the shown scope was rebuilt from the trace rather than captured by the run.
    bool isReconstructed() const { return m_reconstructed; }

private:
    void refresh() override;

    pdl::ValueTreeModel* m_values;
    QSortFilterProxyModel* m_filter;
    QLabel* m_header;
    QLineEdit* m_search;
    QTreeView* m_tree;
    bool m_reconstructed = false;
};

} // namespace hako
