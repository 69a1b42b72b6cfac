#pragma once

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <functional>

class QComboBox;
class QLineEdit;
class QTimer;
class QTreeView;
class QModelIndex;

class QLabel;

namespace hako {
class WorkbenchContext;
namespace pdl {
class TraceModel;
class TraceFilterProxy;
struct TraceItem;
} // namespace pdl

/// The trace as a tree (Block, Kind, Result, Duration) over the context's TraceModel through a
/// TraceFilterProxy, with a search field (free text; `kind:model`, `def:answer` and `failed`
/// narrow further) and a kind filter. Selecting a row sets the context's current node; the
/// current node set elsewhere is selected and scrolled to here. Follows the context's trace
/// model as it changes (live runs insert rows as they stream). GUI thread.
class TraceTreeView : public QWidget {
    Q_OBJECT
public:
    explicit TraceTreeView(WorkbenchContext* context, QWidget* parent = nullptr);

    QTreeView* treeView() const { return m_tree; }
    pdl::TraceFilterProxy* filterProxy() const { return m_proxy; }
    QLineEdit* searchField() const { return m_search; }
    QComboBox* kindFilter() const { return m_kinds; }
    /// The line under the tree saying how many blocks the filter matches (hidden when none).
    QLabel* statusLabel() const { return m_status; }

    /// Sets the search text and applies it at once (no typing delay).
    void setFilterText(const QString& text);
    /// Restricts to one block kind (`model`, …); empty shows every kind.
    void setKindFilter(const QString& kind);
    /// The `pdl__id` of the selected row (empty: none).
    QString selectedId() const;
    /// More search words: `handler` takes the words it understands out of the search's words
    /// and returns the test they make (null: none). Applied to the current search at once.
    using WordHandler = std::function<std::function<bool(const pdl::TraceItem*)>(QStringList&)>;
    void setWordHandler(WordHandler handler);
    /// A short mark shown after a row's label (an annotation's 👍); empty: none.
    void setRowMarker(std::function<QString(const pdl::TraceItem*)> marker);
    /// Applies the search again and repaints the rows (what a handler or marker reads changed).
    void refresh();

protected:
    void changeEvent(QEvent* event) override;

private:
    void setModel(pdl::TraceModel* model);
    /// The kind filter's swatches, in the palette's light or dark colours.
    void updateKindIcons();
    void applyFilter();
    void followCurrentNode(const QString& id);
    void onCurrentChanged(const QModelIndex& current);
    void updateStatus();
    void expandHits();
    int matchCount() const;

    QPointer<WorkbenchContext> m_context;
    QPointer<pdl::TraceModel> m_model;
    pdl::TraceFilterProxy* m_proxy;
    QTreeView* m_tree;
    QLineEdit* m_search;
    QComboBox* m_kinds;
    QLabel* m_status;
    QTimer* m_filterTimer;
    QTimer* m_refreshTimer;
    bool m_syncing = false;
    bool m_headerSet = false;
    WordHandler m_wordHandler;
};

} // namespace hako
