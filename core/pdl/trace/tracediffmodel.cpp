#include "core/pdl/trace/tracediffmodel.h"

namespace hako::pdl {

namespace {

QString firstLine(const QString& text)
{
    const qsizetype nl = text.indexOf(QLatin1Char('\n'));
    QString line = nl < 0 ? text : text.left(nl) + QStringLiteral(" …");
    if (line.size() > 200)
        line = line.left(200) + QStringLiteral("…");
    return line;
}

} // namespace

TraceDiffModel::TraceDiffModel(QObject* parent) : QAbstractItemModel(parent) {}

TraceDiffModel::~TraceDiffModel() = default;

void TraceDiffModel::setDiff(std::shared_ptr<const TraceDiff> diff, const QString& leftName,
                             const QString& rightName)
{
    beginResetModel();
    m_diff = std::move(diff);
    if (m_diff && m_diff->isEmpty())
        m_diff.reset();
    m_leftName = leftName;
    m_rightName = rightName;
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

QModelIndex TraceDiffModel::indexOfDiffRow(int diffRow, int column) const
{
    if (!m_diff || diffRow < 0 || diffRow >= m_diff->size())
        return {};
    return createIndex(m_diff->node(diffRow).row, column, quintptr(diffRow));
}

int TraceDiffModel::diffRow(const QModelIndex& index) const
{
    if (!m_diff || !index.isValid() || index.model() != this)
        return -1;
    return int(index.internalId());
}

QModelIndex TraceDiffModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_diff || row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row == 0 ? createIndex(0, column, quintptr(0)) : QModelIndex();
    if (parent.column() != 0)
        return {};
    const TraceDiff::Node& p = m_diff->node(int(parent.internalId()));
    if (row >= int(p.children.size()))
        return {};
    return createIndex(row, column, quintptr(p.children[size_t(row)]));
}

QModelIndex TraceDiffModel::parent(const QModelIndex& child) const
{
    if (!m_diff || !child.isValid())
        return {};
    const int p = m_diff->node(int(child.internalId())).parent;
    return p < 0 ? QModelIndex() : indexOfDiffRow(p);
}

int TraceDiffModel::rowCount(const QModelIndex& parent) const
{
    if (!m_diff)
        return 0;
    if (!parent.isValid())
        return 1;
    if (parent.column() != 0)
        return 0;
    return int(m_diff->node(int(parent.internalId())).children.size());
}

int TraceDiffModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant TraceDiffModel::data(const QModelIndex& index, int role) const
{
    if (!m_diff || !index.isValid())
        return {};
    const int row = int(index.internalId());
    const TraceDiff::Node& n = m_diff->node(row);
    switch (role) {
    case StatusRole:
        return int(n.status);
    case ChangesRole:
        return uint(n.changes);
    case DiffersRole:
        return n.differs();
    case DiffRowRole:
        return row;
    case PathRole:
        return n.path;
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
    case Qt::AccessibleTextRole:
        break;
    default:
        return {};
    }
    auto name = [&](const TraceNode* t) -> QVariant {
        if (!t)
            return QString();
        return traceNodeLabel(*t);
    };
    auto result = [&](const TraceNode* t) -> QVariant {
        if (!t)
            return QString();
        const QString text = traceNodeText(*t);
        return role == Qt::DisplayRole ? firstLine(text) : text.left(2000);
    };
    auto duration = [&](const TraceMeasures& m) -> QVariant {
        return m.durationNanos >= 0 ? formatDurationNanos(m.durationNanos) : QString();
    };
    switch (index.column()) {
    case LeftNameColumn:
        if (role == Qt::ToolTipRole && n.left)
            return QString::fromStdString(n.left->id);
        return name(n.left);
    case LeftResultColumn:
        return result(n.left);
    case LeftDurationColumn:
        return n.left ? duration(n.leftOwn) : QString();
    case StatusColumn: {
        switch (n.status) {
        case TraceDiff::Status::Same:
            return n.descendantsDiffer ? tr("same (differs below)") : tr("same");
        case TraceDiff::Status::Changed:
            return tr("changed: %1")
                .arg(TraceDiff::changeNames(n.changes).join(QLatin1String(", ")));
        case TraceDiff::Status::Inserted:
            return tr("inserted");
        case TraceDiff::Status::Deleted:
            return tr("deleted");
        }
        return {};
    }
    case RightNameColumn:
        if (role == Qt::ToolTipRole && n.right)
            return QString::fromStdString(n.right->id);
        return name(n.right);
    case RightResultColumn:
        return result(n.right);
    case RightDurationColumn:
        return n.right ? duration(n.rightOwn) : QString();
    case TokensDeltaColumn: {
        if (!n.leftSubtree.hasTokens && !n.rightSubtree.hasTokens)
            return QString();
        const qint64 d = n.rightSubtree.tokens() - n.leftSubtree.tokens();
        return d > 0 ? QStringLiteral("+%1").arg(d) : QString::number(d);
    }
    case DurationDeltaColumn:
        if (n.leftOwn.durationNanos < 0 || n.rightOwn.durationNanos < 0)
            return QString();
        return formatDurationNanos(n.rightOwn.durationNanos - n.leftOwn.durationNanos, true);
    }
    return {};
}

QVariant TraceDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const QString left = m_leftName.isEmpty() ? tr("Left") : m_leftName;
    const QString right = m_rightName.isEmpty() ? tr("Right") : m_rightName;
    switch (section) {
    case LeftNameColumn:
        return left;
    case LeftResultColumn:
    case RightResultColumn:
        return tr("Result");
    case LeftDurationColumn:
    case RightDurationColumn:
        return tr("Duration");
    case StatusColumn:
        return tr("Status");
    case RightNameColumn:
        return right;
    case TokensDeltaColumn:
        return tr("Δ Tokens");
    case DurationDeltaColumn:
        return tr("Δ Duration");
    }
    return {};
}

} // namespace hako::pdl
