#pragma once

#include "core/pdl/analysis/outline.h"

#include <QAbstractItemModel>

#include <vector>

namespace hako::pdl {

/// A tree model over a program outline (buildOutline): one column, the item's label as display
/// text, its kind and summary with the line as tooltip. setOutline() replaces the snapshot with
/// one reset. GUI thread only (the outline itself may be built anywhere).
class OutlineModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Roles {
        KindRole = Qt::UserRole + 1, ///< QString: the block kind's PDL name
        LineRole,                    ///< int: the 1-based first line of the block
        ColumnRole,                  ///< int: the code-point column where it starts
        NameRole,                    ///< QString: the def name or defs key (may be empty)
        DetailRole,                  ///< QString: kind and summary
    };

    explicit OutlineModel(QObject* parent = nullptr);

    void setOutline(std::vector<OutlineItem> items);
    void clear() { setOutline({}); }
    const std::vector<OutlineItem>& outline() const { return m_items; }

    /// The item of `index`, or null for an invalid index.
    const OutlineItem* item(const QModelIndex& index) const;
    /// The deepest item whose span holds (line, column), or an invalid index.
    QModelIndex indexAt(int line, int column) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    struct Node {
        const OutlineItem* item;
        int parent; ///< node index, -1 for top-level items
        int row;
        std::vector<int> children;
    };
    void addNodes(const std::vector<OutlineItem>& items, int parent);
    const std::vector<int>& childrenOf(const QModelIndex& parent) const;

    std::vector<OutlineItem> m_items;
    std::vector<Node> m_nodes;
    std::vector<int> m_top;
};

} // namespace hako::pdl
