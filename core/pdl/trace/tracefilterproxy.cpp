#include "core/pdl/trace/tracefilterproxy.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracesource.h"

namespace hako::pdl {

TraceFilterProxy::TraceFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    // Sorting would scramble execution order, which is what a trace is about.
    setDynamicSortFilter(true);
}

void TraceFilterProxy::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateRowsFilter();
}

void TraceFilterProxy::setKinds(const QSet<QString>& kinds)
{
    if (kinds == m_kinds)
        return;
    m_kinds = kinds;
    invalidateRowsFilter();
}

void TraceFilterProxy::setDef(const QString& def)
{
    if (def == m_def)
        return;
    m_def = def;
    invalidateRowsFilter();
}

void TraceFilterProxy::setFailedOnly(bool failedOnly)
{
    if (failedOnly == m_failedOnly)
        return;
    m_failedOnly = failedOnly;
    invalidateRowsFilter();
}

void TraceFilterProxy::setCriterion(Criterion criterion)
{
    if (!criterion && !m_criterion)
        return;
    m_criterion = std::move(criterion);
    invalidateRowsFilter();
}

void TraceFilterProxy::setMarker(Marker marker)
{
    m_marker = std::move(marker);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, 0), {Qt::DisplayRole});
}

QString TraceFilterProxy::markerOf(const TraceItem* item) const
{
    return m_marker && item ? m_marker(item) : QString();
}

QVariant TraceFilterProxy::data(const QModelIndex& index, int role) const
{
    QVariant v = QSortFilterProxyModel::data(index, role);
    if (role == Qt::DisplayRole && index.column() == TraceModel::NameColumn && m_marker)
        if (const QString mark = markerOf(itemAt(index)); !mark.isEmpty())
            return QString(v.toString() + QStringLiteral("  ") + mark);
    return v;
}

bool TraceFilterProxy::isFiltering() const
{
    return !m_text.isEmpty() || !m_kinds.isEmpty() || !m_def.isEmpty() || m_failedOnly ||
           m_criterion;
}

bool TraceFilterProxy::matches(const TraceItem* item) const
{
    if (!item)
        return false;
    const TraceNode& n = item->node;
    if (!m_kinds.isEmpty() && !m_kinds.contains(QString::fromLatin1(blockKindName(n.kind))))
        return false;
    // Entries of a `defs` carry their name only in the id: defName finds it.
    const QString def = defName(item);
    if (!m_def.isEmpty() && !def.contains(m_def, Qt::CaseInsensitive))
        return false;
    if (m_failedOnly && !item->failed())
        return false;
    if (m_criterion && !m_criterion(item))
        return false;
    if (m_text.isEmpty())
        return true;
    return item->label().contains(m_text, Qt::CaseInsensitive) ||
           def.contains(m_text, Qt::CaseInsensitive) ||
           QString::fromStdString(n.id).contains(m_text, Qt::CaseInsensitive) ||
           QString::fromStdString(n.description).contains(m_text, Qt::CaseInsensitive) ||
           item->resultText().contains(m_text, Qt::CaseInsensitive);
}

const TraceItem* TraceFilterProxy::itemAt(const QModelIndex& proxyIndex) const
{
    const auto* model = qobject_cast<const TraceModel*>(sourceModel());
    if (!model || !proxyIndex.isValid())
        return nullptr;
    return model->itemAt(mapToSource(proxyIndex));
}

bool TraceFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!isFiltering())
        return true;
    const auto* model = qobject_cast<const TraceModel*>(sourceModel());
    if (!model)
        return true;
    return matches(model->itemAt(model->index(sourceRow, 0, sourceParent)));
}

} // namespace hako::pdl
