#include "core/pdl/trace/valuetreemodel.h"

#include "core/pdl/imagecontent.h"

namespace hako::pdl {

namespace {

void appendPreview(const Value& v, QString& out, int budget)
{
    if (out.size() >= budget)
        return;
    if (v.isString()) {
        const std::string& s = v.asString();
        // An image (or any base64 data) reads as a short placeholder, never as base64 text.
        if (holdsDataUrl(v)) {
            appendPreview(withDataUrlPlaceholders(v), out, budget);
            return;
        }
        // Only the start is needed; decode a bounded prefix.
        const size_t take = std::min<size_t>(s.size(), size_t(budget) * 4);
        QString text = QString::fromUtf8(s.data(), qsizetype(take));
        const qsizetype nl = text.indexOf(QLatin1Char('\n'));
        bool cut = take < s.size();
        if (nl >= 0) {
            text.truncate(nl);
            cut = true;
        }
        const int room = std::max(8, budget - int(out.size()) - 2);
        if (text.size() > room) {
            text.truncate(room);
            cut = true;
        }
        out += QLatin1Char('"') + text + (cut ? QStringLiteral("…\"") : QStringLiteral("\""));
        return;
    }
    if (v.isList()) {
        out += v.isTuple() ? QLatin1Char('(') : QLatin1Char('[');
        const List& l = v.asList();
        for (size_t i = 0; i < l.size(); ++i) {
            if (i)
                out += QStringLiteral(", ");
            if (out.size() >= budget) {
                out += QStringLiteral("…");
                break;
            }
            appendPreview(l[i], out, budget);
        }
        out += v.isTuple() ? QLatin1Char(')') : QLatin1Char(']');
        return;
    }
    if (v.isDict()) {
        out += QLatin1Char('{');
        const auto& items = v.asDict().items();
        for (size_t i = 0; i < items.size(); ++i) {
            if (i)
                out += QStringLiteral(", ");
            if (out.size() >= budget) {
                out += QStringLiteral("…");
                break;
            }
            out += QString::fromStdString(items[i].first.str());
            out += QStringLiteral(": ");
            appendPreview(items[i].second, out, budget);
        }
        out += QLatin1Char('}');
        return;
    }
    if (v.isCallable()) {
        out += QString::fromStdString(v.repr());
        return;
    }
    out += QString::fromStdString(v.json());
}

QString fullText(const Value& v)
{
    constexpr size_t limit = 1 << 20;
    if (holdsDataUrl(v))
        return fullText(withDataUrlPlaceholders(v));
    std::string s = v.isString() ? v.asString() : v.isCallable() ? v.repr() : v.json();
    if (s.size() > limit) {
        s.resize(limit);
        return QString::fromUtf8(s) + QStringLiteral("…");
    }
    return QString::fromStdString(s);
}

} // namespace

ValueTreeModel::ValueTreeModel(QObject* parent)
    : QAbstractItemModel(parent), m_top(std::make_unique<Node>())
{}

ValueTreeModel::~ValueTreeModel() = default;

QString ValueTreeModel::preview(const Value& value, int maxChars)
{
    QString out;
    appendPreview(value, out, maxChars);
    if (out.size() > maxChars + 8)
        out = out.left(maxChars) + QStringLiteral("…");
    return out;
}

QString ValueTreeModel::typeLabel(const Value& value)
{
    const QString name = QString::fromLatin1(value.typeName());
    if (value.isList() || value.isDict())
        return QStringLiteral("%1[%2]").arg(name).arg(childCount(value));
    if (value.isString() && value.asString().size() > 1000)
        return QStringLiteral("str (%1 KB)").arg(value.asString().size() / 1024);
    return name;
}

int64_t ValueTreeModel::childCount(const Value& v)
{
    if (v.isList())
        return int64_t(v.asList().size());
    if (v.isDict())
        return int64_t(v.asDict().items().size());
    return 0;
}

void ValueTreeModel::clear()
{
    beginResetModel();
    m_top = std::make_unique<Node>();
    m_busy = true;
    endResetModel();
    m_busy = false;
}

void ValueTreeModel::setValue(const Value& value, const QString& rootName)
{
    beginResetModel();
    m_top = std::make_unique<Node>();
    if (value.isList() || value.isDict()) {
        m_top->value = value;
        appendChildren(m_top.get(), kBatch);
    } else {
        auto n = std::make_unique<Node>();
        n->name = rootName;
        n->value = value;
        n->parent = m_top.get();
        m_top->children.push_back(std::move(n));
    }
    m_busy = true;
    endResetModel();
    m_busy = false;
}

void ValueTreeModel::setEntries(std::vector<std::pair<QString, Value>> entries)
{
    beginResetModel();
    m_top = std::make_unique<Node>();
    for (auto& [name, value] : entries) {
        auto n = std::make_unique<Node>();
        n->name = name;
        n->value = std::move(value);
        n->parent = m_top.get();
        n->row = int(m_top->children.size());
        m_top->children.push_back(std::move(n));
    }
    m_busy = true;
    endResetModel();
    m_busy = false;
}

void ValueTreeModel::appendChildren(Node* node, int count)
{
    const Value& v = node->value;
    const int64_t total = childCount(v);
    const int64_t from = int64_t(node->children.size());
    const int64_t to = std::min(total, from + count);
    node->children.reserve(size_t(to));
    for (int64_t i = from; i < to; ++i) {
        auto c = std::make_unique<Node>();
        c->parent = node;
        c->row = int(i);
        if (v.isList()) {
            c->name = QStringLiteral("[%1]").arg(i);
            c->value = v.asList()[size_t(i)];
        } else {
            const auto& item = v.asDict().items()[size_t(i)];
            c->name = QString::fromStdString(item.first.str());
            c->value = item.second;
        }
        node->children.push_back(std::move(c));
    }
}

ValueTreeModel::Node* ValueTreeModel::nodeAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return m_top.get();
    return static_cast<Node*>(index.internalPointer());
}

Value ValueTreeModel::valueAt(const QModelIndex& index) const
{
    if (!index.isValid())
        return {};
    return nodeAt(index)->value;
}

QModelIndex ValueTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (parent.isValid() && parent.column() != 0)
        return {};
    Node* p = nodeAt(parent);
    if (row >= int(p->children.size()))
        return {};
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex ValueTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    Node* n = nodeAt(child);
    Node* p = n->parent;
    if (!p || p == m_top.get())
        return {};
    return createIndex(p->row, 0, p);
}

int ValueTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeAt(parent)->children.size());
}

int ValueTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

bool ValueTreeModel::hasChildren(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return false;
    if (!parent.isValid())
        return !m_top->children.empty();
    return childCount(nodeAt(parent)->value) > 0;
}

bool ValueTreeModel::canFetchMore(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return false;
    const Node* n = nodeAt(parent);
    if (!parent.isValid() && n->value.isNull())
        return false; // setEntries: the top level is complete
    return int64_t(n->children.size()) < childCount(n->value);
}

void ValueTreeModel::fetchMore(const QModelIndex& parent)
{
    // Views (and QAbstractItemModelTester) may ask for more while a reset or an insertion is
    // still being announced; inserting then would nest two changes. They ask again later.
    if (m_busy || !canFetchMore(parent))
        return;
    Node* n = nodeAt(parent);
    const int first = int(n->children.size());
    const int last = int(std::min<int64_t>(childCount(n->value), first + kBatch)) - 1;
    m_busy = true;
    beginInsertRows(parent, first, last);
    appendChildren(n, kBatch);
    endInsertRows();
    m_busy = false;
}

QVariant ValueTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Node* n = nodeAt(index);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return n->name;
        case TypeColumn:
            return typeLabel(n->value);
        case ValueColumn:
            return preview(n->value);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == ValueColumn)
            return preview(n->value, 2000);
        return {};
    case FullTextRole:
        return fullText(n->value);
    case PathRole: {
        std::vector<const Node*> chain;
        for (const Node* p = n; p && p != m_top.get(); p = p->parent)
            chain.push_back(p);
        QString path;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            if (!path.isEmpty() && !(*it)->name.startsWith(QLatin1Char('[')))
                path += QLatin1Char('.');
            path += (*it)->name;
        }
        return path;
    }
    default:
        return {};
    }
}

QVariant ValueTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case TypeColumn:
        return tr("Type");
    case ValueColumn:
        return tr("Value");
    }
    return {};
}

} // namespace hako::pdl
