#pragma once

#include "core/pdl/trace/flamegraph.h"
#include "core/pdl/trace/runshape.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <string>
#include <unordered_map>
#include <vector>

namespace hako {

class WorkbenchContext;
namespace pdl {
class TraceModel;
}

/// What the Graph and Flame panes share: the shape of the trace the WorkbenchContext shows
/// (flattened again when the trace changes, coalesced while a run streams), and the link to
/// the context's current node. `origin` is the pane: its own selections do not come back to it.
/// While the pane is hidden nothing is rebuilt (a closed Graph costs a long run nothing); the
/// pane calls refresh() when it shows. GUI thread; the context must outlive it.
class ShapeSource : public QObject {
    Q_OBJECT
public:
    ShapeSource(WorkbenchContext* context, QObject* origin);

    const pdl::RunShape& shape() const { return m_shape; }
    const pdl::RunTotals& totals() const { return m_totals; }
    bool isEmpty() const { return m_shape.spans.empty(); }
    /// The span of the context's current node, or -1.
    int currentSpan() const { return m_current; }
    /// The span of an id (`pdl__id`), or -1.
    int spanOf(const std::string& id) const;

    /// Rebuilds now when the trace changed while the pane was hidden.
    void refresh();

    /// Selects `span` in every pane (the context's current node).
    void select(int span);
    /// Shows `span`'s source in the editor (what activating a node or bar does).
    void activate(int span);

    /// "3.20 s · 1,234 tokens · cost 0.0123 · 4 model calls · 2 tool calls · 1 failed".
    static QString totalsText(const pdl::RunTotals& totals);
    /// A span's measures for tooltips: duration, tokens, cost, as far as known.
    static QString measuresText(const pdl::TraceMeasures& m);
    /// The role as users read it: "Agent", "Tool", "Model call", "Step".
    static QString roleName(pdl::ShapeRole role);
    /// What the panes say with no trace.
    static QString emptyText();

Q_SIGNALS:
    /// The shape was rebuilt (a new trace, a run going on).
    void shapeChanged();
    /// The context's current node changed (from another pane, or from this one).
    void currentChanged(int span);

private:
    void setModel(pdl::TraceModel* model);
    void rebuild();
    void showNode(const QString& id);

    QPointer<WorkbenchContext> m_context;
    QObject* m_origin;
    QPointer<pdl::TraceModel> m_model;
    std::vector<QMetaObject::Connection> m_modelConnections;
    QTimer m_rebuild;
    pdl::RunShape m_shape;
    pdl::RunTotals m_totals;
    std::unordered_map<std::string, int> m_byId;
    int m_current = -1;
    bool m_stale = false;
};

} // namespace hako
