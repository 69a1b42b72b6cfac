#include "core/pdl/analysis/outlinemodel.h"

namespace hako::pdl {

OutlineModel::OutlineModel(QObject* parent) : QAbstractItemModel(parent) {}

void OutlineModel::setOutline(std::vector<OutlineItem> items)
{
    beginResetModel();
    m_items = std::move(items);
    m_nodes.clear();
    m_top.clear();
    addNodes(m_items, -1);
    endResetModel();
}

void OutlineModel::addNodes(const std::vector<OutlineItem>& items, int parent)
{
    for (size_t i = 0; i < items.size(); ++i) {
        const int id = int(m_nodes.size());
        m_nodes.push_back({&items[i], parent, int(i), {}});
        if (parent < 0)
            m_top.push_back(id);
        else
            m_nodes[size_t(parent)].children.push_back(id);
        addNodes(items[i].children, id);
    }
}

const std::vector<int>& OutlineModel::childrenOf(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return m_top;
    return m_nodes[size_t(parent.internalId())].children;
}

const OutlineItem* OutlineModel::item(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this || index.internalId() >= m_nodes.size())
        return nullptr;
    return m_nodes[size_t(index.internalId())].item;
}

QModelIndex OutlineModel::indexAt(int line, int column) const
{
    QModelIndex found;
    for (int row : outlinePathAt(m_items, line, column))
        found = index(row, 0, found);
    return found;
}

QModelIndex OutlineModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column != 0 || row < 0)
        return {};
    const std::vector<int>& children = childrenOf(parent);
    if (size_t(row) >= children.size())
        return {};
    return createIndex(row, 0, quintptr(children[size_t(row)]));
}

QModelIndex OutlineModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const int p = m_nodes[size_t(child.internalId())].parent;
    if (p < 0)
        return {};
    return createIndex(m_nodes[size_t(p)].row, 0, quintptr(p));
}

int OutlineModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(childrenOf(parent).size());
}

int OutlineModel::columnCount(const QModelIndex&) const
{
    return 1;
}

QVariant OutlineModel::data(const QModelIndex& index, int role) const
{
    const OutlineItem* it = item(index);
    if (!it)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return it->label;
    case Qt::ToolTipRole:
        return tr("%1 (line %2)").arg(it->detail).arg(it->span.line);
    case Qt::AccessibleTextRole:
        return it->label == it->detail
                   ? tr("%1, line %2").arg(it->label).arg(it->span.line)
                   : tr("%1, %2, line %3").arg(it->label, it->detail).arg(it->span.line);
    case KindRole:
        return QString::fromLatin1(blockKindName(it->kind));
    case LineRole:
        return it->span.line;
    case ColumnRole:
        return it->span.column;
    case NameRole:
        return it->name;
    case DetailRole:
        return it->detail;
    default:
        return {};
    }
}

QHash<int, QByteArray> OutlineModel::roleNames() const
{
    QHash<int, QByteArray> roles = QAbstractItemModel::roleNames();
    roles.insert(KindRole, "kind");
    roles.insert(LineRole, "line");
    roles.insert(ColumnRole, "column");
    roles.insert(NameRole, "name");
    roles.insert(DetailRole, "detail");
    return roles;
}

} // namespace hako::pdl
