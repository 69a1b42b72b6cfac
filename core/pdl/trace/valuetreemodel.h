#pragma once

#include "core/pdl/value.h"

#include <QAbstractItemModel>
#include <QString>

#include <memory>
#include <utility>
#include <vector>

namespace hako::pdl {

/// A PDL value (or a list of named values, such as the variables in scope) as an expandable
/// tree: Name, Type, Value preview. Dicts and lists expand into their entries; children are
/// created when a row is expanded and fetched in batches (canFetchMore/fetchMore), so a list of
/// a million items or a 10 MB string costs nothing until looked at. Previews are bounded.
/// Values are immutable snapshots. GUI thread only.
class ValueTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, ValueColumn, ColumnCount };
    enum Role {
        /// The full text of the value (strings as they are, the rest as JSON) for copy/tooltip
        /// use; bounded to 1 MB.
        FullTextRole = Qt::UserRole + 1,
        /// A dotted path from the top (`answer.items[2].name`).
        PathRole,
    };
    /// Children created per fetch.
    static constexpr int kBatch = 500;

    explicit ValueTreeModel(QObject* parent = nullptr);
    ~ValueTreeModel() override;

    /// Shows the entries of `value` at the top level (dict items, list elements); a scalar is
    /// shown as a single row named `rootName`.
    void setValue(const Value& value, const QString& rootName = QStringLiteral("value"));
    /// Shows named values at the top level (e.g. the variables in scope), in order.
    void setEntries(std::vector<std::pair<QString, Value>> entries);
    void clear();

    /// The value behind an index (null Value for an invalid index).
    Value valueAt(const QModelIndex& index) const;

    /// A one-line preview of `value` of at most about `maxChars` characters: strings quoted to
    /// their first line, containers as `[1, 2, …]` / `{a: 1, …}`. Never walks more than needed.
    static QString preview(const Value& value, int maxChars = 160);
    /// `str`, `int`, `list[3]`, `dict[2]`, … for the Type column.
    static QString typeLabel(const Value& value);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Node {
        QString name;
        Value value;
        Node* parent = nullptr;
        int row = 0;
        std::vector<std::unique_ptr<Node>> children;
    };
    Node* nodeAt(const QModelIndex& index) const;
    static int64_t childCount(const Value& v);
    void appendChildren(Node* node, int count);

    std::unique_ptr<Node> m_top;
    bool m_busy = false; ///< announcing a change: fetchMore waits
};

} // namespace hako::pdl
